"""The Rams rule copies of the levels held against the engine (docs/fast-paths.md).

The levels read a view into :class:`~game.ai.rams_info.Info` and search on packed
cards (:mod:`game.ai.rams_cards`, :mod:`game.ai.rams_playout`) instead of running the
engine; some rules are therefore computed again there: who may not drop out, how many
rounds in a row each seat dropped, what a drop now brings next round, which cards may
follow, which card heads a trick, the voids a play shows and what a round costs. Here
random games (seeded, every variant that changes those rules) feed the same moves to
the engine and to the copies, and every state is compared: a copy that disagrees with
the engine fails here, with the state it disagreed in.

The games' seats decide at random among the engine's legal moves (players that drop
often, now and then General Rams), so the states reach what the levels themselves
would rarely play: long drop streaks, forced rounds, two seats left, odd discards.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from game.ai.rams_cards import deck
from game.ai.rams_heuristics import general_call
from game.ai.rams_info import Info
from game.ai.rams_model import (
    DeclareModel,
    drop_cost,
    history_key,
    lose_lives,
    round_declarations,
)
from game.ai.rams_playout import Round
from game.ai.rams_search import DeclareTrials
from game.ai.rams_value import forced_lives
from game.ai.rams_worlds import start_round
from game.rules.base import Pending
from game.rules.rams import AS_WRITTEN, RamsGame

#: the old scoring with no pace rule, so that only the key under test changes
WRITTEN = dict(AS_WRITTEN)


def move_for(p: Pending, rng: random.Random, drop_rate: float, general_rate: float = 0.04
             ) -> str:
    """A random legal move: General Rams now and then, a drop at ``drop_rate`` when it
    is allowed, any card or exchange."""
    if p.decision == "declare":
        if "general" in p.legal and rng.random() < general_rate:
            return "general"
        if "drop" in p.legal and rng.random() < drop_rate:
            return "drop"
        return "play"
    return rng.choice(p.legal)


def new_game(rules: dict[str, Any], rng: random.Random) -> RamsGame:
    g = RamsGame(rules, rng.choice([3, 3, 4, 5, 6]), seed=rng.randrange(1 << 30))
    g.start()
    return g


# --------------------------------------------------------------------------- declarations

#: every drop limit under the old scoring, and the pace keys that also force a seat
DECLARE_RULES = [
    *({**WRITTEN, "drop_limit": k} for k in (1, 2, 3, 4, 5, "none")),
    {},                                                     # the pub's pace
    {"drop_limit": 2},                                      # pace keys and a limit
    {**WRITTEN, "two_must_play": True, "lives": 1, "drop_limit": 3},
    {**WRITTEN, "dealer_must_play": True, "drop_limit": "none"},
    {**WRITTEN, "general_rams": True, "drop_limit": 2, "lives": 2},
    {"drop_limit": 1, "two_must_play": True, "counters": 6},
    {"scoring": "lives", "drop_limit": 3, "two_must_play": True, "lives": 2,
     "dealer_takes_trump": True},
]


def _ids(rules: dict[str, Any]) -> str:
    """``as_written`` or ``pub`` and the keys changed from it."""
    if rules.get("scoring") == "lives" and rules.get("last_round") == "none":
        return ",".join(["as_written", *(f"{k}={v}" for k, v in rules.items()
                                         if WRITTEN.get(k) != v)])
    return ",".join(["pub", *(f"{k}={v}" for k, v in rules.items())])


def declarations(rules: dict[str, Any], seed: int, games: int, drop_rate: float,
                 max_rounds: int = 30):
    """Every declaration of random games: ``(game, pending, drops at the round's
    start)``; the caller's move is then played."""
    rng = random.Random(seed)
    for _ in range(games):
        g = new_game(rules, rng)
        at_start: list[int] = list(g.drops)
        seen_round = g.round_index
        while (p := g.to_move()) is not None and g.round_index < max_rounds:
            if g.round_index != seen_round:
                seen_round, at_start = g.round_index, list(g.drops)
            if p.decision == "declare":
                yield g, p, at_start
            g.apply(p.seat, move_for(p, rng, drop_rate))


def engine_forced(g: RamsGame, seat: int) -> bool:
    """Whether the engine would refuse ``seat`` a drop now (its reason, any)."""
    return g._forced(seat) is not None


