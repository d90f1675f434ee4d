"""Every file the game keeps, with every kind of trouble in its place: the game
starts (or one command fails with a sentence), never hangs, never loses another of
the player's files, leaves what it cannot use as it is, and tells the player.

The cases are built and played by ``tests/damage.py``: the player's files in the XDG
places, one kind of trouble at one of them (a FIFO, a folder, a file the game may not
read, a symbolic link to nothing, a file over the size cap, a read-only folder), then
a start, the Continue screen, a new game and a finished one. Size caps are made small
through their seams (``fileio.MAX_FILE_BYTES``, ``settings.MAX_BYTES``) instead of
writing 200 MB files. Permission problems are real where the tests are not root; as
root, whom permission bits do not stop, the in-process cases refuse the open through
a seam and :func:`test_unreadable_files_as_an_unprivileged_user` runs the same cases
as the ``nobody`` user (``setpriv``), with ``chmod 000``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from damage import KINDS, SMALL_CAP, TARGETS, damage, exercise, lost, make, saved_game, snapshot
from hostile import is_root, read_only, unreadable

from game import fileio, paths, settings

ROOT = Path(__file__).resolve().parents[1]

#: What the player is told, per target and kind (words of the English notice).
TOLD = {
    "log": "The log file {name} cannot be used",
    "shelf": "An unfinished game, g.json, could not be read",
    "settings": "Your settings file settings.json could not be read",
    "autosave": "Your saved game autosave.json could not be read",
    "stats": "The statistics file stats.sqlite3 cannot be used",
}
TOLD_READ_ONLY = {
    "log": "logs and crash reports will not be kept",
    "shelf": "This game is not saved automatically: the unfinished game before it",
    "settings": "settings will not be kept",
    "autosave": "saved games will not be kept",
    "stats": "statistics will not be kept",
}
TOLD_LARGE = {
    "stats": "Your statistics file was damaged",
    "log": None,        # a log of any size is rotated: nothing is wrong
}
#: A game that cannot be autosaved says so on its table before its first move.
NOT_SAVED = "This game is not saved automatically"


@contextlib.contextmanager
def no_hang(seconds: int = 60):
    """Fail (instead of hanging for ever) if the block takes longer: the alarm
    interrupts a blocking open of a FIFO."""
    def alarm(signum, frame):  # noqa: ANN001
        raise TimeoutError(f"hung for {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def released(fifo: Path | None, seconds: int = 60):
    """A net under a blocking open of ``fifo`` that the alarm cannot break (sqlite
    opens again when interrupted): after ``seconds`` the FIFO is opened for writing,
    which lets the reader go on, and the list yielded says so."""
    done, waited = threading.Event(), []

    def rescue() -> None:
        if done.wait(seconds):
            return
        waited.append(fifo)
        while not done.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:          # nobody reading yet (ENXIO)
                done.wait(0.05)

    rescuer = threading.Thread(target=rescue, daemon=True)
    if fifo is not None:
        rescuer.start()
    try:
        yield waited
    finally:
        done.set()
        if fifo is not None:
            rescuer.join()


@pytest.fixture()
def layout(tmp_path, monkeypatch):
    lay = make(tmp_path)
    monkeypatch.delenv(paths.HOME_ENV, raising=False)
    monkeypatch.setattr(paths, "_platform", lambda: "linux")
    for k, v in lay.env().items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(fileio, "MAX_FILE_BYTES", SMALL_CAP)
    monkeypatch.setattr(settings, "MAX_BYTES", SMALL_CAP)
    return lay


def expected(target: str, kind: str, path: Path) -> str | None:
    if kind == "read_only":
        return TOLD_READ_ONLY[target]
    if kind == "large" and target in TOLD_LARGE:
        return TOLD_LARGE[target]
    return TOLD[target].format(name=path)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("target", TARGETS)
def test_damaged_file(layout, target, kind, monkeypatch):
    lay = layout
    kept = damage(lay, target, kind)
    ctx: contextlib.AbstractContextManager = contextlib.nullcontext()
    if kind == "unreadable":
        ctx = unreadable(kept, monkeypatch)
    elif kind == "read_only":
        ctx = read_only(kept)
    def look() -> object:      # a read-only folder: the files in it (not its subfolders)
        if kind != "read_only":
            return snapshot(kept)
        return {p.name: snapshot(p) for p in kept.iterdir() if not p.is_dir()}

    with ctx:
        before = look()
        with no_hang():
            shown = exercise(lay)
        after = look()
    text = "\n".join(m["text"] for m in shown)
    # what could not be used is left exactly as it is (a damaged one: set aside)
    if (target, kind) == ("stats", "large"):
        assert list(lay.data.glob("stats.sqlite3.bad-*")), "the damaged file was not kept"
    elif (target, kind) == ("log", "large"):
        assert "base-log-line" in (lay.logs / "stammtisch.log.1").read_text()
    else:
        assert after == before, f"{kept} was changed"
    # nothing else of the player's was lost
    assert lost(lay, target) == []
    # and the player was told, in words, once
    words = expected(target, kind, kept)
    if words is not None:
        assert words in text, text
        assert sum(words in m["text"] for m in shown) == 1, text
    assert "Traceback" not in text


@pytest.mark.parametrize("kind", ["fifo", "folder", "dangling"])
@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_something_in_a_statistics_journal_s_place(layout, suffix, kind):
    """SQLite opens the database's journal beside it by name: a FIFO there would hold
    the game at its start for ever. The statistics are left alone and the player
    told, as for the database itself; the journal's place and the recorded games are
    kept exactly as they were."""
    lay = layout
    stats = lay.target("stats")
    side = stats.with_name(stats.name + suffix)
    if kind == "fifo":
        os.mkfifo(side)
    elif kind == "folder":
        side.mkdir()
        (side / "keep.txt").write_text("mine")
    else:
        os.symlink(lay.root / "nowhere" / side.name, side)
    before = snapshot(side), snapshot(stats)
    with no_hang(), released(side if kind == "fifo" else None) as waited:
        shown = exercise(lay)
    assert not waited, "the game waited on the FIFO (opened it for reading)"
    assert (snapshot(side), snapshot(stats)) == before
    text = "\n".join(m["text"] for m in shown)
    words = TOLD["stats"].replace(stats.name, side.name)   # the companion, by name
    assert sum(words in m["text"] for m in shown) == 1, text
    assert "Traceback" not in text
    if kind == "folder":
        shutil.rmtree(side)
    else:
        side.unlink()
    assert lost(lay, target="none") == []   # with that place cleared, every file is there


@pytest.mark.parametrize("target", ["autosave", "shelf"])
def test_a_game_that_cannot_be_autosaved_says_so_before_its_first_move(layout, target,
                                                                        monkeypatch):
    """An unreadable autosave in the way, or a shelf that cannot take the unfinished
    game: the new table tells it before any move is made."""
    if target == "autosave":
        damage(layout, target, "fifo")
        ctx: contextlib.AbstractContextManager = contextlib.nullcontext()
    else:
        ctx = read_only(layout.shelf)
    with ctx, no_hang():
        shown = exercise(layout)
    on_table = [m for m in shown if m["moves"] is not None and NOT_SAVED in m["text"]]
    assert on_table and on_table[0]["moves"] == 0, shown


def test_the_shelf_counts_only_games(layout):
    """A FIFO, a folder and a link to nothing named ``*.json`` on the shelf are not
    counted as unfinished games (the menu once offered to continue a FIFO)."""
    from game import shelf

    for name, kind in (("a.json", "fifo"), ("b.json", "folder"), ("c.json", "dangling")):
        path = layout.shelf / name
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        else:
            os.symlink(layout.root / "nowhere", path)
    with no_hang():
        assert shelf.shelved_count() == 1              # base-shelf.json only
        games = shelf.unfinished()
    assert sorted(u.game_id for u in games) == ["base-auto", "base-shelf"]
    assert (layout.shelf / "a.json").exists() and (layout.shelf / "b.json").is_dir()
    assert (layout.shelf / "c.json").is_symlink()


def test_a_damaged_shelf_game_is_kept_aside_and_told(layout):
    from game import notices, shelf

    notices.reset()
    (layout.shelf / "g.json").write_text("{ truncated")
    names = {u.game_id for u in shelf.unfinished()}
    assert names == {"base-auto", "base-shelf"}
    moved = list(layout.shelf.glob("g.json.bad-*"))
    assert len(moved) == 1 and moved[0].read_text() == "{ truncated"
    [n] = [n for n in notices.pending() if n.key == "shelf.moved"]
    assert n.params["moved"] == moved[0].name and "not valid JSON" in n.params["reason"]


def test_shelving_never_writes_over_what_has_the_name(layout):
    """The autosave goes onto the shelf under a free name: a folder (or anything)
    called like the game stays."""
    from game import shelf

    (layout.shelf / "base-auto.json").mkdir()
    dest = shelf.shelve_autosave()
    assert dest == layout.shelf / "base-auto-2.json"
    assert (layout.shelf / "base-auto.json").is_dir()


def _moves_kept(lay) -> dict[str, list[int]]:
    """Every game id in the autosave and on the shelf, with the number of moves of
    each copy of it."""
    out: dict[str, list[int]] = {}
    for p in [lay.saves / "autosave.json", *sorted(lay.shelf.glob("*.json"))]:
        if p.is_file():
            data = json.loads(p.read_text())
            out.setdefault(data["session"]["game_id"], []).append(len(data["moves"]))
    return {k: sorted(v) for k, v in out.items()}


def test_resuming_a_shelved_copy_keeps_the_copy_played_on_since(layout):
    """The autosave holds the same game as a shelved file (same game id), played on
    since: resuming the shelved one puts the autosave's moves onto the shelf (they
    were written over)."""
    from game import shelf
    from game.store import files as store_files

    store_files._held.clear()
    (layout.saves / "autosave.json").write_text(saved_game("base-shelf", 9, 4))
    [entry] = [u for u in shelf.unfinished() if not u.current]
    assert entry.game_id == "base-shelf" and len(entry.record.moves) == 5
    shelf.take(entry)
    assert _moves_kept(layout) == {"base-shelf": [5, 9]}
    assert len(json.loads((layout.saves / "autosave.json").read_text())["moves"]) == 5


@pytest.mark.parametrize("kind", ["unreadable", "fifo"])
def test_a_file_in_the_autosave_s_place_is_not_written_over_by_a_resumed_game(
        layout, kind, monkeypatch):
    """A file the game cannot read in the autosave's place: resuming a shelved game
    from the Continue screen leaves it as it is, and says so, instead of moving the
    shelved game over it."""
    import pygame

    from game.scenes import testing as T
    from game.scenes.menu import MenuScene
    from game.store import files as store_files

    store_files._held.clear()
    place = damage(layout, "autosave", kind)
    before = snapshot(place)
    ctx = unreadable(place, monkeypatch) if kind == "unreadable" \
        else contextlib.nullcontext()
    with ctx, no_hang():
        app = T.make_app((960, 600), "en")
        app.push(MenuScene(app))
        T.frame(app)
        T.click_button(app, app.top.list.by_name("continue"))
        lst = app.top
        assert lst.name == "unfinished"
        [i] = [k for k, u in enumerate(lst.entries) if u.game_id == "base-shelf"]
        app.toast = None
        T.click_button(app, lst.list.by_name(f"resume_{i}"))
        assert app.top is lst and T.table_of(app) is None
        told = app.toast[0] if app.toast is not None else ""
        pygame.quit()
    assert snapshot(place) == before
    assert "could not be resumed: autosave.json" in told, told
    assert (layout.shelf / "base-shelf.json").is_file()


def test_a_finished_autosave_is_counted_before_a_shelved_game_is_resumed(layout):
    """A finished game in the autosave's place (the game stopped before it was
    counted): resuming a shelved game counts it in the statistics first, instead of
    writing over it uncounted or refusing to resume."""
    import sqlite3

    from game import shelf
    from game.store import files as store_files

    store_files._held.clear()
    (layout.saves / "autosave.json").write_text(saved_game("done", 10_000, 3))
    [entry] = shelf.unfinished()
    assert entry.game_id == "base-shelf"
    shelf.take(entry)
    con = sqlite3.connect(layout.data / "stats.sqlite3")
    ids = {r[0] for r in con.execute("SELECT game_id FROM games")}
    con.close()
    assert ids == {"base-stats", "done"}
    assert _moves_kept(layout) == {"base-shelf": [5]}


def test_an_autosave_damaged_since_the_list_was_read_is_told_when_a_game_resumes(layout):
    """The Continue list was read; then the autosave's file was cut short (another
    program, a full disk). Resuming a shelved game moved it aside without a word:
    now the player is told, as at start-up, and the shelved game resumes."""
    from game import notices, shelf
    from game.store import files as store_files

    store_files._held.clear()
    notices.reset()
    entries = shelf.unfinished()
    [entry] = [u for u in entries if u.game_id == "base-shelf"]
    (layout.saves / "autosave.json").write_text('{"format": 1, "game": "cha')
    shelf.take(entry)
    [moved] = list(layout.saves.glob("autosave.json.bad-*"))
    assert moved.read_text() == '{"format": 1, "game": "cha'
    told = [n for n in notices.pending() if n.key == "store.save.moved"]
    assert len(told) == 1 and told[0].params["file"] == moved.name
    assert _moves_kept(layout) == {"base-shelf": [5]}


def test_a_finished_autosave_that_cannot_be_counted_waits_on_the_shelf(layout):
    """The statistics cannot count that finished game (a folder in the database's
    place): it goes onto the shelf as it is (unlisted), the shelved game is resumed,
    and the finished one is counted once the statistics can take it."""
    from game import shelf, store
    from game.store import files as store_files

    store_files._held.clear()
    (layout.saves / "autosave.json").write_text(saved_game("done", 10_000, 3))
    before = snapshot(layout.saves / "autosave.json")
    done = _moves_kept(layout)["done"]
    stats = layout.data / "stats.sqlite3"
    stats.unlink()
    stats.mkdir()
    [entry] = shelf.unfinished()
    shelf.take(entry)
    assert _moves_kept(layout) == {"base-shelf": [5], "done": done}
    assert snapshot(layout.shelf / "done.json") == before
    assert [u.game_id for u in shelf.unfinished()] == ["base-shelf"]
    stats.rmdir()
    assert shelf.shelved_count() == 0
    assert _moves_kept(layout) == {"base-shelf": [5]} and store.summarize().total == 1


def test_a_symlinked_settings_file_stays_a_link(layout):
    """Writing through a link to a regular file keeps the link (dotfiles kept in a
    repository); a link to nothing is never replaced by a file."""
    real = layout.root / "dotfiles" / "stammtisch.json"
    real.parent.mkdir()
    path = layout.cfg / "settings.json"
    path.replace(real)
    os.symlink(real, path)
    st = settings.load()
    assert st["volume"] == 0.2
    st["volume"] = 0.4
    assert st.save()
    assert path.is_symlink() and json.loads(real.read_text())["volume"] == 0.4
    real.unlink()                                   # now the link points to nothing
    st = settings.load()
    assert not st.writable and st.notice is not None
    assert st.notice.key == "settings.unreadable"
    assert not st.save() and path.is_symlink() and not real.exists()


# ----------------------------------------------------------------- the real permission bits


#: Ways to run a program that permission bits stop, as root: the ``nobody`` user, or
#: root itself without the capabilities that override the bits (where ``nobody`` cannot
#: read the Python, say under a home folder closed to others). Each with whether the
#: files must be handed to ``nobody``.
UNPRIVILEGED = (
    (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"], True),
    (["setpriv", "--bounding-set=-all", "--inh-caps=-all"], False),
)


def _unprivileged() -> tuple[list[str], bool] | str:
    """The first of :data:`UNPRIVILEGED` that can run the game here, or why none can."""
    if shutil.which("setpriv") is None:
        return "running as root without setpriv"
    why = ""
    for prefix, chown in UNPRIVILEGED:
        probe = subprocess.run(prefix + [sys.executable, "-c", "import game, pygame"],
                               cwd=tempfile.gettempdir(), capture_output=True, text=True,
                               timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        if probe.returncode == 0:
            return prefix, chown
        why = probe.stderr.strip()[-200:]
    return "no unprivileged way could import the game: " + why


@pytest.mark.parametrize("target", TARGETS)
def test_unreadable_files_as_an_unprivileged_user(tmp_path, target):
    """``chmod 000`` on the file, the game run by a user the bits stop: as ``nobody``
    through ``setpriv`` when the tests run as root (or as root without the
    capabilities that override the bits), else as the user running them."""
    prefix: list[str] = []
    chown = False
    if is_root():
        way = _unprivileged()
        if isinstance(way, str):
            pytest.skip(way + ": permission bits cannot be tested honestly here (the "
                        "in-process cases use a seam)")
        prefix, chown = way
    base = Path(tempfile.mkdtemp(prefix="stammtisch-nobody-"))
    try:
        lay = make(base / "files")
        path = damage(lay, target, "unreadable")
        if chown:
            for p in [base, *base.rglob("*")]:
                os.chown(p, 65534, 65534, follow_symlinks=False)
        path.chmod(0)
        before = snapshot(path)
        env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
                   SDL_AUDIODRIVER="dummy", TMPDIR=str(base), HOME=str(base))
        env.pop("STAMMTISCH_HOME", None)
        r = subprocess.run(prefix + [sys.executable, str(ROOT / "tests" / "damage.py"),
                                     str(lay.root), target, "unreadable"],
                           cwd=base, env=env, capture_output=True, text=True, timeout=180)
        assert r.returncode == 0, r.stderr[-2000:]
        shown = json.loads(r.stdout.strip().splitlines()[-1])["shown"]
        text = "\n".join(m["text"] for m in shown)
        assert TOLD[target].format(name=path) in text, text
        assert "Permission denied" in text, text
        assert snapshot(path) == before
        path.chmod(0o644)
        assert lost(lay, target) == []
    finally:
        shutil.rmtree(base, ignore_errors=True)
