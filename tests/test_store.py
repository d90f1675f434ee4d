"""Saves, statistics and records that survive anything: a killed process resumes
exactly, damaged files are moved aside (never lost) and the game still starts, and
schema migrations keep every row."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pygame
import pytest

from game import records, settings, store
from game.records import Seat
from game.rules.chase import ChaseGame
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.store import database

ROOT = Path(__file__).resolve().parents[1]



def play_engine(seed=3, n=4, moves=None, lives=3):
    import random

    g = ChaseGame({"lives": lives}, n, seed=seed, bot_seed=seed)
    g.start()
    rng = random.Random(seed)
    while not g.finished and (moves is None or len(g.moves) < moves):
        p = g.to_move()
        g.apply(p.seat, rng.choice(p.legal))
    return g


SEATS = [Seat("Du", "human"), Seat("Anna", "ai", "hard"), Seat("Ben", "ai", "hard"),
         Seat("Clara", "ai", "hard")]


def finished_record(seed):
    g = play_engine(seed)
    return records.record_of(g, SEATS, seed=seed, bot_seed=seed), g.summary()


# ----------------------------------------------------------------- kill -9 and resume

CHILD = textwrap.dedent("""
    import json, random, sys
    from game.scenes import testing as T
    from game.scenes.menu import MenuScene
    from game.scenes.table_chase import ChaseTableScene
    seats = [{"name": "Du", "human": True, "level": "medium"}] + [
        {"name": n, "human": False, "level": "easy"} for n in "ABCDEFG"]
    app = T.make_app((640, 400), "en")
    app.push(MenuScene(app))
    tb = ChaseTableScene(app, seats, {"lives": 5}, seed=11)
    app.push(tb)
    rng = random.Random(5)
    seen = 0
    while app.top is tb or (app.top is not None and app.top.name == "handoff"):
        if tb.state == "human" and tb.pending is not None:
            tb.human_move(rng.choice(list(tb.pending.legal)))
        else:
            app.update(0.05)
        if len(tb.game.moves) != seen:
            seen = len(tb.game.moves)
            print(json.dumps({"moves": seen, "summary": tb.game.summary()}), flush=True)
