"""Nothing the environment or a file does can break the game (issue 15): the game
starts with blocked or read-only folders and strange files, says once and truthfully
what it cannot do, never writes over a file it could not read, leaves a newer or
locked statistics database alone, and reads only regular files."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pygame
import pytest
from hostile import put_in_place, read_only, still_in_place, unreadable

from game import cli, crash, fileio, i18n, notices, paths, records, settings, store
from game.records import Seat
from game.rules.chase import ChaseGame
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.store import database
from game.store import files as store_files

ROOT = Path(__file__).resolve().parents[1]
SEATS = [Seat("Du", "human"), Seat("Anna", "ai", "easy"), Seat("Ben", "ai", "easy"),
         Seat("Clara", "ai", "easy")]


@pytest.fixture()
def home(tmp_path, monkeypatch):
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("STAMMTISCH_HOME", str(h))
    notices.reset()
    store_files._held.clear()
    yield h
    pygame.quit()


def engine(moves: int = 0, seed: int = 3) -> ChaseGame:
    g = ChaseGame({"lives": 3}, 4, seed=seed, bot_seed=seed)
    g.start()
    while len(g.moves) < moves and not g.finished:
        p = g.to_move()
        g.apply(p.seat, p.legal[0])
    return g


def write_valid_autosave(moves: int = 6) -> bytes:
    g = engine(moves)
    store.write_autosave(records.record_of(g, SEATS, seed=3, bot_seed=3), {"game_id": "g1"})
    return store.autosave_path().read_bytes()


def start_app(lang: str = "en", st: settings.Settings | None = None):
    app = T.make_app((960, 600), lang, settings=st or settings.load())
    app.push(MenuScene(app))
    T.frame(app)
    return app


def toast(app) -> str:
    return app.toast[0] if app.toast is not None else ""


def play_moves(app, n: int = 8):
    """A computer-only table of a real game (autosave and statistics on), ``n`` moves."""
    from game.scenes.table_chase import ChaseTableScene

    table = ChaseTableScene(app, T.mixed_seats(4, humans=0), {"lives": 1}, seed=5)
    app.push(table)
    for _ in range(4000):
        if len(table.game.moves) >= n or table.game.finished:
            break
        app.update(0.05)
    assert len(table.game.moves) >= n or table.game.finished
    return table


def smoke(env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    """``python -m game --smoke-test`` as a player would start it, headless."""
    full = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
                SDL_AUDIODRIVER="dummy", STAMMTISCH_NO_CRASH_DIALOG="1")
    full.update(env)
    return subprocess.run([sys.executable, "-m", "game", "--smoke-test", "--lang", "en"],
                          cwd=ROOT, env=full, capture_output=True, text=True, timeout=timeout)


# ----------------------------------------------------------------- the game always starts


@pytest.mark.parametrize("block", ["logs", "saves", "home"])
def test_starts_when_a_file_blocks_a_folder(home, block, capsys):
    """``touch …/logs``, ``…/saves``, or the folder itself: the game starts with the
    defaults and names the folder and what it will not keep."""
    if block == "home":
        home.rmdir()
        home.write_text("not a folder")
        blocked = home
    else:
        blocked = home / block
        blocked.write_text("not a folder")
    crash.uninstall()
    try:
        assert cli.main(["--smoke-test", "--lang", "en"]) == 0
    finally:
        crash.uninstall()
    assert "Traceback" not in capsys.readouterr().err
    app = start_app()
    text = toast(app)
    assert str(blocked) in text and "cannot be used" in text
    keeps = {"logs": "logs and crash reports", "saves": "saved games", "home": "settings"}
    assert keeps[block] in text
    assert blocked.is_file()       # nothing replaced the player's file


def test_starts_when_the_config_folder_is_a_file(tmp_path, monkeypatch):
    """The XDG layout: ``~/.config/stammtisch`` is a file; data goes on working."""
    monkeypatch.delenv("STAMMTISCH_HOME", raising=False)
    monkeypatch.setattr(paths, "_platform", lambda: "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "stammtisch").write_text("x")
    notices.reset()
    st = settings.load()
    assert st.notice is None and not st.save()   # nothing to read, nowhere to write
    app = start_app()
    assert "cfg" in toast(app) and "settings" in toast(app)
    app.save_settings()                        # must not raise, must not replace the file
    assert (tmp_path / "cfg" / "stammtisch").read_text() == "x"
    assert store.check_stats() is None         # statistics still work
    pygame.quit()


def test_starts_in_a_read_only_home_and_logs_to_the_temp_folder(tmp_path):
    home = tmp_path / "ro"
    home.mkdir()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    with read_only(home):
        r = smoke({"STAMMTISCH_HOME": str(home), "TMPDIR": str(tmp)})
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert (tmp / "stammtisch-logs" / "stammtisch.log").is_file()
    assert list(home.iterdir()) == []          # nothing could be, nothing was written


def test_read_only_home_notice_names_what_is_not_kept(tmp_path, monkeypatch):
    home = tmp_path / "ro"
    home.mkdir()
    monkeypatch.setenv("STAMMTISCH_HOME", str(home))
    with read_only(home):
        for lang, words in (("en", ("cannot be used", "statistics", "saved games")),
                            ("de", ("nicht nutzbar", "Statistiken", "gespeicherte Spiele"))):
            app = start_app(lang)
            assert all(w in toast(app) for w in words), toast(app)
            assert str(home) in toast(app)
            pygame.quit()


def test_deeply_nested_settings_start_with_the_defaults(home):
    (home / "settings.json").write_text('{"setup": ' + "[" * 100_000 + "]" * 100_000 + "}")
    st = settings.load()
    assert st["anim_speed"] == "normal" and st.notice is not None
    assert st.notice.key == "settings.damaged"
    assert len(list(home.glob("settings.json.bad-*"))) == 1
    app = start_app(st=st)
    assert "damaged" in toast(app) and "nested deeper" in toast(app)


@pytest.mark.parametrize("extra", [
    {"tips_seen": ["x"] * 170_000},
    {"setup": {"rules": {"note": "\u00fc" * 400_000, "lives": 2}}},
    {"setup_rams": {"rules": {f"k{i}": i for i in range(60_000)}}},
], ids=["many-tips", "long-text", "many-rules"])
def test_settings_the_game_writes_back_are_settings_it_can_read(home, extra):
    """A settings file under the 1 MB cap, holding much that is not the game's: the
    game wrote it back with indents and ASCII escapes, past the cap, and at the next
    start could not read it -- every setting lost from then on (the file is kept
    and never written again). What is not the game's is no longer kept."""
    path = home / "settings.json"
    path.write_text(json.dumps({"volume": 0.3, **extra}, ensure_ascii=False,
                               separators=(",", ":")), encoding="utf-8")
    assert path.stat().st_size < settings.MAX_BYTES
    st = settings.load()
    assert st.notice is None and st["volume"] == 0.3
    st["volume"] = 0.4
    assert st.save()
    again = settings.load()
    assert again.notice is None and again.writable and again["volume"] == 0.4
    assert path.stat().st_size < 64 * 1024


