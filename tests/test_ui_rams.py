"""The Rams table driven by synthetic events: whole games by mouse and by keyboard, in
German and English, solo, hot-seat and demo, with the Rams variants; privacy, the
explanations of illegal cards, setup and the demo switch."""

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import argparse  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import i18n  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.scenes.table_rams import RamsTableScene, demo_scene  # noqa: E402
from game.settings import default_setup  # noqa: E402
from game.turn.rams_texts import illegal_reason, prompt, refusal_text  # noqa: E402

seats = T.mixed_seats  # the first seats human, then every level in turn
#: "Rams as written" (record format 1's defaults): 002 with lives and the drop limit
AS_WRITTEN = {"scoring": "lives", "drop_limit": 1, "general_rams": False,
              "dealer_must_play": False, "last_round": "none"}


@pytest.fixture(autouse=True)
def quick_search(monkeypatch):
    """The table is under test here, not the levels' strength: ``hard`` and ``expert``
    search fewer deals (whole games under counters ask them for every card)."""
    import dataclasses

    from game.ai import rams_levels

    for cls in (rams_levels.RamsHard, rams_levels.RamsExpert):
        monkeypatch.setattr(cls, "budget", dataclasses.replace(cls.budget, declare=24,
                                                                card=12))


def check_privacy(app, tb):
    """Only the viewer's own hand is face up (played cards and the trump card are public)."""
    for seat, lst in tb.model.hands.items():
        for sp in lst:
            if sp.code is None:
                continue
            assert seat == tb.viewer, (seat, tb.viewer, sp.code)
            assert seat in tb.humans
            assert sp.code == sp.card
    if tb.state == "human":
        assert tb.viewer == tb.pending.seat == tb.table_layout.base
        assert app.top is tb


