"""The window driven by synthetic events: whole games by mouse and by keyboard, in
German and English, solo, hot-seat and demo, with every Chase variant."""

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import argparse  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import winsize  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.scenes.table_chase import ChaseTableScene, demo_scene  # noqa: E402

seats = T.mixed_seats  # the first seats human, then every level in turn


def check_privacy(app, table):
    """No private card of a seat is drawn face up unless it is the viewer's own,
    the engine made it public, or it is the demo's showdown."""
    m = table.model
    for seat, sp in m.hand.items():
        if sp.code is None:
            continue
        if seat in m.public_up:
            continue
        assert table.viewer == seat, (seat, table.viewer, sp.code)
        assert seat in table.humans
    if table.viewer is not None:
        assert table.viewer in table.humans
    if table.state == "human":
        assert table.viewer == table.pending.seat
        assert app.top is table


def play_checked(app, choose=None, use_keys=False, rng=None, max_steps=40000):
    rng = rng or random.Random(1)
    handoffs = 0
    for _ in range(max_steps):
        top = app.top
        if top.name == "results":
            return handoffs
        table = T.table_of(app)
        check_privacy(app, table)
        if top.name == "handoff":
            handoffs += 1
            # the table is hidden completely under the privacy screen
            assert top.opaque and all(sp.code is None or s in table.model.public_up
                                      for s, sp in table.model.hand.items())
            if use_keys:
                T.key(app, pygame.K_RETURN)
            else:
                T.click_button(app, top.list.buttons[0])
            continue
        if top is table and table.state == "human":
            p = table.pending
            offered = sorted(b.name for b in table.actions.buttons)
            assert offered == sorted(p.legal)
            move = choose(p) if choose else rng.choice(list(p.legal))
            btn = table.actions.by_name(move)
            if use_keys:
                # move the highlight with arrows, then Enter
                while table.actions.buttons[table.actions.focus].name != move:
                    T.key(app, pygame.K_RIGHT)
                T.key(app, pygame.K_RETURN)
            else:
                T.click_button(app, btn)
            continue
        app.update(0.05)
        if rng.random() < 0.05:
            app.draw()
    raise AssertionError("game did not finish")


@pytest.mark.parametrize("lang,use_keys", [("en", False), ("de", True)])
def test_solo_game_mouse_and_keyboard(lang, use_keys):
    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    app.push(ChaseTableScene(app, seats(5, 1, lang), {}, seed=11))
    handoffs = play_checked(app, use_keys=use_keys)
    assert handoffs == 0     # one human: never a privacy screen
    res = app.top
    assert res.name == "results"
    assert res.ranking[0][0] == 1
    app.draw()
    # play again, then back to the menu
    T.click_button(app, res.list.by_name("again"))
    assert isinstance(app.top, ChaseTableScene)
    play_checked(app, use_keys=use_keys, rng=random.Random(5))
    T.key(app, pygame.K_m)
    assert app.top.name == "menu"


def test_hot_seat_three_humans_privacy():
    app = T.make_app((960, 600), "de")
    app.push(MenuScene(app))
    app.push(ChaseTableScene(app, seats(5, 3, "de"), {}, seed=3))
    handoffs = play_checked(app)
    assert handoffs > 3


def test_demo_shows_no_private_cards_and_continues():
    app = T.make_app((1280, 720), "en", speed="fast")
    app.push(MenuScene(app))
    app.push(demo_scene(app, 6, seed=1))
    first = app.top
    seen_showdown = False
    for _ in range(20000):
        app.update(1 / 30)
        tb = T.table_of(app)
        if tb is not first:
            break
        for seat, sp in tb.model.hand.items():
            assert sp.code is None or seat in tb.model.public_up
        seen_showdown |= bool(tb.model.public_up)
    assert seen_showdown
    assert T.table_of(app) is not first, "attract mode starts the next game"