@pytest.mark.parametrize("where", ["settings.json", "saves/autosave.json"])
def test_fifo_in_place_of_a_file_does_not_hang_the_start(home, where):
    put_in_place(home / where, "fifo")
    r = smoke({"STAMMTISCH_HOME": str(home)})
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert still_in_place(home / where, "fifo")


def test_crash_log_falls_back_to_the_temp_folder_then_to_stderr(home, tmp_path, monkeypatch,
                                                               capsys):
    (home / "logs").write_text("blocked")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    crash.uninstall()
    try:
        log_path = crash.install()
        assert log_path == tmp / "stammtisch-logs" / "stammtisch.log"
        report = crash.write_report(ValueError("boom"))
        assert report is not None and report.parent == tmp / "stammtisch-logs"
    finally:
        crash.uninstall()
    # no usable temp folder either: install still works, the report goes to stderr
    (tmp / "stammtisch-logs").rename(tmp / "old")
    (tmp / "stammtisch-logs").write_text("blocked too")
    try:
        assert crash.install() is None
        try:
            raise RuntimeError("nowhere to write")
        except RuntimeError as exc:
            assert crash.report(exc, dialog=False) is None
    finally:
        crash.uninstall()
    err = capsys.readouterr().err
    assert "RuntimeError: nowhere to write" in err and "No report could be written" in err


