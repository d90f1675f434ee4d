"""The search of the ``hard`` and ``expert`` Rams levels, and the coach's odds.

From the view only (an :class:`~game.ai.rams_info.Info`), for a declaration or a card:

1. **Worlds.** Deal the cards this seat cannot see to the other seats, consistently
   with the view and weighted by how likely the other seats' declarations (and, for
   ``expert``, their cards) were with those hands (:class:`~game.ai.rams_worlds.Worlds`).
2. **Play-outs.** For every move, the rest of the round in each world: the seats still
   to declare decide by :class:`~game.ai.rams_model.DeclareModel` (the same random
   numbers for every move), and with ``general_rams`` the first of them whose hand the
   levels' own call (:func:`~game.ai.rams_heuristics.general_hand`) takes for General
   Rams announces it, pulling back in a seat that dropped; then every seat plays the
   heuristic of :mod:`game.ai.rams_playout`; the rules' own functions say who plays
   (:func:`~game.rules.rams_rules.round_players`) and who loses what.
3. **Value.** Not only this seat's lives: each outcome is worth this seat's chance to
   win the game afterwards (:func:`~game.ai.rams_value.outcome_value`: a life lost
   alone costs more than one lost with others, lives the others lose help), less the
   forced round a drop may bring. Under ``scoring: counters`` the chance to reach zero
   first (:func:`~game.ai.rams_value.race_chance`), 1 or 0 once a seat is there.

Budgets are counts of worlds (no clock anywhere): the random numbers come from the
view's seed, round and step, so the same view gives the same move on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from game.ai.common import mix
from game.ai.rams_cards import deck
from game.ai.rams_heuristics import general_hand
from game.ai.rams_info import Info
from game.ai.rams_model import DeclareModel, drop_cost, read_styles
from game.ai.rams_playout import DEFEND, NONE, SAFE, mode, play_out
from game.ai.rams_value import forced_cost, outcome_value
from game.ai.rams_worlds import Worlds, start_round
from game.rules.rams_rules import RANK_ORDER, round_leader, round_players


@dataclass
class Tally:
    """Weighted sums over the worlds for one move."""
    value: float = 0.0
    lose: float = 0.0
    lives: float = 0.0

    def add(self, w: float, value: float, lost: int) -> None:
        self.value += w * value
        self.lose += w * (lost > 0)
        self.lives += w * lost


@dataclass(frozen=True)
class Budget:
    """A level's search: worlds per declaration and per card (counts, never time),
    and what it reads from the game beyond the cards."""
    declare: int
    card: int
    styles: bool = False        # each opponent's declaring style from ``history``
    read_play: bool = False     # the other seats' cards as evidence about their hands


def model_for(info: Info, styles: bool) -> DeclareModel:
    return DeclareModel(info, read_styles(info) if styles else None)


def rng_for(info: Info, salt: int) -> random.Random:
    v = info.view
    return random.Random(mix(v["seed"], v.get("step", 0), v.get("round", 0), salt))


# ---------------------------------------------------------------- trials

class DeclareTrials:
    """One declaration tried in one sampled world: the seats still to declare decide by
    the model (the same random numbers for every move), then the round is played out.

    Under ``general_rams`` a seat still to declare announces General Rams when the
    levels' own call (:func:`~game.ai.rams_heuristics.general_hand`) says so with the
    hand the world gives it and what it sees then (the turned trump card); the seats
    after it are not asked, and everyone plays, a seat that dropped too (the engine's
    :func:`~game.rules.rams_rules.round_players`). A drop therefore risks something
    this round whenever a seat after it may announce General Rams."""

    def __init__(self, info: Info, model: DeclareModel, valued: bool = True) -> None:
        self.info = info
        self.model = model
        #: whether :meth:`run` works out the outcome's value (the coach counts only
        #: losses, and leaves it at 0)
        self.valued = valued
        self.later = [s for s in info.order if s != info.me and s not in info.declared]
        self.sampler = Worlds(info, model)
        me = info.me
        # a drop now that reaches the limit forces this seat to play next round; who
        # else will be forced then is known once every seat has declared
        self.forced_next = info.forced_after_drop(me)
        self.drop_lives = drop_cost(info.drops_before.get(me, 0), info.limit,
                                    len(info.order))
        self.near_limit = {s for s in info.order if s != me and info.forced_after_drop(s)}
        self.general_rams = bool(info.rules.get("general_rams"))
        #: what a seat still to declare knows is out of play when it declares: the
        #: turned trump card on the stock (the dealer's discard, after taking it, is
        #: not in the worlds: only the dealer, who declares last, knows it)
        self.seen_out = {info.trump_card} if info.trump_card and info.took is None else set()

    def world(self, rng: random.Random) -> tuple[float, Any] | None:
        got = self.sampler.sample(rng)
        if got is None:
            return None
        w, hands = got
        return w, (hands, [rng.random() for _ in self.later], self.caller(hands))

    def announces(self, seat: int, hand: int) -> bool:
        """Whether ``seat``, still to declare, announces General Rams holding ``hand``
        (a bit set): the levels' own call (:func:`general_hand`) on what it will see."""
        info = self.info
        return self.general_rams and general_hand(
            self.sampler.dk.cards(hand), info.trump, self.seen_out, info.rank, info.deck,
            len(info.order), info.counting)

    def caller(self, hands: Sequence[int]) -> int | None:
        """The first seat still to declare that announces General Rams with its hand
        in ``hands`` (those after it are not asked), or ``None``."""
        if not self.general_rams:
            return None
        return next((s for s in self.later if self.announces(s, hands[s])), None)

    def run(self, world: Any, move: str) -> tuple[float, int]:
        """``(value, what this seat loses)`` of ``move`` in ``world`` (lives, or the
        change of its counters)."""
        hands, us, caller = world
        info = self.info
        me = info.me
        if move == "drop" and not self.valued and caller is None:
            return 0.0, 0           # nobody pulls it back in: a drop loses nothing now

        order = info.order
        declared = dict(info.declared)
        declared[me] = move
        lost: dict[int, int] = {}
        winner = None
        if move != "general":
            # (General Rams by this seat: the others are not asked)
            for s, u in zip(self.later, us):
                if s == caller:
                    declared[s] = "general"
                    break
                declared[s] = ("play" if u < self.model.p_play(s, hands[s], declared)
                               else "drop")
        players, lone, general = round_players(order, declared)
        if players:
            r = start_round(info, {s: hands[s] for s in players}, players, lone,
                            general=general)
            r = play_out(r, round_leader(players, general))
            lost, winner = r.losses(), r.first_out
        if not self.valued:
            return 0.0, own_loss(info, lost)
        cost = 0.0
        if move == "drop":
            cost = self.drop_lives
            if self.forced_next:
                alive = sum(1 for s in order if info.lives[s] > lost.get(s, 0))
                co = sum(1 for s in self.near_limit if declared.get(s) == "drop")
                cost = forced_cost(alive, co)
        v = outcome_value(info.lives, lost, me, cost, len(order), info.counting, winner)
        return v, own_loss(info, lost)