VARIANTS = [
    {"queen_refuses_once": True, "reveal_low_on_pass": True, "domino": "low"},
    {"domino": "ace", "blocked_swap_skips": True, "talon_king_blocks": True},
    {"deck_policy": "continue", "lives": 5, "stake": 10},
    {"deck": "cuckoo40", "first_dealer": "random"},
    {"ace_high": True, "aces_double": True, "ace_of_spades_double": True},
    {"final_tie": "replay", "lives": 1, "dealer_wins_ties": True},
    {"final_tie": "restart", "lives": 1},
    {"final_tie": "shared", "lives": 1},
    {"final_tie": "sudden_death", "lives": 1, "decks": 2},
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_every_variant_plays_to_the_end(rules):
    for seed in range(3):
        app = T.make_app((1280, 720), "en")
        app.push(MenuScene(app))
        app.push(ChaseTableScene(app, seats(4, 1), rules, seed=seed))
        play_checked(app, rng=random.Random(seed))
        app.draw()


def test_animated_game_with_fast_forward_time():
    """Normal animation speed and thinking pause; time is fast-forwarded."""
    app = T.make_app((1280, 720), "en", speed="normal", think=0.3)
    app.push(MenuScene(app))
    app.push(ChaseTableScene(app, seats(4, 1), {"lives": 1}, seed=7))
    rng = random.Random(2)
    for _ in range(200000):
        top = app.top
        if top.name == "results":
            break
        tb = T.table_of(app)
        if tb.state == "human":
            T.click_button(app, tb.actions.by_name(rng.choice(list(tb.pending.legal))))
        else:
            T.frame(app, 1 / 30)
    assert app.top.name == "results"


def test_menu_to_setup_to_game_by_keyboard(monkeypatch, tmp_path):
    # a home of its own: no unfinished games, so "New game" is the first button
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    T.key(app, pygame.K_RETURN)             # New game: Chase the Ace
    setup = app.top
    assert setup.name == "setup"
    T.key(app, pygame.K_DOWN)               # -> "Number of players" is first focusable
    T.key(app, pygame.K_UP)
    T.key(app, pygame.K_RIGHT)              # 5 players
    T.key(app, pygame.K_RIGHT)              # 6 players
    assert setup.setup["players"] == 6
    T.key(app, pygame.K_DOWN)               # seat 0 row
    T.key(app, pygame.K_RETURN)             # edit its name
    for _ in range(5):
        T.key(app, pygame.K_BACKSPACE)
    T.type_text(app, "Eva")
    T.key(app, pygame.K_RETURN)
    T.key(app, pygame.K_TAB)                # rules
    T.key(app, pygame.K_DOWN)               # lives
    T.key(app, pygame.K_RIGHT)              # 4 lives
    assert setup.rules["lives"] == 4
    T.key(app, pygame.K_TAB)                # buttons (Start focused)
    T.key(app, pygame.K_RETURN)
    tb = app.top
    assert isinstance(tb, ChaseTableScene)
    assert tb.seat_name(0) == "Eva" and tb.n == 6 and tb.game.rules["lives"] == 4
    assert app.settings["setup"]["rules"] == {"lives": 4}   # remembered
    T.key(app, pygame.K_ESCAPE)
    assert app.top.name == "pause"
    T.key(app, pygame.K_ESCAPE)
    assert app.top is tb


def test_the_main_menu_keeps_its_focus_when_a_screen_opened_from_it_closes(
        monkeypatch, tmp_path):
    """Arrows to Statistics, Enter, Esc: the focus is on Statistics again (it used to
    jump back to the first button, so Enter then started a new game)."""
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    menu = app.top
    for name in ("stats", "replays", "settings", "rules", "new_rams"):
        while menu.list.buttons[menu.list.focus].name != name:
            T.key(app, pygame.K_DOWN)
        T.key(app, pygame.K_RETURN)
        assert app.top is not menu
        T.key(app, pygame.K_ESCAPE)
        assert app.top is menu
        assert menu.list.buttons[menu.list.focus].name == name


def test_esc_on_the_main_menu_points_at_quit_before_it_quits(monkeypatch, tmp_path):
    """Esc goes back on every screen; one Esc too many, back on the main menu, used to
    close the window at once. Now it puts the focus on Quit, and the next Esc quits."""
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    menu = app.top
    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_RETURN)                # Statistics
    assert app.top.name == "stats"
    T.key(app, pygame.K_ESCAPE)                # back to the menu
    T.key(app, pygame.K_ESCAPE)                # one too many
    assert app.running and app.top is menu
    assert menu.list.buttons[menu.list.focus].name == "quit"
    T.key(app, pygame.K_ESCAPE)
    assert not app.running


def test_setup_by_mouse_and_settings_scene():
    app = T.make_app((960, 600), "de")
    app.push(MenuScene(app))
    T.click_button(app, app.top.list.by_name("settings"))
    st = app.top
    assert st.name == "settings"
    app.draw()
    lang_row = st.form.rows[0]
    T.click(app, lang_row.right.center)      # Deutsch (forced by --lang) -> English
    assert app.settings["lang"] == "en"
    for row in st.form.rows:
        if row.name == "fullscreen":
            continue
        T.click(app, row.right.center)
        app.draw()
    T.key(app, pygame.K_ESCAPE)
    assert app.top.name == "menu"
    T.click_button(app, app.top.list.by_name("new_chase"))
    setup = app.top
    app.draw()
    players = [r for r in setup.seat_form.rows if r.name == "players"][0]
    T.click(app, players.left.center)
    assert setup.setup["players"] == 3
    seat1 = [r for r in setup.seat_form.rows if r.name == "seat1"][0]
    T.click(app, seat1.left.center)           # Computer: Medium -> Computer: Easy
    assert setup.setup["seats"][1]["level"] == "easy"
    T.click(app, seat1.left.center)           # -> Human
    assert setup.setup["seats"][1]["human"]
    T.click_button(app, setup.buttons.by_name("start"))
    tb = app.top
    assert isinstance(tb, ChaseTableScene) and tb.humans == [0, 1]


