"""Without a screen the window commands say so and stop (exit status 2) instead of
running invisibly on SDL's off-screen fallback; ``--smoke-test`` passes only where a
window really opened. A driver chosen with ``SDL_VIDEODRIVER`` (the tests' ``dummy``)
is kept: that is a choice, not a fallback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "examples"


def _record() -> Path:
    found = sorted(EXAMPLE.glob("*.json")) if EXAMPLE.is_dir() else []
    for p in found:
        if "bad" not in p.name and not p.name.endswith(".expected.json"):
            return p
    raise AssertionError("no example record")


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    full.update(PYTHONPATH=str(ROOT), STAMMTISCH_HOME=str(tmp_path / "home"),
                SDL_AUDIODRIVER="dummy", STAMMTISCH_NO_CRASH_DIALOG="1",
                PYGAME_HIDE_SUPPORT_PROMPT="1")
    full.update(env)
    # a game that ran invisibly would run for ever: the timeout is the failure
    return subprocess.run([sys.executable, "-m", "game", *args], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=60)


COMMANDS = [["--smoke-test"], [], ["--demo"], ["--lang", "de", "--size", "800x600"],
            ["replay", "RECORD"]]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a) or "window")
def test_no_display_is_said_and_exits_2(tmp_path, args):
    args = [str(_record()) if a == "RECORD" else a for a in args]
    r = run(args, tmp_path)
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("stammtisch: no screen to open the window on: neither "
                               "DISPLAY nor WAYLAND_DISPLAY is set")
    assert r.stdout == ""
    # nothing was read, moved or created in the player's folders
    assert not (tmp_path / "home" / "settings.json").exists()


def test_the_refusal_names_every_command_without_a_window():
    """The line points to what still works: every subcommand (replay with --json)."""
    from game.cli import SUBCOMMANDS
    from game.view import display

    named = display._WITHOUT_WINDOW
    assert "replay FILE --json" in named
    for command in SUBCOMMANDS:
        assert f" {command}" in named, command


def test_a_display_that_cannot_be_opened_is_not_taken_for_a_screen(tmp_path):
    """DISPLAY names an X server that is not there: SDL falls back to its off-screen
    driver, which is refused too."""
    r = run(["--smoke-test"], tmp_path, DISPLAY=":7391")
    assert r.returncode == 2, r.stderr
    assert "SDL found only its offscreen driver (DISPLAY=:7391 could not be opened)" \
        in r.stderr


def test_an_explicit_driver_is_the_users_choice(tmp_path):
    assert run(["--smoke-test"], tmp_path, SDL_VIDEODRIVER="dummy").returncode == 0
    r = run(["--smoke-test"], tmp_path, SDL_VIDEODRIVER="x11")      # and no X server
    assert r.returncode == 2
    assert r.stderr.strip().splitlines()[-1] == (
        "stammtisch: no screen to open the window on: x11 not available with "
        "SDL_VIDEODRIVER=x11.")


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed")
def test_smoke_test_passes_on_a_real_display(tmp_path):
    """The same command with a (virtual) X server: a real window opens, exit 0."""
    display = f":{600 + os.getpid() % 300}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten",
                             "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        sock = Path(f"/tmp/.X11-unix/X{display[1:]}")
        for _ in range(200):
            if sock.exists():
                break
            time.sleep(0.05)
        r = run(["--smoke-test"], tmp_path, DISPLAY=display)
        assert r.returncode == 0, r.stderr
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def test_the_window_opens_with_the_dummy_driver_in_process(monkeypatch):
    """The tests' own set-up (conftest sets SDL_VIDEODRIVER=dummy) keeps working."""
    from game.view import display

    assert display.chosen_driver() == "dummy"
    assert display.open_display() == "dummy"


def test_open_display_refuses_without_a_named_display(monkeypatch):
    from game.view import display

    monkeypatch.delenv("SDL_VIDEODRIVER")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(display.sys, "platform", "linux")
    with pytest.raises(display.NoScreen, match="neither DISPLAY nor WAYLAND_DISPLAY"):
        display.open_display()