@pytest.mark.parametrize("rules", DECLARE_RULES, ids=_ids)
def test_who_may_drop_is_read_from_the_view_as_the_engine_decides(rules: dict) -> None:
    """At every declaration of random games (players dropping three times in four):
    the declaring seat's :meth:`Info.forced` (or :meth:`Info.dealer_forced`) says
    exactly when the engine leaves out ``drop``; read from that view, every seat still
    to declare is forced exactly when the engine would refuse it a drop now; every
    seat's :attr:`Info.drops_before` is the engine's count when the round was dealt
    (the view's ``drops`` for those still to declare); the limit is the engine's."""
    checked = forced = 0
    for g, p, at_start in declarations(rules, 30, games=30, drop_rate=0.75):
        view = g.view(p.seat)
        info = Info(view)
        me = p.seat
        assert info.limit == g.drop_limit
        assert (info.forced(me) or info.dealer_forced(me, info.declared)) == (
            "drop" not in p.legal), (rules, g.round_index, me, view["drops"])
        for s in info.order:
            assert info.drops_before[s] == at_start[s], (rules, g.round_index, s)
            if s not in info.declared:
                assert info.drops_before[s] == view["drops"][s]
                assert (info.forced(s) or info.dealer_forced(s, info.declared)) == (
                    engine_forced(g, s)), (rules, g.round_index, s)
        checked += 1
        forced += "drop" not in p.legal
    assert checked > 400, checked
    if g.drop_limit is not None or g.rules["two_must_play"] or g.rules["dealer_must_play"]:
        assert forced > 20, forced


def finish_round(g: RamsGame, rounds: int, rng: random.Random) -> bool:
    """Play round number ``rounds`` (from 0) to its end at random if it is still under
    way; whether the game goes on."""
    while (p := g.to_move()) is not None and len(g.rounds) == rounds:
        g.apply(p.seat, move_for(p, rng, 0.6))
    return g.to_move() is not None


@pytest.mark.parametrize("rules", DECLARE_RULES, ids=_ids)
def test_what_a_drop_brings_next_round_is_what_the_engine_does(rules: dict) -> None:
    """The search's cost of a drop (:class:`DeclareTrials`): ``forced_next`` (this seat
    must play next round if it drops now) and ``near_limit`` (the other seats that
    must play next round if they drop this round). At declarations of random games
    the engine applies ``drop`` on a copy and plays on at random to the next round:
    there every seat that dropped this round is forced by the drop limit exactly when
    the trials said so (a seat that played never is), and at this seat's next
    declaration the engine leaves out ``drop`` when ``forced_next`` said it would."""
    rng = random.Random(31)
    checked = asked = forced = 0
    for g, p, _ in declarations(rules, 31, games=16, drop_rate=0.75):
        if "drop" not in p.legal or rng.random() < 0.5:
            continue
        info = Info(g.view(p.seat))
        me = p.seat
        trials = DeclareTrials(info, DeclareModel(info))
        assert (trials.drop_lives == forced_lives(len(info.order))) == trials.forced_next
        assert trials.drop_lives == drop_cost(info.drops_before[me], info.limit,
                                              len(info.order))
        g2 = copy.deepcopy(g)
        g2.apply(me, "drop")
        if not finish_round(g2, len(g.rounds), rng):
            continue
        declared = {e["seat"]: e["choice"] for e in g2.history[-1]
                    if e.get("type") == "declare"}
        assert declared[me] == "drop"
        for s in g2.order:
            if s not in declared:
                continue
            said = (trials.forced_next if s == me else s in trials.near_limit
                    ) and declared[s] == "drop"
            assert said == (g2._forced(s) == "must_play"), (rules, me, s, declared)
        # on to this seat's next declaration (a General Rams before it skips it)
        rounds = len(g2.rounds)
        while (q := g2.to_move()) is not None and len(g2.rounds) == rounds:
            if q.decision == "declare" and q.seat == me:
                if trials.forced_next:
                    assert "drop" not in q.legal
                    forced += 1
                else:
                    assert ("drop" in q.legal) == (g2._forced(me) is None)
                asked += 1
                break
            g2.apply(q.seat, move_for(q, rng, 0.6))
        checked += 1
    assert checked > 60 and asked > 40, (checked, asked)
    if g.drop_limit is not None:
        assert forced > 5, forced


