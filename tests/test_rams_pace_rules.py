"""The rules keys that give Rams a pub's pace (docs/rules.md#rams, docs/rams-pace.md): the
counters scoring (traditional: shed one counter per trick, five more for playing
without a trick, the first at zero wins), General Rams, the dealer who must play when
everyone before dropped, and no dropping with two players left. Every rule has a test
here that fails if the rule broke; the property test plays whole random games under
every combination and checks the counts round by round.

Scripted rounds use :func:`test_rams_engine.scripted` (explicit deals)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rams_engine import H3, H4, declare, do, play_out, scripted, stock_for

from game.records import Seat, from_dict, rebuild, record_of
from game.rules.base import IllegalMove
from game.rules.rams import RamsGame, rams_rules
from game.rules.rams_rules import (
    COUNTER_PENALTY,
    forced_to_play,
    round_losses,
    sheds,
    stake_unit,
)

#: each key alone: the other pace keys off (a test that needs one sets it)
PLAIN = {"general_rams": False, "dealer_must_play": False, "drop_limit": "none"}
LIVES = {**PLAIN, "scoring": "lives"}
COUNT = {**PLAIN, "scoring": "counters", "counters": 5}


def legal(g: RamsGame) -> list[str]:
    p = g.to_move()
    assert p is not None
    return sorted(p.legal)


# --------------------------------------------------------------------------- pure rules


def test_round_losses_counters() -> None:
    # players shed a counter per trick and add the penalty without one
    assert round_losses([0, 1, 2], {0: 3, 1: 0, 2: 2}, None, 5, counters=True) == {
        0: -3, 1: COUNTER_PENALTY, 2: -2}
    # a lone player counts like any player, the defenders count nothing
    assert round_losses([0, 1, 2], {0: 1, 1: 4, 2: 0}, 0, 5, counters=True) == {0: -1}
    assert round_losses([0, 1, 2], {0: 0, 1: 4, 2: 1}, 0, 5, counters=True) == {0: 5}
    # General Rams: all or the penalty for the announcer, the others as usual
    assert round_losses([0, 1, 2], {0: 5}, None, 5, counters=True, general=0) == {
        0: -5, 1: 5, 2: 5}
    assert round_losses([0, 1, 2], {0: 4, 1: 1}, None, 5, counters=True, general=0) == {
        0: 5, 1: -1, 2: 5}


def test_round_losses_general_rams_lives() -> None:
    assert round_losses([0, 1, 2], {0: 3}, None, 3, general=0) == {1: 1, 2: 1}
    assert round_losses([0, 1, 2], {0: 2, 1: 1}, None, 3, general=0) == {0: 2, 2: 1}
    # without General Rams the lives count is 002's
    assert round_losses([0, 1, 2], {0: 2, 1: 1}, None, 3) == {2: 1}


def test_sheds_counts_as_the_round_goes() -> None:
    t = {0: 2, 1: 1, 2: 0}
    assert [sheds(s, t, None, None, 5) for s in (0, 1, 2)] == [2, 1, 0]
    assert [sheds(s, t, 1, None, 5) for s in (0, 1, 2)] == [0, 1, 0]    # 1 plays alone
    assert sheds(0, t, None, 0, 5) == 0 and sheds(0, {0: 5}, None, 0, 5) == 5


def test_stake_unit() -> None:
    assert stake_unit(rams_rules(LIVES)) == 1
    assert stake_unit(rams_rules(COUNT)) == COUNTER_PENALTY


def test_forced_to_play_reasons() -> None:
    assert forced_to_play(1, 1) == "must_play"
    assert forced_to_play(0, 1) is None
    assert forced_to_play(0, None, dealer=True, nobody_plays=True) is None
    assert forced_to_play(0, None, dealer=True, nobody_plays=True,
                          dealer_must_play=True) == "dealer_must_play"
    assert forced_to_play(0, None, dealer=True, nobody_plays=False,
                          dealer_must_play=True) is None
    assert forced_to_play(0, None, dealer=False, nobody_plays=True,
                          dealer_must_play=True) is None
    assert forced_to_play(0, None, seats=2, two_must_play=True) == "two_must_play"
    assert forced_to_play(0, None, seats=3, two_must_play=True) is None


# --------------------------------------------------------------------------- counters


def test_counters_start_and_ignore_lives() -> None:
    g = RamsGame({"scoring": "counters", "counters": 7, "lives": 2}, 4, seed=1)
    g.start()
    assert g.lives == [7, 7, 7, 7]
    assert g.view(0)["lives"] == [7, 7, 7, 7]


def test_counters_shed_per_trick_and_penalty_without_one() -> None:
    g = scripted(H3, "7H", dealer=2, rules={**COUNT, "counters": 6})
    declare(g, {0: "play", 1: "play", 2: "drop"})
    ev = do(g, (0, "AS"), (1, "7S"), (0, "KS"), (1, "8S"), (0, "QS"), (1, "9S"))
    r = g.rounds[0]
    assert r["lost"] == {"0": -3, "1": COUNTER_PENALTY}
    assert g.lives == [3, 6 + COUNTER_PENALTY, 6] and r["lives"] == g.lives
    assert [e.data for e in ev if e.type == "score"] == [
        {"seat": 0, "amount": -3, "counters": 3},
        {"seat": 1, "amount": COUNTER_PENALTY, "counters": 11}]
    assert not any(e.type in ("lose_life", "out") for e in ev)
    assert all(g.in_game)          # nobody goes out under counters


def test_counters_lone_player_and_defenders() -> None:
    g = scripted(H4, "7H", dealer=3, rules=COUNT)        # 0 leads and plays alone
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    play_out(g)
    r = g.rounds[0]
    assert r["lone"] == 0 and r["tricks"]["0"] == 3 and r["lost"] == {"0": -3}
    assert g.lives == [2, 5, 5, 5]
    g = scripted(H4, "7H", dealer=1, rules=COUNT)        # 1 plays alone and takes none
    declare(g, {2: "drop", 3: "drop", 0: "drop", 1: "play"})
    play_out(g)
    r = g.rounds[0]
    assert r["tricks"]["1"] == 0 and r["lost"] == {"1": COUNTER_PENALTY}
    assert g.lives == [5, 10, 5, 5]     # the defenders' tricks count nothing


def test_counters_first_at_zero_wins_at_once() -> None:
    g = scripted(H3, "7H", dealer=2, rules={**COUNT, "counters": 2})
    declare(g, {0: "play", 1: "play", 2: "play"})
    ev = do(g, (0, "AS"), (1, "7S"), (2, "7C"))
    assert not g.finished and g.lives == [2, 2, 2]
    ev = do(g, (0, "KS"), (1, "8S"), (2, "8C"))
    # the second trick brings seat 0 to zero: the game ends there, mid-round
    assert g.finished and g.winner == 0 and g.to_move() is None
    assert g.lives == [0, 2, 2]             # no penalty for a round cut short
    r = g.rounds[0]
    assert r["cut"] is True and r["tricks"] == {"0": 2, "1": 0, "2": 0}
    assert r["lost"] == {"0": -2}
    assert [e.data for e in ev if e.type == "game_over"] == [{"winner": 0}]
    assert g.hands[0] == ["QS"]            # the last trick was never played
    with pytest.raises(IllegalMove):
        g.apply(0, "QS")


def test_counters_never_below_zero() -> None:
    g = scripted(H4, "7H", dealer=3, rules={**COUNT, "counters": 1})
    declare(g, {0: "play", 1: "drop", 2: "drop", 3: "drop"})
    do(g, (0, "AS"), (1, "7S"), (2, "7C"), (3, "7D"))
    assert g.finished and g.winner == 0 and g.lives[0] == 0


def test_counters_the_defenders_tricks_never_end_the_game() -> None:
    g = scripted(H4, "7H", dealer=1, rules={**COUNT, "counters": 1})
    declare(g, {2: "drop", 3: "drop", 0: "drop", 1: "play"})   # 1 alone, 0 defends
    do(g, (2, "7C"), (3, "7D"), (0, "AS"), (1, "7S"))          # a defender takes it
    assert g.rounds == [] and not g.finished and g.lives == [1, 1, 1, 1]


# --------------------------------------------------------------------------- dealer_must_play


def test_dealer_must_play_when_everyone_before_dropped() -> None:
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "dealer_must_play": True,
                                            "drop_limit": "none"})
    declare_until(g, 3, {0: "drop", 1: "drop", 2: "drop"})
    assert g.to_move().seat == 3 and legal(g) == ["play"]
    assert g.why_illegal(3, "drop").code == "dealer_must_play"
    g.apply(3, "play")
    assert g.lone == 3                  # the dealer plays alone: a Rams round
    play_out(g)
    assert not g.rounds[0]["void"]


def test_dealer_may_drop_when_someone_plays_or_without_the_rule() -> None:
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "dealer_must_play": True,
                                            "drop_limit": "none"})
    declare_until(g, 3, {0: "drop", 1: "play", 2: "drop"})
    assert legal(g) == ["drop", "play"]
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "drop_limit": "none"})
    declare_until(g, 3, {0: "drop", 1: "drop", 2: "drop"})
    assert legal(g) == ["drop", "play"]
    g.apply(3, "drop")
    assert g.rounds[0]["void"]


@pytest.mark.parametrize("scoring", ["lives", "counters"])
def test_dealer_must_play_means_no_void_round(scoring: str) -> None:
    rules = {"scoring": scoring, "dealer_must_play": True, "drop_limit": 2}
    rng = random.Random(5)
    for seed in range(20):
        g = RamsGame(rules, 4, seed=seed)
        g.start()
        while (p := g.to_move()) is not None and g.round_index < 40:
            g.apply(p.seat, "drop" if "drop" in p.legal and rng.random() < 0.9
                    else rng.choice(p.legal))
        assert g.rounds and not any(r["void"] for r in g.rounds)


# --------------------------------------------------------------------------- two_must_play


def test_two_must_play_with_two_seats_dealt_in() -> None:
    g = RamsGame({**LIVES, "two_must_play": True, "drop_limit": "none", "lives": 1}, 3,
                 seed=2)
    g.start()
    assert legal(g) == ["drop", "play"]          # three seats: dropping allowed
    # everyone plays until a seat is out (with this seed exactly one goes)
    while (p := g.to_move()) is not None and sum(g.in_game) == 3:
        g.apply(p.seat, "play" if p.decision == "declare" else p.legal[0])
    assert not g.finished and sum(g.in_game) == 2
    p = g.to_move()
    assert p.decision == "declare" and list(p.legal) == ["play"]
    assert g.why_illegal(p.seat, "drop").code == "two_must_play"


def test_two_players_may_drop_without_the_rule() -> None:
    g = RamsGame({**LIVES, "drop_limit": "none", "lives": 1}, 3, seed=2)
    g.start()
    while (p := g.to_move()) is not None and sum(g.in_game) == 3:
        g.apply(p.seat, "play" if p.decision == "declare" else p.legal[0])
    assert sum(g.in_game) == 2 and legal(g) == ["drop", "play"]


# --------------------------------------------------------------------------- General Rams


def declare_until(g: RamsGame, seat: int, choices: dict[int, str]) -> None:
    while (p := g.to_move()) is not None and p.decision == "declare" and p.seat != seat:
        g.apply(p.seat, choices[p.seat])


def test_general_rams_is_offered_only_with_the_key() -> None:
    g = scripted(H4, "7H", dealer=3, rules=LIVES)
    assert legal(g) == ["drop", "play"]
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "general_rams": True})
    assert legal(g) == ["drop", "general", "play"]
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "general_rams": True, "drop_limit": 1})
    g.drops[0] = 1                                   # forced by the drop limit
    g._next_declaration()
    assert legal(g) == ["general", "play"]


def test_general_rams_everyone_plays_and_the_announcer_leads() -> None:
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "general_rams": True})
    do(g, (0, "drop"))
    ev = do(g, (1, "general"))
    assert [e.data for e in ev if e.type == "general_rams"] == [{"seat": 1}]
    p = g.to_move()
    assert p.decision == "trick" and p.seat == 1     # 2 and 3 are not asked; 1 leads
    assert g.players == [0, 1, 2, 3] and g.general == 1 and g.lone is None
    assert g.view(2)["general"] == 1
    assert [e["choice"] for e in g.view(2)["events"] if e["type"] == "declare"] == [
        "drop", "general"]
    play_out(g)
    r = g.rounds[0]
    assert r["general"] == 1 and r["played"] == [0, 1, 2, 3] and not r["void"]
    assert sorted(r["tricks"]) == ["0", "1", "2", "3"]


def test_general_rams_lives_success_and_failure() -> None:
    # seat 0 holds the three top spades, spades are trump: it takes every trick
    h = {0: ["AS", "KS", "QS"], 1: ["7C", "8C", "9C"], 2: ["7D", "8D", "9D"]}
    g = scripted(h, "7S", dealer=2, rules={**LIVES, "general_rams": True})
    do(g, (0, "general"))
    play_out(g)
    assert g.rounds[0]["lost"] == {"1": 1, "2": 1} and g.lives == [3, 2, 2]
    g = scripted(H3, "7H", dealer=0, rules={**LIVES, "general_rams": True})   # 1 first
    do(g, (1, "general"))
    play_out(g)
    r = g.rounds[0]
    assert r["tricks"]["1"] < 3 and r["lost"]["1"] == 2


def test_general_rams_counters_success_and_failure() -> None:
    h = {0: ["AS", "KS", "QS"], 1: ["7C", "8C", "9C"], 2: ["7D", "8D", "9D"]}
    g = scripted(h, "7S", dealer=2, rules={**COUNT, "general_rams": True, "counters": 9})
    do(g, (0, "general"))
    play_out(g)
    assert g.rounds[0]["lost"] == {"0": -3, "1": 5, "2": 5}
    g = scripted(H3, "7H", dealer=0, rules={**COUNT, "general_rams": True})
    do(g, (1, "general"))
    do(g, (1, "7S"), (2, "7C"), (0, "AS"))          # 0 takes a trick: 1 has failed
    play_out(g)
    r = g.rounds[0]
    assert r["lost"]["1"] == COUNTER_PENALTY and r["lost"]["0"] == -r["tricks"]["0"]


def test_general_rams_counters_only_every_trick_ends_the_game() -> None:
    h = {0: ["AS", "KS", "QS"], 1: ["7C", "8C", "9C"], 2: ["7D", "8D", "9D"]}
    g = scripted(h, "7S", dealer=2, rules={**COUNT, "general_rams": True, "counters": 1})
    do(g, (0, "general"), (0, "AS"), (1, "7C"), (2, "7D"))
    assert not g.finished                 # one trick of three: nothing shed yet
    play_out(g)
    assert g.finished and g.winner == 0 and g.lives[0] == 0


def test_general_rams_replays_from_a_record() -> None:
    g = scripted(H4, "7H", dealer=3, rules={**LIVES, "general_rams": True})
    do(g, (0, "drop"), (1, "general"))
    play_out(g)
    rec = record_of(g, [Seat(f"P{i}") for i in range(4)], dealer=3, seed=1,
                    deals=[stock_for(4, 3, H4, "7H")])
    again = rebuild(from_dict(json.loads(json.dumps(rec.as_dict()))))
    assert again.summary() == g.summary()


# --------------------------------------------------------------------------- whole games

pace_rules = st.fixed_dictionaries({
    "scoring": st.sampled_from(["lives", "counters"]),
    "counters": st.integers(1, 12),
    "lives": st.integers(1, 4),
    "drop_limit": st.sampled_from([1, 2, "none"]),
    "general_rams": st.booleans(),
    "dealer_must_play": st.booleans(),
    "two_must_play": st.booleans(),
    "lone_needs_one": st.booleans(),
    "hand_size": st.integers(3, 5),
    "last_round": st.sampled_from([10, 30, "none"]),
})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=pace_rules, n=st.integers(3, 6), seed=st.integers(0, 2**31),
       move_seed=st.integers(0, 2**31))
def test_random_games_count_every_round(rules: dict[str, Any], n: int, seed: int,
                                        move_seed: int) -> None:
    rng = random.Random(move_seed)
    g = RamsGame(rules, n, seed=seed)
    events = list(g.start())
    while (p := g.to_move()) is not None and g.round_index < 300:
        events += g.apply(p.seat, rng.choice(p.legal))
    counting = rules["scoring"] == "counters"
    start = rules["counters"] if counting else rules["lives"]
    stack = [start] * n
    for r in g.rounds:
        for s, a in r["lost"].items():
            stack[int(s)] += a if counting else -a
        assert r["lives"] == stack and min(stack) >= 0
        if r["void"]:
            assert not rules["dealer_must_play"]
        if counting and not r.get("cut"):
            # a finished round: the pure count, capped at zero counters
            lone, general = r["lone"], r.get("general")
            players = ([int(s) for s in r["tricks"]] if lone is not None or general
                       is not None else r["played"])
            want = round_losses(players, {int(s): t for s, t in r["tricks"].items()},
                                lone, g.hand_size, counters=True, general=general)
            got = {int(s): a for s, a in r["lost"].items()}
            assert all(got.get(s, 0) == a or r["lives"][s] == 0 for s, a in want.items())
    assert stack == g.lives
    if g.finished and counting and not (g.rounds[-1].get("last") and 0 not in g.lives):
        assert g.lives[g.winner] == 0 and all(g.in_game)
        assert sum(1 for x in g.lives if x == 0) == 1
    if counting:
        assert not any(e.type in ("lose_life", "out") for e in events)
    # the record rebuilds the game event for event
    rec = record_of(g, [Seat(f"P{i}") for i in range(n)], seed=seed)
    again: list[Any] = []
    g2 = rebuild(from_dict(json.loads(json.dumps(rec.as_dict()))), again)
    assert g2.summary() == g.summary() and again == events
