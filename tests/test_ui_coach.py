"""The coach in the window (the hint button, H) and the strategy chart scene.

The hint shows exactly the numbers of ``game.ai.coach.advise_view`` for the view of
the human deciding at the screen, never for a computer, never behind the privacy
screen, and it hides again after the move. The chart renders for 2–10 seats.

The coach thinks in the table's worker; tests that need an answer to be late use a
:class:`~game.turn.workers.ManualWorker` and run it when they choose -- no thread,
no clock."""

import json
import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import i18n  # noqa: E402
from game.ai.coach import advise_view  # noqa: E402
from game.i18n import t  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.chart import ChartScene, cell_colour  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.scenes.table_chase import ChaseTableScene  # noqa: E402
from game.scenes.table_rams import RamsTableScene  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402
from game.turn.workers import ManualWorker  # noqa: E402

seats = T.mixed_seats  # the first seats human, then every level in turn


def table(game, n=5, humans=1, lang="en", size=(960, 600), seed=3, rules=None, worker=None):
    app = T.make_app(size, lang)
    app.push(MenuScene(app))
    cls = RamsTableScene if game == "rams" else ChaseTableScene
    tb = cls(app, seats(n, humans, lang), rules or {}, seed=seed,
             options=TableOptions(worker=worker))
    app.push(tb)
    return app, tb


def check_numbers(tb):
    """The hint shows advise_view's numbers for the decider's own view."""
    p = tb.pending
    coach = tb.coach
    want = advise_view(tb.game.view(p.seat))
    assert coach.visible()
    assert coach.advice["move"] == want["move"]
    assert coach.advice["options"] == want["options"]
    assert set(coach.options()) <= set(p.legal)
    for m, o in want["options"].items():
        n = round(100 * o["lose_life"])
        counting = tb.game.rules.get("scoring") == "counters"   # Rams' default: a penalty
        assert coach.label(m) == t("coach.risk_counters" if counting else "coach.risk", p=n)
        assert coach.label(m, short=True) == t("coach.risk_short", p=n)
    return want


@pytest.mark.parametrize("lang", ["en", "de"])
def test_chase_hint_shows_the_coach_and_hides_after_the_move(lang):
    app, tb = table("chase", lang=lang, rules={"lives": 5})
    rng = random.Random(4)
    shown = 0
    for _ in range(6):
        assert T.drive(app, lambda t_: t_.state == "human" and len(t_.pending.legal) > 1, rng)
        p, moves = tb.pending, len(tb.game.moves)
        app.draw()
        assert not tb.coach.visible()
        assert tb.hint_button.rect.width > 0
        assert tb.hint_button.hint == {"en": "H", "de": "I"}[lang]   # Hint, Tipp
        T.key(app, tb.hint_button.hotkey)
        want = check_numbers(tb)
        assert want["move"] in p.legal
        app.draw()                              # badges on the buttons, the suggestion
        assert tb.pending is p and len(tb.game.moves) == moves    # it never moves
        shown += 1
        # a click on the button hides it, its letter shows it again
        T.click(app, tb.hint_button.rect.center)
        assert not tb.coach.visible()
        T.key(app, tb.hint_button.hotkey)
        assert tb.coach.visible()
        move = rng.choice(list(p.legal))
        T.click_button(app, tb.actions.by_name(move))
        assert len(tb.game.moves) == moves + 1
        assert not tb.coach.visible() and tb.coach.advice is None
        app.draw()
    assert shown == 6
    assert "%" in t("coach.risk", p=22) and "22" in t("coach.risk", p=22)


@pytest.mark.parametrize("decision", ["declare", "trick"])
def test_rams_hint_on_buttons_and_cards(decision):
    app, tb = table("rams", seed=5)
    rng = random.Random(2)
    assert T.drive(app, lambda t_: t_.state == "human" and t_.pending.decision == decision
                   and len(t_.pending.legal) > 1, rng)
    p = tb.pending
    T.key(app, pygame.K_h)
    want = check_numbers(tb)
    app.draw()
    if decision == "trick":
        # every playable card of the hand has its number
        cards = [tb.controls.card_move(sp) for sp in tb.controls.hand()]
        assert set(want["options"]) <= set(cards)
    else:
        assert {b.name for b in tb.actions.buttons} == set(want["options"])
    assert tb.pending is p
    tb.human_move(list(p.legal)[0])
    assert not tb.coach.visible()
    app.draw()


def test_no_hint_for_computers_or_demo():
    app = T.make_app((960, 600), "en", speed="fast", think=30.0)
    app.push(MenuScene(app))
    tb = ChaseTableScene(app, seats(4, 1), {}, seed=3)
    app.push(tb)
    rng = random.Random(1)
    assert T.drive(app, lambda t_: t_.state == "thinking", rng)
    T.key(app, pygame.K_h)
    assert not tb.hint_allowed() and not tb.coach.on and tb.coach.advice is None
    app.draw()
    from game.scenes.table_chase import demo_scene

    demo = demo_scene(app, 4, seed=2)
    app.push(demo)
    for _ in range(200):
        app.update(0.05)
        T.key(app, pygame.K_h)
        assert not demo.hint_allowed() and demo.coach.advice is None