@pytest.mark.parametrize("rules", DECLARE_RULES, ids=_ids)
def test_styles_read_the_forced_declarations_of_earlier_rounds_as_the_engine(
        rules: dict) -> None:
    """The styles the search reads from ``history`` (:func:`round_declarations`) leave
    out the declarations the rules forced: round by round of random games, the seats
    it takes for forced are exactly those the engine refused a drop (with the same
    reason, the engine's), and the streaks it carries on are the engine's ``drops``
    when the next round is dealt."""
    rng = random.Random(33)
    rounds = forced_seen = 0
    for _ in range(40):
        g = new_game(rules, rng)
        streak = [0] * g.n_seats
        refused: dict[int, str] = {}
        done = 0
        while (p := g.to_move()) is not None and g.round_index < 30:
            if p.decision == "declare" and "drop" not in p.legal:
                refused[p.seat] = g._forced(p.seat) or ""
            g.apply(p.seat, move_for(p, rng, 0.75))
            if len(g.rounds) == done:
                continue
            done = len(g.rounds)
            key = history_key(g.view(0)["history"])
            _, forced, streak = round_declarations(
                key[-1], streak, g.drop_limit, g.rules["dealer_must_play"],
                g.rules["two_must_play"])
            assert forced == refused, (rules, g.round_index, key[-1])
            if not g.finished:
                for s in g.order:
                    assert streak[s] == g.drops[s], (rules, g.round_index, s)
            rounds += 1
            forced_seen += len(refused)
            refused = {}
    assert rounds > 150, rounds
    if g.drop_limit is not None or g.rules["two_must_play"] or g.rules["dealer_must_play"]:
        assert forced_seen > 20, forced_seen


#: rule sets with General Rams: both scorings, a drop limit, the dealer's exchange
GENERAL_RULES = [
    {"scoring": "lives"},
    {},
    {"scoring": "lives", "drop_limit": 2, "dealer_takes_trump": True, "lives": 4},
    {"counters": 8, "dealer_takes_trump": True, "hand_size": 4},
    {"scoring": "lives", "lone_needs_one": True, "two_must_play": True},
]


@pytest.mark.parametrize("rules", GENERAL_RULES, ids=_ids)
def test_what_a_later_seat_sees_when_it_declares_is_its_own_view(rules: dict) -> None:
    """The search and the coach decide whether a seat still to declare announces
    General Rams (:meth:`DeclareTrials.announces`) from its hand and what it will see
    when it declares (:attr:`DeclareTrials.seen_out`). At every declaration of random
    games, for every seat declaring later in the round: the cards it then knows are out
    of play are those its own view says (the turned trump card), but for the dealer who
    took the trump card, whose discard only the dealer knows; the call on its real hand
    is the level's call from its own view (``general_call``)."""
    rng = random.Random(34)
    checked = 0
    for _ in range(30):
        g = new_game(rules, rng)
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
                    if info.took == p.seat:
                        assert t.seen_out == set() and info.gone == {g.under}
                    else:
                        assert t.seen_out == info.gone, (rules, p.seat)
                    assert len(t.info.order) == len(info.order)
                    assert t.info.counting == info.counting
                    says = t.announces(p.seat, dk.mask(info.hand))
                    if info.took != p.seat:
                        assert says == general_call(info), (rules, p.seat, info.hand)
                    checked += 1
                pending.append(DeclareTrials(info, DeclareModel(info), valued=False))
            g.apply(p.seat, move_for(p, rng, 0.6, general_rate=0.06))
    assert checked > 300, checked


@pytest.mark.parametrize("rules", [
    {"scoring": "lives"},
    {"scoring": "lives", "lives": 5, "lone_needs_one": True},
    {"scoring": "lives", "drop_limit": 1, "lives": 4, "hand_size": 3},
], ids=_ids)
def test_the_lives_followed_through_earlier_rounds_are_the_engines(rules: dict) -> None:
    """The expert's style fit follows every seat's lives through the game's earlier
    rounds (``history``: :func:`lose_lives`, the seats dealt in read from it by
    :func:`~game.ai.rams_model.dealt_seats`, scored by the rules' own functions):
    round by round of random games with General Rams now and then, the lives it
    arrives at are the engine's (before, a General Rams round was scored as if only the
    seats that declared play had played, the announcer not among them)."""
    rng = random.Random(35)
    rounds = generals = 0
    for _ in range(40):
        g = new_game(rules, rng)
        lives = list(g.lives)
        done = 0
        while (p := g.to_move()) is not None:
            g.apply(p.seat, move_for(p, rng, 0.6, general_rate=0.1))
            if len(g.rounds) == done:
                continue
            done = len(g.rounds)
            lose_lives(history_key(g.view(0)["history"])[-1], lives, g.hand_size,
                       g.rules["lone_needs_one"])
            assert lives == g.rounds[-1]["lives"], (rules, g.rounds[-1])
            rounds += 1
            generals += "general" in g.rounds[-1]
    assert rounds > 200 and generals > 20, (rounds, generals)