class CardTrials:
    """One card tried in one sampled world: played now, then the round played out."""

    def __init__(self, info: Info, model: DeclareModel, read_play: bool = False,
                 valued: bool = True) -> None:
        self.info = info
        self.valued = valued
        self.sampler = Worlds(info, model, read_play)
        self.bit = deck(info.deck).bit
        self.players = list(info.in_play)
        #: the round as the view shows it, without the hands: each world's is a copy
        self.table = start_round(info, {})

    def world(self, rng: random.Random) -> tuple[float, Any] | None:
        got = self.sampler.sample(rng)
        if got is None:
            return None
        w, hands = got
        r = self.table.copy()
        for s in self.players:
            r.hands[s] = hands[s]
        return w, r

    def run(self, world: Any, card: str) -> tuple[float, int]:
        info = self.info
        me = info.me
        r = world.copy()
        w = r.play(me, self.bit[card])
        # the trick goes on from the next seat, or the winner of the one this card ended
        # leads the next
        r = play_out(r, r.to_play() if w is None else w)
        lost = r.losses()
        if not self.valued:
            return 0.0, own_loss(info, lost)
        return (outcome_value(info.lives, lost, me, 0.0, len(info.order), info.counting,
                              r.first_out),
                own_loss(info, lost))


def own_loss(info: Info, lost: dict[int, int]) -> int:
    """What ``info.me`` loses by a round with the losses ``lost``: lives (at most those
    it has), or the change of its counters (never below zero counters)."""
    x = lost.get(info.me, 0)
    if info.counting:
        return max(x, -info.lives[info.me])
    return min(x, info.lives[info.me])


