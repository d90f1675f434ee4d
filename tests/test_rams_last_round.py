"""The last round (``last_round``, docs/rules.md#rams, docs/rams-pace.md): every Rams game
ends. Under counters a table that always plays may drift upwards and never reach zero;
after the round with the number ``last_round`` is scored the game ends, the fewest
counters (under lives: the most lives) winning, a tie for the best leaving no winner.
Rams as written (and every format-1 record) has no last round."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.records import RecordError, Seat, from_dict, rebuild, record_of
from game.rules.rams import AS_WRITTEN, RamsGame, rams_rules
from game.rules.rams_rules import best_at_the_end, last_round_of

#: the pace keys that would make a void round impossible, off: everyone may drop
DROPPING = {"general_rams": False, "dealer_must_play": False, "drop_limit": "none"}


def always_play(rules: dict[str, Any], seed: int, n: int = 4, cap: int = 400
                ) -> tuple[RamsGame, list[Any]]:
    """A table of beginners: every seat always plays (never drops, never announces
    General Rams) and plays a random legal card."""
    g = RamsGame(rules, n, seed=seed)
    events = list(g.start())
    rng = random.Random(seed)
    while (p := g.to_move()) is not None and len(g.rounds) < cap:
        move = "play" if "play" in p.legal else rng.choice(
            [m for m in p.legal if m != "general"] or list(p.legal))
        events += g.apply(p.seat, move)
    return g, events


def ended_by_last_round(g: RamsGame) -> bool:
    """The game ended because its last round was scored (nobody at zero counters, or
    more than one seat with lives left)."""
    left = g.rounds[-1]["lives"]
    natural = 0 in left if g.counting else sum(1 for x in left if x > 0) <= 1
    return g.finished and bool(g.rounds[-1].get("last")) and not natural


# --------------------------------------------------------------------------- pure rules


def test_last_round_of() -> None:
    assert last_round_of({"last_round": 30}) == 30
    assert last_round_of({"last_round": "none"}) is None
    assert last_round_of(rams_rules()) == 30
    assert last_round_of(rams_rules(AS_WRITTEN)) is None


def test_best_at_the_end() -> None:
    # counters: the fewest win; lives: the most
    assert best_at_the_end([7, 3, 9, 4], [0, 1, 2, 3], counting=True) == 1
    assert best_at_the_end([1, 3, 2, 0], [0, 1, 2], counting=False) == 1
    # a tie for the best: nobody wins
    assert best_at_the_end([3, 3, 9], [0, 1, 2], counting=True) is None
    assert best_at_the_end([2, 2, 1], [0, 1, 2], counting=False) is None
    # a tie below the best does not matter; only the seats still in count
    assert best_at_the_end([1, 4, 4], [0, 1, 2], counting=True) == 0
    assert best_at_the_end([3, 2, 2], [1, 2], counting=False) is None


def test_the_key() -> None:
    assert rams_rules()["last_round"] == 30
    assert rams_rules({"last_round": 10})["last_round"] == 10
    assert rams_rules({"last_round": "none"})["last_round"] == "none"
    for bad in (9, 101, "30", True, 2.5):
        with pytest.raises(Exception) as err:
            rams_rules({"last_round": bad})
        assert getattr(err.value, "kind", None) == "bad_value"


# --------------------------------------------------------------------------- the engine


def test_a_table_that_always_plays_ends_by_round_30() -> None:
    by_last = 0
    for seed in range(20):
        g, events = always_play({}, seed)
        assert g.finished and len(g.rounds) <= 30, (seed, len(g.rounds))
        assert events[-1].type == "game_over" and events[-1].data == {"winner": g.winner}
        assert sum(1 for r in g.rounds if r.get("last")) == (len(g.rounds) == 30)
        if ended_by_last_round(g):
            by_last += 1
            assert len(g.rounds) == 30
            assert g.winner == best_at_the_end(g.lives, range(4), counting=True)
            if g.winner is not None:
                assert g.lives.count(min(g.lives)) == 1
        else:
            assert g.lives[g.winner] == 0
    assert by_last >= 5       # the rule is what ends many of these games


def test_without_a_last_round_the_same_table_may_not_end() -> None:
    # the reason for the rule: the same seeds, no last round, some game drags on
    lengths = [len(always_play({"last_round": "none"}, seed, cap=120)[0].rounds)
               for seed in range(20)]
    assert max(lengths) > 30


def test_under_lives_the_most_lives_win() -> None:
    rules = {"scoring": "lives", "last_round": 10}
    seen = 0
    for seed in range(30):
        g, _ = always_play(rules, seed)
        assert g.finished and len(g.rounds) <= 10
        if ended_by_last_round(g):
            alive = [s for s in range(4) if g.in_game[s]]
            best = max(g.lives)
            tops = [s for s in alive if g.lives[s] == best]
            assert g.winner == (tops[0] if len(tops) == 1 else None)
            seen += g.winner is not None
    assert seen


@pytest.mark.parametrize("scoring", ["counters", "lives"])
def test_a_tie_for_the_best_has_no_winner(scoring: str) -> None:
    # everyone drops every round: ten void rounds, everyone as they started
    g = RamsGame({**DROPPING, "scoring": scoring, "last_round": 10}, 4, seed=3)
    events = list(g.start())
    while (p := g.to_move()) is not None and len(g.rounds) < 50:
        events += g.apply(p.seat, "drop")
    assert len(g.rounds) == 10 and all(r["void"] for r in g.rounds)
    assert g.finished and g.winner is None
    assert g.rounds[-1]["last"] is True and not any(r.get("last") for r in g.rounds[:-1])
    assert [e.data for e in events if e.type == "game_over"] == [{"winner": None}]
    assert g.summary()["winner"] is None


def test_reaching_zero_in_the_last_round_wins_as_usual() -> None:
    # seed 32 with 8 counters and 10 rounds: seat 0 sheds its last counter in round 10
    g, _ = always_play({"counters": 8, "last_round": 10}, 32)
    assert len(g.rounds) == 10 and g.rounds[-1]["last"] and g.lives[0] == 0
    assert g.winner == 0 and not ended_by_last_round(g)


def test_as_written_has_no_last_round() -> None:
    assert AS_WRITTEN["last_round"] == "none"
    longest = max((always_play(dict(AS_WRITTEN), seed) for seed in range(60)),
                  key=lambda ge: len(ge[0].rounds))[0]
    assert len(longest.rounds) > 30 and longest.finished
    assert not any(r.get("last") for r in longest.rounds)


def test_a_format_1_record_refuses_the_key_and_has_no_last_round() -> None:
    base = {"game": "rams", "seats": [{"name": f"P{i}", "type": "human"} for i in range(4)],
            "dealer": 0, "seed": 11, "moves": []}
    with pytest.raises(RecordError) as err:
        from_dict({**base, "format": 1, "rules": {"last_round": 30}})
    assert err.value.kind == "unknown_rules_key" and "last_round" in err.value.message
    assert rebuild(from_dict({**base, "format": 1, "rules": {}})).last_round is None
    assert rebuild(from_dict({**base, "format": 3, "rules": {}})).last_round == 30


def test_a_game_ended_by_the_last_round_replays_from_its_record() -> None:
    g, events = next(ge for ge in (always_play({}, s) for s in range(20))
                     if ended_by_last_round(ge[0]))
    rec = record_of(g, [Seat(f"P{i}") for i in range(4)], seed=g.seed).as_dict()
    assert rec["format"] == 3
    again: list[Any] = []
    g2 = rebuild(from_dict(json.loads(json.dumps(rec))), again)
    assert g2.summary() == g.summary() and again == events and g2.finished


# --------------------------------------------------------------------------- every game

any_rules = st.fixed_dictionaries({
    "scoring": st.sampled_from(["lives", "counters"]),
    "counters": st.integers(1, 30),
    "lives": st.integers(1, 5),
    "drop_limit": st.sampled_from([1, 2, "none"]),
    "general_rams": st.booleans(),
    "dealer_must_play": st.booleans(),
    "two_must_play": st.booleans(),
    "must_trump": st.booleans(),
    "must_beat": st.booleans(),
    "lone_needs_one": st.booleans(),
    "hand_size": st.integers(3, 5),
    "last_round": st.integers(10, 40),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=any_rules, n=st.integers(3, 6), seed=st.integers(0, 2**31),
       move_seed=st.integers(0, 2**31))
def test_every_game_ends_by_its_last_round(rules: dict[str, Any], n: int, seed: int,
                                           move_seed: int) -> None:
    rng = random.Random(move_seed)
    g = RamsGame(rules, n, seed=seed)
    g.start()
    last = rules["last_round"]
    while (p := g.to_move()) is not None:
        assert len(g.rounds) < last, "a round was dealt after the last round"
        g.apply(p.seat, rng.choice(p.legal))
    assert g.finished and 1 <= len(g.rounds) <= last
    assert [bool(r.get("last")) for r in g.rounds] == [
        i + 1 == last for i in range(len(g.rounds))]
    if ended_by_last_round(g):
        alive = [s for s in range(n) if g.in_game[s]]
        assert g.winner == best_at_the_end(g.lives, alive, g.counting)
    elif g.counting:
        assert g.lives[g.winner] == 0       # the first at zero, as without the rule


# --------------------------------------------------------------------------- on screen


@pytest.mark.parametrize("scoring", ["counters", "lives"])
def test_the_results_of_a_tie_at_the_last_round(scoring: str) -> None:
    """Three people at one screen drop out every round: after round 10 the table
    shows the results, nobody wins, and all share the first place."""
    import pygame  # noqa: F401  (the test setup has chosen the dummy drivers)

    from game.scenes import testing as T
    from game.scenes.menu import MenuScene
    from game.scenes.table_rams import RamsTableScene
    from game.turn.texts import winner_text

    app = T.make_app((960, 600), "en")
    app.push(MenuScene(app))
    tb = RamsTableScene(app, T.mixed_seats(3, 3, "en"),
                        {**DROPPING, "scoring": scoring, "last_round": 10}, seed=3)
    app.push(tb)
    for _ in range(100000):
        top = app.top
        if top.name == "results":
            break
        if top.name == "handoff":
            top.ready()
        elif tb.state == "hold":
            tb.flow.release()
        elif tb.state == "human" and tb.pending is not None:
            tb.human_move("drop")
        else:
            app.update(0.05)
    res = app.top
    assert res.name == "results" and res.winner is None and res.rounds == 10
    assert res.ranking == [(1, 0), (1, 1), (1, 2)]
    assert winner_text(res.winner, tb.names)[0] == "banner.nobody"
    assert res.story.rounds == 10
    app.draw()
