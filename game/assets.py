"""Where the generated assets (``sprites/``, ``sounds/``) live, from source or frozen.

From a source checkout the assets sit next to the ``game`` package, at the
repository root. In a frozen PyInstaller build they are bundled as data folders
and found under ``sys._MEIPASS`` (onefile and onedir builds both set it; a onedir
build of PyInstaller 6 points it at the ``_internal`` folder). The environment
variable ``STAMMTISCH_ASSETS`` overrides both (handy for tests and packagers).

This module never imports pygame.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: Environment variable naming a folder that holds ``sprites/`` and ``sounds/``.
ENV_VAR = "STAMMTISCH_ASSETS"

_MARKERS = ("sprites", "sounds")


def _has_assets(folder: Path) -> bool:
    return any((folder / marker).is_dir() for marker in _MARKERS)


def _candidates() -> list[Path]:
    found: list[Path] = []
    override = os.environ.get(ENV_VAR)
    if override:
        found.append(Path(override))
    if getattr(sys, "frozen", False):
        meipass = getattr(sys, "_MEIPASS", None)
        if meipass:
            found.append(Path(meipass))
        exe_dir = Path(sys.executable).resolve().parent
        found += [exe_dir, exe_dir / "_internal"]
        if sys.platform == "darwin":  # an .app bundle keeps data in Contents/Resources
            found.append(exe_dir.parent / "Resources")
    found.append(Path(__file__).resolve().parent.parent)
    return found


def asset_root() -> Path:
    """The folder that contains ``sprites/`` and ``sounds/``.

    The first candidate that holds either folder wins; if none does (a broken
    install), the source layout's root is returned so callers get a clear
    "file not found" for the exact path they asked for.
    """
    candidates = _candidates()
    for folder in candidates:
        if _has_assets(folder):
            return folder
    return candidates[-1]


def asset_path(*parts: str | os.PathLike[str]) -> Path:
    """Path of an asset below the asset root, e.g. ``asset_path("sounds", "deal.wav")``."""
    return asset_root().joinpath(*parts)


def sprite_path(*parts: str | os.PathLike[str]) -> Path:
    """Path below ``sprites/``, e.g. ``sprite_path("cards", "classic", "AS.png")``."""
    return asset_path("sprites", *parts)


def sound_path(name: str) -> Path:
    """Path of a sound effect by its file stem, e.g. ``sound_path("deal")``."""
    return asset_path("sounds", f"{name}.wav")
