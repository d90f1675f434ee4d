"""General Rams in the Rams coach's and the search's model of the other seats.

Under ``general_rams`` a seat still to declare may announce General Rams; then every
seat plays, one that dropped takes its cards back (the engine's
:func:`~game.rules.rams_rules.round_players`). So a drop is not safe: the model of the
seats still to declare (:class:`~game.ai.rams_search.DeclareTrials`) lets the first of
them whose hand the levels' own call (:func:`~game.ai.rams_heuristics.general_hand`)
takes for General Rams announce it, and the coach's odds of ``drop`` count the round
it is pulled back into. The expert's style fit follows the lives through earlier
rounds by the rules' own scoring, General Rams included
(:func:`~game.ai.rams_model.lose_lives`).

The round the model plays out is held against the one the engine plays with the same
cards; what a later seat sees when it declares, and the lives followed through earlier
rounds, against the engine with the other rule copies in tests/test_rams_fast_paths.py
(docs/fast-paths.md); the call's early stop against the whole chance it stops on.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game.ai import rams_search
from game.ai.rams_cards import deck
from game.ai.rams_coach import advise
from game.ai.rams_heuristics import general_call, general_hand, p_sweep
from game.ai.rams_info import Info
from game.ai.rams_levels import RamsMedium
from game.ai.rams_playout import policy_bit
from game.ai.rams_search import DeclareTrials, model_for
from game.ai.rams_value import forced_lives
from game.ai.rams_worlds import start_round
from game.cards import SKAT32
from game.rules.rams import RamsGame
from game.rules.rams_rules import DECK_CARDS, RANK_ORDER, rank_table

SCORINGS = ("lives", "counters")
WEAK = ["7C", "8C", "7D", "8D", "7S"]
#: every trump above the turned 9H: the levels announce General Rams with it
SWEEP = ["AH", "KH", "QH", "JH", "TH"]


def plain(view: Any) -> dict:
    return json.loads(json.dumps(dict(view)))


def stock(order: list[int], hands: dict[int, list[str]], trump: str) -> list[str]:
    """A deal (the engine's ``deals`` entry) giving ``hands``, ``trump`` turned up."""
    top = [hands[s][r] for r in range(len(hands[order[0]])) for s in order] + [trump]
    return top + [c for c in SKAT32 if c not in top]


def sweep_deal(scoring: str) -> RamsGame:
    """Four seats, dealer 0: seat 1 declares first with nothing, seat 2 next with every
    trump above the turned card."""
    rest = [c for c in SKAT32 if c not in WEAK + SWEEP and c != "9H"]
    hands = {1: WEAK, 2: SWEEP, 3: rest[0:5], 0: rest[5:10]}
    g = RamsGame({"scoring": scoring, "general_rams": True}, 4, seed=5, dealer=0,
                 deals=[stock([1, 2, 3, 0], hands, "9H")], bot_seed=2)
    g.start()
    return g


def play_round_by_the_playout(g: RamsGame) -> dict[int, int]:
    """Play the round under way in the engine, every card the play-out heuristic's
    choice from the seat's own view (as the model plays it); the round's ``lost``."""
    dk = deck(g.deck_name)
    done = len(g.rounds)
    while (p := g.to_move()) is not None and len(g.rounds) == done:
        r = start_round(Info(g.view(p.seat)), {s: dk.mask(g.hands[s]) for s in g.players})
        g.apply(p.seat, dk.code[policy_bit(r, p.seat)])
    return {int(s): a for s, a in g.rounds[-1]["lost"].items()}


@pytest.mark.parametrize("scoring", SCORINGS)
@pytest.mark.parametrize("move", ["drop", "play"])
def test_a_later_general_rams_pulls_a_drop_back_in_as_the_engine_does(
        scoring: str, move: str) -> None:
    """Seat 1 declares with nothing; seat 2, after it, holds every trump above the
    turned card. The model of the seats still to declare has seat 2 announce General
    Rams with that hand, by the very call the level makes from seat 2's own view
    (``medium`` announces); the engine then brings seat 1 back in whatever it
    declared, and what the coach's trial of ``move`` in this deal says seat 1 loses is
    what the engine charges it when the round is played with the same cards (a drop
    included: before, the coach counted a drop as nothing lost, in every deal)."""
    g = sweep_deal(scoring)
    info = Info(plain(g.view(1)))
    dk = deck(info.deck)
    hands = [dk.mask(g.hands[s]) for s in range(4)]
    trials = DeclareTrials(info, model_for(info, False), valued=False)
    assert trials.later == [2, 3, 0]
    assert trials.caller(hands) == 2
    world = (hands, [0.5] * len(trials.later), trials.caller(hands))
    _, coach_says = trials.run(world, move)

    g.apply(1, move)
    view2 = g.view(2)
    assert general_call(Info(view2)) and RamsMedium().choose(view2) == "general"
    g.apply(2, "general")
    assert g.general == 2 and g.players == [1, 2, 3, 0]
    lost = play_round_by_the_playout(g)
    assert g.rounds[-1]["general"] == 2
    assert coach_says == lost.get(1, 0)
    # with nothing, seat 1 takes no trick: a life, or the five counters' penalty
    assert coach_says == (1 if scoring == "lives" else 5)


@pytest.mark.parametrize("scoring", SCORINGS)
def test_the_coach_counts_a_drop_pulled_back_in(scoring: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The coach's odds of ``drop`` are the share of its deals in which a seat still to
    declare announces General Rams, weighted by what the round then costs: with every
    deal one in which seat 2 announces (seat 2's hand fixed to the sweep, as if the
    view showed it), the drop costs what the engine charges (a life, or five
    counters); with General Rams off a drop costs nothing, in every deal."""
    g = sweep_deal(scoring)
    view = plain(g.view(1))
    real_sample = rams_search.Worlds.sample

    def sample_with_the_sweep(self: Any, rng: random.Random) -> Any:
        # seat 2's hand is the sweep in every deal: the rest dealt as before
        got = real_sample(self, rng)
        if got is None:
            return None
        w, hands = got
        sweep = self.dk.mask(SWEEP)
        moved = [s for s in (3, 0) if hands[s] & sweep]
        out = list(hands)
        spare = hands[2] & ~sweep
        for s in moved:
            give = out[s] & sweep
            take = 0
            for _ in range(give.bit_count()):
                low = spare & -spare
                take |= low
                spare ^= low
            out[s] = (out[s] & ~give) | take
        out[2] = sweep
        return w, out

    monkeypatch.setattr(rams_search.Worlds, "sample", sample_with_the_sweep)
    opts = advise(view, "hard", samples=40, pick=False)["options"]
    penalty = 1.0 if scoring == "lives" else 5.0
    assert opts["drop"]["lose_life"] == pytest.approx(1.0)
    assert opts["drop"]["expected_loss"] == pytest.approx(penalty)
    off = plain(view)
    off["rules"] = {**off["rules"], "general_rams": False}
    off["legal"] = [m for m in off["legal"] if m != "general"]
    assert advise(off, "hard", samples=40, pick=False)["options"]["drop"] == {
        "lose_life": 0.0, "expected_loss": 0.0}


@pytest.mark.parametrize("deck_name", ["skat32", "french52"])
def test_the_general_rams_call_stops_early_without_changing_it(deck_name: str) -> None:
    """``general_hand`` stops working out a hand's chance of every trick once it is sure
    to fall under the threshold (``p_sweep(..., below=...)``; the model asks it for
    every seat still to declare in every deal): on random hands, seat counts and
    trumps the call is the one the whole chance gives, under both thresholds, and hands
    that meet it occur (all trumps from the top)."""
    rng = random.Random(63)
    rank = rank_table(deck_name)
    cards = list(DECK_CARDS[deck_name])
    top = RANK_ORDER[deck_name][::-1]
    met = 0
    for k in range(20000):
        size = rng.choice([3, 4, 5])
        trump = rng.choice("CDHS")
        if k % 50 == 0:     # strong hands: the top trumps, now and then a side Ace
            hand = [r + trump for r in top[:size]]
            if rng.random() < 0.5:
                hand[-1] = "A" + rng.choice([s for s in "CDHS" if s != trump])
            turned = rng.choice([c for c in cards if c not in hand])
        else:
            *hand, turned = rng.sample(cards, size + 1)
        seats = rng.choice([3, 4, 5, 6])
        for counting, need in ((True, 0.6), (False, 0.75)):
            whole = p_sweep(hand, trump, {turned}, rank, deck_name, seats - 1)
            called = general_hand(hand, trump, {turned}, rank, deck_name, seats, counting)
            assert called == (whole >= need), (hand, trump, turned, seats, counting)
            met += called
    assert met > 50, met


def test_a_drop_pulled_back_in_still_counts_towards_the_drop_limit() -> None:
    """What the coach says a drop costs later (``later``, ``drop_forces_play_next``)
    stands when General Rams brings the seat back in: the engine counts the declared
    drop, so under ``drop_limit: 1`` the seat must play the next round."""
    rest = [c for c in SKAT32 if c not in WEAK + SWEEP and c != "9H"]
    hands = {1: WEAK, 2: SWEEP, 3: rest[0:5], 0: rest[5:10]}
    g = RamsGame({"scoring": "lives", "general_rams": True, "drop_limit": 1,
                  "dealer_must_play": False}, 4, seed=5,
                 dealer=0, deals=[stock([1, 2, 3, 0], hands, "9H")], bot_seed=2)
    g.start()
    got = advise(plain(g.view(1)), "hard", samples=20, pick=False)
    assert got["drop_forces_play_next"] is True
    assert got["later"]["drop"] == round(forced_lives(4), 4) > 0
    g.apply(1, "drop")
    g.apply(2, "general")
    assert 1 in g.players
    play_round_by_the_playout(g)
    while (p := g.to_move()) is not None and p.seat != 1:
        g.apply(p.seat, "drop" if "drop" in p.legal else "play")
    assert p is not None and p.decision == "declare" and "drop" not in p.legal
    assert g._forced(1) == "must_play"
