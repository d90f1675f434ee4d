"""The first game's tips, over whole games at the real table: each situation explained
once, in both languages; the game waits while a tip is read; a tip names no card the
person at the screen may not see (solo and hot-seat); the tips are remembered, and
can be switched off and on again in the settings; none in the demo or a replay."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pygame
import pytest

from game import settings
from game.cards import FRENCH52
from game.i18n import card_name
from game.rules.rams import AS_WRITTEN
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.turn import chase_tips, rams_tips
from game.turn.options import TableOptions

LOCALE = Path(__file__).resolve().parents[1] / "game" / "locale"


pytestmark = pytest.mark.usefixtures("english_after")   # home: conftest.py


def visible_cards(game, viewer: int | None) -> set[str]:
    """Every card the seat at the screen may know now (none of anybody's hand when
    nobody sits there): its own hand and private events, and what is public."""
    seen: set[str] = set()

    def walk(obj) -> None:
        if isinstance(obj, str) and obj in FRENCH52:
            seen.add(obj)
        elif isinstance(obj, dict):
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    view = game.view(viewer if viewer is not None else 0)
    for key in ("events", "history", "faceup", "trick", "trump_card"):
        walk(view.get(key))
    if viewer is not None:
        walk(view.get("hand"))
        walk(view.get("private"))
    return seen


def play_first_game(app, tb, rng: random.Random, on_tip, drop_first: bool = True) -> int:
    """Play the table to its end with the tips on; ``on_tip(tb, tip)`` hears each tip
    as it shows; returns how many showed."""
    shown = 0
    declared = 0
    for _ in range(300000):
        top = app.top
        if tb.game.finished or top.name == "results":
            break
        if top.name == "handoff":
            top.ready()
            continue
        if tb.tips.showing():
            shown += 1
            on_tip(tb, tb.tips.queue[0])
            moves = len(tb.game.moves)
            for _ in range(5):                   # the game waits while a tip shows
                app.update(0.2)
            assert len(tb.game.moves) == moves and tb.tips.showing()
            T.key(app, pygame.K_SPACE)           # any key puts it away
            continue
        if tb.state == "hold":
            tb.flow.release()
        elif tb.state == "human" and tb.pending is not None:
            legal = list(tb.pending.legal)
            if tb.pending.decision == "declare":
                declared += 1
                move = "drop" if drop_first and declared == 1 and "drop" in legal \
                    else "play"
            else:
                move = rng.choice(legal)
            tb.human_move(move)
        else:
            app.update(0.05)
    assert tb.game.finished
    return shown


def new_table(app, game_id: str, humans: int = 1, seed: int = 3, lang: str = "en",
              rules: dict | None = None):
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(4, humans, lang),
                   rules=dict(rules or {}),
                   seed=seed, options=TableOptions(bot_seed=seed))   # the same game each run
    app.push(tb)
    return tb


#: words of the other scoring, which a tip must never use (Rams under counters speaks
#: of no life, Rams as written of no counter)
NOT_SAID = {"counters": ("life", "lives", "Leben"), "lives": ("counter", "Zähler")}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game_id,seed,preset", [("chase", 4, None), ("rams", 3, None),
                                                 ("rams", 3, "as_written")])
@pytest.mark.parametrize("humans", [1, 2])
def test_a_first_game_explains_each_situation_once_and_never_a_hidden_card(
        home, lang, game_id, seed, preset, humans):
    app = T.make_app((960, 600), lang, tips=True)
    # Rams under counters plays to 8 of them, not 20: the same situations, a shorter game
    rules = AS_WRITTEN if preset == "as_written" else {"counters": 8} if game_id == "rams" \
        else None
    tb = new_table(app, game_id, humans, seed, lang, rules=rules)
    scoring = tb.game.rules.get("scoring")
    ids: list[str] = []

    def check(table, tip) -> None:
        ids.append(tip.id)
        title, body = tip.texts()
        assert title and body and "{" not in title + body and "tip." not in title + body
        for word in NOT_SAID.get(scoring, ()):
            assert word not in title + body, (tip.id, scoring, body)
        allowed = visible_cards(table.game, table.viewer)
        for code in FRENCH52:
            if card_name(code) in title + " " + body:
                assert code in allowed, (tip.id, code, table.viewer, body)

    shown = play_first_game(app, tb, random.Random(seed), check)
    assert shown == len(ids) == len(set(ids))            # each situation once
    assert set(ids) <= set({"chase": chase_tips, "rams": rams_tips}[game_id].TIP_IDS)
    must = {"chase": {"chase.turn", "chase.showdown"},
            "rams": {"rams.trump", "rams.declare", "rams.trick", "rams.reckoning"}}[game_id]
    if preset == "as_written":                     # the drop limit of Rams as written
        must |= {"rams.drop_limit"}
    assert must <= set(ids), ids
    assert set(app.settings["tips_seen"]) == set(ids)


def test_every_tip_text_exists_in_both_languages():
    en = json.loads((LOCALE / "en.json").read_text(encoding="utf-8"))
    de = json.loads((LOCALE / "de.json").read_text(encoding="utf-8"))
    tip_keys = {k for k in en if k.startswith("tip.")}
    assert len(tip_keys) >= 40
    assert tip_keys == {k for k in de if k.startswith("tip.")}
    for k in tip_keys:
        assert set(__import__("re").findall(r"\{(\w+)\}", en[k])) == \
            set(__import__("re").findall(r"\{(\w+)\}", de[k])), k


def test_tips_are_remembered_and_come_back_when_switched_on_again(home):
    path = home / "settings.json"
    st = settings.Settings(path=path)
    st["anim_speed"], st["think_pause"], st["reveal_hold"] = "off", 0.0, 0.0
    app = T.make_app((960, 600), "en", settings=st)
    tb = new_table(app, "chase", seed=4)
    first = play_first_game(app, tb, random.Random(4), lambda t_, tip: None)
    assert first >= 2
    # a new window reads the settings file: the same situations are not explained again
    again = settings.load(path)
    assert set(again["tips_seen"]) == set(st["tips_seen"]) and again["tips"] is True
    app2 = T.make_app((960, 600), "en", settings=again)
    tb2 = new_table(app2, "chase", seed=4)
    seen_again: list[str] = []
    play_first_game(app2, tb2, random.Random(4), lambda t_, tip: seen_again.append(tip.id))
    assert not set(seen_again) & set(st["tips_seen"])
    # the settings switch them off, and on again (every tip afresh)
    app2.open("settings")
    form = app2.top.form
    app2.draw()
    index = [r.name for r in form.focusable()].index("tips")
    for _ in range(index):
        T.key(app2, pygame.K_DOWN)
    T.key(app2, pygame.K_RIGHT)                  # the keyboard, as a person would
    assert app2.settings["tips"] is False
    T.key(app2, pygame.K_RIGHT)
    assert app2.settings["tips"] is True and app2.settings["tips_seen"] == []
    T.click_button(app2, app2.top.buttons.by_name("back"))   # Back saves the settings
    kept = settings.load(path)
    assert kept["tips"] is True and kept["tips_seen"] == []


def test_no_tips_when_switched_off(home):
    app = T.make_app((960, 600), "en", tips=True)
    app.settings["tips"] = False
    tb = new_table(app, "rams", seed=3, rules={"counters": 8})   # a short whole game
    assert play_first_game(app, tb, random.Random(3), lambda t_, tip: None) == 0
    assert len(tb.game.rounds) >= 2 and app.settings["tips_seen"] == []


def test_no_tips_in_the_demo_or_a_replay(home):
    app = T.make_app((960, 600), "en", tips=True, speed="off")
    app.push(MenuScene(app))
    from game.scenes.table_chase import demo_scene

    demo = demo_scene(app, 4, seed=5)
    app.push(demo)
    for _ in range(400):
        app.update(0.05)
        assert not demo.tips.showing()
    assert app.settings["tips_seen"] == []
    from game import records
    from game.scenes.replay import ReplayScene

    rec = records.load(Path(__file__).parent / "examples" / "0000_chase_5p_complete.json")
    rec.seats[0].type = "human"
    app.push(ReplayScene(app, rec, title="x.json"))
    replay = app.top
    for _ in range(300):
        app.update(0.05)
        assert not replay.table.tips.showing()
    assert app.settings["tips_seen"] == []


def _rams_until(rules: dict, want, seeds=range(200)):
    """The first engine state (over seeded games of random legal moves) where
    ``want(game, pending)`` holds, with the events of the move that led there."""
    from game.rules.rams import RamsGame

    for seed in seeds:
        rng = random.Random(seed)
        game = RamsGame(rules, 4, seed=seed, bot_seed=seed)
        events = game.start()
        while not game.finished:
            p = game.to_move()
            if want(game, p, events):
                return game, p, events
            events = game.apply(p.seat, rng.choice(sorted(p.legal)))
    raise AssertionError("no such state in the seeded games")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_seat_that_must_play_is_told_why(english_after, lang):
    """The dealer after everyone dropped (dealer_must_play) and the last two
    (two_must_play, under lives) hear their own reason, not the drop limit's."""
    from game import i18n

    i18n.set_lang(lang)
    game, p, _ = _rams_until({}, lambda g, p, e: p.decision == "declare"
                             and "drop" not in p.legal and p.seat == g.dealer)
    tip = rams_tips.for_decision(game.view(p.seat), str)
    assert tip is not None and tip.id == "rams.must_play"
    assert tip.body == ("tip.rams.must_play.dealer",)
    _, body = tip.texts()
    assert ("dealer" if lang == "en" else "Geber") in body
    two = {**AS_WRITTEN, "two_must_play": True, "lives": 1, "drop_limit": "none"}
    game, p, _ = _rams_until(two, lambda g, p, e: p.decision == "declare"
                             and sum(g.in_game) == 2)
    tip = rams_tips.for_decision(game.view(p.seat), str)
    assert tip is not None and tip.id == "rams.must_play"
    assert tip.body == ("tip.rams.must_play.two",)