@pytest.mark.parametrize("lang,alone,first", [("en", "You", "Player 1"),
                                               ("de", "Du", "Spieler 1")])
def test_the_setup_calls_the_first_person_what_the_table_will(lang, alone, first):
    """With a second person at the screen the first seat's row read "You" while the
    table called that seat "Player 1"; the row now says what the table will."""
    from tests.screen_check import recording

    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    T.click_button(app, app.top.list.by_name("new_chase"))
    setup = app.top

    def drawn() -> list[str]:
        with recording(app) as frame:
            app.draw()
        return [s for s, _r in frame.texts]

    assert alone in drawn() and first not in drawn()
    seat1 = [r for r in setup.seat_form.rows if r.name == "seat1"][0]
    T.click(app, seat1.left.center)           # Computer: Medium -> Computer: Easy
    T.click(app, seat1.left.center)           # -> Human
    assert setup.setup["seats"][1]["human"]
    assert first in drawn() and alone not in drawn()
    T.click_button(app, setup.buttons.by_name("start"))
    assert T.table_of(app).names.name(0) == first


def test_rules_scene_scrolls_in_both_languages():
    for lang in ("de", "en"):
        app = T.make_app((960, 600), lang)
        app.push(MenuScene(app))
        T.click_button(app, app.top.list.by_name("rules"))
        rs = app.top
        app.draw()
        assert rs.total > rs.view.height
        T.key(app, pygame.K_END)
        assert rs.scroll == rs.total - rs.view.height
        app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=3, flipped=False))
        assert rs.scroll < rs.total - rs.view.height
        T.key(app, pygame.K_ESCAPE)
        assert app.top.name == "menu"


def test_smoke_and_sizes():
    """The smoke test starts and ends cleanly; at every window size a ten-seat table
    reaches a decision whose controls, plates and cards all lie inside the window, the
    buttons offer exactly the legal moves and none overlaps another."""
    from game.app import run

    ns = argparse.Namespace(demo=False, game=None, seed=None, quit_after=None,
                            frame_stats=False, smoke_test=True, lang="en", size=(960, 600),
                            players=None)
    assert run(ns) == 0
    for size in ((960, 600), (3840, 2160), winsize.MIN_SIZE):
        app = T.make_app(size, "de")
        app.push(MenuScene(app))
        tb = ChaseTableScene(app, seats(10, 1, "de"), {}, seed=1)
        app.push(tb)
        assert T.drive(app, lambda t: t.state == "human")
        app.draw()
        screen = app.screen.get_rect()
        assert screen.size == size
        buttons = tb.actions.buttons
        assert sorted(b.name for b in buttons) == sorted(tb.pending.legal)
        for b in buttons + [tb.menu_button, tb.hint_button]:
            assert b.rect.width > 0 and screen.contains(b.rect), (size, b.name, b.rect)
        for i, a in enumerate(buttons):
            assert not any(a.rect.colliderect(b.rect) for b in buttons[i + 1:])
        for s in range(tb.n):
            assert screen.contains(tb.table_layout.plate_rect(s)), (size, s)
            x, y = tb.model.hand[s].pos(tb.table_layout.resolve)
            assert screen.collidepoint(x, y), (size, s, x, y)


def test_frame_stats_line(capsys):
    from game.app import run

    ns = argparse.Namespace(demo=True, game=None, seed=1, quit_after=1.0, frame_stats=True,
                            smoke_test=False, lang="en", size=(960, 600), players=4)
    assert run(ns) == 0
    import json

    line = capsys.readouterr().out.strip().splitlines()[-1]
    stats = json.loads(line)
    assert set(stats) == {"frames", "fps", "frame_ms_p50", "frame_ms_p95", "frame_ms_p99",
                          "frame_ms_max", "frame_ms_max_after_1s"}
    assert 0 <= stats["frame_ms_max_after_1s"] <= stats["frame_ms_max"]
    # how many frames fit in the second depends on the machine; that some were drawn
    # and the percentiles are ordered does not
    assert stats["frames"] >= 1 and stats["fps"] > 0
    assert 0 <= stats["frame_ms_p50"] <= stats["frame_ms_p95"] <= stats["frame_ms_p99"] \
        <= stats["frame_ms_max"]