def test_a_failing_start_up_is_reported_not_a_bare_traceback(home, monkeypatch, capsys):
    """``crash.install()`` runs inside the guard: if even it fails, a report is written
    and the exit status is 1."""
    def broken_install(*a, **k):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(crash, "install", broken_install)
    assert cli.main(["--smoke-test"]) == crash.EXIT_CRASH
    err = capsys.readouterr().err
    assert "Read-only file system" in err and "A report was written" in err


# ----------------------------------------------------------------- failures are shown, once


def _no_space(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def said(message) -> str:
    """What a toast given to ``App.notify`` says now: a notice comes as a function
    that is asked again after a language change."""
    return message() if callable(message) else message


@pytest.mark.parametrize("lang,words,why", [
    ("en", "could not be saved automatically", os.strerror(errno.ENOSPC)),
    ("de", "nicht automatisch speichern", "kein Platz mehr auf dem Datenträger")])
def test_full_disk_while_saving_is_shown_once(home, monkeypatch, lang, words, why):
    monkeypatch.setattr(os, "fsync", _no_space)
    app = start_app(lang)
    app.toast = None
    shown = []
    real = app.notify
    monkeypatch.setattr(app, "notify", lambda m: (shown.append(said(m)), real(m)))
    table = play_moves(app, 10)
    assert len(table.game.moves) >= 10
    T.frame(app)
    assert len(shown) == 1 and words in shown[0] and f"({why})" in shown[0], shown
    assert table.session.problems and len(table.session.problems) >= 10   # every move failed
    assert not store.autosave_path().exists()


def test_read_only_statistics_file_is_shown_once_and_left_alone(home):
    g = engine(10_000)   # a finished game
    assert g.finished
    con = store.open_stats()
    con.close()
    path = store.stats_path()
    before = path.read_bytes()
    with read_only(path):
        session = store.GameSession(g, [{"name": s.name, "human": s.type == "human"}
                                        for s in SEATS], seed=3)
        session.finish()
        again = store.GameSession(g, [{"name": "x", "human": True}] * 4, seed=3)
        again.finish()
        assert session.problems[0].what == "stats" and again.problems
        keys = [n.key for n in notices.pending()]
        assert keys == ["store.stats.unusable"], keys
        assert "readonly" in notices.pending()[0].params["reason"]
    assert path.read_bytes() == before
    assert not list(home.glob("stats.sqlite3.bad-*"))


def test_read_only_saves_folder_is_named_once(home, monkeypatch):
    """The folder is named once at the start; the table then says once, before its
    first move, that this game is not saved (not once per move)."""
    saves = home / "saves"
    saves.mkdir()
    with read_only(saves):
        app = start_app()
        assert str(saves) in toast(app) and "saved games" in toast(app)
        app.toast = None
        shown = []
        real = app.notify
        monkeypatch.setattr(app, "notify", lambda m: (shown.append(said(m)), real(m)))
        table = play_moves(app, 6)
        T.frame(app)
        assert table.session.problems       # the autosave failed on every move …
        assert len(shown) == 1 and "could not be saved automatically" in shown[0]


def test_directory_in_place_of_the_autosave(home):
    put_in_place(home / "saves" / "autosave.json", "directory")
    app = start_app()
    text = toast(app)
    assert "could not be read" in text and "kept aside" not in text
    app.toast = None
    table = play_moves(app, 6)
    assert table.session.problems and table.session.problems[0].kind == "held"
    assert still_in_place(home / "saves" / "autosave.json", "directory")
    assert not list((home / "saves").glob("autosave.json.bad-*"))


# ----------------------------------------------------------------- true messages


@pytest.mark.parametrize("kind", ["permission", "directory", "symlink_loop", "fifo"])
def test_unreadable_settings_are_neither_claimed_kept_aside_nor_overwritten(home, kind,
                                                                            monkeypatch):
    path = home / "settings.json"
    if kind == "permission":
        path.write_text(json.dumps({"volume": 0.2}))
        ctx = unreadable(path, monkeypatch)
    else:
        put_in_place(path, kind)
        ctx = contextlib.nullcontext()
    with ctx:
        app = start_app()
        text = toast(app)
        assert "could not be read" in text and "kept aside" not in text
        assert app.settings["volume"] == 0.7           # the defaults
        app.settings["volume"] = 0.5
        app.save_settings()                            # the player changed something
        T.frame(app)
        assert "could not be saved" not in toast(app)  # said once, at the start
    assert not list(home.glob("settings.json.bad-*"))
    assert not list(home.glob("settings.json.*.tmp"))
    if kind == "permission":
        assert json.loads(path.read_text()) == {"volume": 0.2}
    else:
        assert still_in_place(path, kind)


@pytest.mark.parametrize("kind", ["permission", "directory", "symlink_loop", "fifo"])
def test_unreadable_autosave_is_kept_and_never_overwritten(home, kind, monkeypatch):
    path = home / "saves" / "autosave.json"
    saved = b""
    if kind == "permission":
        saved = write_valid_autosave()
        ctx = unreadable(path, monkeypatch)
    else:
        put_in_place(path, kind)
        ctx = contextlib.nullcontext()
    with ctx:
        app = start_app()
        text = toast(app)
        assert "could not be read" in text and "left as it is" in text
        assert "kept aside" not in text
        assert app.top.list.by_name("continue") is None
        play_moves(app, 6)                           # a new game: no autosave over it
        app.pop()
    assert not list(path.parent.glob("autosave.json.bad-*"))
    if kind == "permission":
        assert path.read_bytes() == saved
        # readable again: the hold is lifted and the game can be continued
        app.reset(MenuScene(app))
        assert app.top.list.by_name("continue") is not None
    else:
        assert still_in_place(path, kind)


def test_damaged_autosave_that_cannot_be_moved_is_not_claimed_moved(home):
    write_valid_autosave()
    path = store.autosave_path()
    path.write_text("{ truncated")
    with read_only(path.parent):
        app = start_app()
        text = toast(app)
        assert "could not be moved aside" in text and "kept aside as" not in text
        app.toast = None
        play_moves(app, 4)
    assert path.read_text() == "{ truncated"


# ----------------------------------------------------------------- statistics database


def make_newer(path: Path) -> bytes:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE future (x)")
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    return path.read_bytes()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_newer_statistics_are_left_untouched_and_the_screen_says_why(home, lang):
    from game.scenes.stats import StatsScene

    before = make_newer(store.stats_path())
    app = start_app(lang)
    assert i18n.t("store.stats.newer", file=store.STATS_NAME) in toast(app)
    scene = StatsScene(app)
    app.push(scene)
    T.frame(app)
    assert scene.unavailable == i18n.t("stats.unavailable.newer")
    g = engine(10_000)
    session = store.GameSession(g, [{"name": "x", "human": True}] * 4, seed=3)
    session.finish()
    assert session.problems[0].kind == "newer"
    assert store.stats_path().read_bytes() == before
    assert not list(home.glob("stats.sqlite3.bad-*"))


def test_locked_statistics_are_retried_then_skipped_not_discarded(home, monkeypatch):
    monkeypatch.setattr(database, "BUSY_TIMEOUT", 0.05)
    con = store.open_stats()
    con.close()
    holder = sqlite3.connect(store.stats_path())
    holder.execute("BEGIN EXCLUSIVE")          # another program holds the database
    try:
        p = store.check_stats()
        assert p is not None and p.kind == "locked" and p.moved_to is None
        g = engine(10_000)
        session = store.GameSession(g, [{"name": "x", "human": True}] * 4, seed=3)
        session.finish()                        # the game goes on without recording
        assert session.problems[0].kind == "locked"
        app = start_app()
        assert "in use by another program" in toast(app)
    finally:
        holder.rollback()
        holder.close()
    assert not list(home.glob("stats.sqlite3.bad-*"))
    assert store.check_stats() is None and store.summarize().total == 0


def test_a_lock_is_retried(home, monkeypatch):
    real = database._connect
    calls = []

    def locked_once(path):
        calls.append(path)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        return real(path)

    monkeypatch.setattr(database, "_connect", locked_once)
    g = engine(10_000)
    assert store.record_game(records.record_of(g, SEATS, seed=3), g.summary())
    assert len(calls) == 2
    assert store.summarize().total == 1


# ----------------------------------------------------------------- special and huge files


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "directory", "symlink_loop",
                                  "sparse_huge"])
