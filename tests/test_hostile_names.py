"""What the player's files hold reaches the screen and the saves without stopping them.

A record, an autosave, the settings or the statistics may hold any text as a name
(a NUL character, a lone surrogate such as JSON's ``"\\ud800"``, only zero-width
characters, a million characters), any number as a time, any value in a statistics
row, and a record may give deals without a seed. Each of these used to stop the window,
a save or a command, or to lose a game from the statistics; all were found
by fuzzing the files the game reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import records
from game.scenes import testing as T
from game.view import text

EXAMPLES = Path(__file__).parent / "examples"
ODD_NAMES = ["a\x00b", "\ud800x", "\u200b", "\u202e"]


def record_named(name: str) -> records.Record:
    doc = json.loads((EXAMPLES / "0006_chase_3p_complete.json").read_text())
    doc["seats"][1]["name"] = name
    return records.from_dict(doc)


@pytest.mark.parametrize("name", ODD_NAMES, ids=["nul", "surrogate", "zero-width", "rlo"])
def test_a_record_with_an_odd_name_replays_in_the_window(home, name):
    """The record is valid (docs/records.md asks only for a non-empty name); its replay and
    its review draw the name instead of raising from the font."""
    record = record_named(name)
    app = T.make_app()
    app.open("replay", "reset", record=record, title="odd")
    for _ in range(30):
        T.frame(app, 0.2)
    app.open("review", "reset", record=record, title="odd")
    T.frame(app)


@pytest.mark.parametrize("name", ODD_NAMES, ids=["nul", "surrogate", "zero-width", "rlo"])
def test_every_text_function_takes_any_string(home, name):
    T.make_app()                 # pygame and the game's fonts
    assert text.render(name, 20).get_height() > 0
    assert text.size_of(name, 20)[1] > 0
    assert text.fit(name, 20, 100) <= 20
    assert text.ellipsize(name * 50, 20, 60)
    assert text.wrap(name * 50, 20, 60)


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.text(st.characters(codec=None), max_size=40))
def test_the_text_functions_take_any_string(name):
    """Any string the JSON reader can produce (every code point, surrogates too) is
    measured, cut and drawn without an error: a property over fixed examples."""
    if pygame.display.get_surface() is None:
        T.make_app()
    assert text.render(name, 18).get_height() > 0
    assert text.size_of(name, 18)[1] > 0
    text.fit(name, 18, 50)
    text.ellipsize(name, 18, 50)
    text.wrap(name, 18, 50)


def test_a_width_in_floats_cuts_as_whole_pixels(home):
    """The binary search slices by the width: a width computed in floats (100.5) must
    cut as its whole pixels do, as the old character-by-character loop did."""
    T.make_app()
    assert text.ellipsize("x" * 500, 20, 100.5) == text.ellipsize("x" * 500, 20, 100)
    assert text.wrap("y" * 300, 20, 80.7) == text.wrap("y" * 300, 20, 80)


class CountingFont:
    """A font that counts the characters it is asked to measure."""

    def __init__(self, font: pygame.font.Font) -> None:
        self.font = font
        self.measured = 0

    def size(self, s: str) -> tuple[int, int]:
        self.measured += len(s)
        return self.font.size(s)


def test_a_very_long_name_is_cut_in_a_few_measurements(home, monkeypatch):
    """Ellipsizing or wrapping a long name measured it once per character dropped
    (a 200,000-character name in a record held the replay for minutes; here 5,000
    characters, some 12 million measured before); now a binary search over at most
    as many characters as the width has pixels."""
    T.make_app()
    counting = CountingFont(text.font(20))
    monkeypatch.setattr(text, "font", lambda size, bold=False: counting)
    name = "x" * 5_000
    shown = text.ellipsize(name, 20, 200)
    assert shown.endswith("…") and len(shown) < 100
    assert counting.measured < 20 * 201
    counting.measured = 0
    assert text.fit(name, 20, 200) == 10
    assert counting.measured == 0
    counting.measured = 0
    lines = text.wrap("y" * 5_000, 20, 200)
    assert "".join(lines) == "y" * 5_000
    assert counting.measured < len(lines) * 20 * 201



class LongestFont:
    """A font that remembers the longest text it was asked to measure or set."""

    def __init__(self, font: pygame.font.Font) -> None:
        self.font = font
        self.longest = 0

    def size(self, s: str) -> tuple[int, int]:
        self.longest = max(self.longest, len(s))
        return self.font.size(s)

    def render(self, s: str, *args):
        self.longest = max(self.longest, len(s))
        return self.font.render(s, *args)

    def __getattr__(self, name: str):
        return getattr(self.font, name)


def test_a_name_of_200_000_characters_is_cut_before_the_table_measures_it(home, monkeypatch):
    """A record's name of 200,000 characters made each frame of its replay hundreds of
    times slower: the log wrapped the whole name on every frame (to keep its last
    lines), and the plates measured it. A seat's name is cut to
    ``game.turn.texts.SHOWN_NAME`` characters before anything measures it (counted,
    not timed: the longest text the fonts are asked about); the record keeps it whole."""
    app = T.make_app()
    fonts: dict[tuple[int, bool], LongestFont] = {}
    font = text.font

    def longest_font(size, bold=False):
        return fonts.setdefault((int(size), bold), LongestFont(font(size, bold)))

    monkeypatch.setattr(text, "font", longest_font)
    text.clear_cache()
    name = "x" * 200_000
    record = record_named(name)
    app.open("replay", "reset", record=record, title="long")
    drawn: list[str] = []
    blit = text.blit
    monkeypatch.setattr(text, "blit", lambda surf, s, *a, **kw: drawn.append(s) or
                        blit(surf, s, *a, **kw))
    for _ in range(40):
        T.frame(app, 0.2)
    assert record.seats[1].name == name
    assert any(s.startswith("x" * 8) for s in drawn)          # the name is on the table
    assert max(f.longest for f in fonts.values()) < 400


# ----------------------------------------------------------------- the statistics


def recorded_game(name: str = "Anna") -> None:
    """One finished game in the statistics database, as the game writes it."""
    from game.store.database import record_game

    record = record_named(name)
    record_game(record, records.rebuild(record).summary(), game_id="g1", duration=30.0)


#: a column of the latest game and a value the game never writes there
DAMAGE = [("finished", 1e300), ("finished", "yesterday"), ("finished", b"\xff"),
          ("seats", "null"), ("seats", "5"), ("seats", '["x"]'), ("seats", "not json"),
          ("winner", '[{"a": 1}]'), ("winner", '[[1, 2]]'), ("won", "[1, 2]"),
          ("game", b"\xff\xfe"), ("game", "poker"), ("lives", "[[1, 2], [3]]"),
          ("lives", "-1e300"), ("lives", '[["x", 1, 2]]'), ("rules", '{"lives": 0}')]


@pytest.mark.parametrize(("column", "value"), DAMAGE,
                         ids=[f"{c}={v!r}"[:30] for c, v in DAMAGE])
def test_a_damaged_statistics_row_is_skipped_not_a_crash(home, column, value):
    """A statistics row that does not hold what the game writes (a database edited or
    damaged by hand) stopped the statistics screen or the replay list: the screens now
    skip that row, and show the rest."""
    import sqlite3

    from game import store

    recorded_game()
    with sqlite3.connect(store.stats_path()) as con:
        con.execute(f"UPDATE games SET {column} = ?", (value,))
    con.close()
    app = T.make_app()
    for scene in ("stats", "replays"):
        app.open(scene, "reset")
        T.frame(app)
    if column in ("lives", "rules"):     # only the chart of the last game is left empty
        assert store.summarize().last_lives == []
    else:
        assert store.recent_games() == [] and store.summarize().last_game is None


def test_a_damaged_row_leaves_the_other_games_shown(home):
    import sqlite3

    from game import store
    from game.store.database import record_game

    record = record_named("Anna")
    summary = records.rebuild(record).summary()
    record_game(record, summary, game_id="good", duration=1.0, finished=1.7e9)
    record_game(record, summary, game_id="bad", duration=1.0, finished=1.8e9)
    with sqlite3.connect(store.stats_path()) as con:
        con.execute("UPDATE games SET seats = 'null' WHERE game_id = 'bad'")
    con.close()
    assert [g.game_id for g in store.recent_games()] == ["good"]
    data = store.summarize()
    assert data.last_game is not None and data.last_game.game_id == "good"
    assert data.total == 2          # the count reads no names: both games count


@pytest.mark.parametrize("saved", [1e300, -1e300, 10**400], ids=["1e300", "-1e300", "10**400"])
def test_an_unfinished_game_saved_at_an_impossible_time_is_listed(home, saved):
    """The session's ``saved`` time of an unfinished game went straight to
    ``time.localtime``: 1e300 raised OverflowError from the list of unfinished games
    (and from the menu, which counts them). Such a time is not shown; the file's own
    time is. (Windows refuses any time after the year 3000: so does the game.)"""
    from game.store.files import autosave_path

    doc = json.loads((EXAMPLES / "0010_chase_5p_partial.json").read_text())
    doc["session"] = {"game_id": "abc", "saved": saved}
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    app = T.make_app()
    for scene in ("menu", "unfinished"):
        app.open(scene, "reset")
        T.frame(app)


def test_an_unfinished_game_whose_file_time_is_no_date_is_listed(home, monkeypatch):
    """Without a usable ``saved`` time the list shows the file's own time, which went
    to ``time.localtime`` unchecked: a file dated before 1970 (an archive's odd date)
    stopped the list on Windows, whose ``localtime`` refuses such a time (as it does
    past the year 3000, which other file systems than ext4 can hold). Such a file
    time is no date either."""
    import os
    import time

    from game import shelf
    from game.store.files import autosave_path

    doc = json.loads((EXAMPLES / "0010_chase_5p_partial.json").read_text())
    doc["session"] = {"game_id": "abc", "saved": "yesterday"}
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    os.utime(path, (-1e9, -1e9))                       # 1938
    real = time.localtime

    def like_windows(secs: float | None = None) -> time.struct_time:
        if secs is not None and not 0 <= secs <= 32503680000:
            raise OSError(22, "Invalid argument")
        return real(secs)

    monkeypatch.setattr(time, "localtime", like_windows)
    [entry] = shelf.unfinished()
    assert 0 <= entry.saved_at <= 32503680000
    app = T.make_app()
    for scene in ("menu", "unfinished"):
        app.open(scene, "reset")
        T.frame(app)
    assert app.top.name == "unfinished" and len(app.top.entries) == 1


@pytest.mark.parametrize("game_id", [None, "y" * 80], ids=["none", "too-long"])
def test_a_resumed_game_without_a_usable_game_id_is_not_shelved_as_well(home, game_id):
    """An autosave whose session has no game id (a record put there by hand) or one a
    session does not take (over 64 characters): the resumed game got a new id, so
    starting its bookkeeping took the autosave -- the very game resumed -- for
    another game and put a copy onto the shelf. The list then showed the game twice,
    the copy stuck at the move where it was resumed."""
    from game import shelf
    from game.scenes.menu import MenuScene
    from game.store.files import autosave_path

    doc = json.loads((EXAMPLES / "0010_chase_5p_partial.json").read_text())
    doc["session"] = {} if game_id is None else {"game_id": game_id}
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    app = T.make_app()
    app.push(MenuScene(app))
    T.frame(app)
    T.click_button(app, app.top.list.by_name("continue"))
    T.click_button(app, app.top.list.by_name("resume_0"))
    assert T.table_of(app) is not None
    left = shelf.unfinished()
    assert [u.current for u in left] == [True], [u.path.name for u in left]
    assert not shelf.shelf_dir().exists() or not list(shelf.shelf_dir().iterdir())


@pytest.mark.parametrize("elapsed", ["nan", "inf", 1e308, -5])
def test_a_finished_autosave_with_an_odd_time_played_is_counted(home, elapsed):
    """An autosave of a finished game is counted at the next start. Its session's
    ``elapsed`` went through ``float()``: "nan" became SQL NULL, the insert ignored
    the row and the autosave was cleared -- the game lost from the statistics; "inf"
    and 1e308 were stored as the time played. Now an odd time counts as none."""
    from game import store
    from game.store.files import autosave_path

    doc = json.loads((EXAMPLES / "0006_chase_3p_complete.json").read_text())
    doc["session"] = {"game_id": "finished", "elapsed": elapsed}
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    assert store.startup_checks() == []
    assert not path.exists()
    assert [(g.game_id, g.duration) for g in store.recent_games()] == [("finished", 0.0)]


# ----------------------------------------------------------------- names that are no text


def test_a_lone_surrogate_in_a_name_is_kept_as_a_replacement_character(home, tmp_path):
    """JSON can spell a lone surrogate ("\\ud800"), UTF-8 cannot hold one: a record
    with one in a name loaded, but every later write of it failed to encode -- the
    autosave of the resumed game, its line in the statistics (the game was never
    counted, and its autosave never cleared), ``stammtisch review``'s output (a
    traceback). The name is read as U+FFFD in its place."""
    from game import store
    from game.store.database import record_game

    record = record_named("Bad\ud800")
    assert record.seats[1].name == "Bad\ufffd"
    records.save(record, tmp_path / "again.json")
    assert records.load(tmp_path / "again.json").seats[1].name == "Bad\ufffd"
    record_game(record, records.rebuild(record).summary(), game_id="g1")
    assert store.recent_games()[0].seats[1]["name"] == "Bad\ufffd"
    assert record_named("\ud83d\ude00").seats[1].name == "\U0001f600"   # a pair: one character


@pytest.mark.parametrize("as_json", [True, False])
def test_review_prints_any_name_and_no_escape_sequence(home, tmp_path, capfd, as_json):
    """``stammtisch review`` raised UnicodeEncodeError for a lone surrogate in a name,
    and its text output wrote a name's escape sequences to the terminal raw."""
    from game.review.cli import main as review_main

    doc = json.loads((EXAMPLES / "0006_chase_3p_complete.json").read_text())
    doc["seats"][0]["name"] = "\ud800 \x1b[31mred\x1b[0m \u202eabc"
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(doc))
    code = review_main([str(path), "--samples", "1", "--jobs", "1"]
                       + (["--json"] if as_json else []))
    out, err = capfd.readouterr()
    assert code == 0 and err == ""
    assert "\x1b" not in out
    if as_json:
        assert json.loads(out)["players"][0]["name"].startswith("\ufffd \x1b[31m")
    else:
        assert "\\x1b[31mred" in out and "\\u202eabc" in out


