"""Standalone executables: user paths, crash reports, and the real PyInstaller build.

The build tests freeze the checkout with ``pyinstaller build.spec`` into a temporary
folder (about 10-60 s) and run the executable headless (``SDL_VIDEODRIVER=dummy``).
They FAIL when PyInstaller is missing: install it with ``pip install -e .[test,build]``.
Set ``STAMMTISCH_SKIP_FROZEN_BUILD=1`` to skip them explicitly (CI does so on the
operating systems where a separate job builds and smoke-tests the executable).
"""

from __future__ import annotations

import importlib.util
import io
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game import crash, paths

ROOT = Path(__file__).resolve().parent.parent
EXE = "stammtisch.exe" if sys.platform.startswith("win") else "stammtisch"


# --------------------------------------------------------------------------- paths


@pytest.fixture
def no_home(monkeypatch, tmp_path):
    """No STAMMTISCH_HOME, a fake home folder, no XDG/APPDATA variables."""
    for name in (paths.HOME_ENV, "XDG_CONFIG_HOME", "XDG_DATA_HOME", "APPDATA"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: home))
    return home


def test_stammtisch_home_overrides_everything(monkeypatch, tmp_path):
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "st"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    for plat in ("linux", "win32", "darwin"):
        monkeypatch.setattr(paths, "_platform", lambda plat=plat: plat)
        assert paths.config_dir() == (tmp_path / "st").resolve()
        assert paths.data_dir() == (tmp_path / "st").resolve()
        assert paths.log_dir() == (tmp_path / "st" / "logs").resolve()
        assert paths.saves_dir() == (tmp_path / "st" / "saves").resolve()
    assert (tmp_path / "st" / "logs").is_dir() and (tmp_path / "st" / "saves").is_dir()
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "appdata").exists()


def test_linux_xdg_defaults(monkeypatch, no_home):
    monkeypatch.setattr(paths, "_platform", lambda: "linux")
    assert paths.config_dir(create=False) == no_home / ".config" / "stammtisch"
    assert paths.data_dir(create=False) == no_home / ".local" / "share" / "stammtisch"
    assert paths.log_dir(create=False) == no_home / ".local/share/stammtisch/logs"
    assert paths.saves_dir(create=False) == no_home / ".local/share/stammtisch/saves"
    assert not no_home.exists(), "create=False must not create anything"


