"""Invariants of the Chase engine over random rules and random legal moves."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.records import Record, Seat, rebuild
from game.rules.base import IllegalMove
from game.rules.chase import ChaseGame

RULES = st.fixed_dictionaries({}, optional={
    "lives": st.integers(1, 4),
    "decks": st.sampled_from(["auto", 1, 2]),
    "stake": st.integers(0, 3),
    "first_dealer": st.sampled_from(["jack", "random"]),
    "final_tie": st.sampled_from(["sudden_death", "replay", "restart", "shared"]),
    "deck_policy": st.sampled_from(["fresh", "continue"]),
    "ace_high": st.booleans(),
    "queen_refuses_once": st.booleans(),
    "reveal_low_on_pass": st.booleans(),
    "domino": st.sampled_from(["off", "low", "ace"]),
    "dealer_wins_ties": st.booleans(),
    "ace_of_spades_double": st.booleans(),
    "aces_double": st.booleans(),
    "blocked_swap_skips": st.booleans(),
    "talon_king_blocks": st.booleans(),
    "deck": st.sampled_from(["french52", "cuckoo40"]),
})

MAX_MOVES = 6000


def play_random(rules, n, seed, choices):
    """Play a whole game with moves drawn from ``choices``; yields (game, events) steps."""
    g = ChaseGame(rules, n, seed=seed, bot_seed=seed)
    yield g, g.start()
    for i in range(MAX_MOVES):
        p = g.to_move()
        if p is None:
            return
        move = p.legal[choices.draw(st.integers(0, len(p.legal) - 1)) if i < 400
                       else (i * 7919 + seed) % len(p.legal)]
        yield g, g.apply(p.seat, move)
    raise AssertionError("the game did not end")


def cards_in_play(g: ChaseGame) -> Counter:
    return Counter([c for c in g.hands if c is not None] + g.talon + g.discards)


@given(RULES, st.integers(3, 16), st.integers(0, 2**32), st.data())
def test_conservation_lives_and_ending(rules, n, seed, data):
    full = None
    lives_before = None
    restarts = 0
    for g, events in play_random(rules, n, seed, data):
        deck = Counter(g.deck)
        in_play = cards_in_play(g)
        assert not in_play - deck, "no card is duplicated"
        if g.rules["deck_policy"] == "continue":
            full = full or deck
            assert in_play == full, "with a carried-over talon every card stays in the game"
        kinds = [e.type for e in events]
        if "restart" in kinds:
            restarts += 1
            assert g.lives == [g.rules["lives"]] * n
        elif lives_before is not None:
            assert all(a <= b for a, b in zip(g.lives, lives_before)), "lives never rise"
        assert all(x >= 0 for x in g.lives)
        lives_before = list(g.lives)
    assert g.finished and g.to_move() is None
    if isinstance(g.winner, list):
        assert g.rules["final_tie"] == "shared" and len(g.winner) >= 2
        assert g.winner == sorted(g.winner)
    else:
        assert isinstance(g.winner, int)
        if not g.sudden_death:
            assert g.lives[g.winner] > 0
            assert sum(1 for x in g.lives if x > 0) == 1
        else:
            assert g.in_game.count(True) == 1 and g.in_game[g.winner]


def snapshot(g: ChaseGame):
    state = {k: copy.deepcopy(v) for k, v in vars(g).items() if k not in ("source", "scale")}
    state["source"] = (g.source.used, g.source._rng.getstate() if g.source._rng else None)
    return state


@given(RULES, st.integers(3, 8), st.integers(0, 2**32), st.data(),
       st.sampled_from(["keep", "swap", "draw", "accept", "refuse", "AS", "", "take:AS"]),
       st.integers(-1, 9))
def test_illegal_moves_change_nothing(rules, n, seed, data, move, seat):
    steps = data.draw(st.integers(0, 30))
    g = None
    for i, (g, _) in enumerate(play_random(rules, n, seed, data)):  # noqa: B007 (g is used after the loop)
        if i >= steps:
            break
    p = g.to_move()
    if p is not None and seat == p.seat and move in p.legal:
        return  # a legal move: nothing to check here
    before = snapshot(g)
    with pytest.raises(IllegalMove) as err:
        g.apply(seat, move)
    assert repr(move) in str(err.value)
    assert snapshot(g) == before


@given(RULES, st.integers(3, 10), st.integers(0, 2**32), st.data())
def test_replaying_the_record_reproduces_every_event(rules, n, seed, data):
    events = []
    g = None
    for g, ev in play_random(rules, n, seed, data):  # noqa: B007 (g is used after the loop)
        events.extend(ev)
    record = Record(game="chase", seats=[Seat(f"P{i}") for i in range(n)], rules=rules,
                    seed=seed, bot_seed=seed, moves=list(g.moves))
    again: list = []
    h = rebuild(record, again)
    assert [(e.type, e.data, e.to) for e in again] == [(e.type, e.data, e.to) for e in events]
    assert h.summary() == g.summary()
    # the record survives a trip through its JSON text
    from game.records import dumps, parse
    assert rebuild(parse(dumps(record))).summary() == g.summary()


@given(RULES, st.integers(3, 8), st.integers(0, 2**32), st.data())
def test_views_never_show_another_seats_card(rules, n, seed, data):
    import json

    rules = {**rules, "deck": "french52", "decks": 1}   # one copy of every card
    for g, _ in play_random(rules, n, seed, data):
        if g.to_move() is None:
            break
        for seat in g.active:
            v = g.view(seat)
            assert v["hand"] == [g.hands[seat]]
            known = {g.hands[seat], *v["faceup"].values()}
            for e in v["private"]:
                assert e["type"] in ("dealt", "exchange", "drew")
                known.update(e.get("cards", []))
                known.update(x for x in (e.get("gave"), e.get("got"), e.get("card")) if x)
            known.update(e["card"] for e in v["events"] if "card" in e)
            text = json.dumps({k: x for k, x in v.items() if k != "history"})
            for other in g.active:
                card = g.hands[other]
                if other != seat and card not in known:
                    assert f'"{card}"' not in text, f"seat {seat} sees seat {other}'s {card}"