# ----------------------------------------------------------------- a record without a seed


def test_a_saved_game_with_deals_and_no_seed_plays_on_to_its_end(home):
    """A record may give its deals and no seed (docs/records.md): valid while the deals
    cover every round dealt. As an autosave it resumed, and the first round beyond its
    deals raised MissingDeal out of a move at the table -- the window stopped. The
    resumed game now gets a seed for the rounds beyond its deals, kept in its record."""
    from game import store
    from game.store.files import autosave_path

    doc = json.loads((EXAMPLES / "0010_chase_5p_partial.json").read_text())
    assert "seed" not in doc and len(doc["deals"]) == 1
    doc["session"] = {"game_id": "deals-only"}
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    saved, problem = store.read_autosave()
    assert problem is None and saved is not None
    app = T.make_app()
    app.open("continue", "reset", record=saved.record, saved=saved.session)
    T.play_game(app, max_steps=5000)
    assert app.top.name == "results"
    row = store.recent_games()[0]
    assert row.game_id == "deals-only"
    record = store.game_record(row.id)
    assert record.deals[0] == doc["deals"][0] and record.seed is not None
    assert records.rebuild(record).finished


REVIEW_DAMAGE = [("accuracy", float("inf")), ("accuracy", 1e300), ("accuracy", b"\xff"),
                 ("name", b"\xff"), ("level", b"\xff")]