@pytest.mark.parametrize("scoring", ["counters", "lives"])
def test_general_rams_is_explained_in_the_scoring_in_force(english_after, scoring):
    game, p, events = _rams_until(
        {"scoring": scoring}, lambda g, p, e: any(ev.type == "general_rams" for ev in e),
        seeds=range(2000))
    event = next(ev for ev in events if ev.type == "general_rams")
    seat = event.data["seat"]
    for viewer, key in ((seat, "tip.rams.general_you"), ((seat + 1) % 4, "tip.rams.general")):
        tip = rams_tips.for_event("general_rams", event.data, game.rules, viewer, str)
        assert tip is not None and tip.id == "rams.general"
        assert tip.body == (key + ("_counters" if scoring == "counters" else ""),)
        _, body = tip.texts()
        assert ("counters" in body) == (scoring == "counters")
        assert ("lives" in body) == (scoring == "lives")


@pytest.mark.parametrize("game_id,want", [("chase", "chase.turn"), ("rams", "rams.trump")])
def test_a_tip_speaks_a_language_chosen_while_it_shows(home, monkeypatch, game_id, want):
    """A tip shown in German, then English chosen in the settings: the tip is drawn in
    English, its facts too (the card held, the lowest and highest card, the trump
    suit). It kept the German words of the moment it was made ("Trumpf: Pik" over an
    English table)."""
    from game import i18n
    from game.turn.rams_texts import suit_name
    from game.view import text

    app = T.make_app((960, 600), "de", tips=True)
    tb = new_table(app, game_id, 1, seed=3, lang="de")
    assert T.drive(app, lambda t_: t_.tips.showing() and t_.tips.queue[0].id == want,
                   random.Random(3))
    tip = tb.tips.queue[0]
    app.draw()
    german = tip.texts()
    drawn: list[str] = []
    render = text.render
    monkeypatch.setattr(text, "render",
                        lambda s, *a, **kw: drawn.append(s) or render(s, *a, **kw))
    app.set_lang("en")
    app.draw()
    title, body = tip.texts()
    assert (title, body) != german and title in drawn
    assert any(line in body for line in drawn if len(line) > 20)
    if game_id == "chase":
        card = tb.game.view(tb.viewer)["hand"][0]
        assert title == "Your turn: keep or swap?"
        assert card_name(card) in body and "the Ace" in body and "the King" in body
        assert not re.search(r"\b(Ass|König|Kreuz|Pik|Herz|Karo)\b", body), body
    else:
        suit = tb.game.view(tb.viewer)["trump_card"][-1]
        assert title == "Trump: " + suit_name(suit)
        assert suit_name(suit) in body
        i18n.set_lang("de")
        assert suit_name(suit) not in body


def test_a_seat_in_a_tip_is_named_in_the_language_of_the_moment(english_after):
    """A seat called by its role ("Spieler 1" at a hot-seat table) is named when the
    tip is drawn, not when it was made."""
    from game import i18n
    from game.i18n import t
    from game.rules.chase import ChaseGame

    def names(seat: int) -> str:
        return t("setup.player_n", n=seat + 1)

    i18n.set_lang("de")
    game = ChaseGame({}, 4, seed=3)
    game.start()
    p = game.to_move()
    tip = chase_tips.for_decision(game.view(p.seat), names)
    assert tip is not None and "Spieler" in tip.texts()[1]
    i18n.set_lang("en")
    _, body = tip.texts()
    assert re.search(r"with Player \d+, the next player", body), body
    block = chase_tips.for_event("block", {"seat": 1, "by": 0, "card": "KS"}, {}, None, names)
    assert block is not None
    i18n.set_lang("de")
    assert "Spieler 1" in block.texts()[1] and "König" in block.texts()[0]