""")


def test_sigkill_mid_game_resumes_the_same_position(home):
    env = dict(os.environ, STAMMTISCH_HOME=str(home), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = {}
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            d = json.loads(line)
            lines[d["moves"]] = d["summary"]
            if d["moves"] >= 40:
                break
        proc.send_signal(signal.SIGKILL)   # in the middle of the game, no clean-up
        rest, _ = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    for line in rest.splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue     # the last line may be cut off by the kill
        lines[d["moves"]] = d["summary"]
    assert max(lines) >= 40, "the child never got going"
    # the autosave is a whole, valid record (atomic writes) of a prefix of the game
    saved, problem = store.read_autosave()
    assert problem is None and saved is not None and not saved.finished
    k = len(saved.record.moves)
    assert k >= 40
    if k in lines:
        assert saved.summary == lines[k]
    assert [s.name for s in saved.record.seats][:2] == ["Du", "A"]
    assert saved.record.seats[1].level == "easy" and saved.record.seats[0].type == "human"
    # start again: the menu offers Continue, which resumes exactly there
    app = T.make_app((960, 600), "en", speed="normal", think=100.0)
    menu = MenuScene(app)
    app.push(menu)
    btn = menu.list.by_name("continue")
    assert btn is not None
    assert not list(home.glob("saves/*.tmp"))   # a write cut off by the kill: cleaned
    T.click_button(app, btn)                    # the unfinished games, this one first
    assert app.top.name == "unfinished" and len(app.top.entries) == 1
    T.click_button(app, app.top.list.by_name("resume_0"))
    table = T.table_of(app)
    assert table is not None and table.session is not None
    assert table.game.summary() == saved.summary
    assert table.game.moves == saved.record.moves
    T.pump(app, 3.0, dt=1 / 30)
    assert not table.catching_up
    assert len(table.game.moves) == k          # nobody moved while we looked
    summ = saved.summary
    m = table.model
    assert m.lives == summ["lives"]
    assert m.round == summ["round"] and m.dealer == summ["dealer"]
    assert [s["name"] for s in table.seats] == [s.name for s in saved.record.seats]
    assert [s.get("human") for s in table.seats] == [s.type == "human"
                                                      for s in saved.record.seats]
    assert {i for i, src in table.flow.sources.items() if src.kind == "level"} == \
        {i for i, s in enumerate(saved.record.seats) if s.type == "ai"}
    to_move = summ["to_move"]
    if to_move["seat"] == 0:
        assert table.state == "human"
        assert sorted(b.name for b in table.actions.buttons) == sorted(to_move["legal"])
    else:
        assert table.state == "thinking" and table.thinking_seat == to_move["seat"]
    # and the resumed game keeps saving: one more move, one more in the autosave
    pygame.quit()


def chase_against_two(level: str, lives: int):
    """A window with a new Chase the Ace table: a person and two computers of ``level``."""
    from game.scenes.table_chase import ChaseTableScene

    app = T.make_app((640, 400), "en")
    app.push(MenuScene(app))
    seats = [{"name": "Du", "human": True, "level": "medium"},
             {"name": "A", "human": False, "level": level},
             {"name": "B", "human": False, "level": level}]
    tb = ChaseTableScene(app, seats, {"lives": lives}, seed=4)
    app.push(tb)
    return app, tb


def test_finished_game_clears_autosave_and_counts_once(home):
    app, tb = chase_against_two("hard", lives=1)
    assert store.has_autosave()
    assert T.play_game(app)
    assert not store.has_autosave()
    s = store.summarize()
    assert s.total == 1 and s.by_level[0].level == "hard"
    row = store.recent_games(1)[0]
    assert row.rounds == len(tb.game.rounds) and row.seats[0]["type"] == "human"
    assert s.last_lives[-1] == tb.game.lives
    rec = store.game_record(row.id)
    assert records.rebuild(rec).summary()["winner"] == tb.game.winner
    pygame.quit()


def test_finished_autosave_left_by_a_crash_is_counted_and_cleared(home):
    rec, summary = finished_record(8)
    store.write_autosave(rec, {"game_id": "abc", "elapsed": 12.5})
    assert store.startup_checks() == []
    assert not store.has_autosave()
    store.write_autosave(rec, {"game_id": "abc", "elapsed": 12.5})
    store.startup_checks()
    assert store.summarize().total == 1        # the same game id is not counted twice


def stats_from_a_newer_version() -> None:
    """Statistics a newer version of the game wrote: this one takes no game into them."""
    con = sqlite3.connect(store.stats_path())
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()


def shelve_by_hand(rec, session, name):
    """A save file put on the shelf by hand (as the autosave writes one)."""
    from game import shelf

    store.write_autosave(rec, session)
    folder = shelf.shelf_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return store.autosave_path().replace(folder / name)


def menu_count():
    """What the main menu says: how many unfinished games *Continue* offers."""
    app = T.make_app((640, 400), "en")
    menu = MenuScene(app)
    count = menu.saved[0] if menu.saved else 0
    pygame.quit()
    return count


@pytest.mark.parametrize("session", [{"game_id": "fin", "elapsed": 9.0}, {}],
                         ids=["game_id", "no_game_id"])
def test_a_finished_game_on_the_shelf_is_counted_once_and_leaves_it(home, session):
    """A finished game's save copied onto the shelf was counted by the menu as an
    unfinished game the list did not show, and never reached the statistics."""
    from game import shelf

    g = play_engine(5, moves=6)
    shelve_by_hand(records.record_of(g, SEATS, seed=5, bot_seed=5), {"game_id": "open"},
                   "open.json")
    rec, _ = finished_record(8)
    copy = shelve_by_hand(rec, session, "done.json")
    keep = copy.read_bytes()
    assert menu_count() == 1                       # the unfinished game alone
    assert [u.game_id for u in shelf.unfinished()] == ["open"]
    assert not copy.exists()                       # off the shelf: counted
    assert store.summarize().total == 1
    row = store.recent_games(1)[0]
    assert records.rebuild(store.game_record(row.id)).finished
    copy.write_bytes(keep)                         # the same file again, next start
    assert menu_count() == 1 and len(shelf.unfinished()) == 1
    assert not copy.exists() and store.summarize().total == 1     # never twice


def test_a_finished_game_on_the_shelf_waits_for_statistics_that_cannot_take_it(home):
    """Statistics of a newer version take no game: the finished game stays on the
    shelf, neither listed nor counted by the menu, and is counted once they can."""
    from game import shelf

    stats_from_a_newer_version()
    rec, _ = finished_record(8)
    copy = shelve_by_hand(rec, {"game_id": "fin"}, "done.json")
    assert menu_count() == 0 and shelf.unfinished() == []
    assert copy.exists()                           # kept, to be counted later
    store.stats_path().unlink()
    assert menu_count() == 0
    assert not copy.exists() and store.summarize().total == 1


def test_a_new_game_never_writes_over_a_finished_game_not_yet_counted(home):
    """A finished autosave the statistics could not take (written by a newer version)
    was written over by the next game's autosave, and so never counted: it waits on
    the shelf instead, and is counted once they can take it."""
    from game import shelf

    stats_from_a_newer_version()
    rec, _ = finished_record(8)
    store.write_autosave(rec, {"game_id": "fin"})
    app, tb = chase_against_two("easy", lives=3)
    saved, _ = store.read_autosave()
    assert saved is not None and saved.session["game_id"] == tb.bookkeeper.session.game_id
    pygame.quit()
    assert [p.name for p in shelf.candidates()] == ["fin.json"]
    assert [u.game_id for u in shelf.unfinished()] == [saved.session["game_id"]]
    store.stats_path().unlink()
    assert menu_count() == 1 and shelf.candidates() == []
    assert [r.game_id for r in store.recent_games(5)] == ["fin"]


# ----------------------------------------------------------------- damaged files


def start_app():
    st = settings.load()
    app = T.make_app((960, 600), "en", settings=st)
    app.push(MenuScene(app))
    T.frame(app)
    return app


def test_truncated_settings_file(home):
    good = settings.load()
    good["volume"] = 0.2
    good.save()
    path = home / "settings.json"
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    app = start_app()
    assert app.toast is not None and "settings" in app.toast[0].lower()
    bad = list(home.glob("settings.json.bad-*"))
    assert len(bad) == 1 and bad[0].read_text() == text[: len(text) // 2]
    assert app.settings["volume"] == 0.7      # defaults
    pygame.quit()


def test_settings_file_with_invalid_utf8(home):
    (home / "settings.json").write_bytes(b'{"lang": "\xff\xfe"}')
    app = start_app()
    assert app.toast is not None
    assert list(home.glob("settings.json.bad-*"))
    pygame.quit()


@pytest.mark.parametrize("damage", ["truncated", "garbage", "illegal_move", "not_object"])
def test_damaged_save_file(home, damage):
    g = play_engine(5, moves=20)
    rec = records.record_of(g, SEATS, seed=5, bot_seed=5)
    store.write_autosave(rec, {"game_id": "x"})
    path = store.autosave_path()
    text = path.read_text()
    if damage == "truncated":
        path.write_text(text[: len(text) * 2 // 3])
    elif damage == "garbage":
        path.write_bytes(os.urandom(300))
    elif damage == "illegal_move":
        d = json.loads(text)
        d["moves"][-1]["move"] = "fly"
        path.write_text(json.dumps(d))
    else:
        path.write_text("[1, 2, 3]")
    before = path.read_bytes()
    app = start_app()
    assert app.toast is not None and "saved game" in app.toast[0]
    bad = list(path.parent.glob("autosave.json.bad-*"))
    assert len(bad) == 1 and bad[0].read_bytes() == before
    assert not path.exists()
    menu = app.top
    assert menu.list.by_name("continue") is None
    assert menu.list.by_name("new_chase") is not None
    pygame.quit()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "zeroed_header"])
def test_damaged_statistics_database(home, damage):
    for seed in range(30):
        rec, summ = finished_record(seed)
        store.record_game(rec, summ)
    path = store.stats_path()
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a database" + os.urandom(5000))
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    else:
        path.write_bytes(b"\0" * 100 + data[100:])
    before = path.read_bytes()
    app = start_app()
    assert app.toast is not None and "statistics" in app.toast[0]
    bad = list(home.glob("stats.sqlite3.bad-*"))
    assert len(bad) == 1 and bad[0].read_bytes() == before
    assert store.summarize().total == 0      # a fresh, working database
    rec, summ = finished_record(99)
    assert store.record_game(rec, summ)
    from game.scenes.stats import StatsScene

    app.push(StatsScene(app))
    T.frame(app)
    pygame.quit()


def test_statistics_screen_copes_with_a_database_damaged_while_running(home):
    app = start_app()
    store.stats_path().write_bytes(os.urandom(4096))
    from game.scenes.stats import StatsScene

    app.push(StatsScene(app))
    T.frame(app)
    assert list(home.glob("stats.sqlite3.bad-*"))
    pygame.quit()


# ----------------------------------------------------------------- schema and statistics


def make_v1(path: Path, rows: int) -> list[tuple]:
    con = sqlite3.connect(path)
    database.MIGRATIONS[1](con)
    con.execute("PRAGMA user_version = 1")
    out = []
    for i in range(rows):
        rec, summ = finished_record(i)
        winner = summ["winner"]
        row = (f"g{i}", "chase", json.dumps(rec.rules), json.dumps(
            [s.as_dict() for s in rec.seats]), json.dumps(winner), len(summ["rounds"]),
            10.0 + i, json.dumps(store.lives_by_round(summ, 4)), 1000.0 + i,
            records.dumps(rec))
        con.execute("INSERT INTO games (game_id, game, rules, seats, winner, rounds, "
                    "duration, lives, finished, record) VALUES (?,?,?,?,?,?,?,?,?,?)", row)
        out.append(row)
    con.commit()
    con.close()
    return out



@pytest.mark.parametrize("seats,winner", [
    ('[{"name": "A", "type": "ai", "level": ["hard"]}]', "0"),     # a level that is a list
    ('[{"name": "A", "type": "human"}]', "[[0]]"),                 # a winner list of lists
    ('[{"name": "A", "type": "human"}]', '{"seat": 0}'),
    ('[{"name": "A", "type": ["ai"], "level": {}}]', "[0]"),
])
def test_migration_from_v1_skips_a_row_it_cannot_read(home, seats, winner):
    """A damaged old row keeps the columns' defaults; the other rows and the database
    are migrated (before: a TypeError out of the migration)."""
    path = store.stats_path()
    make_v1(path, 3)
    con = sqlite3.connect(path)
    con.execute("UPDATE games SET seats = ?, winner = ? WHERE game_id = 'g1'", (seats, winner))
    con.commit()
    con.close()
    assert store.check_stats() is None
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 2
    got = dict(con.execute("SELECT game_id, level FROM games").fetchall())
    con.close()
    assert got == {"g0": "hard", "g1": "none", "g2": "hard"}

def test_migration_from_v1_keeps_every_row(home):
    path = store.stats_path()
    rows = make_v1(path, 25)
    assert store.check_stats() is None
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == database.SCHEMA_VERSION == 2
    got = con.execute("SELECT game_id, game, rules, seats, winner, rounds, duration, lives, "
                      "finished, record, level, won FROM games ORDER BY id").fetchall()
    assert [r[:10] for r in got] == rows
    for r in got:
        seats = [Seat(s["name"], s["type"], s.get("level")) for s in json.loads(r[3])]
        assert r[10] == "hard" and r[11] == int(store.human_won(json.loads(r[4]), seats))
    idx = {r[1] for r in con.execute("PRAGMA index_list(games)")}
    assert "games_by_time" in idx
    con.close()
    s = store.summarize()
    assert s.total == 25 and s.wins == sum(r[11] for r in got)


def test_newer_schema_is_left_untouched_and_not_written(home):
    path = store.stats_path()
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE future (x)")
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    before = path.read_bytes()
    p = store.check_stats()
    assert p is not None and p.kind == "newer" and p.moved_to is None
    assert not list(home.glob("stats.sqlite3.bad-*"))
    rec, summ = finished_record(1)
    with pytest.raises(store.StatsNewer):
        store.record_game(rec, summ)
    assert path.read_bytes() == before      # not moved, not replaced, not migrated


def test_streaks_and_rates(home):
    con = store.open_stats()
    seq = [1, 1, 0, 1, 1, 1, 0, 1]
    for i, won in enumerate(seq):
        rec, summ = finished_record(i)
        summ = dict(summ, winner=0 if won else 1)
        store.record_game(rec, summ, finished=1000 + i, con=con)
    con.commit()
    s = store.summarize(con)
    con.close()
    (lv,) = s.by_level
    assert (lv.games, lv.wins, lv.current, lv.best) == (8, 6, 1, 3)
    assert s.rate_curve[-1][1] == pytest.approx(6 / 8)
    assert s.rate_curve[0][0] == 1


def test_opponent_level():
    assert store.opponent_level(SEATS) == "hard"
    assert store.opponent_level(SEATS + [Seat("E", "ai", "easy")]) == "mixed"
    assert store.opponent_level([Seat("A"), Seat("B")]) == "none"


# ----------------------------------------------------------------- exports and replays


def test_export_writes_a_valid_record(home):
    g = play_engine(2, moves=10)
    rec = records.record_of(g, SEATS, seed=2, bot_seed=2)
    path = store.export_record(rec)
    assert path.parent == home / "saves" / "exports"
    again = records.load(path)
    assert records.rebuild(again).summary() == g.summary()
    assert store.export_record(rec) != path


def test_replay_command_bad_file_exits_2(home, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "game": "chase"')
    r = subprocess.run([sys.executable, "-m", "game", "replay", str(bad)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, STAMMTISCH_HOME=str(home)))
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith("malformed_json: ")


def test_run_replay_opens_the_viewer(home, tmp_path):
    import argparse

    from game import app as app_mod

    rec, _ = finished_record(3)
    path = tmp_path / "game.json"
    records.save(rec, path)
    ns = argparse.Namespace(demo=False, game=None, seed=None, quit_after=0.3,
                            frame_stats=False, smoke_test=False, lang="de", size=(640, 400),
                            players=None)
    assert app_mod.run_replay(str(path), ns) == 0
    path.write_text("{}")
    assert app_mod.run_replay(str(path), ns) == 2


@pytest.mark.parametrize("bug", [AttributeError, TypeError, ZeroDivisionError])
def test_a_bug_in_the_engine_never_sets_a_save_aside(home, monkeypatch, bug):
    """Only a data error moves a save aside as damaged: an engine that fails with a
    programming error leaves the autosave and the shelved games where they are, and the
    error surfaces (the start-up check tells the player and logs it)."""
    from game import notices, shelf

    g = play_engine(5, moves=20)
    rec = records.record_of(g, SEATS, seed=5, bot_seed=5)
    store.write_autosave(rec, {"game_id": "x"})
    path = store.autosave_path()
    shelf.shelf_dir().mkdir(parents=True, exist_ok=True)
    shelved = shelf.shelf_dir() / "y.json"
    shelved.write_bytes(path.read_bytes())
    before = path.read_bytes()

    def broken(record, events=None):
        raise bug("a bug, not a damaged file")

    with monkeypatch.context() as m:
        m.setattr(records, "rebuild", broken)
        with pytest.raises(bug):
            store.read_autosave()
        with pytest.raises(bug):
            shelf._read(shelved, False)
        notices.reset()
        app = T.make_app((960, 600), "en", settings=settings.load())   # runs the start-up checks
        assert app.toast is not None and "could not be checked" in app.toast[0]
        assert path.read_bytes() == before and shelved.read_bytes() == before
        assert not list(home.rglob("*.bad-*"))
    saved, problem = store.read_autosave()     # the file was never touched: it resumes
    assert problem is None and saved is not None and saved.record == rec
    pygame.quit()


@pytest.mark.parametrize("error", [ValueError, KeyError])
def test_a_data_error_from_the_engine_sets_the_save_aside(home, monkeypatch, error):
    g = play_engine(5, moves=20)
    store.write_autosave(records.record_of(g, SEATS, seed=5, bot_seed=5), {"game_id": "x"})

    def refuses(record, events=None):
        raise error("a strange file")

    monkeypatch.setattr(records, "rebuild", refuses)
    saved, problem = store.read_autosave()
    assert saved is None and problem is not None and problem.moved_to is not None
    assert not store.autosave_path().exists() and problem.moved_to.exists()


def test_an_os_error_on_the_statistics_is_unusable_whatever_its_words():
    """The kind of a statistics failure reads sqlite's words; an OS error's words are
    not sqlite's ("Device or resource busy" is not a database held by another game)."""
    import errno

    from game.store.database import stats_error_kind

    for code in (errno.EBUSY, errno.EACCES, errno.EINVAL):
        assert stats_error_kind(OSError(code, os.strerror(code))) == "unusable"