@pytest.mark.parametrize(("column", "value"), REVIEW_DAMAGE,
                         ids=[f"{c}={v!r}" for c, v in REVIEW_DAMAGE])
def test_a_damaged_review_row_is_left_out_of_the_accuracy_chart(home, column, value):
    """The statistics screen's accuracy chart read the reviews table as it found it: an
    accuracy of infinity or 1e300 (OverflowError, TypeError from pygame) or a name
    that is no text stopped the screen. Such a row is left out of the chart."""
    import sqlite3

    from game import store
    from game.review.history import TABLE, accuracy_history

    recorded_game()
    rows = [{"seat": s, "name": n, "human": int(s == 0), "level": lv, "accuracy": 0.5}
            for s, n, lv in ((0, "Anna", None), (1, "Ben", "easy"))]
    damaged = 0 if column == "name" else 1        # the person's name, the computer's level
    rows[damaged][column] = value
    with sqlite3.connect(store.stats_path()) as con:
        con.execute(TABLE)
        con.executemany("INSERT INTO reviews VALUES ('g1', :seat, :name, :human, :level, "
                        ":accuracy, 0.1, 1, 1.0, 3)", rows)
    con.close()
    assert [line.name for line in accuracy_history().lines] == [["Anna", "easy"][1 - damaged]]
    app = T.make_app()
    app.open("stats", "reset")
    T.frame(app)
