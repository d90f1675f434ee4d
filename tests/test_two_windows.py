"""Two windows on the same saved games: the second keeps no autosave.

Both used to write their game into the one autosave: the second game's start put
the first one on the shelf, and every move of either then wrote over the other, so
one of the two games was lost when the windows closed. The first process holds a
lock on the saves folder (game.store.owner); here a real second process holds it
while this one starts, plays and resumes as a window would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest

from game import shelf, store
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.store import owner
from tests.damage import saved_game

ROOT = Path(__file__).resolve().parents[1]

HOLD = ("import sys\n"
        "sys.path.insert(0, sys.argv[1])\n"   # the checkout (Windows' embedded Python
        #                                        puts neither it nor PYTHONPATH on the path)
        "from game.store import owner\n"
        "print('held' if owner.claim() else 'busy', flush=True)\n"
        "sys.stdin.read()\n")


@contextmanager
def other_window() -> Iterator[None]:
    """Another process of the game with the saves folder's lock, until the block ends."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(ROOT)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=60)


@pytest.fixture
def autosave_of_the_other(home: Path) -> Path:
    """The other window's game in progress, in the autosave's place."""
    path = store.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(saved_game("the-other-window", 6, 3), encoding="utf-8")
    owner.release_all()           # the other process, not this one, holds the folder
    return path


def test_a_second_window_leaves_the_first_ones_game_alone(autosave_of_the_other):
    before = autosave_of_the_other.read_bytes()
    with other_window():
        problems = store.startup_checks()
        assert [p.kind for p in problems] == ["in_use"]
        app = T.make_app((1280, 720))
        app.push(MenuScene(app))
        app.open("table", game_id="chase", seats=T.mixed_seats(3, 1, "en"),
                 rules={"lives": 3})
        session = app.top.bookkeeper.session
        assert not session.saving
        assert [p.kind for p in session.problems] == ["in_use"]
        assert T.play_game(app)                                 # a whole game, to its end
        assert autosave_of_the_other.read_bytes() == before    # not written over
        assert shelf.candidates() == []                         # nor put on the shelf
        current = shelf.unfinished()[0]
        with pytest.raises(store.InUse):                       # nor taken, nor thrown away
            shelf.take(current)
        with pytest.raises(store.InUse):
            shelf.discard(current)
        assert autosave_of_the_other.read_bytes() == before
    # the other window closed: its lock went with it, and games are saved again
    assert owner.claim()
    assert store.startup_checks() == []


def test_the_continue_screen_says_why_it_does_not_resume(autosave_of_the_other):
    with other_window():
        app = T.make_app((1280, 720))
        app.push(MenuScene(app))
        app.open("unfinished")
        T.key(app, pygame.K_RETURN)          # the focused game: the other window's
        T.pump(app, 0.2)
        assert app.top.name == "unfinished"
        shown = app.toast[0] if app.toast else ""
        assert "Another Stammtisch window" in shown


def test_one_process_at_a_time_keeps_the_saved_games(home):
    """The lock itself, on every system (the Windows build's checks run this one under
    Windows' own Python): held by another process, free once that process ends."""
    with other_window():
        assert not owner.claim()
        with pytest.raises(store.InUse):
            owner.check()
    assert owner.claim()
    assert owner.claim()                       # this process's own lock, asked again


def test_a_phone_table_beside_a_window_says_it_keeps_no_autosave(home, monkeypatch, capsys):
    """``stammtisch host`` has no window to show the notice in: it says so on stderr."""
    from game.net import host

    real_run = host.HeadlessTable.run

    def run_and_stop(self):                    # the table ends at once: stopped
        self.stop()
        return real_run(self)

    monkeypatch.setattr(host.HeadlessTable, "run", run_and_stop)
    with other_window():
        assert host.main(["--game", "chase", "--seats", "phone,random,random",
                          "--lang", "en", "--port", "0"]) == 0
    err = capsys.readouterr().err
    assert "Another Stammtisch window is open on the same saved games" in err
    assert not store.autosave_path().exists()