def test_linux_xdg_variables(monkeypatch, no_home, tmp_path):
    monkeypatch.setattr(paths, "_platform", lambda: "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "dat"))
    assert paths.config_dir() == tmp_path / "cfg" / "stammtisch"
    assert paths.data_dir() == tmp_path / "dat" / "stammtisch"
    assert (tmp_path / "cfg" / "stammtisch").is_dir()
    # A relative XDG value is invalid by the spec and ignored.
    monkeypatch.setenv("XDG_DATA_HOME", "relative/dir")
    assert paths.data_dir(create=False) == no_home / ".local" / "share" / "stammtisch"


def test_windows_appdata(monkeypatch, no_home, tmp_path):
    monkeypatch.setattr(paths, "_platform", lambda: "win32")
    appdata = tmp_path / "Roaming"
    monkeypatch.setenv("APPDATA", str(appdata))
    assert paths.config_dir() == appdata / "Stammtisch"
    assert paths.data_dir() == appdata / "Stammtisch"
    assert paths.log_dir() == appdata / "Stammtisch" / "logs"
    assert paths.saves_dir() == appdata / "Stammtisch" / "saves"
    monkeypatch.delenv("APPDATA")
    assert paths.config_dir(create=False) == no_home / "AppData" / "Roaming" / "Stammtisch"


def test_macos_application_support(monkeypatch, no_home):
    monkeypatch.setattr(paths, "_platform", lambda: "darwin")
    support = no_home / "Library" / "Application Support" / "Stammtisch"
    assert paths.config_dir() == support
    assert paths.data_dir() == support
    assert paths.log_dir() == support / "logs"
    assert support.is_dir()


def test_frozen_and_bundle_dir(monkeypatch, tmp_path):
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert not paths.is_frozen()
    assert paths.bundle_dir() == ROOT
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.is_frozen()
    assert paths.bundle_dir() == tmp_path


# --------------------------------------------------------------------------- crash


@pytest.fixture
def crash_env(monkeypatch, tmp_path):
    """STAMMTISCH_HOME in tmp, no dialogs, and everything install() touches restored."""
    monkeypatch.setenv(paths.HOME_ENV, str(tmp_path / "home"))
    monkeypatch.setenv(crash.NO_DIALOG_ENV, "1")
    root = logging.getLogger()
    level = root.level
    for name in ("stdout", "stderr", "stdin", "__stdout__", "__stderr__", "excepthook"):
        monkeypatch.setattr(sys, name, getattr(sys, name))
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    yield tmp_path / "home"
    crash.uninstall()
    root.setLevel(level)


def test_install_replaces_missing_streams(monkeypatch, crash_env):
    for name in ("stdout", "stderr", "__stdout__", "__stderr__"):
        monkeypatch.setattr(sys, name, None)
    log_path = crash.install()
    assert log_path == crash_env.resolve() / "logs" / "stammtisch.log"
    assert isinstance(sys.stdout, crash.LogWriter) and isinstance(sys.stderr, crash.LogWriter)
    assert sys.__stderr__ is sys.stderr
    print("hello from a windowed build")
    print("partial line", end="")
    sys.stdout.flush()
    sys.stderr.write("a warning\n")
    assert not sys.stdout.isatty()
    with pytest.raises(OSError):
        sys.stdout.fileno()
    assert crash.install() == log_path, "a second install() is a no-op"
    text = log_path.read_text(encoding="utf-8")
    assert "[<stdout>] hello from a windowed build" in text
    assert "[<stdout>] partial line" in text
    assert "WARNING" in text and "[<stderr>] a warning" in text


def test_install_keeps_working_streams(crash_env):
    out = sys.stdout
    crash.install()
    assert sys.stdout is out


def test_log_writer_without_logger_drops_text():
    w = crash.LogWriter(None, logging.INFO, "<null>")
    assert w.write("anything\n") == 9
    w.flush()
    with pytest.raises(TypeError):
        w.write(b"bytes")  # type: ignore[arg-type]


def test_log_writer_survives_a_handler_that_writes_back(crash_env):
    """A handler that writes into the very stream it serves gets the line once; what it
    writes back is not logged again (no endless loop, no recursion error)."""

    class Keep(logging.Handler):
        def __init__(self) -> None:
            super().__init__()
            self.messages: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.messages.append(record.getMessage())

    logger = logging.getLogger("stammtisch.test.loop")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    writer = crash.LogWriter(logger, logging.INFO, "<loop>")
    kept = Keep()
    logger.addHandler(logging.StreamHandler(writer))
    logger.addHandler(kept)
    try:
        assert writer.write("no endless loop\n") == len("no endless loop\n")
        assert writer.write("second line\n") == len("second line\n")
    finally:
        logger.handlers.clear()
    assert kept.messages == ["[<loop>] no endless loop", "[<loop>] second line"]


def test_guard_writes_report_and_returns_1(monkeypatch, crash_env):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    crash.install()

    def boom():
        raise ValueError("the deck is on fire")

    assert crash.guard(boom) == crash.EXIT_CRASH
    reports = list((crash_env / "logs").glob("crash-*.log"))
    assert len(reports) == 1
    text = reports[0].read_text(encoding="utf-8")
    assert "ValueError: the deck is on fire" in text and "Traceback" in text
    assert "Stammtisch" in text and "Python" in text
    assert "the deck is on fire" in err.getvalue() and str(reports[0]) in err.getvalue()
    assert "CRITICAL" in (crash_env / "logs" / "stammtisch.log").read_text(encoding="utf-8")


def test_guard_passes_results_and_exit(crash_env):
    assert crash.guard(lambda a, b=0: a + b, 2, b=3) == 5
    with pytest.raises(SystemExit):
        crash.guard(sys.exit, 4)


def test_excepthook_reports_and_dialog_fallback(monkeypatch, crash_env):
    crash.install()
    shown = []
    monkeypatch.setattr(crash, "show_message", lambda t, m: shown.append((t, m)) or False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    try:
        raise KeyError("ace")
    except KeyError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert list((crash_env / "logs").glob("crash-*.log"))
    assert shown and "KeyError" in shown[0][1] and "crash-" in shown[0][1]


def test_no_dialog_headless(monkeypatch):
    monkeypatch.delenv(crash.NO_DIALOG_ENV, raising=False)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert crash.show_message("t", "m") is False


# --------------------------------------------------------------------------- the build


def _frozen_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", STAMMTISCH_NO_CRASH_DIALOG="1",
               STAMMTISCH_HOME=str(home), PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("STAMMTISCH_CRASH_TEST", None)
    return env


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def frozen_app(tmp_path_factory) -> Path:
    """Build dist/stammtisch from this checkout once for the module; return its folder."""
    if os.environ.get("STAMMTISCH_SKIP_FROZEN_BUILD"):
        pytest.skip("STAMMTISCH_SKIP_FROZEN_BUILD is set")
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.fail("PyInstaller is not installed, so the standalone executable cannot be "
                    "built and tested. Install it with: pip install -e .[test,build]",
                    pytrace=False)
    out = tmp_path_factory.mktemp("pyinstaller")
    cmd = [sys.executable, "-m", "PyInstaller", str(ROOT / "build.spec"), "--noconfirm",
           "--log-level", "WARN", "--distpath", str(out / "dist"),
           "--workpath", str(out / "work")]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        pytest.fail(f"pyinstaller build.spec failed ({proc.returncode}):\n"
                    f"{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}", pytrace=False)
    folder = out / "dist" / "stammtisch"
    assert (folder / EXE).is_file(), f"no executable in {folder}: {sorted(_listing(folder))[:20]}"
    return folder


def _run(folder: Path, home: Path, *args: str, timeout: float = 120,
         **extra_env: str) -> subprocess.CompletedProcess:
    env = _frozen_env(home)
    env.update(extra_env)
    return subprocess.run([str(folder / EXE), *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=home.parent)


def test_pyinstaller_is_installed():
    """Stated on its own so a missing PyInstaller is one obvious failure, not a skip."""
    if os.environ.get("STAMMTISCH_SKIP_FROZEN_BUILD"):
        pytest.skip("STAMMTISCH_SKIP_FROZEN_BUILD is set")
    assert importlib.util.find_spec("PyInstaller") is not None, (
        "PyInstaller is missing: pip install -e .[test,build]")


def test_frozen_smoke_test(frozen_app, tmp_path):
    before = _listing(frozen_app)
    home = tmp_path / "home"
    proc = _run(frozen_app, home, "--smoke-test")
    assert proc.returncode == 0, f"--smoke-test exited {proc.returncode}:\n{proc.stderr[-4000:]}"
    assert (home / "logs" / "stammtisch.log").is_file(), "the log goes to the user's folder"
    assert _listing(frozen_app) == before, "nothing may be written beside the executable"


def test_frozen_demo(frozen_app, tmp_path):
    proc = _run(frozen_app, tmp_path / "home", "--demo", "--quit-after", "3", timeout=180)
    assert proc.returncode == 0, f"--demo exited {proc.returncode}:\n{proc.stderr[-4000:]}"
    assert not list((tmp_path / "home" / "logs").glob("crash-*.log"))


def test_frozen_crash_is_reported(frozen_app, tmp_path):
    home = tmp_path / "home"
    proc = _run(frozen_app, home, "--smoke-test", STAMMTISCH_CRASH_TEST="1")
    assert proc.returncode == crash.EXIT_CRASH
    reports = list((home / "logs").glob("crash-*.log"))
    assert len(reports) == 1
    assert "RuntimeError: crash test requested" in reports[0].read_text(encoding="utf-8")
    if not sys.platform.startswith("win"):  # a windowed Windows build has no stderr
        assert "A report was written" in proc.stderr


def test_frozen_bundle_contents(frozen_app):
    internal = frozen_app / "_internal"
    assert internal.is_dir()
    for src in ("sprites", "sounds", "game/data", "game/locale", "game/net/web"):
        base = ROOT / src
        if not base.is_dir():
            continue
        for f in base.rglob("*"):
            if f.is_file() and f.suffix not in (".py", ".pyc") and "__pycache__" not in f.parts \
                    and f.name not in (".gitkeep", ".gitignore", ".DS_Store"):
                rel = f.relative_to(ROOT)
                assert (internal / rel).is_file(), f"{rel} missing from the bundle"
    fonts = internal / "font_lato" / "files"
    assert sorted(p.name for p in fonts.iterdir()) == ["Lato-Bold.ttf", "Lato-Regular.ttf",
                                                       "OFL.txt"], "the two faces and licence"
    for excluded in ("tkinter", "numpy", "unittest", "pydoc_data"):
        assert not (internal / excluded).exists(), f"{excluded} should be excluded"


def test_frozen_host_serves_a_phone_table(frozen_app, tmp_path):
    """``stammtisch host`` in the frozen build: the join links, the page and a card
    image over loopback, and a clean stop with the outcome line."""
    import json
    import signal
    import urllib.request

    home = tmp_path / "home"
    env = _frozen_env(home)
    proc = subprocess.Popen(
        [str(frozen_app / EXE), "host", "--game", "chase", "--seats", "phone,random,random",
         "--bind", "127.0.0.1", "--json"], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=home.parent)
    try:
        first = json.loads(proc.stdout.readline())
        link = first["seats"][0]["link"]
        assert link.startswith("http://127.0.0.1:") and "/p/" in link
        assert first["seats"][1]["link"] is None and len(first["code"]) == 6
        with urllib.request.urlopen(link, timeout=30) as r:
            assert b"/phone.js" in r.read()
        with urllib.request.urlopen(first["url"] + "/phone.js", timeout=30) as r:
            assert b"WebSocket" in r.read()
        with urllib.request.urlopen(first["url"] + "/cards/classic/AS.png", timeout=30) as r:
            assert r.read(8) == b"\x89PNG\r\n\x1a\n"
        if sys.platform.startswith("win"):
            proc.terminate()
            proc.wait(60)
            return
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err[-3000:]
    last = json.loads(out.strip().splitlines()[-1])
    assert last["finished"] is False and last["moves"] == 0