# --------------------------------------------------------------------------- trick play

#: the variants that change which cards may follow and what a round costs, both decks
TRICK_RULES = [
    {**WRITTEN},
    {**WRITTEN, "must_trump": True},
    {**WRITTEN, "must_beat": True},
    {**WRITTEN, "must_trump": True, "must_beat": True, "deck": "french52"},
    {**WRITTEN, "deck": "french52", "hand_size": 3},
    {**WRITTEN, "lone_needs_one": True, "dealer_takes_trump": True},
    {**WRITTEN, "general_rams": True, "must_beat": True},
    {},                                                  # counters, General Rams
    {"counters": 4, "must_trump": True},                 # a round cut short at zero
    {"deck": "french52", "must_beat": True, "counters": 8, "lone_needs_one": True},
]


def rebuilt(g: RamsGame, seat: int, dk: Any) -> Round:
    """The round as the levels rebuild it from ``seat``'s view, with the true hands."""
    return start_round(Info(g.view(seat)), {s: dk.mask(g.hands[s]) for s in g.players})


def under(g: RamsGame, dk: Any) -> int:
    """The card the dealer laid under the stock (gone only in the dealer's view)."""
    return dk.mask([g.under]) if g.under else 0


def same_state(a: Round, b: Round, hidden: int) -> None:
    for key in ("players", "lone", "general", "counting", "hands", "tricks", "voids",
                "trick", "led", "best", "best_seat"):
        assert getattr(a, key) == getattr(b, key), key
    assert a.gone & ~hidden == b.gone & ~hidden


@pytest.mark.parametrize("rules", TRICK_RULES, ids=_ids)
def test_packed_trick_play_follows_the_engine(rules: dict) -> None:
    """Rounds of random games (random legal cards, not the play-out's) fed card by card
    to the engine and to a packed :class:`Round` built from the engine's round when
    its trick play starts. At every card: the packed legal set is the engine's, the
    round rebuilt from the view (:func:`start_round`, the card<->bit mapping of the
    deck) equals the one played along, every void it claims is true of the real
    hand (and is the view's); after every trick the same winner; at the round's end
    the same tricks, the same losses (lives, or counters, capped as the engine caps
    them) and the same seat reaching zero counters."""
    rng = random.Random(32)
    cards = rounds = 0
    g = new_game(rules, rng)
    while cards < 2000:
        p = g.to_move()
        if p is None:
            g = new_game(rules, rng)
            continue
        if p.decision != "trick":
            g.apply(p.seat, move_for(p, rng, 0.3, general_rate=0.08))
            continue
        dk = deck(g.deck_name)
        r = rebuilt(g, p.seat, dk)
        assert r.players == list(g.players) and r.lone == g.lone
        assert r.general == g.general and r.counting == g.counting
        assert r.gone & ~under(g, dk) == dk.mask([g.trump_card] if g.under is None else [])
        before = list(g.lives)
        n_rounds = len(g.rounds)
        while (p := g.to_move()) is not None and len(g.rounds) == n_rounds:
            assert set(dk.cards(r.legal(p.seat))) == set(p.legal), (rules, p.seat)
            same_state(r, rebuilt(g, p.seat, dk), under(g, dk))
            card = rng.choice(p.legal)
            events = g.apply(p.seat, card)
            won = r.play(p.seat, dk.bit[card])
            ends = [e.data["winner"] for e in events if e.type == "trick"]
            assert ([won] if won is not None else []) == ends, (rules, card)
            if len(g.rounds) > n_rounds:
                break
            info = Info(g.view(p.seat))
            for s in r.players:
                shown = {"CDHS"[k] for k in range(4) if r.voids[s] >> k & 1}
                assert shown == info.voids.get(s, set())
                assert not any(c[1] in shown for c in g.hands[s]), (s, shown, g.hands[s])
            cards += 1
            if r.first_out is not None:
                break
        entry = g.rounds[-1]
        assert len(g.rounds) == n_rounds + 1
        assert {s: int(entry["tricks"][str(s)]) for s in r.players} == {
            s: r.tricks[s] for s in r.players}
        lost = {s: max(a, -before[s]) if g.counting else min(a, before[s])
                for s, a in r.losses().items()}
        assert entry["lost"] == {str(s): a for s, a in lost.items() if a}, (rules, entry)
        assert bool(entry.get("cut")) == (r.first_out is not None)
        if r.first_out is not None:
            assert g.finished and g.winner == r.first_out
        rounds += 1
    assert rounds > 60, rounds
