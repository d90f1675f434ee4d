"""General Rams in the Rams coach's and the search's model of the other seats.

Under ``general_rams`` a seat still to declare may announce General Rams; then every
seat plays, one that dropped takes its cards back (the engine's
:func:`~game.rules.rams_rules.round_players`). So a drop is not safe: the model of the
seats still to declare (:class:`~game.ai.rams_search.DeclareTrials`) lets the first of
them whose hand the levels' own call (:func:`~game.ai.rams_heuristics.general_hand`)
takes for General Rams announce it, and the coach's odds of ``drop`` count the round
it is pulled back into. The expert's style fit follows the lives through earlier
rounds by the rules' own scoring, General Rams included (:func:`lose_lives`).

Each check here is held against the engine: the round the model plays out is the one
the engine plays with the same cards, what a later seat sees when it declares is what
its own view says, and the lives followed through a game are the engine's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from game.ai import rams_search
from game.ai.rams_cards import deck
from game.ai.rams_coach import advise
from game.ai.rams_heuristics import general_call
from game.ai.rams_info import Info
from game.ai.rams_levels import RamsMedium
from game.ai.rams_model import DeclareModel, history_key, lose_lives
from game.ai.rams_playout import policy_bit
from game.ai.rams_search import DeclareTrials, model_for
from game.ai.rams_worlds import start_round
from game.cards import SKAT32
from game.rules.rams import RamsGame

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


#: rule sets with General Rams: both scorings, a drop limit, the dealer's exchange
GENERAL_RULES = [
    {"scoring": "lives"},
    {},
    {"scoring": "lives", "drop_limit": 2, "dealer_takes_trump": True, "lives": 4},
    {"counters": 8, "dealer_takes_trump": True, "hand_size": 4},
    {"scoring": "lives", "lone_needs_one": True, "two_must_play": True},
]


def random_move(p: Any, rng: random.Random, general_rate: float = 0.06) -> str:
    if p.decision == "declare":
        if "general" in p.legal and rng.random() < general_rate:
            return "general"
        if "drop" in p.legal and rng.random() < 0.6:
            return "drop"
        return "play"
    return rng.choice(p.legal)


@pytest.mark.parametrize("rules", GENERAL_RULES, ids=lambda r: json.dumps(r))
def test_what_a_later_seat_sees_when_it_declares_is_its_own_view(rules: dict) -> None:
    """The model decides a seat still to declare's General Rams from its hand and what
    it will see when it declares (:attr:`DeclareTrials.seen_out`). At every declaration
    of random games, for every seat declaring later in the round: the cards it then
    knows are out of play are those its own view says (the turned trump card), but for
    the dealer who took the trump card, whose discard only the dealer knows; the call
    on its real hand (:meth:`DeclareTrials.announces`) is the level's call from its own
    view (``general_call``)."""
    rng = random.Random(61)
    pending: list[DeclareTrials] = []
    checked = 0
    for _ in range(30):
        g = RamsGame(rules, rng.choice([3, 4, 5]), seed=rng.randrange(1 << 30))
        g.start()
        round_no, pending = g.round_index, []
        while (p := g.to_move()) is not None and g.round_index < 12:
            if g.round_index != round_no:
                round_no, pending = g.round_index, []
            if p.decision == "declare":
                info = Info(g.view(p.seat))
                dk = deck(info.deck)
                for t in pending:
                    if p.seat not in t.later:
                        continue
                    seen = info.gone
                    if info.took == p.seat:
                        assert t.seen_out == set() and seen == {g.under}
                    else:
                        assert t.seen_out == seen, (rules, p.seat)
                    assert len(t.info.order) == len(info.order)
                    assert t.info.counting == info.counting
                    says = t.announces(p.seat, dk.mask(info.hand))
                    if info.took != p.seat:
                        assert says == general_call(info), (rules, p.seat, info.hand)
                    checked += 1
                pending.append(DeclareTrials(info, DeclareModel(info), valued=False))
            g.apply(p.seat, random_move(p, rng))
    assert checked > 300, checked


@pytest.mark.parametrize("rules", [
    {"scoring": "lives"},
    {"scoring": "lives", "lives": 5, "lone_needs_one": True},
    {"scoring": "lives", "drop_limit": 1, "lives": 4, "hand_size": 3},
], ids=lambda r: json.dumps(r))
def test_the_lives_followed_through_earlier_rounds_are_the_engines(rules: dict) -> None:
    """The expert's style fit follows every seat's lives through the game's earlier
    rounds (``history``) by the rules' own scoring (:func:`lose_lives`): round by round
    of random games with General Rams now and then, the lives it arrives at are the
    engine's (before, a General Rams round was scored as if only the seats that
    declared play had played, the announcer not among them)."""
    rng = random.Random(62)
    rounds = generals = 0
    for _ in range(40):
        g = RamsGame(rules, rng.choice([3, 4, 5]), seed=rng.randrange(1 << 30))
        g.start()
        lives = list(g.lives)
        done = 0
        while (p := g.to_move()) is not None:
            g.apply(p.seat, random_move(p, rng, general_rate=0.1))
            if len(g.rounds) == done:
                continue
            done = len(g.rounds)
            lose_lives(history_key(g.view(0)["history"])[-1], lives, g.hand_size,
                       g.rules["lone_needs_one"])
            assert lives == g.rounds[-1]["lives"], (rules, g.rounds[-1])
            rounds += 1
            generals += "general" in g.rounds[-1]
    assert rounds > 200 and generals > 20, (rounds, generals)