@pytest.mark.parametrize("stats", [False, True])
def test_the_loop_keeps_frame_times_only_when_asked(stats):
    """Every drawn frame added two numbers to lists that were only read for
    ``--frame-stats``: a demo left running grew by them for good (about 0.3 MB a
    minute at 60 frames a second). They are kept only when the figures were asked for."""
    from game.app import App

    ns = argparse.Namespace(demo=True, game=None, seed=1, quit_after=0.5, frame_stats=stats,
                            smoke_test=False, lang="en", size=(960, 600), players=4)
    app = App(ns)
    app.open("menu")
    app.open("demo", game_id=None, players=4, seed=1)
    app.run(ns.quit_after)
    assert app.frames > 0
    assert len(app.frame_times) == len(app.frame_starts) == (app.frames if stats else 0)
    app.close()


def test_a_failing_level_is_shown_and_reported(tmp_path, monkeypatch):
    """A built-in level that raises is a bug: the table stops, shows the error, writes
    a crash report and plays no move in its place."""
    from game.turn.options import TableOptions
    from game.turn.sources import HumanSource, LevelSource
    from game.turn.workers import InlineWorker

    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))

    class Broken:
        name = "hard"

        def choose(self, view):
            raise RuntimeError("the level fell over")

    app = T.make_app((960, 600), "en")
    app.push(MenuScene(app))
    sources = {0: HumanSource(), 1: LevelSource(Broken(), InlineWorker(), "hard"),
               2: LevelSource(Broken(), InlineWorker(), "hard")}
    tb = ChaseTableScene(app, seats(3, 1), {}, seed=4, options=TableOptions(sources=sources))
    app.push(tb)
    assert T.drive(app, lambda t: t.state == "failed", choose=lambda p: p.legal[0])
    moves = list(tb.game.moves)
    T.pump(app, 2.0)
    assert tb.game.moves == moves and tb.state == "failed"
    lines = tb.failure_lines()
    assert "RuntimeError: the level fell over" in lines[0] and "Hard" in lines[0]
    # "saved up to the last move" only while it is: not once its autosave is off
    assert lines[0].endswith("it is saved up to the last move.")
    tb.session.autosave_off("the shelf is full")
    assert tb.failure_lines()[0].endswith("The game stops here; it is not saved.")
    reports = list((tmp_path / "logs").glob("crash-*.log"))
    assert len(reports) == 1 and str(reports[0]) in lines[1]
    assert "the level fell over" in reports[0].read_text(encoding="utf-8")
    app.draw()
    T.key(app, pygame.K_ESCAPE)                  # the menu is still there
    assert app.top.name == "pause"


def test_sound_cues_come_through_the_hooks_and_a_resumed_game_is_quiet(tmp_path, monkeypatch):
    """Every table sound is a cue on the table's hooks, heard when the animation gets
    there; the moves a resumed game catches up on make no sound."""
    from game import store
    from game.turn import hooks as H

    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))

    class Ears:
        def __init__(self) -> None:
            self.heard: list[str] = []

        def play(self, name: str) -> None:
            self.heard.append(name)

    app = T.make_app((960, 600), "en", speed="fast")
    app.audio = ears = Ears()
    app.push(MenuScene(app))
    tb = ChaseTableScene(app, seats(4, 1), {"lives": 5}, seed=9)
    cues: list[str] = []
    tb.hooks.subscribe(H.CUE, lambda news: cues.append(news.data["name"]))
    app.push(tb)
    assert not cues                            # nothing is heard before it is shown
    assert T.drive(app, lambda t: len(t.game.moves) >= 12)
    assert {"shuffle", "deal"} <= set(cues)
    assert [x for x in ears.heard if x != "click"] == cues
    saved, problem = store.read_autosave()
    assert problem is None and len(saved.record.moves) >= 12
    # Continue: the saved moves are caught up on in silence, then play goes on aloud
    app2 = T.make_app((960, 600), "en", speed="fast")
    app2.audio = ears2 = Ears()
    app2.push(MenuScene(app2))
    table = app2.scene("continue", record=saved.record, saved=saved.session)
    app2.push(table)
    app2.update(0.0)
    k = len(saved.record.moves)
    assert not table.catching_up and table.game.moves[:k] == saved.record.moves
    assert ears2.heard == []                   # (a move made since is not shown yet)
    assert T.drive(app2, lambda t: len(t.game.moves) >= len(saved.record.moves) + 4)
    assert ears2.heard
