"""The Rams levels and the coach under the pace rules keys (counters, General Rams,
the dealer who must play, no dropping with two left): every level decides legally
under every key, and each decides as the scoring asks (every trick counts under
counters; an unbeatable hand announces General Rams; a hopeless one drops)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from game.ai import rams_levels
from game.ai.rams_coach import advise
from game.ai.rams_info import Info
from game.ai.rams_players import PLAYERS as FACTORIES
from game.ai.rams_playout import NEED, SAFE, mode
from game.ai.rams_value import outcome_value, race_chance
from game.ai.rams_worlds import start_round
from game.cards import SKAT32
from game.rules.rams import RamsGame

LEVELS = ("easy", "medium", "hard", "expert")
COUNT = {"scoring": "counters", "counters": 15, "drop_limit": "none"}
PACE_RULES = [
    COUNT,
    {**COUNT, "dealer_must_play": True, "general_rams": True},
    {**COUNT, "drop_limit": 1, "counters": 6},
    {"scoring": "lives", "general_rams": True},
    {"scoring": "lives", "dealer_must_play": True, "drop_limit": "none"},
    {"scoring": "lives", "two_must_play": True, "lives": 2},
]


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (rams_levels.RamsHard, rams_levels.RamsExpert):
        monkeypatch.setattr(cls, "budget", dataclasses.replace(cls.budget, declare=16,
                                                                card=8))


def plain(view: object) -> dict:
    return json.loads(json.dumps(dict(view)))  # type: ignore[call-overload]


def stock(order: list[int], hands: dict[int, list[str]], trump: str) -> list[str]:
    top = [hands[s][r] for r in range(len(hands[order[0]])) for s in order] + [trump]
    return top + [c for c in SKAT32 if c not in top]


@pytest.mark.parametrize("rules", PACE_RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in
                                                                     r.items()))
def test_every_level_plays_whole_games_under_every_key(rules: dict,
                                                       small_budget: None) -> None:
    players = [FACTORIES[lv]() for lv in LEVELS]
    for k in range(2):
        g = RamsGame(rules, 4, seed=40 + k, bot_seed=k)
        g.emit_events = False
        g.start()
        while (p := g.to_move()) is not None and g.round_index < 12:
            move = players[(p.seat + k) % 4].choose(plain(g.view(p.seat)))
            assert move in p.legal
            g.apply(p.seat, move)
        assert g.rounds


def test_race_chance() -> None:
    assert race_chance([5, 5, 5, 5], 0) == pytest.approx(0.25)
    assert sum(race_chance([3, 7, 9, 12], s) for s in range(4)) == pytest.approx(1.0)
    chances = [race_chance([c, 8, 8, 8], 0) for c in (1, 3, 6, 8, 12, 20)]
    assert chances == sorted(chances, reverse=True) and chances[0] > 0.5
    assert race_chance([0, 3, 3], 0) == 1.0 and race_chance([2, 0, 3], 0) == 0.0
    # a round's value: shedding helps, the penalty hurts, reaching zero wins
    lives = [6, 6, 6, 6]
    shed = outcome_value(lives, {0: -2}, 0, 0.0, 4, counting=True)
    pen = outcome_value(lives, {0: 5}, 0, 0.0, 4, counting=True)
    assert pen < 0.25 < shed
    assert outcome_value(lives, {0: -6}, 0, 0.0, 4, counting=True, winner=0) == 1.0
    assert outcome_value(lives, {1: -6}, 0, 0.0, 4, counting=True, winner=1) == 0.0


def test_under_counters_every_trick_counts_in_the_play_outs() -> None:
    hands = {1: ["AS", "KS", "7C"], 2: ["7S", "8S", "9S"], 3: ["8C", "9C", "TC"],
             0: ["7D", "8D", "9D"]}
    for scoring, want in (("counters", NEED), ("lives", SAFE)):
        g = RamsGame({"scoring": scoring, "hand_size": 3}, 4, seed=1, dealer=0,
                     deals=[stock([1, 2, 3, 0], hands, "7H")])
        g.start()
        for s in (1, 2, 3, 0):
            g.apply(s, "play")
        for s, c in ((1, "AS"), (2, "7S"), (3, "8C"), (0, "7D")):
            g.apply(s, c)                       # seat 1 has its trick
        info = Info(g.view(1))
        r = start_round(info, {})
        assert mode(r, 1) == want


def test_medium_keeps_taking_tricks_under_counters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rams_levels.RamsMedium, "slips", 0.0)
    hands = {1: ["AS", "KS", "7C"], 2: ["7S", "8S", "9S"], 3: ["8C", "9C", "TC"],
             0: ["QD", "8D", "9D"]}
    for scoring, want in (("counters", "KS"), ("lives", "7C")):
        g = RamsGame({"scoring": scoring, "hand_size": 3}, 4, seed=1, dealer=0,
                     deals=[stock([1, 2, 3, 0], hands, "7H")])
        g.start()
        for s in (1, 2, 3, 0):
            g.apply(s, "play")
        for s, c in ((1, "AS"), (2, "7S"), (3, "8C"), (0, "8D")):
            g.apply(s, c)
        assert g.to_move().seat == 1
        # the King is the master now: under counters it takes another trick; under
        # lives the club player, safe with its trick, sheds its lowest card
        assert FACTORIES["medium"]().choose(plain(g.view(1))) == want


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_an_unbeatable_hand_announces_general_rams(level: str) -> None:
    strong = ["AH", "KH", "QH", "JH", "TH"]          # the five top trumps
    rest = [c for c in SKAT32 if c not in strong and c != "9H"]
    hands = {1: strong, 2: rest[0:5], 3: rest[5:10], 0: rest[10:15]}
    for scoring in ("lives", "counters"):
        g = RamsGame({**COUNT, "scoring": scoring, "general_rams": True}, 4, seed=1,
                     dealer=0,
                     deals=[stock([1, 2, 3, 0], hands, "9H")])
        g.start()
        assert FACTORIES[level]().choose(plain(g.view(1))) == "general", scoring


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_declarations_under_counters(level: str) -> None:
    weak = ["7C", "8C", "7D", "8D", "7S"]
    strong = ["AH", "KH", "AC", "AD", "QH"]
    others = [c for c in SKAT32 if c not in weak + strong and c != "9H"]
    for hand, want in ((weak, "drop"), (strong, "play")):
        hands = {1: hand, 2: others[0:5], 3: others[5:10], 0: others[10:15]}
        g = RamsGame({**COUNT, "general_rams": False}, 4, seed=1, dealer=0,
                     deals=[stock([1, 2, 3, 0], hands, "9H")], bot_seed=3)
        g.start()
        votes = [FACTORIES[level]().choose(plain(g.view(1))) for _ in range(1)]
        assert votes == [want], (hand, votes)


def test_the_coach_counts_counters_and_offers_general_rams() -> None:
    strong = ["AH", "KH", "AC", "AD", "QH"]
    weak = ["7C", "8C", "7D", "8D", "7S"]
    for hand in (strong, weak):
        others = [c for c in SKAT32 if c not in hand and c != "9H"]
        hands = {1: hand, 2: others[0:5], 3: others[5:10], 0: others[10:15]}
        g = RamsGame({**COUNT, "general_rams": True}, 4, seed=1, dealer=0,
                     deals=[stock([1, 2, 3, 0], hands, "9H")], bot_seed=3)
        g.start()
        opts = advise(plain(g.view(1)), "hard", 120)["options"]
        assert set(opts) == {"drop", "play", "general"}
        # a drop risks only being pulled back in by a later seat's General Rams: no
        # deal of these gives a later seat a hand the levels announce it with
        assert opts["drop"] == {"lose_life": 0.0, "expected_loss": 0.0}
        if hand is strong:
            # it sheds counters (expected loss below zero); the penalty is unlikely
            assert opts["play"]["expected_loss"] < -1.0 and opts["play"]["lose_life"] < 0.1
        else:
            # General Rams with nothing: the penalty nearly surely
            assert opts["general"]["lose_life"] > 0.9 and opts["general"]["expected_loss"] > 4
            assert opts["play"]["expected_loss"] > 0


def test_dealer_forced_by_the_rule_is_modelled_as_playing() -> None:
    rng = random.Random(2)
    deal = list(SKAT32)
    rng.shuffle(deal)
    g = RamsGame({**COUNT, "dealer_must_play": True}, 4, seed=1, dealer=0, deals=[deal])
    g.start()
    for s in (1, 2, 3):
        g.apply(s, "drop")
    info = Info(plain(g.view(0)))
    assert "drop" not in info.legal and "play" in info.legal
    assert info.dealer_forced(0, info.declared)
    assert not info.dealer_forced(0, {**info.declared, 2: "play"})
