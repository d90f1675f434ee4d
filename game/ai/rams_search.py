"""The search of the ``hard`` and ``expert`` Rams levels, and the coach's odds.

From the view only (an :class:`~game.ai.rams_info.Info`), for a declaration or a card:

1. **Worlds.** Deal the cards this seat cannot see to the other seats, consistently
   with the view and weighted by how likely the other seats' declarations (and, for
   ``expert``, their cards) were with those hands (:class:`~game.ai.rams_worlds.Worlds`).
2. **Play-outs.** For every move, the rest of the round in each world: the seats still
   to declare decide by :class:`~game.ai.rams_model.DeclareModel` (the same random
   numbers for every move), then every seat plays the heuristic of
   :mod:`game.ai.rams_playout`; the rules' own count says who loses what.
3. **Value.** Not only this seat's lives: each outcome is worth this seat's chance to
   win the game afterwards (:func:`~game.ai.rams_value.outcome_value`: a life lost
   alone costs more than one lost with others, lives the others lose help), less the
   forced round a drop may bring.

Budgets are counts of worlds (no clock anywhere): the random numbers come from the
view's seed, round and step, so the same view gives the same move on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from game.ai.common import mix
from game.ai.rams_cards import deck
from game.ai.rams_info import Info
from game.ai.rams_model import DeclareModel, drop_cost, read_styles
from game.ai.rams_playout import NONE, mode, play_out
from game.ai.rams_value import outcome_value
from game.ai.rams_worlds import Worlds, start_round
from game.rules.rams_rules import RANK_ORDER


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


# ---------------------------------------------------------------- declarations

def declare_tallies(info: Info, model: DeclareModel, worlds: int, rng: random.Random,
                    moves: Sequence[str] = ("play", "drop")) -> tuple[dict[str, Tally], float]:
    """Weighted tallies of every declaration in ``moves`` over ``worlds`` sampled
    deals, and the total weight."""
    me = info.me
    order = info.order
    later = [s for s in order if s != me and s not in info.declared]
    sampler = Worlds(info, model)
    lives = info.lives
    seats = len(order)
    drop_lives = drop_cost(info.drops_before.get(me, 0), info.limit, seats)
    tallies = {m: Tally() for m in moves}
    total = 0.0
    for _ in range(worlds):
        got = sampler.sample(rng)
        if got is None:
            break
        w, hands = got
        us = [rng.random() for _ in later]
        if w <= 1e-12:
            continue
        total += w
        for move in moves:
            declared = dict(info.declared)
            declared[me] = move
            for s, u in zip(later, us):
                declared[s] = "play" if u < model.p_play(s, hands[s], declared) else "drop"
            playing = [s for s in order if declared[s] == "play"]
            lost: dict[int, int] = {}
            if playing:
                lone = playing[0] if len(playing) == 1 else None
                players = list(order) if lone is not None else playing
                r = start_round(info, {s: hands[s] for s in players}, players, lone)
                lost = play_out(r, players[0]).losses()
            mine = min(lost.get(me, 0), lives[me])
            v = outcome_value(lives, lost, me, drop_lives if move == "drop" else 0.0, seats)
            tallies[move].add(w, v, mine)
    return tallies, total


# ---------------------------------------------------------------- cards

def candidates(info: Info) -> list[str]:
    """Legal cards with equivalent ones merged (same suit, nothing between them that is
    still out): playing either comes to the same."""
    legal = sorted(info.legal, key=lambda c: (c[1], info.rank[c]))
    out: list[str] = []
    hand = set(info.hand)
    order = RANK_ORDER[info.deck]
    for c in legal:
        if out and out[-1][1] == c[1]:
            prev = out[-1]
            between = [order[k] + c[1] for k in range(info.rank[prev] + 1, info.rank[c])]
            if all(b in info.gone or b in hand for b in between):
                continue
        out.append(c)
    return out


def card_tallies(info: Info, model: DeclareModel, worlds: int, rng: random.Random,
                 cards: Sequence[str], read_play: bool = False
                 ) -> tuple[dict[str, Tally], float]:
    """Weighted tallies of every card in ``cards`` over ``worlds`` sampled deals."""
    me = info.me
    sampler = Worlds(info, model, read_play)
    dk = deck(info.deck)
    lives = info.lives
    seats = len(info.order)
    players = list(info.in_play)
    leader = info.trick[0][0] if info.trick else me
    tallies = {c: Tally() for c in cards}
    total = 0.0
    for _ in range(worlds):
        got = sampler.sample(rng)
        if got is None:
            break
        w, hands = got
        if w <= 1e-12:
            continue
        total += w
        base = start_round(info, {s: hands[s] for s in players})
        for c in cards:
            r = base.copy()
            r.play(me, dk.bit[c])
            lost = play_out(r, leader).losses()
            mine = min(lost.get(me, 0), lives[me])
            tallies[c].add(w, outcome_value(lives, lost, me, 0.0, seats), mine)
    return tallies, total


# ---------------------------------------------------------------- the level's move

def search_move(info: Info, budget: Budget) -> str | None:
    """The best move by the search, or ``None`` when there is nothing to search (the
    caller then plays its heuristic)."""
    if info.decision == "declare":
        if "drop" not in info.legal:
            return "play"
        model = model_for(info, budget.styles)
        tallies, total = declare_tallies(info, model, budget.declare, rng_for(info, 0xDEC1))
        if total <= 0:
            return None
        return max(("drop", "play"), key=lambda m: tallies[m].value)
    if info.decision == "trick":
        cards = candidates(info)
        if len(cards) == 1:
            return cards[0]
        if not _matters(info):
            return None
        model = model_for(info, budget.styles)
        tallies, total = card_tallies(info, model, budget.card, rng_for(info, 0xCA7D),
                                      cards, budget.read_play)
        if total <= 0:
            return None
        return max(cards, key=lambda c: (round(tallies[c].value, 12), -cards.index(c)))
    return None


def _matters(info: Info) -> bool:
    """Whether this seat's card can still change anything (someone still needs a
    trick, or the lone player still takes them all)."""
    r = start_round(info, {})
    return mode(r, info.me) != NONE


# ---------------------------------------------------------------- the coach's odds

def odds(info: Info, model: DeclareModel, worlds: int, seed: int
         ) -> dict[str, dict[str, float]]:
    """``{move: {lose_life, expected_loss}}`` for every legal declaration or card."""
    rng = random.Random(seed)
    legal = list(info.legal)
    if info.decision == "trick":
        tallies, total = card_tallies(info, model, worlds, rng, legal)
    else:
        moves = [m for m in legal if m in ("play", "drop")]
        tallies, total = declare_tallies(info, model, worlds, rng, moves)
    if total <= 0:
        return {m: {"lose_life": 0.0, "expected_loss": 0.0} for m in legal}
    return {m: {"lose_life": round(tallies[m].lose / total, 4),
                "expected_loss": round(tallies[m].lives / total, 4)} for m in legal}