Trials = DeclareTrials | CardTrials

#: a world of no more weight than this tells nothing (the others' play all but rules it out)
NO_WEIGHT = 1e-12


def weighted_worlds(trials: Trials, worlds: int, rng: random.Random
                    ) -> Iterator[tuple[float, Any]]:
    """``(weight, world)`` for each of at most ``worlds`` sampled worlds, leaving out
    those of no weight and stopping early once no world can be dealt. Drawn one at a
    time, so a caller that stops draws no more."""
    for _ in range(worlds):
        got = trials.world(rng)
        if got is None:
            return
        if got[0] <= NO_WEIGHT:
            continue
        yield got


def tallies(trials: Trials, moves: Sequence[str], worlds: int, rng: random.Random
            ) -> tuple[dict[str, Tally], float]:
    """Weighted tallies of every move over ``worlds`` sampled worlds, and the total
    weight (the coach: every move in every world)."""
    out = {m: Tally() for m in moves}
    total = 0.0
    for w, world in weighted_worlds(trials, worlds, rng):
        total += w
        for m in moves:
            v, lost = trials.run(world, m)
            out[m].add(w, v, lost)
    return out, total


def race(trials: Trials, moves: Sequence[str], worlds: int, rng: random.Random,
         batch: int = 32, z: float = 3.0) -> str | None:
    """The move of best mean value over at most ``worlds`` sampled worlds. Every
    ``batch`` worlds a move falls out when the leader is ahead of it by ``z`` standard
    errors of their paired difference; the race ends when one move is left, so clear
    choices take few worlds and close ones the whole budget (counts only: the same
    view always ends the same way). No move falls out before a quarter of the budget:
    rare outcomes (a lost life in one world of twenty) need that many worlds to show.
    ``None`` if no world could be dealt."""
    alive = list(moves)
    vals: dict[str, list[float]] = {m: [] for m in moves}
    ws: list[float] = []
    n = 0
    first = max(2 * batch, worlds // 4)
    while n < worlds and len(alive) > 1:   # batches count every world drawn
        got = trials.world(rng)
        if got is None:
            break
        n += 1
        w, world = got
        if w <= NO_WEIGHT:
            continue
        ws.append(w)
        for m in alive:
            vals[m].append(trials.run(world, m)[0])
        if n % batch == 0 and first <= n < worlds:
            alive = _survivors(alive, vals, ws, z)
    if not ws:
        return None
    total = sum(ws)
    return max(alive, key=lambda m: (round(sum(w * v for w, v in zip(ws, vals[m])) / total,
                                           12), -moves.index(m)))


def _survivors(alive: list[str], vals: dict[str, list[float]], ws: list[float],
               z: float) -> list[str]:
    total = sum(ws)
    ps = [w / total for w in ws]
    means = {m: sum(p * v for p, v in zip(ps, vals[m])) for m in alive}
    best = max(alive, key=lambda m: (round(means[m], 12), -alive.index(m)))
    keep = []
    for m in alive:
        if m == best:
            keep.append(m)
            continue
        d = means[best] - means[m]
        var = sum(p * p * (vb - vm - d) ** 2
                  for p, vb, vm in zip(ps, vals[best], vals[m]))
        if var == 0.0:
            if d < 0:       # cannot happen (best has the highest mean); kept for safety
                keep.append(m)
        elif d <= 0 or d * d <= z * z * var:
            keep.append(m)
    return keep


# ---------------------------------------------------------------- cards

def candidates(info: Info) -> list[str]:
    """Legal cards with equivalent ones merged (same suit, nothing between them that is
    still out): playing either comes to the same."""
    return list(dict.fromkeys(equivalents(info).values()))


def equivalents(info: Info) -> dict[str, str]:
    """Every legal card and the card it is equivalent to (the lowest of its suit with
    nothing still out between them, or itself)."""
    legal = sorted(info.legal, key=lambda c: (c[1], info.rank[c]))
    out: dict[str, str] = {}
    hand = set(info.hand)
    order = RANK_ORDER[info.deck]
    prev: str | None = None
    for c in legal:
        if prev is not None and prev[1] == c[1]:
            between = [order[k] + c[1] for k in range(info.rank[prev] + 1, info.rank[c])]
            if all(b in info.gone or b in hand for b in between):
                out[c] = out[prev]
                prev = c
                continue
        out[c] = c
        prev = c
    return out


# ---------------------------------------------------------------- the level's move

def search_move(info: Info, budget: Budget) -> str | None:
    """The best move by the search, or ``None`` when there is nothing to search (the
    caller then plays its heuristic)."""
    if info.decision == "declare":
        moves = [m for m in ("drop", "play", "general") if m in info.legal]
        if len(moves) == 1:
            return moves[0]
        trials: Trials = DeclareTrials(info, model_for(info, budget.styles))
        return race(trials, moves, budget.declare, rng_for(info, 0xDEC1))
    if info.decision == "trick":
        cards = candidates(info)
        if len(cards) == 1:
            return cards[0]
        if not _matters(info):
            return None
        trials = CardTrials(info, model_for(info, budget.styles), budget.read_play)
        return race(trials, cards, budget.card, rng_for(info, 0xCA7D))
    return None


def _matters(info: Info) -> bool:
    """Whether this seat's card can still change anything (someone still needs a
    trick, or the lone player still takes them all)."""
    r = start_round(info, {})
    return mode(r, info.me) != NONE


# ---------------------------------------------------------------- the coach's odds

def settled(info: Info) -> bool:
    """Whether this seat's own result this round can no longer change, whatever anyone
    plays (the play-out heuristic's reading of the round, :func:`mode`): it has the
    trick it needs, it defends against a lone player, or nothing is left to play for.
    Not a seat facing General Rams: while the announcer has every trick, a trick of
    its own still changes its result (it sheds, or escapes the penalty). Under counters
    not while a player could still shed its last counter this round: the game ends
    there, and the penalties of that round with it."""
    r = start_round(info, {})
    m = mode(r, info.me)
    if m == DEFEND and r.general is not None:
        return False
    if r.counting and any(r.stack[s] <= r.hand_size for s in r.players):
        return False
    return m in (SAFE, DEFEND, NONE)


def odds(info: Info, model: DeclareModel, worlds: int, seed: int,
         shortcut: bool = True, merge: bool = True) -> dict[str, dict[str, float]]:
    """``{move: {lose_life, expected_loss}}`` for every legal declaration or card (for
    a card, the deals weighted by the cards the others played as well).

    A card of a seat whose result is :func:`settled` gets that result from the first
    world dealt, the same for every card: exactly what all the worlds would count
    (``shortcut=False`` counts them; a test holds the two equal), in a fraction of the
    time (the game review asks for every card of a game). Equivalent cards
    (:func:`equivalents`: the same suit, nothing still out between them) are played out
    once and get the same odds (``merge=False`` plays out each)."""
    rng = random.Random(seed)
    legal = list(info.legal)
    trials: Trials
    if info.decision == "trick" and shortcut and legal and settled(info):
        trials = CardTrials(info, model, read_play=True)
        for _, world in weighted_worlds(trials, worlds, rng):
            lost = trials.run(world, legal[0])[1]
            return {m: {"lose_life": float(lost > 0), "expected_loss": float(lost)}
                    for m in legal}
        return {m: {"lose_life": 0.0, "expected_loss": 0.0} for m in legal}
    # the coach counts losses only: the outcomes' values are left out
    same = {m: m for m in legal}
    if info.decision == "trick":
        trials = CardTrials(info, model, read_play=True, valued=False)
        # equivalent cards come to the same: one of them is played out for all
        same = equivalents(info) if merge else same
        moves = list(dict.fromkeys(same.values()))
    else:
        trials = DeclareTrials(info, model, valued=False)
        moves = [m for m in legal if m in ("play", "drop", "general")]
    got, total = tallies(trials, moves, worlds, rng)
    if total <= 0:
        return {m: {"lose_life": 0.0, "expected_loss": 0.0} for m in legal}
    return {m: {"lose_life": round(got[same[m]].lose / total, 4),
                "expected_loss": round(got[same[m]].lives / total, 4)} for m in legal}