@pytest.mark.parametrize("game", ["chase", "rams"])
def test_hint_is_per_human_and_never_behind_the_privacy_screen(game):
    app, tb = table(game, n=4, humans=2, seed=2)
    rng = random.Random(3)
    seen_handoff = 0
    shown_for = set()
    for _ in range(3000):
        top = app.top
        if top.name == "handoff":
            seen_handoff += 1
            T.key(app, pygame.K_h)               # swallowed by the privacy screen
            assert not tb.coach.visible() and not tb.coach.on
            assert tb.viewer is None
            top.ready()
            continue
        if top is tb and tb.state == "human":
            p = tb.pending
            assert not tb.coach.visible()        # an earlier human's hint never carries over
            if len(p.legal) > 1 and p.seat not in shown_for:
                T.key(app, pygame.K_h)
                assert tb.viewer == p.seat
                check_numbers(tb)
                shown_for.add(p.seat)
                app.draw()
            tb.human_move(rng.choice(list(p.legal)))
            assert not tb.coach.visible()
            if len(shown_for) == 2 and seen_handoff >= 2:
                break
            continue
        if top.name == "results":
            break
        app.update(0.05)
    assert seen_handoff >= 2 and shown_for == {0, 1}


def test_hint_while_the_worker_is_still_thinking():
    """While the coach thinks the window keeps running and says so; the answer shows
    once it arrives; a late answer for a decision already taken is dropped."""
    worker = ManualWorker(autorun=True)         # computers answer at once
    app, tb = table("chase", n=5, worker=worker)
    rng = random.Random(6)
    assert T.drive(app, lambda t_: t_.state == "human" and len(t_.pending.legal) > 1, rng)
    worker.autorun = False                      # from now on the test runs the worker
    T.key(app, pygame.K_h)
    assert tb.coach.visible() and tb.coach.advice is None and tb.busy()
    app.draw()                                  # "the coach is thinking"
    T.pump(app, 1.0)
    assert tb.coach.advice is None and tb.coach.waiting()   # nothing without the worker
    assert worker.run_all() == 1
    app.update(0.0)
    check_numbers(tb)
    assert not tb.coach.waiting()
    # a new request, then a move before the answer arrives: nothing shows afterwards
    tb.human_move(tb.pending.legal[0])
    worker.autorun = True
    assert T.drive(app, lambda t_: t_.state == "human" and len(t_.pending.legal) > 1, rng)
    worker.autorun = False
    T.key(app, pygame.K_h)
    asked = tb.pending
    tb.human_move(asked.legal[0])
    assert worker.run_all() == 1
    app.update(0.0)
    assert not tb.coach.waiting()
    assert tb.coach.advice is None and not tb.coach.visible()
    tb.exit()


@pytest.mark.parametrize("lang,size", [("de", (960, 600)), ("en", (1920, 1080))])
def test_chart_renders_every_table_size_and_toggles(lang, size):
    app = T.make_app(size, lang)
    app.push(MenuScene(app))
    T.click_button(app, app.top.list.by_name("rules"))
    rules = app.top
    T.click_button(app, rules.list.by_name("chart"))
    chart = app.top
    assert chart.name == "chart"
    T.key(app, pygame.K_HOME)
    for _ in range(10):
        T.key(app, pygame.K_LEFT)
    assert chart.players == 2
    seen = []
    while True:
        for after in (False, True):
            assert chart.after == after
            app.draw()
            data = chart.chart
            assert data["players"] == chart.players
            assert len(data["positions"]) == chart.players
            assert data["positions"][-1]["dealer"]
            T.key(app, chart.view_button.hotkey)
        seen.append(chart.players)
        if chart.players == 10:
            break
        T.click_button(app, chart.list.by_name("more"))
    assert seen == list(range(2, 11))
    T.click_button(app, chart.list.by_name("view"))
    assert chart.after
    T.click_button(app, chart.list.by_name("fewer"))
    assert chart.players == 9
    T.key(app, pygame.K_ESCAPE)
    assert app.top is rules
    T.key(app, rules.list.by_name("chart").hotkey)
    assert app.top.name == "chart"
    T.click_button(app, app.top.list.by_name("back"))
    assert app.top is rules


def test_chart_colours_and_texts():
    assert cell_colour(0.0)[1] > cell_colour(0.0)[0]       # keep: green
    assert cell_colour(1.0)[0] > cell_colour(1.0)[1]       # swap: red
    app = T.make_app((960, 600), "de")
    sc = ChartScene(app, 4)
    assert [sc.row_label(r) for r in sc.chart["positions"]] == [
        "1 · links vom Geber", "2", "3", "4 · Geber"]
    i18n.set_lang("en")
    assert sc.row_label(sc.chart["positions"][-1]) == "4 · dealer"
    # every seat swaps an Ace; after a swap the first seat has no row
    assert all(sc.values(r)[1] == 1.0 for r in sc.chart["positions"])
    sc.toggle()
    assert sc.values(sc.chart["positions"][0]) == {}
    assert sc.values(sc.chart["positions"][-1])[1] == 1.0
    # a row of zeros only is shown as "no numbers", never as "always keep"
    assert sc.values({"pos": 1, "dealer": False, "p_swap": {r: 0.0 for r in range(1, 14)},
                      "after_swap": {}}) == {}


def test_locale_key_sets_are_identical():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "game" / "locale"
    de = json.loads((root / "de.json").read_text(encoding="utf-8"))
    en = json.loads((root / "en.json").read_text(encoding="utf-8"))
    assert set(de) == set(en)
    for k in ("coach.button", "coach.risk", "coach.best", "rules.chart", "chart.title"):
        assert k in de
