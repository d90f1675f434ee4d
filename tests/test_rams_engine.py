"""Rams (docs/rules.md#rams): every rule and variant, properties, records and bad input.

Scripted rounds use explicit deals: ``stock_for`` lays the cards so that each seat
receives the hand the test names (one card at a time, clockwise from the left of the
dealer) and the named card is turned for trump.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import commands
from game.ai.rams_basic import choose_greedy
from game.cards import FRENCH52, SKAT32
from game.games import new_game
from game.records import Seat, from_dict, rebuild, record_of
from game.rules.base import GameError, IllegalMove, RulesError, first_dealer_rng
from game.rules.rams import AS_WRITTEN, RAMS_RULES, rams_rules
from game.rules.rams import RamsGame as Engine


class RamsGame(Engine):
    """The engine under "Rams as written" (the defaults of record format 1): this file
    pins docs/rules.md#rams down as written; the pace keys and today's defaults have tests of
    their own (test_rams_pace_rules.py)."""

    def __init__(self, rules: Any = None, *args: Any, **kw: Any) -> None:
        if rules is None or isinstance(rules, dict):
            rules = {**AS_WRITTEN, **(rules or {})}
        super().__init__(rules, *args, **kw)

# --------------------------------------------------------------------------- helpers


def order_of(n: int, dealer: int) -> list[int]:
    return [(dealer + k) % n for k in range(1, n + 1)]


def stock_for(n: int, dealer: int, hands: dict[int, list[str]], trump: str,
              deck: tuple[str, ...] = SKAT32) -> list[str]:
    """A full stock that deals ``hands`` (seat → cards) and turns ``trump``."""
    order = [s for s in order_of(n, dealer) if s in hands]
    size = len(hands[order[0]])
    top = [hands[s][r] for r in range(size) for s in order] + [trump]
    assert len(set(top)) == len(top)
    return top + [c for c in deck if c not in top]


def scripted(hands: dict[int, list[str]], trump: str, dealer: int = 2,
             rules: dict[str, Any] | None = None, n: int | None = None,
             seed: int | None = 1, deck: tuple[str, ...] = SKAT32,
             more: list[list[str]] | None = None) -> RamsGame:
    n = n if n is not None else len(hands)
    rules = dict(rules or {})
    rules.setdefault("hand_size", len(next(iter(hands.values()))))
    deals = [stock_for(n, dealer, hands, trump, deck)] + list(more or [])
    g = RamsGame(rules, n, seed=seed, dealer=dealer, deals=deals)
    g.start()
    return g


def do(g: RamsGame, *moves: tuple[int, str]) -> list[Any]:
    events = []
    for seat, move in moves:
        events += g.apply(seat, move)
    return events


def declare(g: RamsGame, choices: dict[int, str]) -> None:
    """Every dealt-in seat declares, in turn order (this round only)."""
    r = g.round_index
    while (p := g.to_move()) is not None and p.decision == "declare" and g.round_index == r:
        g.apply(p.seat, choices[p.seat])


def play_out(g: RamsGame) -> None:
    """Finish the round in progress with the first legal move of every decision."""
    r = g.round_index
    while (p := g.to_move()) is not None and g.round_index == r:
        g.apply(p.seat, p.legal[0])


def legal(g: RamsGame) -> list[str]:
    p = g.to_move()
    assert p is not None
    return sorted(p.legal)


# --------------------------------------------------------------------------- rules keys


def test_defaults() -> None:
    # today's defaults (record format 3): the pub's pace
    assert rams_rules() == {"deck": "auto", "hand_size": 5, "lives": 3, "drop_limit": "none",
                            "must_trump": False, "must_beat": False,
                            "dealer_takes_trump": False, "lone_needs_one": False,
                            "scoring": "counters", "counters": 20, "general_rams": True,
                            "dealer_must_play": True, "two_must_play": False,
                            "last_round": 30}
    assert set(RAMS_RULES) == set(rams_rules())
    # "Rams as written" (record format 1's defaults): 002 with the drop limit of 1
    assert rams_rules(AS_WRITTEN) == {
        "deck": "auto", "hand_size": 5, "lives": 3, "drop_limit": 1, "must_trump": False,
        "must_beat": False, "dealer_takes_trump": False, "lone_needs_one": False,
        "scoring": "lives", "counters": 20, "general_rams": False,
        "dealer_must_play": False, "two_must_play": False, "last_round": "none"}


@pytest.mark.parametrize("given", [
    {"hand_size": 2}, {"hand_size": 6}, {"hand_size": "5"}, {"lives": 0}, {"lives": 6},
    {"lives": True}, {"drop_limit": 0}, {"drop_limit": 6}, {"drop_limit": "never"},
    {"drop_limit": True}, {"must_trump": 1}, {"must_beat": "yes"},
    {"dealer_takes_trump": None}, {"lone_needs_one": 0}, {"deck": "cuckoo40"},
    {"deck": 32},
])
def test_bad_values(given: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as e:
        RamsGame(given, 4, seed=1)
    assert e.value.kind == "bad_value"
    assert repr(next(iter(given))) in e.value.message


@pytest.mark.parametrize("given", [
    {"lives": 1, "drop_limit": 1}, {"drop_limit": 5}, {"drop_limit": "none"},
    {"hand_size": 3}, {"hand_size": 4}, {"lives": 5}, {"deck": "skat32"},
    {"deck": "french52"}, {"must_trump": True, "must_beat": True,
                           "dealer_takes_trump": True, "lone_needs_one": True},
])
def test_good_values(given: dict[str, Any]) -> None:
    g = RamsGame(given, 4, seed=1)
    for k, v in given.items():
        assert g.rules[k] == v


@pytest.mark.parametrize("key", ["trumps", "ace_high", "decks", "final_tie", "stake"])
def test_unknown_keys_including_chase_keys(key: str) -> None:
    with pytest.raises(RulesError) as e:
        RamsGame({key: True}, 4, seed=1)
    assert e.value.kind == "unknown_rules_key"
    assert repr(key) in e.value.message


@pytest.mark.parametrize("n", [0, 1, 2, 11, 20])
def test_seat_count_out_of_range(n: int) -> None:
    with pytest.raises(GameError) as e:
        RamsGame(None, n, seed=1)
    assert e.value.kind == "bad_format"


@pytest.mark.parametrize("n,rules,deck", [
    (3, {}, SKAT32), (5, {}, SKAT32), (6, {}, FRENCH52), (10, {}, FRENCH52),
    (4, {"deck": "french52"}, FRENCH52), (6, {"deck": "skat32"}, SKAT32),
    (7, {"deck": "skat32", "hand_size": 4}, SKAT32),
    (10, {"deck": "skat32", "hand_size": 3}, SKAT32),
])
def test_deck_choice(n: int, rules: dict[str, Any], deck: tuple[str, ...]) -> None:
    g = RamsGame(rules, n, seed=1)
    assert g.deck == deck
    g.start()
    assert all(len(g.hands[s]) == g.hand_size for s in range(n))
    assert all(c in deck for s in range(n) for c in g.hands[s])


@pytest.mark.parametrize("n,rules", [
    (7, {"deck": "skat32"}), (10, {"deck": "skat32", "hand_size": 4}),
    (8, {"deck": "skat32", "hand_size": 4}),
])
def test_deal_that_does_not_fit_is_refused(n: int, rules: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as e:
        RamsGame(rules, n, seed=1)
    assert e.value.kind == "bad_value" and "'hand_size'" in e.value.message


def test_deck_is_fixed_by_starting_seats() -> None:
    g = RamsGame({"lives": 1}, 6, seed=3)
    g.start()
    for _ in range(300):
        if g.finished:
            break
        play_out(g)
        assert g.deck == FRENCH52
        for s in g.active:
            assert all(c in FRENCH52 for c in g.hands[s])
    assert g.finished


def test_lives_default_and_setting() -> None:
    assert RamsGame(None, 3, seed=1).lives == [3, 3, 3]
    assert RamsGame({"lives": 4}, 3, seed=1).lives == [4, 4, 4]


# --------------------------------------------------------------------------- dealing


def test_dealing_one_at_a_time_from_left_of_dealer() -> None:
    deck = list(SKAT32)
    random.Random(5).shuffle(deck)
    g = RamsGame({"hand_size": 4}, 4, dealer=2, deals=[deck])
    events = g.start()
    order = [3, 0, 1, 2]
    for k, seat in enumerate(order):
        assert g.hands[seat] == deck[k:16:4]
    assert g.trump_card == deck[16] and g.trump == deck[16][1]
    assert g.stock[0] == deck[16] and g.stock == deck[16:]  # the trump stays on the stock
    deals = [e.data["seat"] for e in events if e.type == "deal"]
    assert deals == order * 4
    assert [e.type for e in events][:3] == ["first_dealer", "round_start", "shuffle"]
    assert next(e for e in events if e.type == "shuffle").data == {"cut_by": 1}
    assert next(e for e in events if e.type == "trump").data == {"card": deck[16],
                                                                 "suit": deck[16][1]}
    dealt = {e.to: e.data["cards"] for e in events if e.type == "dealt"}
    assert dealt == {s: g.hands[s] for s in order}
    start = next(e for e in events if e.type == "round_start").data
    assert start == {"round": 0, "dealer": 2, "active": [0, 1, 2, 3],
                     "sudden_death": False, "pot": 0}


def test_declarations_in_turn_dealer_last() -> None:
    g = RamsGame(None, 5, dealer=3, seed=4)
    g.start()
    seats = []
    while (p := g.to_move()).decision == "declare":
        assert sorted(p.legal) == ["drop", "play"]
        seats.append(p.seat)
        g.apply(p.seat, "play")
    assert seats == [4, 0, 1, 2, 3]


def test_first_dealer_from_seed_and_record_dealer_wins() -> None:
    for seed in range(20):
        g = RamsGame(None, 5, seed=seed)
        ev = g.start()
        want = first_dealer_rng(seed).randrange(5)
        assert g.dealer == want and ev[0].data == {"seat": want}
    g = RamsGame(None, 5, seed=0, dealer=1)
    g.start()
    assert g.dealer == 1


def test_dealer_rotation_skips_eliminated() -> None:
    # seat 0 plays alone with nothing and is out; seat 1 would deal next anyway
    h = {0: ["7C", "8C", "9C"], 1: ["AS", "KS", "QS"], 2: ["AD", "KD", "QD"],
         3: ["AH", "KH", "QH"]}
    g = scripted(h, "7S", dealer=3, rules={"lives": 1})
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    play_out(g)
    assert g.lives == [0, 1, 1, 1] and g.rounds[0]["lone"] == 0
    assert g.dealer == 1  # next clockwise from 3 that takes part (0 is out)
    assert g.active == [1, 2, 3]
    assert g.order == [2, 3, 1]


def test_dealer_passes_left_every_round() -> None:
    g = RamsGame({"lives": 5, "drop_limit": "none"}, 4, seed=9, dealer=1)
    g.start()
    for r in range(6):
        assert g.dealer == (1 + r) % 4
        declare(g, {s: "drop" for s in range(4)})
    assert all(r["void"] for r in g.rounds)


# --------------------------------------------------------------------------- declarations


def test_drop_limit_default_forces_play_next_round() -> None:
    g = RamsGame({"lives": 5}, 3, seed=2, dealer=2)
    g.start()
    declare(g, {0: "drop", 1: "play", 2: "play"})
    play_out(g)
    # round 1: dealer 0, order 1, 2, 0
    assert g.to_move().seat == 1 and legal(g) == ["drop", "play"]
    g.apply(1, "drop")
    assert g.to_move().seat == 2 and legal(g) == ["drop", "play"]
    g.apply(2, "play")
    assert g.to_move().seat == 0 and legal(g) == ["play"]
    with pytest.raises(IllegalMove) as e:
        g.apply(0, "drop")
    assert e.value.kind == "illegal_move"
    g.apply(0, "play")
    play_out(g)
    # round 2: seat 0 played last round, so it may drop again; seat 1 may not
    declare_seen = {}
    while (p := g.to_move()).decision == "declare":
        declare_seen[p.seat] = sorted(p.legal)
        g.apply(p.seat, "play")
    assert declare_seen == {2: ["drop", "play"], 0: ["drop", "play"], 1: ["play"]}


@pytest.mark.parametrize("limit", [2, 3, 5])
def test_drop_limit_counts_rounds_in_a_row(limit: int) -> None:
    g = RamsGame({"lives": 5, "drop_limit": limit}, 3, seed=2, dealer=0)
    g.start()
    for _ in range(limit):
        while (p := g.to_move()).decision == "declare":
            if p.seat == 0:
                assert "drop" in p.legal
                g.apply(0, "drop")
            else:
                g.apply(p.seat, "play")
        play_out(g)
    while (p := g.to_move()).seat != 0:
        g.apply(p.seat, "play")
    assert legal(g) == ["play"]


def test_drop_limit_none_never_forces() -> None:
    g = RamsGame({"drop_limit": "none"}, 3, seed=2, dealer=0)
    g.start()
    for r in range(12):
        while (p := g.to_move()).decision == "declare" and g.round_index == r:
            assert sorted(p.legal) == ["drop", "play"]
            g.apply(p.seat, "drop")
    assert len(g.rounds) == 12 and g.lives == [3, 3, 3]


def test_void_round_when_all_drop() -> None:
    g = RamsGame({"drop_limit": 2}, 4, seed=6, dealer=0)
    g.start()
    lives = list(g.lives)
    events = []
    while (p := g.to_move()).decision == "declare" and g.round_index == 0:
        events += g.apply(p.seat, "drop")
    assert [e.type for e in events].count("void_round") == 1
    r = g.rounds[0]
    assert r["void"] is True and r["played"] == [] and r["lost"] == {}
    assert r["tricks"] == {"0": 0, "1": 0, "2": 0, "3": 0} and r["lone"] is None
    assert g.lives == lives and g.round_index == 1 and g.dealer == 1


# --------------------------------------------------------------------------- trick play

H3 = {0: ["AS", "KS", "QS"], 1: ["7S", "8S", "9S"], 2: ["7C", "8C", "9C"]}


def test_only_players_take_part_and_first_player_left_of_dealer_leads() -> None:
    g = scripted(H3, "7H", dealer=2)
    declare(g, {0: "drop", 1: "play", 2: "play"})
    p = g.to_move()
    assert p.seat == 1 and p.decision == "trick"  # 0 dropped: 1 is first left of dealer
    seats = []
    while g.round_index == 0:
        p = g.to_move()
        seats.append(p.seat)
        g.apply(p.seat, p.legal[0])
    assert set(seats) == {1, 2} and len(seats) == 6
    r = g.rounds[0]
    assert r["played"] == [1, 2] and r["tricks"]["0"] == 0 and r["lone"] is None


def test_players_without_a_trick_lose_one_droppers_never() -> None:
    g = scripted(H3, "7H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "play"})
    do(g, (0, "AS"), (1, "7S"), (2, "7C"), (0, "KS"), (1, "8S"), (2, "8C"),
       (0, "QS"), (1, "9S"), (2, "9C"))
    r = g.rounds[0]
    assert r["tricks"] == {"0": 3, "1": 0, "2": 0}
    assert r["lost"] == {"1": 1, "2": 1} and g.lives == [3, 2, 2]
    g2 = scripted({0: ["AS", "KS", "QS"], 1: ["7S", "8S", "9S"], 2: ["7C", "8C", "9C"],
                   3: ["7D", "8D", "9D"]}, "7H", dealer=3)
    declare(g2, {0: "play", 1: "play", 2: "drop", 3: "drop"})
    play_out(g2)
    assert g2.rounds[0]["lost"] == {"1": 1} and g2.lives == [3, 2, 3, 3]


def test_follow_suit_if_able() -> None:
    h = {0: ["AS", "KD", "QH"], 1: ["7S", "8D", "9H"], 2: ["7C", "8C", "9C"]}
    g = scripted(h, "7H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "AS")
    assert legal(g) == ["7S"]
    with pytest.raises(IllegalMove):
        g.apply(1, "9H")
    g.apply(1, "7S")
    assert legal(g) == ["7C", "8C", "9C"]  # void: any card


def test_void_may_trump_or_discard_by_default() -> None:
    h = {0: ["AS", "KD", "QD"], 1: ["7H", "8D", "9D"], 2: ["7C", "8C", "9C"]}
    g = scripted(h, "8H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "AS")
    assert legal(g) == ["7H", "8D", "9D"]


def test_must_trump() -> None:
    h = {0: ["AS", "KD", "QD"], 1: ["7H", "8D", "9D"], 2: ["7C", "8C", "9C"]}
    g = scripted(h, "8H", dealer=2, rules={"must_trump": True})
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "AS")
    assert legal(g) == ["7H"]
    g.apply(1, "7H")
    assert legal(g) == ["7C", "8C", "9C"]  # no trump: anything


def test_must_beat_when_following_and_when_trumping() -> None:
    h = {0: ["TS", "KD", "QD"], 1: ["7S", "AS", "9D"], 2: ["7C", "8H", "9C"]}
    g = scripted(h, "7H", dealer=2, rules={"must_beat": True})
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "TS")
    assert legal(g) == ["AS"]            # must head the trick with the suit
    g.apply(1, "AS")
    assert legal(g) == ["8H"]            # void: the trump is the only winning card
    g.apply(2, "8H")
    # no winning card: ordinary rule (follow suit)
    h = {0: ["AS", "KD", "QD"], 1: ["7S", "8S", "9D"], 2: ["7C", "8C", "9C"]}
    g = scripted(h, "7H", dealer=2, rules={"must_beat": True})
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "AS")
    assert legal(g) == ["7S", "8S"]
    g2 = scripted(h, "7H", dealer=2)
    declare(g2, {0: "play", 1: "play", 2: "play"})
    g2.apply(0, "AS")
    assert legal(g2) == ["7S", "8S"]


def test_must_beat_without_trump_duty_may_discard_if_it_cannot_win() -> None:
    h = {0: ["AS", "KD", "QD"], 1: ["9H", "8D", "9D"], 2: ["7C", "8C", "9C"]}
    g = scripted(h, "7H", dealer=2, rules={"must_beat": True})
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "AS")
    assert legal(g) == ["9H"]
    g.apply(1, "9H")
    assert legal(g) == ["7C", "8C", "9C"]


def trick_winner(events: list[Any]) -> int:
    return next(e.data["winner"] for e in events if e.type == "trick")


def test_highest_trump_wins_and_winner_leads() -> None:
    h = {0: ["AS", "KD", "QD"], 1: ["7H", "8D", "9D"], 2: ["TH", "8C", "9C"]}
    g = scripted(h, "8H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "play"})
    ev = do(g, (0, "AS"), (1, "7H"), (2, "TH"))
    assert trick_winner(ev) == 2
    t = next(e for e in ev if e.type == "trick")
    assert t.data["cards"] == {"0": "AS", "1": "7H", "2": "TH"}
    assert ev[-1].type == "lead" and ev[-1].data == {"seat": 2}
    assert g.to_move().seat == 2 and g.tricks == {0: 0, 1: 0, 2: 1}


def test_highest_of_suit_led_wins_offsuit_does_not() -> None:
    h = {0: ["9S", "KD", "QD"], 1: ["TS", "8D", "9D"], 2: ["AC", "8C", "9C"]}
    g = scripted(h, "8H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "play"})
    ev = do(g, (0, "9S"), (1, "TS"), (2, "AC"))
    assert trick_winner(ev) == 1 and g.to_move().seat == 1


def test_skat_rank_order() -> None:
    # 7 8 9 T J Q K A: J beats T, A beats K
    h = {0: ["TS", "KS", "QD"], 1: ["JS", "AS", "9D"], 2: ["7C", "8C", "9C"]}
    g = scripted(h, "8H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "drop"})
    ev = do(g, (0, "TS"), (1, "JS"))
    assert trick_winner(ev) == 1
    ev = do(g, (1, "AS"), (0, "KS"))
    assert trick_winner(ev) == 1


def test_french_rank_order_ace_high_two_low() -> None:
    hands = {0: ["2S", "KD", "QD"], 1: ["3S", "8D", "9D"], 2: ["AS", "8C", "9C"],
             3: ["KS", "2C", "3C"], 4: ["4D", "5D", "6D"], 5: ["4C", "5C", "6C"]}
    g = scripted(hands, "8H", dealer=5, deck=FRENCH52, rules={"hand_size": 3})
    assert g.deck == FRENCH52
    declare(g, {0: "play", 1: "play", 2: "play", 3: "play", 4: "drop", 5: "drop"})
    ev = do(g, (0, "2S"), (1, "3S"), (2, "AS"), (3, "KS"))
    assert trick_winner(ev) == 2


# --------------------------------------------------------------------------- Rams (one player)

H4 = {0: ["AS", "KS", "QS"], 1: ["7S", "8S", "9S"], 2: ["7C", "8C", "9C"],
      3: ["7D", "8D", "9D"]}


def test_rams_everyone_defends_left_of_dealer_leads() -> None:
    g = scripted(H4, "7H", dealer=0)
    ev = []
    while g.to_move().decision == "declare":
        p = g.to_move()
        ev += g.apply(p.seat, "play" if p.seat == 2 else "drop")
    assert [e.data for e in ev if e.type == "rams"] == [{"seat": 2}]
    assert g.lone == 2 and g.players == [1, 2, 3, 0]
    assert g.to_move().seat == 1  # a defender, left of the dealer
    play_out(g)
    r = g.rounds[0]
    assert r["played"] == [2] and r["lone"] == 2
    assert set(r["tricks"]) == {"0", "1", "2", "3"} and sum(r["tricks"].values()) == 3


def test_rams_lone_player_loses_two_unless_all_tricks() -> None:
    g = scripted(H4, "7H", dealer=1)          # order 2, 3, 0, 1; seat 2 leads
    declare(g, {2: "drop", 3: "drop", 0: "drop", 1: "play"})
    do(g, (2, "7C"), (3, "7D"), (0, "AS"), (1, "7S"))
    play_out(g)
    r = g.rounds[0]
    assert r["tricks"]["1"] == 0 and r["lost"] == {"1": 2} and g.lives[1] == 1
    assert all(g.lives[s] == 3 for s in (0, 2, 3))  # defenders never lose


def test_rams_lone_player_winning_every_trick_loses_nothing() -> None:
    g = scripted(H4, "7H", dealer=3)          # order 0, 1, 2, 3: the lone player leads
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    play_out(g)
    r = g.rounds[0]
    assert r["tricks"]["0"] == 3 and r["lost"] == {} and g.lives == [3, 3, 3, 3]


def test_rams_lone_with_some_tricks_still_loses_two() -> None:
    h = {0: ["AS", "7H", "QS"], 1: ["KS", "8S", "9S"], 2: ["7C", "8C", "9C"],
         3: ["7D", "8D", "9D"]}
    g = scripted(h, "TH", dealer=3, rules={"must_beat": False})  # 0 leads, plays alone
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    do(g, (0, "AS"), (1, "KS"), (2, "7C"), (3, "7D"))   # lone wins
    do(g, (0, "QS"), (1, "8S"), (2, "8C"), (3, "8D"))   # lone wins
    play_out(g)
    r = g.rounds[0]
    assert r["tricks"]["0"] == 3 and r["lost"] == {}
    g = scripted(h, "TH", dealer=3)
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    do(g, (0, "QS"), (1, "KS"))                       # defender 1 takes one trick
    play_out(g)
    r = g.rounds[0]
    assert 0 < r["tricks"]["0"] < 3 and r["lost"] == {"0": 2} and g.lives[0] == 1


def test_lone_needs_one() -> None:
    h = {0: ["AS", "7H", "QS"], 1: ["KS", "8S", "9S"], 2: ["7C", "8C", "9C"],
         3: ["7D", "8D", "9D"]}
    g = scripted(h, "TH", dealer=3, rules={"lone_needs_one": True})
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    do(g, (0, "QS"), (1, "KS"))
    play_out(g)
    r = g.rounds[0]
    assert 0 < r["tricks"]["0"] < 3 and r["lost"] == {}     # one trick is enough
    g = scripted(H4, "7H", dealer=1, rules={"lone_needs_one": True})
    declare(g, {2: "drop", 3: "drop", 0: "drop", 1: "play"})
    play_out(g)
    r = g.rounds[0]
    assert r["tricks"]["1"] == 0 and r["lost"] == {"1": 1} and g.lives[1] == 2


# --------------------------------------------------------------------------- lives and the end


def test_lives_never_below_zero_and_out_together() -> None:
    g = scripted(H3, "7H", dealer=2, rules={"lives": 1})
    declare(g, {0: "play", 1: "play", 2: "play"})
    ev = []
    while not g.finished and g.round_index == 0:
        p = g.to_move()
        ev += g.apply(p.seat, p.legal[0])
    assert g.lives == [1, 0, 0] and g.winner == 0 and g.to_move() is None
    assert [e.data for e in ev if e.type == "out"] == [{"seat": 1}, {"seat": 2}]
    assert [e.data for e in ev if e.type == "game_over"] == [{"winner": 0}]
    # a lone player with one life loses only that life
    g = scripted(H4, "7H", dealer=1, rules={"lives": 1})
    declare(g, {2: "drop", 3: "drop", 0: "drop", 1: "play"})
    ev = []
    while g.round_index == 0:
        p = g.to_move()
        ev += g.apply(p.seat, p.legal[0])
    assert g.lives[1] == 0 and g.rounds[0]["lost"] == {"1": 1}
    assert [e.data for e in ev if e.type == "lose_life"] == [
        {"seat": 1, "amount": 1, "lives": 0}]


def test_nobody_left_means_no_winner() -> None:
    # Unreachable under the scoring (docs/rules.md says so); forced here by hand.
    g = scripted(H4, "7H", dealer=1, rules={"lives": 1})
    declare(g, {2: "drop", 3: "drop", 0: "drop", 1: "play"})
    for s in (0, 2, 3):
        g.in_game[s] = False
    play_out(g)
    assert g.finished and g.winner is None and g.to_move() is None
    assert g.summary()["winner"] is None and g.summary()["finished"] is True


def test_game_over_refuses_moves() -> None:
    g = scripted(H3, "7H", dealer=2, rules={"lives": 1})
    declare(g, {0: "play", 1: "play", 2: "play"})
    play_out(g)
    assert g.finished
    with pytest.raises(IllegalMove) as e:
        g.apply(0, "play")
    assert e.value.kind == "game_over"


# --------------------------------------------------------------------------- dealer takes trump


def test_dealer_takes_trump() -> None:
    g = scripted(H3, "7H", dealer=2, rules={"dealer_takes_trump": True})
    p = g.to_move()
    assert p.seat == 2 and p.decision == "take"
    assert sorted(p.legal) == ["pass_trump", "take:7C", "take:8C", "take:9C"]
    ev = g.apply(2, "take:8C")
    assert sorted(g.hands[2]) == ["7C", "7H", "9C"]
    assert g.trump == "H" and g.trump_card == "7H"
    assert g.stock[-1] == "8C" and "7H" not in g.stock and g.under == "8C"
    pub = [e for e in ev if e.to is None and e.type == "take_trump"]
    assert pub and pub[0].data == {"seat": 2, "card": "7H"}
    priv = [e for e in ev if e.type == "discarded"]
    assert len(priv) == 1 and priv[0].to == 2 and priv[0].data == {"card": "8C"}
    assert g.to_move().decision == "declare" and g.to_move().seat == 0
    for s in (0, 1):
        assert "8C" not in json.dumps(g.view(s))
    assert {"type": "discarded", "card": "8C"} in g.view(2)["private"]
    assert {"type": "take_trump", "seat": 2, "card": "7H"} in g.view(0)["events"]
    declare(g, {0: "play", 1: "play", 2: "play"})
    g.apply(0, "AS")
    g.apply(1, "7S")
    assert "7H" in legal(g)       # the taken card is a trump in the dealer's hand
    ev = g.apply(2, "7H")
    assert trick_winner(ev) == 2


def test_pass_trump_keeps_hand() -> None:
    g = scripted(H3, "7H", dealer=2, rules={"dealer_takes_trump": True})
    g.apply(2, "pass_trump")
    assert g.hands[2] == ["7C", "8C", "9C"] and g.stock[0] == "7H" and g.under is None
    assert g.to_move().decision == "declare"


def test_no_take_decision_without_the_variant() -> None:
    g = scripted(H3, "7H", dealer=2)
    assert g.to_move().decision == "declare"
    with pytest.raises(IllegalMove):
        g.apply(0, "pass_trump")


# --------------------------------------------------------------------------- bad moves


def test_move_errors_in_record_order() -> None:
    g = scripted(H3, "7H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "play"})
    cases = [
        (1, "AS", "wrong_seat"), (1, "ZZ", "wrong_seat"),
        (0, "ZZ", "bad_card"), (0, "2S", "bad_card"), (0, "10S", "bad_card"),
        (0, "7S", "illegal_move"), (0, "play", "illegal_move"),
        (0, "take:AS", "illegal_move"), (0, "pass_trump", "illegal_move"),
    ]
    for seat, move, kind in cases:
        with pytest.raises(IllegalMove) as e:
            g.apply(seat, move)
        assert e.value.kind == kind, (seat, move)
        assert repr(move) in e.value.message and f"seat {seat}" in e.value.message
        if kind != "wrong_seat":
            assert "legal moves: AS, KS, QS" in e.value.message


# --------------------------------------------------------------------------- views


def test_view_keys_and_secrecy() -> None:
    g = scripted(H4, "7H", dealer=3, rules={"dealer_takes_trump": True})
    g.apply(3, "take:9D")
    declare(g, {0: "play", 1: "drop", 2: "play", 3: "play"})
    g.apply(0, "AS")
    v = g.view(2)
    for key in ("game", "rules", "seat", "players", "sudden_death", "active", "dealer",
                "lives", "round", "hand", "legal", "events", "history", "seed",
                "private", "trump", "trump_card", "trick", "tricks"):
        assert key in v
    assert v["game"] == "rams" and v["seat"] == 2 and v["players"] == 4
    assert v["trump"] == "H" and v["trump_card"] == "7H" and v["sudden_death"] is False
    assert v["trick"] == [{"seat": 0, "card": "AS"}]
    assert v["tricks"] == {"0": 0, "2": 0, "3": 0}
    assert v["hand"] == ["7C", "8C", "9C"] and v["legal"] == ["7C", "8C", "9C"]
    assert v["private"] == [{"type": "dealt", "cards": ["7C", "8C", "9C"]}]
    assert v["rules"] == g.rules and v["rules"] is not g.rules
    assert {"type": "declare", "seat": 1, "choice": "drop"} in v["events"]
    text = json.dumps(v)
    for card in H4[1] + ["KS", "QS", "9D"]:   # the dropped hand, others' hands, the under card
        assert card not in text
    assert g.view(1)["legal"] == [] and g.view(1)["hand"] == H4[1]
    types = {e["type"] for e in v["events"]}
    assert types <= {"declare", "take_trump", "play", "trick"}
    json.dumps(g.view(0))
    # a view is a copy: changing it changes nothing
    v["hand"].clear()
    v["events"].clear()
    assert g.view(2)["hand"] == ["7C", "8C", "9C"] and g.view(2)["events"]


def test_view_history_and_lazy_view_match() -> None:
    g = RamsGame({"lives": 2}, 4, seed=11)
    g.start()
    play_out(g)
    play_out(g)
    s = g.to_move().seat
    v = g.view(s)
    assert len(v["history"]) == 2 and v["round"] == 2
    assert any(e["type"] == "trick" for e in v["history"][0]) or g.rounds[0]["void"]
    lazy = g.lazy_view(s)
    assert {k: lazy[k] for k in lazy} == v


def test_summary_matches_record_fields() -> None:
    g = scripted(H3, "7H", dealer=2)
    declare(g, {0: "play", 1: "play", 2: "drop"})
    play_out(g)
    s = g.summary()
    assert s["rounds"][0] == {"dealer": 2, "tricks": {"0": 3, "1": 0, "2": 0},
                              "played": [0, 1], "trump": "H", "lost": {"1": 1},
                              "lives": [3, 2, 3], "index": 0, "void": False,
                              "lone": None, "trump_card": "7H"}
    assert s["to_move"] == {"seat": 1, "legal": ["drop", "play"], "decision": "declare"}
    assert s["finished"] is False and s["winner"] is None and s["game"] == "rams"
    assert s["round"] == 1 and s["dealer"] == 0


# --------------------------------------------------------------------------- basic players


def test_basic_players_always_choose_legal_moves() -> None:
    for seed in range(15):
        rules = {"dealer_takes_trump": seed % 2 == 0, "must_beat": seed % 3 == 0,
                 "must_trump": seed % 4 == 0}
        g = RamsGame(rules, 3 + seed % 5, seed=seed)
        g.start()
        rng = random.Random(seed)
        while (p := g.to_move()) is not None and g.round_index < 500:
            v = g.view(p.seat)
            m = choose_greedy(v) if p.seat % 2 else rng.choice(v["legal"])
            assert m in v["legal"]
            g.apply(p.seat, m)
        assert g.finished


def test_greedy_choices() -> None:
    base = {"trump": "H", "trump_card": "7H", "trick": [], "decision": "declare"}
    assert choose_greedy({**base, "legal": ["drop", "play"],
                          "hand": ["8C", "9C", "TD"]}) == "drop"
    assert choose_greedy({**base, "legal": ["drop", "play"],
                          "hand": ["8C", "9H", "TD"]}) == "play"
    assert choose_greedy({**base, "legal": ["drop", "play"],
                          "hand": ["8C", "AC", "TD"]}) == "play"
    assert choose_greedy({**base, "legal": ["play"], "hand": ["8C", "9C"]}) == "play"
    take = {**base, "decision": "take", "hand": ["8C", "AH", "TD"],
            "legal": ["pass_trump", "take:8C", "take:AH", "take:TD"]}
    assert choose_greedy(take) == "take:8C"
    take = {**base, "decision": "take", "hand": ["8H", "AH", "TH"], "trump_card": "7H",
            "legal": ["pass_trump", "take:8H", "take:AH", "take:TH"]}
    assert choose_greedy(take) == "pass_trump"
    trick = {**base, "decision": "trick", "trick": [{"seat": 0, "card": "9S"}],
             "legal": ["TS", "AS", "7S"], "hand": ["TS", "AS", "7S"]}
    assert choose_greedy(trick) == "TS"
    trick["trick"] = [{"seat": 0, "card": "9S"}, {"seat": 1, "card": "7H"}]
    assert choose_greedy(trick) == "7S"


# --------------------------------------------------------------------------- properties


def rank_of(card: str, deck: tuple[str, ...]) -> int:
    order = "789TJQKA" if deck == SKAT32 else "23456789TJQKA"
    return order.index(card[0])


def ref_winner(cards: list[str], trump: str, deck: tuple[str, ...]) -> int:
    """Index of the winning card (independent of the engine)."""
    trumps = [i for i, c in enumerate(cards) if c[1] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c[1] == cards[0][1]]
    return max(pool, key=lambda i: rank_of(cards[i], deck))


def ref_legal(hand: list[str], trick: list[str], trump: str, rules: dict[str, Any],
              deck: tuple[str, ...]) -> set[str]:
    if not trick:
        return set(hand)
    follow = [c for c in hand if c[1] == trick[0][1]]
    trumps = [c for c in hand if c[1] == trump]
    if follow:
        allowed = follow
    elif rules["must_trump"] and trumps:
        allowed = trumps
    else:
        allowed = list(hand)
    if rules["must_beat"]:
        wins = [c for c in allowed if ref_winner(trick + [c], trump, deck) == len(trick)]
        if wins:
            allowed = wins
    return set(allowed)


def snapshot(g: RamsGame) -> dict[str, Any]:
    d = dict(g.__dict__)
    src = d.pop("source")
    state = copy.deepcopy(d)
    state["source"] = (src.used, src._rng.getstate() if src._rng else None, src.deals)
    return state


def illegal_moves(g: RamsGame, rng: random.Random) -> list[tuple[int, str]]:
    p = g.to_move()
    assert p is not None
    other = (p.seat + 1 + rng.randrange(g.n_seats - 1)) % g.n_seats
    cands = [(other, p.legal[0]), (p.seat, "ZZ"), (p.seat, "2Z"), (p.seat, "take:ZZ"),
             (p.seat, "keep")]
    for word in ("play", "drop", "pass_trump"):
        if word not in p.legal:
            cands.append((p.seat, word))
    for c in g.deck:
        if c not in p.legal:
            cands.append((p.seat, c))
            break
    wrong = "2S" if g.deck == SKAT32 else "1S"
    cands.append((p.seat, wrong))
    return cands


rules_strategy = st.fixed_dictionaries({
    "lives": st.integers(1, 3),
    "hand_size": st.integers(3, 5),
    "drop_limit": st.sampled_from([1, 2, 3, "none"]),
    "must_trump": st.booleans(),
    "must_beat": st.booleans(),
    "dealer_takes_trump": st.booleans(),
    "lone_needs_one": st.booleans(),
    "deck": st.sampled_from(["auto", "auto", "french52"]),
})


def play_checked(rules: dict[str, Any], n: int, seed: int, move_seed: int,
                 full_deals: int, max_rounds: int) -> tuple[RamsGame, list[Any], dict]:
    """Play a random game checking every invariant; returns the game, its events and
    the construction arguments."""
    probe = RamsGame(rules, n, seed=0, dealer=0)
    deck = probe.deck
    drng = random.Random(seed ^ 0x5EED)
    deals = []
    for _ in range(full_deals):
        d = list(deck)
        drng.shuffle(d)
        deals.append(d)
    args = {"seed": seed, "deals": deals}
    g = RamsGame(rules, n, **args)
    events = list(g.start())
    rng = random.Random(move_seed)
    lives = list(g.lives)
    round_cards = None
    round_no = -1
    while (p := g.to_move()) is not None and g.round_index < max_rounds:
        # cards conserved within the round (and the whole deck when fully dealt)
        cards = [c for s in g.active for c in g.hands[s]] + [c for _, c in g.trick] \
            + g.taken + g.stock
        assert len(cards) == len(set(cards)) and set(cards) <= set(deck)
        if g.round_index != round_no:
            round_no = g.round_index
            round_cards = sorted(cards)
            want = len(deck) if round_no < full_deals else g.hand_size * len(g.active) + 1
            assert len(cards) == want
        assert sorted(cards) == round_cards
        # the legal list is exactly the rules' (follow suit, must_trump, must_beat)
        if p.decision == "trick":
            ref = ref_legal(g.hands[p.seat], [c for _, c in g.trick], g.trump, g.rules, deck)
            assert set(p.legal) == ref
            assert p.seat in g.players and p.seat not in [s for s, _ in g.trick]
        elif p.decision == "declare":
            forced = g.drop_limit is not None and g.drops[p.seat] >= g.drop_limit
            assert sorted(p.legal) == (["play"] if forced else ["drop", "play"])
        else:
            assert p.seat == g.dealer and "pass_trump" in p.legal
        # an illegal move raises and changes nothing
        if rng.random() < 0.08:
            before = snapshot(g)
            for seat, move in illegal_moves(g, rng):
                with pytest.raises(IllegalMove):
                    g.apply(seat, move)
            assert snapshot(g) == before
        if p.decision == "trick":
            ref_ok = ref_legal(g.hands[p.seat], [c for _, c in g.trick], g.trump, g.rules,
                               deck)
        move = p.legal[rng.randrange(len(p.legal))]
        events += g.apply(p.seat, move)
        if p.decision == "trick":   # nobody breaks follow suit (or must_trump/must_beat)
            assert move in ref_ok
            assert g.round_index != round_no or move not in g.hands[p.seat]
        assert all(a <= b for a, b in zip(g.lives, lives, strict=True))
        assert min(g.lives) >= 0
        lives = list(g.lives)
    return g, events, args


def check_tricks(g: RamsGame, events: list[Any]) -> None:
    """Every trick has exactly one winner (by the rules), who leads the next one."""
    trump = ""
    plays: list[str] = []
    seats: list[int] = []
    deck = g.deck
    pending_lead: int | None = None
    tricks_in_round = 0
    for e in events:
        if e.type == "trump":
            trump = e.data["suit"]
        elif e.type == "round_start":
            assert pending_lead is None
            tricks_in_round = 0
        elif e.type == "lead":
            if pending_lead is not None:
                assert e.data["seat"] == pending_lead
                pending_lead = None
            plays, seats = [], []
        elif e.type == "play":
            plays.append(e.data["card"])
            seats.append(e.data["seat"])
        elif e.type == "trick":
            winner = seats[ref_winner(plays, trump, deck)]
            assert e.data["winner"] == winner
            assert e.data["cards"] == {str(s): c for s, c in zip(seats, plays, strict=True)}
            tricks_in_round += 1
            pending_lead = winner if tricks_in_round < g.hand_size else None
    for r in g.rounds:
        assert sum(r["tricks"].values()) == (0 if r["void"] else g.hand_size)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, n=st.integers(3, 7), seed=st.integers(0, 2**31),
       move_seed=st.integers(0, 2**31), full_deals=st.integers(0, 3))
def test_random_games_keep_every_invariant(rules: dict[str, Any], n: int, seed: int,
                                           move_seed: int, full_deals: int) -> None:
    if rules["deck"] == "auto" and n * rules["hand_size"] + 1 > (52 if n >= 6 else 32):
        rules["hand_size"] = 3
    bounded = rules["drop_limit"] != "none"
    g, events, args = play_checked(rules, n, seed, move_seed, full_deals,
                                   max_rounds=400 if bounded else 60)
    if bounded:
        assert g.finished, "every game ends under a drop limit"
        assert g.to_move() is None and g.winner is not None
        assert [e.type for e in events].count("game_over") == 1
    check_tricks(g, events)
    # lives in the summary follow the losses round by round
    lives = [g.rules["lives"]] * n
    for r in g.rounds:
        for s, a in r["lost"].items():
            lives[int(s)] -= a
        assert r["lives"] == lives
        if r["lone"] is not None:
            assert r["played"] == [r["lone"]]
    assert lives == g.lives
    # replay: record -> rebuild reproduces the game event for event
    record = record_of(g, [Seat(f"P{i}") for i in range(n)], seed=args["seed"],
                       deals=args["deals"])
    again: list[Any] = []
    g2 = rebuild(from_dict(json.loads(json.dumps(record.as_dict()))), again)
    assert again == events
    assert g2.summary() == g.summary()


# --------------------------------------------------------------------------- records and replay


def record(moves: list[tuple[int, str]] | None = None, **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"format": 1, "game": "rams", "rules": {"hand_size": 3},
                         "seats": [{"name": f"P{i}", "type": "human"} for i in range(3)],
                         "dealer": 2, "seed": 7,
                         "moves": [{"seat": s, "move": m} for s, m in (moves or [])]}
    rules = kw.pop("rules", None)
    d.update(kw)
    if rules is not None:
        d["rules"] = {**d["rules"], **rules}
    return d


def replay(tmp_path: Path, capsys: Any, data: Any) -> tuple[int, str, str]:
    f = tmp_path / "r.json"
    f.write_text(data if isinstance(data, str) else json.dumps(data))
    code = commands.run("replay", [str(f), "--json"])
    out, err = capsys.readouterr()
    return code, out, err


def h3_deal() -> list[str]:
    return stock_for(3, 2, H3, "7H")


def test_replay_json_complete_and_mid_round(tmp_path: Path, capsys: Any) -> None:
    moves = [(0, "play"), (1, "play"), (2, "play"), (0, "AS"), (1, "7S"), (2, "7C"),
             (0, "KS")]
    code, out, err = replay(tmp_path, capsys, record(moves, deals=[h3_deal()]))
    assert code == 0 and err == ""
    s = json.loads(out)
    assert s["rounds"] == [] and s["finished"] is False and s["winner"] is None
    assert s["to_move"] == {"seat": 1, "legal": ["8S", "9S"], "decision": "trick"}
    assert s["lives"] == [3, 3, 3]
    moves += [(1, "8S"), (2, "8C"), (0, "QS"), (1, "9S"), (2, "9C")]
    code, out, _ = replay(tmp_path, capsys, record(moves, deals=[h3_deal()],
                                                   rules={"lives": 1}))
    s = json.loads(out)
    assert code == 0 and s["finished"] is True and s["winner"] == 0
    assert s["lives"] == [1, 0, 0] and s["to_move"] is None
    assert s["rounds"][0]["lost"] == {"1": 1, "2": 1}


def test_replay_take_pending(tmp_path: Path, capsys: Any) -> None:
    code, out, _ = replay(tmp_path, capsys, record(
        [], deals=[h3_deal()], rules={"dealer_takes_trump": True}))
    assert json.loads(out)["to_move"] == {
        "seat": 2, "legal": ["pass_trump", "take:7C", "take:8C", "take:9C"],
        "decision": "take"}


BAD = [
    ("malformed_json", '{"format": 1, "game": "rams", ', None),
    ("malformed_json", "", None),
    ("bad_format", record(format=2), "record format 2 is not supported"),
    ("bad_format", {k: v for k, v in record().items() if k != "moves"},
     "missing field 'moves'"),
    ("bad_format", record(seats=[{"name": "A", "type": "human"}] * 2, dealer=0),
     "Rams needs 3 to 10 seats, got 2"),
    ("bad_format", record(seed=None, dealer=None), "needs a 'seed' or a 'dealer'"),
    ("bad_format", record(deals=[["AS", "AS"]]), "holds AS 2 times"),
    ("bad_format", record(deals=[["AS", "KS", "QS"]]), "deal 0 has 3 cards"),
    ("unknown_rules_key", record(rules={"trumps": True}),
     "unknown rules key 'trumps' for game 'rams'"),
    ("unknown_rules_key", record(rules={"ace_high": True}),
     "unknown rules key 'ace_high' for game 'rams'"),
    ("bad_value", record(rules={"lives": 9}), "rules key 'lives'"),
    ("bad_value", record(rules={"drop_limit": "never"}), "rules key 'drop_limit'"),
    ("bad_value", record(rules={"deck": "skat32", "hand_size": 5},
                         seats=[{"name": f"P{i}", "type": "human"} for i in range(7)]),
     "rules key 'hand_size'"),
    ("bad_card", record(deals=[["ZZ"]]), 'deals[0][0]: "ZZ" is not a card code'),
    ("bad_card", record(deals=[["AS", "2H"]]), 'deals[0][1]: "2H" is not a card code'),
    ("bad_card", record([(0, "play"), (1, "play"), (2, "play"), (0, "2S")],
                        deals=[h3_deal()]),
     "move 3: seat 0 played '2S', which is not a card code of this game's deck"),
    ("bad_card", record([(0, "ZZ")], deals=[h3_deal()]), "move 0: seat 0 played 'ZZ'"),
    ("wrong_seat", record([(1, "play")], deals=[h3_deal()]),
     "move 0: seat 1 played 'play' but it is seat 0's turn (legal moves: drop, play)"),
    ("wrong_seat", record([(1, "ZZ")], deals=[h3_deal()]), "but it is seat 0's turn"),
    ("illegal_move", record([(0, "pass_trump")], deals=[h3_deal()]),
     "move 0: seat 0 played 'pass_trump', which is not legal now (legal moves: drop, play)"),
    ("illegal_move", record([(0, "play"), (1, "play"), (2, "play"), (0, "7S")],
                            deals=[h3_deal()]),
     "move 3: seat 0 played '7S', which is not legal now (legal moves: AS, KS, QS)"),
    ("missing_deal", record([(0, "drop"), (1, "drop"), (2, "drop")], seed=None,
                            deals=[h3_deal()]), "deal 1 is needed"),
    ("missing_deal", record([], seed=None, deals=[]), "deal 0 is needed"),
    ("illegal_move", record([(0, "play"), (1, "play"), (2, "play"), (0, "AS"), (1, "7S"),
                             (2, "7C"), (0, "KS"), (1, "8S"), (2, "8C"), (0, "QS"),
                             (1, "9S"), (2, "9C"), (1, "play")],
                            deals=[h3_deal()], rules={"lives": 1}),
     "move 12: seat 1 played 'play' but the game is already over"),
]


@pytest.mark.parametrize("kind,data,text", BAD)
def test_bad_records(tmp_path: Path, capsys: Any, kind: str, data: Any,
                     text: str | None) -> None:
    code, out, err = replay(tmp_path, capsys, data)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(kind + ": "), err
    if text:
        assert text in lines[0], lines[0]


def test_new_game_factory_and_determinism() -> None:
    a = new_game("rams", {"lives": 2}, 5, seed=42)
    b = new_game("rams", {"lives": 2}, 5, seed=42)
    ea, eb = a.start(), b.start()
    assert ea == eb
    rng = random.Random(1)
    while (p := a.to_move()) is not None and a.round_index < 500:
        m = p.legal[rng.randrange(len(p.legal))]
        assert a.apply(p.seat, m) == b.apply(p.seat, m)
    assert a.summary() == b.summary()
