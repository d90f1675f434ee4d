"""Where Stammtisch keeps its files: the user's directories, and the bundle it ships in.

User files (settings, statistics, saves, logs) always go under the user's own
directories, never beside the executable (a frozen build may sit in a read-only
``Program Files`` or inside a signed ``.app``):

=========  ==========================================  =========================================
OS         ``config_dir()``                            ``data_dir()``
=========  ==========================================  =========================================
Windows    ``%APPDATA%\\Stammtisch``                     same
macOS      ``~/Library/Application Support/Stammtisch``  same
Linux/BSD  ``$XDG_CONFIG_HOME/stammtisch``               ``$XDG_DATA_HOME/stammtisch``
           (default ``~/.config/stammtisch``)          (default ``~/.local/share/stammtisch``)
=========  ==========================================  =========================================

``log_dir()`` is ``data_dir()/logs`` and ``saves_dir()`` is ``data_dir()/saves``.

The environment variable ``STAMMTISCH_HOME`` overrides all of them: config and data
are ``$STAMMTISCH_HOME`` itself, logs and saves its ``logs`` and ``saves`` folders
(tests and portable installs use it).

Every directory function creates its directory on demand (pass ``create=False`` to
only compute the path) and raises :class:`OSError` when it cannot (a file in the
folder's place, a read-only parent). :func:`check_folders` tries every folder once at
start-up and says which cannot be used; the game then runs without keeping what
belongs there. Nothing here imports pygame.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from game.fileio import explain

APP_NAME = "Stammtisch"
APP_ID = "stammtisch"
HOME_ENV = "STAMMTISCH_HOME"


def _platform() -> str:
    """``sys.platform``; a function so tests can pretend to be another OS."""
    return sys.platform


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value).expanduser() if value else None


def _ensure(path: Path, create: bool) -> Path:
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


def _windows_base() -> Path:
    base = _env_path("APPDATA")
    if base is None or not base.is_absolute():
        base = Path.home() / "AppData" / "Roaming"
    return base / APP_NAME


def _macos_base() -> Path:
    return Path.home() / "Library" / "Application Support" / APP_NAME


def _xdg(name: str, default: str) -> Path:
    # The XDG spec says relative values are invalid and must be ignored.
    base = _env_path(name)
    if base is None or not base.is_absolute():
        base = Path.home() / default
    return base / APP_ID


def _home_override() -> Path | None:
    home = _env_path(HOME_ENV)
    return home.resolve() if home is not None else None


def _user_dir(xdg_var: str, xdg_default: str, create: bool) -> Path:
    """The per-user folder: ``STAMMTISCH_HOME``, else the system's convention (on
    Linux the XDG variable ``xdg_var``, defaulting to ``~/xdg_default``)."""
    home = _home_override()
    if home is not None:
        return _ensure(home, create)
    plat = _platform()
    if plat.startswith("win") or plat == "cygwin":
        path = _windows_base()
    elif plat == "darwin":
        path = _macos_base()
    else:
        path = _xdg(xdg_var, xdg_default)
    return _ensure(path, create)


def config_dir(create: bool = True) -> Path:
    """Settings (small files the user may want to back up or edit)."""
    return _user_dir("XDG_CONFIG_HOME", ".config", create)


def data_dir(create: bool = True) -> Path:
    """Statistics, records and everything else the game accumulates."""
    return _user_dir("XDG_DATA_HOME", ".local/share", create)


def log_dir(create: bool = True) -> Path:
    """Log files and crash reports."""
    return _ensure(data_dir(create) / "logs", create)


def saves_dir(create: bool = True) -> Path:
    """Saved games."""
    return _ensure(data_dir(create) / "saves", create)


def is_frozen() -> bool:
    """True inside a PyInstaller (or similar) executable."""
    return bool(getattr(sys, "frozen", False))


def bundle_dir() -> Path:
    """The folder that holds the shipped read-only files (``sprites/``, ``sounds/``, ``game/``).

    Frozen: PyInstaller's ``sys._MEIPASS`` (``_internal`` beside the executable of a
    onedir build, ``Contents/Frameworks`` in a macOS ``.app``, the unpack folder of a
    one-file build). From source: the checkout's root, the parent of ``game/``.
    """
    meipass = getattr(sys, "_MEIPASS", None)
    if is_frozen() and meipass:
        return Path(meipass)
    if is_frozen():  # other freezers put data beside the executable
        return Path(sys.executable).resolve().parent
    return Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class FolderProblem:
    """A user folder the game cannot write to: ``keeps`` names what is lost (the
    ``settings``, ``stats``, ``saves`` and ``logs`` kept there), ``reason`` the OS's
    words (translatable, see ``game.fileio.reason``)."""

    path: Path
    keeps: tuple[str, ...]
    reason: str


def _probe(path: Path) -> None:
    """Create ``path`` if needed and write (then delete) a small file in it."""
    path.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=path):
        pass


def check_folders() -> list[FolderProblem]:
    """Every user folder the game cannot use, each with what it would have kept.
    Never raises; creates the folders that are missing."""
    wanted: dict[Path, list[str]] = {}
    for keeps, where in (("settings", lambda: config_dir(create=False)),
                         ("stats", lambda: data_dir(create=False)),
                         ("saves", lambda: saves_dir(create=False)),
                         ("logs", lambda: log_dir(create=False))):
        try:
            wanted.setdefault(where(), []).append(keeps)
        except (OSError, RuntimeError, ValueError):  # no home directory at all
            wanted.setdefault(Path("~"), []).append(keeps)
    out: list[FolderProblem] = []
    for path in sorted(wanted, key=lambda p: len(p.parts)):
        keeps = tuple(wanted[path])
        try:
            _probe(path)
        except (OSError, ValueError) as exc:
            parent = next((i for i, f in enumerate(out) if f.path in path.parents), None)
            if parent is not None:   # inside a folder that failed too: same cause
                f = out[parent]
                out[parent] = FolderProblem(f.path, f.keeps + keeps, f.reason)
                continue
            out.append(FolderProblem(path, keeps, explain(exc) or type(exc).__name__))
    return out


__all__ = [
    "APP_ID",
    "FolderProblem",
    "check_folders",
    "APP_NAME",
    "HOME_ENV",
    "bundle_dir",
    "config_dir",
    "data_dir",
    "is_frozen",
    "log_dir",
    "saves_dir",
]