def test_replay_refuses_special_and_huge_files_at_once(tmp_path, kind):
    path = tmp_path / "rec.json"
    if kind == "dev_zero":
        path = Path("/dev/zero")
    elif kind == "sparse_huge":
        with open(path, "wb") as fh:
            fh.truncate(fileio.MAX_FILE_BYTES + 1)
    else:
        put_in_place(path, kind)
    for command in ("replay", "advise"):
        r = subprocess.run([sys.executable, "-m", "game", command, str(path), "--json"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert r.returncode == 2 and r.stdout == "", r.stderr
        line = r.stderr.strip()
        assert "\n" not in line and line.startswith("bad_format: cannot read "), line
        expected = {"fifo": "a FIFO", "dev_zero": "a device", "directory": "a folder",
                    "symlink_loop": "Too many levels of symbolic links",
                    "sparse_huge": "larger than the limit"}[kind]
        assert expected in line


def test_the_size_cap_applies_to_every_reader(home, monkeypatch):
    monkeypatch.setattr(fileio, "MAX_FILE_BYTES", 1000)
    path = home / "big.json"
    path.write_text(json.dumps({"format": 1, "pad": "x" * 2000}))
    with pytest.raises(records.RecordError) as err:
        records.load(path)
    assert err.value.kind == "bad_format" and "larger than the limit" in err.value.message
    (home / "saves").mkdir()
    store.autosave_path().write_bytes(path.read_bytes())
    saved, problem = store.read_autosave()
    assert saved is None and problem.kind == "unreadable"


def test_a_record_of_a_million_moves_still_loads(tmp_path):
    """Rams with no drop limit: every seat dropping gives void rounds for ever."""
    from game.rules.rams import AS_WRITTEN, RamsGame

    g = RamsGame({**AS_WRITTEN, "drop_limit": "none"}, 4, seed=1, bot_seed=1)  # format 1
    g.start()
    while g.round_index < 4:
        p = g.to_move()
        g.apply(p.seat, "drop" if "drop" in p.legal else p.legal[0])
    cycle = list(g.moves)          # four void rounds: the dealer is back where it began
    moves = (cycle * (10**6 // len(cycle) + 1))[: 10**6]
    rec = {"format": 1, "game": "rams", "rules": {"drop_limit": "none"},
           "seats": [{"name": c, "type": "human"} for c in "ABCD"], "seed": 1,
           "moves": [{"seat": s, "move": m} for s, m in moves]}
    path = tmp_path / "long.json"
    path.write_text(json.dumps(rec, indent=2))
    assert path.stat().st_size * 2 < fileio.MAX_FILE_BYTES     # ample room under the cap
    loaded = records.load(path)
    assert len(loaded.moves) == 10**6 and loaded.moves[-1] == moves[-1]
    # the first rounds rebuild (the whole record: tools/bench_fuzz.py --long)
    loaded.moves = loaded.moves[:1000]
    assert not records.rebuild(loaded).finished
