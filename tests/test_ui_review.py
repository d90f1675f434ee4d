"""The game review on screen, driven headless: from the end of a real game, the
screen shows exactly what ``stammtisch review --json`` prints; a progress bar while it
is computed, the window drawing all along; a jump to the table at a decision with that
seat's cards; nothing of a round in play; the figures join the statistics' chart."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pygame
import pytest

from game import records, store
from game.i18n import t, tn
from game.review import compute, history
from game.review.job import CHUNK, Reviews
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.scenes.replay_list import ReplayListScene
from game.scenes.review import PROGRESS_AFTER, ReviewScene
from game.scenes.stats import StatsScene
from game.turn.workers import InlineWorker, ManualWorker
from game.view import review_panels
from tests.review_helpers import cut, play
from tests.screen_check import drawn_strings

FEW = 24     # deals per move: the same numbers on every path, quickly



def make_app(lang="en", size=(960, 600), worker=None):
    app = T.make_app(size, lang)
    app._reviews = Reviews(lambda: worker or InlineWorker(), history.keep, samples=FEW)
    app.push(MenuScene(app))
    return app




def finished_game(app, game="chase", seed=3, rules=None):
    seats = T.mixed_seats(4, 1, "en")
    table = app.scene("table", game_id=game, seats=seats, rules=rules or {"lives": 2},
                      seed=seed)
    app.push(table)
    assert T.play_to_results(app, table, random.Random(seed)), "the game did not end"
    return app.top


@pytest.mark.parametrize("game", ["chase", "rams"])
def test_the_screen_shows_what_stammtisch_review_prints(home, tmp_path, monkeypatch, game):
    app = make_app()
    results = finished_game(app, game, rules={"counters": 4} if game == "rams" else None)
    T.click_button(app, results.list.by_name("review"))
    scene = app.top
    assert isinstance(scene, ReviewScene)
    seen = drawn_strings(monkeypatch)
    T.frame(app)
    shown = scene.review
    path = tmp_path / "game.json"
    records.save(results.record, path)
    out = subprocess.run([sys.executable, "-m", "game", "review", str(path), "--json",
                          "--jobs", "1", "--samples", str(FEW)],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == shown
    # and the screen draws those figures: every player's, and the decision in focus
    for p in shown["players"]:
        assert review_panels.pct(p["accuracy"]) in seen
        assert review_panels.num(p["decision_cost"]) in seen
        assert review_panels.num(p["cards"]) in seen
    d = scene.current()
    assert d is not None
    assert d == (shown["decisions"][[x["move"] for x in shown["decisions"]].index(
        shown["key_moments"][0])] if shown["key_moments"] else shown["decisions"][0])
    assert any(review_panels.num(d["options"][d["chosen"]]["lives"]) in s for s in seen)
    # the game's figures are in the statistics now (the session's uuid is its key)
    acc = history.accuracy_history()
    assert acc.games == 1 and {ln.name for ln in acc.lines if ln.human} == {history.YOU}


def test_a_progress_bar_after_half_a_second_and_the_window_keeps_drawing(home, monkeypatch):
    manual = ManualWorker()
    app = make_app(worker=manual)
    record = play("chase", ["hard", "medium", "easy", "random"], 4)
    app.open("review", record=record)
    scene = app.top
    seen = drawn_strings(monkeypatch)
    T.frame(app, 0.2)
    assert scene.busy() and not any(s.startswith("Reviewing the game") for s in seen)
    T.frame(app, PROGRESS_AFTER)
    total = scene.job.total
    assert f"Reviewing the game: 0 of {total} decisions" in seen
    frames = 0
    while not scene.job.finished:
        manual.run_next()
        T.frame(app)          # a frame after every answer: the screen never waits
        frames += 1
    assert frames >= total // CHUNK and not scene.busy()
    done = [int(s.split(": ")[1].split(" of ")[0]) for s in seen
            if s.startswith("Reviewing the game: ")]
    assert done == sorted(done) and len(set(done)) >= 4 and done[0] == 0
    assert scene.review == compute.review(record, samples=FEW)


def test_a_key_or_a_click_jumps_to_the_table_with_that_seats_cards(home):
    app = make_app()
    record = play("rams", ["hard", "medium", "easy"], 6, {"lives": 1})
    app.open("review", record=record)
    scene = app.top
    T.frame(app)
    T.key(app, pygame.K_DOWN)
    d = scene.current()
    assert d is scene.entries[1]
    T.key(app, pygame.K_t)
    replay = app.top
    assert replay.name == "replay"
    T.pump(app, 1.0, draw=True)
    table = replay.table
    assert len(table.game.moves) == d["move"] and not replay.playing
    assert table.viewer == d["seat"] and table.table_layout.base == d["seat"]
    p = table.game.to_move()
    assert p.seat == d["seat"] and d["chosen"] in p.legal
    assert sorted(table.game.view(d["seat"])["hand"]) == sorted(d["hand"])
    T.key(app, pygame.K_ESCAPE)
    assert app.top is scene
    # a click on a row chooses it; a second click shows it on the table
    row = scene.rows[3][1]
    T.click(app, row.center)
    assert scene.focus == 3 and app.top is scene
    T.click(app, row.center)
    assert app.top.name == "replay"


@pytest.mark.parametrize("lang,word", [("en", "move"), ("de", "Zug")])
def test_the_jumped_to_replay_counts_the_decision_as_the_review_does(home, monkeypatch,
                                                                     lang, word):
    """The review names a decision "move 17" (counted from 1); the replay that opens
    paused just before it names the same number, not the 16 moves made before it."""
    app = make_app(lang)
    record = play("chase", ["hard", "medium", "easy"], 4, {"lives": 2})
    app.open("review", record=record)
    scene = app.top
    T.frame(app)
    while (d := scene.current()) is not None and d["move"] == 0:
        T.key(app, pygame.K_DOWN)
    assert d is not None and d["move"] > 0
    seen = drawn_strings(monkeypatch)
    T.frame(app)
    n = d["move"] + 1
    assert any(s.endswith(f"· {word} {n}") for s in seen), seen
    T.key(app, pygame.K_t)
    replay = app.top
    T.pump(app, 1.0, draw=True)
    assert len(replay.table.game.moves) == d["move"] and not replay.playing
    seen.clear()
    T.frame(app)
    total = len(record.moves)
    assert t("replay.before", n=n, total=total) in seen
    assert t("replay.move", n=n - 1, total=total) not in seen
    # playing on, the count is of the moves made again
    T.key(app, pygame.K_SPACE)
    T.frame(app)
    assert replay.playing
    seen.clear()
    T.frame(app)
    assert t("replay.move", n=len(replay.table.game.moves), total=total) in seen


@pytest.mark.parametrize("game,rules", [("chase", None), ("rams", {"lives": 2})])
def test_the_screen_shows_nothing_of_a_round_in_play(home, game, rules):
    """In the middle of a round the review screen is, pixel for pixel, the screen of
    the same record cut where that round began."""
    record = play(game, ["medium", "hard", "easy", "medium"], 5, rules)
    g = records.new_engine(record)
    g.start()
    starts, last = [], -1
    for i, (seat, move) in enumerate(record.moves):
        rnd = g.view_key(seat, "round")
        if rnd != last:
            starts.append(i)
            last = rnd
        g.apply(seat, move)
    begin, end = starts[2], starts[3]
    pictures = []
    for stop in (begin, begin + 1, (begin + end) // 2, end - 1):
        app = make_app()
        app.open("review", record=cut(record, stop), title="game.json")
        T.frame(app)
        T.frame(app)
        pictures.append(pygame.image.tobytes(app.screen, "RGB"))
        # and with every seat's decisions listed in turn
        for _ in range(4):
            T.key(app, pygame.K_RIGHT)
            T.key(app, pygame.K_END)
            T.frame(app)
            pictures.append(pygame.image.tobytes(app.screen, "RGB"))
    n = len(pictures) // 4
    for k in range(1, 4):
        assert pictures[k * n:(k + 1) * n] == pictures[:n]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(960, 600), (1920, 1080)])
def test_the_review_fits_the_window(home, lang, size):
    app = make_app(lang, size)
    record = play("rams", ["hard", "medium", "easy", "medium"], 7, {"lives": 1})
    app.open("review", record=record)
    scene = app.top
    T.frame(app)
    w, h = size
    for r in (scene.players_rect, scene.list_rect, scene.detail_rect):
        assert 0 <= r.left and r.right <= w and r.bottom <= scene.list.buttons[0].rect.top
    assert scene.players_rect.bottom <= scene.list_rect.top
    for _ in range(len(scene.entries) + 2):     # every decision draws
        T.key(app, pygame.K_DOWN)
        T.frame(app)
    T.key(app, pygame.K_RIGHT)
    T.frame(app)
    assert all(d["seat"] == 0 for d in scene.entries)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 450), (1280, 800), (1920, 1080)])
def test_the_players_of_a_big_table_are_listed_whole_and_readable(home, lang, size):
    """Ten players: the players' table takes the height its rows need at 24u (14
    pixels at 800x450) before the list and the decision below get the rest. Held to 42 %
    of the room, the rows were 19 pixels at 1280x800 (figures 11 pixels high), and at
    800x450 they spilled over the note below them and out of their panel."""
    from tests.screen_check import problems, recording

    app = make_app(lang, size)
    levels = ["easy", "medium", "hard", "expert"]
    record = play("chase", [levels[i % 4] for i in range(10)], 3, {"lives": 1})
    app.open("review", record=record)
    scene = app.top
    T.frame(app)
    with recording(app) as frame:
        app.draw()
    assert not problems(frame, f"{size} {lang}")
    rows = scene.player_rows
    assert len(rows) == 10
    for _, r in rows:
        assert scene.players_rect.contains(r), (r, scene.players_rect)
        assert r.height >= review_panels.row_least(scene.u), r
    assert scene.players_rect.bottom <= scene.list_rect.top
    assert scene.list_rect.bottom <= scene.list.buttons[0].rect.top


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_option_and_the_cost_show_under_ten_players_at_the_smallest_window(
        home, monkeypatch, lang):
    """Ten players' rows leave the decision 118 pixels at 800x450. Below the cards,
    Rams' options with three to five choices lost their last rows (the chosen one among
    them, where it cost most) and the cost under them, in every such decision of a
    30-round game; now the cards stand beside the options. Every decision of the first
    round shows each option and the cost, and nothing is cut off or lies on
    something."""
    from game.i18n import t
    from tests.screen_check import problems, recording

    app = make_app(lang, (800, 450))
    levels = ["easy", "medium", "hard", "expert"]
    record = play("rams", [levels[i % 4] for i in range(10)], 3, {"counters": 4}, stop=40)
    app.open("review", record=record)
    scene = app.top
    T.frame(app)
    seen = drawn_strings(monkeypatch)
    kinds = set()
    for i, d in enumerate(scene.entries):
        scene.focus = i
        seen.clear()
        with recording(app) as frame:
            app.draw()
        assert not problems(frame, f"{lang} decision {i}")
        for m in d["options"]:
            assert review_panels.move_label(d["decision"], m) in seen, (i, m)
        cost = t(review_panels.scored("review.cost", scene.review),
                 x=review_panels.num(d["cost"])) if d["cost"] >= 0.005 else t("review.no_cost")
        assert any(s == cost for s in seen), (i, cost)
        inside = [r for s, r in frame.texts if scene.detail_rect.colliderect(r)]
        assert all(scene.detail_rect.contains(r) for r in inside), i
        kinds.add(len(d["options"]))
    assert {3, 4, 5} <= kinds, kinds


def test_the_replay_list_opens_a_review_and_the_statistics_chart_it(home):
    app = make_app()
    for seed in (1, 2):
        rec = play("chase", ["hard", "medium", "easy"], seed, {"lives": 1})
        store.record_game(rec, records.rebuild(rec).summary(), game_id=f"g{seed}")
    app.push(ReplayListScene(app))
    T.frame(app)
    lst = app.top
    T.click(app, lst.review_rects[0].center)
    assert isinstance(app.top, ReviewScene) and app.top.review is not None
    T.key(app, pygame.K_ESCAPE)
    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_r)
    assert isinstance(app.top, ReviewScene)
    T.key(app, pygame.K_ESCAPE)
    T.key(app, pygame.K_ESCAPE)
    app.push(StatsScene(app))
    T.frame(app)
    acc = app.top.accuracy
    assert acc.games == 2 and {ln.level for ln in acc.lines} == {"hard", "medium", "easy"}


def test_a_review_that_finishes_while_the_statistics_are_open_joins_their_chart(
        home, monkeypatch):
    """Reviews run in the background: one that finishes while the statistics screen is
    open shows in its accuracy chart then, not only when the screen is opened again."""
    manual = ManualWorker()
    app = make_app(worker=manual)
    rec = play("chase", ["hard", "medium", "easy"], 1, {"lives": 1})
    store.record_game(rec, records.rebuild(rec).summary(), game_id="g1")
    job = app.reviews().start(rec, "g1")
    app.push(StatsScene(app))
    T.frame(app)
    stats = app.top
    assert stats.accuracy.games == 0 and not job.finished
    manual.run_all()
    seen = drawn_strings(monkeypatch)
    T.frame(app)
    assert job.review is not None
    assert stats.accuracy.games == 1 and stats.accuracy.lines
    assert t("stats.accuracy_sub", games=tn("count.games", 1)) in seen


def test_a_record_the_review_cannot_read_says_why(home, monkeypatch):
    app = make_app()
    record = play("chase", ["hard", "medium", "easy"], 2, stop=6)
    record.moves[3] = (record.moves[3][0], "dance")
    app.open("review", record=record)
    seen = drawn_strings(monkeypatch)
    T.frame(app)
    assert app.top.job.error.startswith("illegal_move")
    assert any(s.startswith("The review could not be made") for s in seen)
    T.key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)


def test_the_person_at_the_screen_is_one_line_in_every_language(home):
    """Games played in English ("You") and in German ("Du") chart as one person; other
    people by name, computers by level, one point per game."""
    for k, you in enumerate(("You", "Du", "You")):
        rec = play("chase", ["medium", "hard", "hard"], 10 + k, {"lives": 1})
        rec.seats[0] = records.Seat(you, "human", None)
        rec.seats[1] = records.Seat("Anna", "human", None)
        store.record_game(rec, records.rebuild(rec).summary(), game_id=f"g{k}",
                          finished=1000.0 + k)
        assert history.keep(f"g{k}", compute.review(rec, samples=FEW))
    assert not history.keep(None, {"finished": True, "players": []})
    acc = history.accuracy_history()
    assert acc.games == 3
    by = {(ln.human, ln.name): ln for ln in acc.lines}
    assert set(by) == {(True, history.YOU), (True, "Anna"), (False, "hard")}
    assert [g for g, _ in by[(True, history.YOU)].points] == [1, 2, 3]
    assert all(0.0 <= v <= 1.0 for ln in acc.lines for _, v in ln.points)


def test_keys_before_the_first_frame_do_nothing_wrong(home):
    app = make_app()
    record = play("chase", ["hard", "medium", "easy"], 2, {"lives": 1})
    scene = ReviewScene(app, record)
    app.push(scene)
    for k in (pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_DOWN, pygame.K_HOME,
              pygame.K_END, pygame.K_RIGHT):
        T.key(app, k)
    ev = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-3, flipped=False, precise_x=0.0,
                            precise_y=-3.0, which=0, touch=False)
    app.handle(ev)
    T.frame(app)
    assert app.top is scene and scene.seat == 0


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_review_that_finishes_on_screen_gets_the_players_room(home, lang):
    """The window polls the reviews before the top screen's update, so a review that
    finished while its screen was open was finished before the screen looked: the
    players' table kept the height it had while the progress bar showed (120u), and at
    1000x700 the fourth player of a Rams game lay under the note below the rows."""
    from tests.screen_check import problems, recording

    manual = ManualWorker()
    app = make_app(lang, (1000, 700), worker=manual)
    levels = ["easy", "medium", "hard", "expert"]
    record = play("chase", [levels[i % 4] for i in range(10)], 3, {"lives": 1})
    app.open("review", record=record)
    scene = app.top
    T.frame(app)
    T.frame(app, PROGRESS_AFTER)
    while not scene.job.finished:
        manual.run_next()
        T.frame(app)
    T.frame(app)
    with recording(app) as frame:
        app.draw()
    assert not problems(frame, lang)
    want = review_panels.players_height(scene.review, scene.players_rect.width, scene.u,
                                        review_panels.row_least(scene.u))
    assert scene.players_rect.height >= want
    rows = scene.player_rows
    assert len(rows) == 10
    for _, r in rows:
        assert scene.players_rect.contains(r), (r, scene.players_rect)
        assert r.height >= review_panels.row_least(scene.u), r