def act(app, tb, move, use_keys):
    """Perform ``move`` through the UI: buttons for declarations, cards for the rest."""
    p = tb.pending
    if move in ("play", "drop", "general", "pass_trump"):
        btn = tb.actions.by_name(move)
        assert btn is not None, (move, [b.name for b in tb.actions.buttons])
        if use_keys:
            if move == "pass_trump":
                T.key(app, btn.hotkey)
            else:
                while tb.actions.buttons[tb.actions.focus].name != move:
                    T.key(app, pygame.K_RIGHT)
                T.key(app, pygame.K_RETURN)
        else:
            T.click_button(app, btn)
        return
    code = move[5:] if move.startswith("take:") else move
    c = tb.controls
    lst = c.hand()
    idx = [sp.card for sp in lst].index(code)
    if use_keys:
        while c.focus != idx:
            T.key(app, pygame.K_RIGHT)
        T.key(app, pygame.K_RETURN)
    else:
        app.draw()
        rect = c.card_rects()[idx]
        # click the part of the card no later card covers
        T.click(app, (rect.left + max(2, rect.width // 8), rect.centery))
    assert tb.pending is not p or tb.state != "human", "the move was not taken"


def play_checked(app, use_keys=False, rng=None, max_steps=60000, illegal_tries=True):
    rng = rng or random.Random(1)
    handoffs = 0
    seen = set()
    for _ in range(max_steps):
        top = app.top
        if top.name == "results":
            return handoffs, seen
        tb = T.table_of(app)
        check_privacy(app, tb)
        if top.name == "handoff":
            handoffs += 1
            assert top.opaque
            assert all(sp.code is None for lst in tb.model.hands.values() for sp in lst)
            if use_keys:
                T.key(app, pygame.K_RETURN)
            else:
                T.click_button(app, top.list.buttons[0])
            continue
        if top is tb and tb.state == "human":
            p = tb.pending
            seen.add(p.decision)
            if p.decision == "declare":
                assert sorted(b.name for b in tb.actions.buttons) == sorted(p.legal)
            c = tb.controls
            lst = c.hand()
            if p.decision == "trick":
                assert sorted(sp.card for sp in lst if c.card_move(sp) in p.legal) == \
                    sorted(p.legal)
                bad = [i for i, sp in enumerate(lst) if sp.card not in p.legal]
                if bad and illegal_tries and rng.random() < 0.5:
                    seen.add("illegal")
                    # an illegal card: nothing happens, the engine's reason is shown
                    card = lst[bad[0]].card
                    c.play_index(bad[0])
                    assert tb.state == "human" and tb.pending is p
                    assert c.focused() == bad[0]
                    why = tb.game.why_illegal(p.seat, card)
                    assert why is not None and c.refusals[card] == why
                    assert refusal_text(why) == illegal_reason(tb.decision.view, card)
                    app.draw()
            act(app, tb, rng.choice(list(p.legal)), use_keys)
            continue
        app.update(0.05)
        if rng.random() < 0.05:
            app.draw()
    raise AssertionError("game did not finish")


@pytest.mark.parametrize("lang,use_keys", [("en", False), ("de", True)])
def test_solo_game_mouse_and_keyboard(lang, use_keys):
    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    app.push(RamsTableScene(app, seats(5, 1, lang), {}, seed=11))
    handoffs, seen = play_checked(app, use_keys=use_keys)
    assert handoffs == 0
    assert {"declare", "trick"} <= seen
    res = app.top
    assert res.name == "results" and res.ranking[0][0] == 1
    app.draw()
    T.click_button(app, res.list.by_name("again"))
    assert isinstance(app.top, RamsTableScene)
    play_checked(app, use_keys=use_keys, rng=random.Random(5))
    T.key(app, pygame.K_m)
    assert app.top.name == "menu"


def test_hot_seat_three_humans_privacy():
    app = T.make_app((960, 600), "de")
    app.push(MenuScene(app))
    app.push(RamsTableScene(app, seats(5, 3, "de"), {}, seed=3))
    handoffs, _ = play_checked(app)
    assert handoffs > 3


VARIANTS = [
    {**AS_WRITTEN, "dealer_takes_trump": True},
    {**AS_WRITTEN, "must_trump": True, "must_beat": True},
    {**AS_WRITTEN, "lone_needs_one": True, "drop_limit": "none", "lives": 1},
    {**AS_WRITTEN, "hand_size": 3, "lives": 2, "drop_limit": 3},
    {**AS_WRITTEN, "deck": "french52", "lives": 1},
    # today's defaults with the other keys: counters, General Rams, the dealer plays
    {"counters": 6, "two_must_play": True, "dealer_takes_trump": True},
    {"scoring": "lives", "lives": 1, "two_must_play": True},
]


@pytest.mark.parametrize("rules", VARIANTS)
def test_every_variant_plays_to_the_end(rules):
    seen = set()
    for seed in range(3):
        app = T.make_app((1280, 720), "en")
        app.push(MenuScene(app))
        n = 7 if rules.get("deck") == "french52" else 4
        app.push(RamsTableScene(app, seats(n, 1), rules, seed=seed))
        seen |= play_checked(app, rng=random.Random(seed), use_keys=seed == 1)[1]
        app.draw()
    if rules.get("dealer_takes_trump"):
        assert "take" in seen


def test_animated_game_with_fast_forward_time():
    app = T.make_app((1280, 720), "en", speed="normal", think=0.3)
    app.push(MenuScene(app))
    app.push(RamsTableScene(app, seats(4, 1), {"lives": 1}, seed=7))
    rng = random.Random(2)
    for _ in range(200000):
        if app.top.name == "results":
            break
        tb = T.table_of(app)
        if tb.state == "human":
            act(app, tb, rng.choice(list(tb.pending.legal)), False)
        else:
            T.frame(app, 1 / 30)
    assert app.top.name == "results"


def drop_until_forced(app, tb) -> str | None:
    """The person drops whenever allowed until a declaration leaves no drop (no drop
    button then); returns the table's prompt for it, or ``None`` if the game ended."""
    for _ in range(40000):
        if tb.state == "human":
            p = tb.pending
            if p.decision == "declare" and "drop" not in p.legal:
                assert tb.actions.by_name("drop") is None
                return prompt(p, tb.decision.view, tb.n)
            tb.human_move("drop" if "drop" in p.legal else p.legal[0])
            continue
        if app.top is not tb:
            return None
        app.update(0.05)
    return None


def test_forced_play_is_explained():
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    tb = RamsTableScene(app, seats(4, 1), dict(AS_WRITTEN), seed=2)
    app.push(tb)
    # the human always drops: the next round they must play, and the table says so
    forced = drop_until_forced(app, tb)
    assert forced == "You dropped out last round: you must play."
    app.draw()
    i18n.set_lang("de")
    assert prompt(tb.pending, tb.decision.view, tb.n) == \
        "Du bist letzte Runde ausgestiegen: Du musst spielen."
    i18n.set_lang("en")


def test_illegal_reasons():
    i18n.set_lang("en")
    view = {"trick": [{"seat": 1, "card": "9H"}], "hand": ["7H", "AS", "8C"],
            "rules": {"must_trump": True, "must_beat": False}, "trump": "C", "deck": "skat32"}
    assert illegal_reason(view, "AS") == "You must follow hearts."
    view["hand"] = ["AS", "8C"]
    assert illegal_reason(view, "AS") == "You must trump (clubs)."
    view = {"trick": [{"seat": 1, "card": "9H"}, {"seat": 2, "card": "JH"}],
            "hand": ["7H", "AH"], "rules": {"must_beat": True}, "trump": "C", "deck": "skat32"}
    assert illegal_reason(view, "7H") == "You must beat the trick (Jack of hearts)."
    i18n.set_lang("de")
    assert illegal_reason(view, "7H") == "Du musst den Stich schlagen (Herz-Bube)."
    i18n.set_lang("en")


def test_menu_to_rams_setup_to_game_by_keyboard():
    app = T.make_app((1280, 720), "en")
    app.settings.data["setup_rams"] = default_setup()   # other tests save settings files
    app.push(MenuScene(app))
    T.click_button(app, app.top.list.by_name("new_rams"))
    setup = app.top
    assert setup.name == "setup" and setup.game_id == "rams"
    app.draw()
    T.key(app, pygame.K_TAB)                # rules
    names = [r.name for r in setup.rule_form.focusable()]
    # the named rule set first, then the scoring; the lives are hidden under counters
    assert names[:3] == ["preset", "scoring", "counters"] and "lives" not in names
    assert "dealer_takes_trump" in names
    for _ in range(names.index("dealer_takes_trump")):
        T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_RIGHT)
    assert setup.rules["dealer_takes_trump"] is True
    while setup.rule_form.focused().name != "drop_limit":
        T.key(app, pygame.K_UP)
    for _ in range(2):
        T.key(app, pygame.K_RIGHT)          # none -> 1 -> 2
    assert setup.rules["drop_limit"] == 2
    T.key(app, pygame.K_TAB)                # buttons (Start focused)
    T.key(app, pygame.K_RETURN)
    tb = app.top
    assert isinstance(tb, RamsTableScene)
    assert tb.game.rules["dealer_takes_trump"] and tb.game.rules["drop_limit"] == 2
    assert app.settings.data["setup_rams"]["rules"] == {"dealer_takes_trump": True,
                                                         "drop_limit": 2}
    assert app.settings["setup"]["rules"] == {}     # Chase's setup untouched
    # back in the menu, the Rams setup remembers; S (Switch to …) switches to Chase
    app.reset(MenuScene(app))
    T.click_button(app, app.top.list.by_name("new_rams"))
    assert app.top.rules["drop_limit"] == 2
    T.key(app, pygame.K_TAB)
    T.key(app, pygame.K_TAB)
    T.key(app, pygame.K_s)
    assert app.top.name == "setup" and app.top.game_id == "chase"
    app.draw()


def test_setup_refuses_a_deal_that_does_not_fit():
    app = T.make_app((960, 600), "de")
    app.push(MenuScene(app))
    T.click_button(app, app.top.list.by_name("new_rams"))
    setup = app.top
    setup.setup["players"] = 8
    setup.rules["deck"] = "skat32"
    T.click_button(app, setup.buttons.by_name("start"))
    assert app.top is setup and app.toast is not None


def test_rules_scene_shows_rams():
    for lang in ("de", "en"):
        app = T.make_app((960, 600), lang)
        app.push(MenuScene(app))
        T.click_button(app, app.top.list.by_name("rules"))
        rs = app.top
        T.click_button(app, rs.list.by_name("game"))
        assert rs.game == "rams"
        app.draw()
        assert rs.total > rs.view.height
        assert any("Rams" in line for line, *_ in rs.lines)


def test_demo_rams_and_sizes():
    from game.app import run

    ns = argparse.Namespace(demo=True, game="rams", seed=1, quit_after=1.0, frame_stats=False,
                            smoke_test=False, lang="en", size=(960, 600), players=5)
    assert run(ns) == 0
    app = T.make_app((1280, 720), "en", speed="fast")
    app.push(MenuScene(app))
    app.push(demo_scene(app, 6, seed=1))
    first = app.top
    for _ in range(30000):
        app.update(1 / 30)
        tb = T.table_of(app)
        if tb is not first:
            break
        assert all(sp.code is None for lst in tb.model.hands.values() for sp in lst)
    assert T.table_of(app) is not first, "attract mode starts the next game"
    for size in ((960, 600), (3840, 2160), (400, 300)):
        app = T.make_app(size, "de")
        app.push(MenuScene(app))
        app.push(RamsTableScene(app, seats(10, 1, "de"), {}, seed=1))
        assert T.drive(app, lambda t: t.state == "human")
        app.draw()


def test_the_dealer_forced_by_the_rule_is_told_why():
    from game.rules.rams import AS_WRITTEN as AW

    told = None
    for seed in range(12):     # the person drops until, dealing, everyone before dropped
        app = T.make_app((1280, 720), "en")
        app.push(MenuScene(app))
        tb = RamsTableScene(app, seats(4, 1), {**AW, "dealer_must_play": True,
                                               "drop_limit": "none", "lives": 5}, seed=seed)
        app.push(tb)
        told = drop_until_forced(app, tb)
        if told is not None:
            break
    assert told == "Everyone before you dropped out: as the dealer you must play."
    i18n.set_lang("de")
    assert prompt(tb.pending, tb.decision.view, tb.n) == \
        "Alle vor dir sind ausgestiegen: Als Geber musst du spielen."
    i18n.set_lang("en")


def test_general_rams_by_button_and_key():
    for use_key in (False, True):
        app = T.make_app((1280, 720), "en")
        app.push(MenuScene(app))
        tb = RamsTableScene(app, seats(4, 1), {}, seed=4)
        app.push(tb)
        assert T.drive(app, lambda t: t.state == "human" and "general" in t.pending.legal,
                       random.Random(1))
        btn = tb.actions.by_name("general")
        assert btn is not None and btn.hint == "G"
        if use_key:
            T.key(app, btn.hotkey)
        else:
            T.click_button(app, btn)
        assert tb.game.general == tb.humans[0]
        T.pump(app, 0.3)
        assert tb.model.general == tb.humans[0] and not tb.model.folded


def test_once_the_person_is_out_only_the_newest_result_is_gold():
    """The results strip keeps in gold what the person has not seen until their next
    move; out of the game they make none, and the whole strip turned gold round after
    round while the computers played on. Once out, the newest round stands out alone."""
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    rules = {**AS_WRITTEN, "lives": 1}
    tb = RamsTableScene(app, seats(4, 1), rules, seed=5)
    app.push(tb)
    # the person plays every round (and so soon loses their one life)
    assert T.drive(app, lambda t: not t.game.in_game[0], random.Random(5),
                   choose=lambda p: "play" if "play" in p.legal else p.legal[0])
    out_at = len(tb.model.results)
    assert T.drive(app, lambda t: len(t.model.results) >= out_at + 3 or t.state == "over",
                   random.Random(5))
    app.update(0.05)
    assert len(tb.model.results) >= out_at + 3 and tb.model.unseen <= 1
