"""What a round's outcome is worth to a seat: its chance to win the game.

Rams is won by the last seat with lives, so a life lost alone costs more than a life
lost together with others, and every life an opponent loses helps. :func:`win_chance`
is a seat's chance to be the last one standing from the lives of every seat, in a
model where each seat still in loses one life per round with the same small chance
(:data:`ROUND_LOSS`), independently: it depends only on how the lives are spread, which
is what a single round changes.

Under ``scoring: counters`` the game is a race to zero: :func:`race_chance` is a
seat's chance to get there first, from every seat's counters, in a model where each
seat's counters change every round by the same distribution (:data:`RACE_STEP`),
independently; a seat whose counters reach zero during the round has won.

A drop that makes the drop limit force this seat to play next round is charged what
that forced round costs over the average round (:func:`forced_cost`), which depends
most on how many other seats will be forced with it: a seat forced alone is easily
left alone in the play (every trick or two lives), a seat forced with others is not.
The figures are lives lost per round in forced rounds less the average round, by
seats dealt in and other forced seats, as ``tools/bench_rams_ai.py table`` prints
them (``seat_forced_rounds``; ``hard`` among sparring bots and among itself, smoothed).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb

from game.rules.rams_rules import COUNTER_PENALTY

#: chance that a seat loses a life in a round (the table's average; the shape of
#: :func:`win_chance` hardly depends on it)
ROUND_LOSS = 0.1
#: opponents the model follows (the ones with the most lives), to keep it small
MAX_OTHERS = 4
#: extra lives a forced round costs over the average round, by seats dealt in (2, 3,
#: 4, 5+) and other seats forced in the same round (0, 1, 2, 3+)
FORCED_COST = {2: (0.45, 0.04), 3: (0.6, 0.07, 0.07), 4: (0.39, 0.16, 0.12, 0.11),
               5: (0.4, 0.18, 0.14, 0.12)}
#: the same on average over the other seats' choices (a seat that does not look ahead
#: at who else drops)
FORCED_LIVES = {2: 0.05, 3: 0.12, 4: 0.15, 5: 0.15}


def forced_lives(seats: int) -> float:
    """What a forced round costs on average at a table of ``seats``."""
    return FORCED_LIVES[min(5, max(2, seats))]


def forced_cost(seats: int, others_forced: int) -> float:
    """What a forced round costs at a table of ``seats`` when ``others_forced`` other
    seats must play too."""
    row = FORCED_COST[min(5, max(2, seats))]
    return row[min(len(row) - 1, others_forced)]


def win_chance(lives: Sequence[int], me: int) -> float:
    """The chance that seat ``me`` is the last one with lives (see the module doc)."""
    mine = lives[me]
    if mine <= 0:
        return 0.0
    others = sorted(x for i, x in enumerate(lives) if i != me and x > 0)
    # at big tables only the strongest opponents matter for who is left last
    return _win(mine, tuple(others[-MAX_OTHERS:]))


@lru_cache(maxsize=4096)
def _win(mine: int, others: tuple[int, ...]) -> float:
    if mine <= 0:
        return 0.0
    if not others:
        return 1.0
    p = ROUND_LOSS
    # group the other seats by lives: (lives, count)
    groups: list[tuple[int, int]] = []
    for x in others:
        if groups and groups[-1][0] == x:
            groups[-1] = (x, groups[-1][1] + 1)
        else:
            groups.append((x, 1))
    stay = 0.0          # chance that nobody loses a life (the state repeats)
    total = 0.0
    for me_loses in (0, 1):
        pm = p if me_loses else 1.0 - p
        # every way the groups can lose lives: j of the c seats with x lives lose one
        outcomes: list[tuple[float, tuple[int, ...]]] = [(pm, ())]
        for x, c in groups:
            nxt = []
            for prob, acc in outcomes:
                for j in range(c + 1):
                    q = comb(c, j) * p ** j * (1.0 - p) ** (c - j)
                    nxt.append((prob * q, acc + (x - 1,) * j + (x,) * (c - j)))
            outcomes = nxt
        for prob, after in outcomes:
            if me_loses == 0 and after == others:
                stay += prob
                continue
            rest = tuple(sorted(x for x in after if x > 0))
            m = mine - me_loses
            if m <= 0:
                continue
            total += prob * _win(m, rest)
    return total / (1.0 - stay)


#: a seat's change of counters in one round (``counters`` scoring, four seats):
#: change -> share of rounds, as ``tools/bench_rams_pace.py steps --games 200`` measures
#: it among four ``medium`` under the default rules (9,420 seat-rounds)
RACE_STEP: tuple[tuple[int, float], ...] = ((0, 0.394), (-1, 0.168), (-2, 0.187),
                                            (-3, 0.120), (-4, 0.066), (-5, 0.015),
                                            (5, 0.050))
#: rounds the race model looks ahead, and the most counters it follows
RACE_ROUNDS = 80
RACE_MAX = 60


@lru_cache(maxsize=128)
def _finish(start: int) -> tuple[float, ...]:
    """``[t]``: the chance that a seat with ``start`` counters reaches zero in round
    ``t + 1`` (:data:`RACE_STEP`)."""
    dist = {min(RACE_MAX, start): 1.0}
    out = []
    for _ in range(RACE_ROUNDS):
        nxt: dict[int, float] = {}
        done = 0.0
        for c, p in dist.items():
            for d, q in RACE_STEP:
                x = c + d
                if x <= 0:
                    done += p * q
                else:
                    x = min(RACE_MAX, x)
                    nxt[x] = nxt.get(x, 0.0) + p * q
        out.append(done)
        dist = nxt
    return tuple(out)


@lru_cache(maxsize=4096)
def _race(counters: tuple[int, ...]) -> tuple[float, ...]:
    """Every seat's chance to reach zero first (ties in a round shared evenly)."""
    fin = [_finish(c) for c in counters]
    alive = [1.0] * len(counters)        # chance of not having finished yet
    raw = [0.0] * len(counters)
    for t in range(RACE_ROUNDS):
        for i, f in enumerate(fin):
            if f[t]:
                others = 1.0
                for j, g in enumerate(fin):
                    if j != i:
                        others *= alive[j] - 0.5 * g[t]
                raw[i] += f[t] * others
        for i, f in enumerate(fin):
            alive[i] -= f[t]
    total = sum(raw) or 1.0
    return tuple(x / total for x in raw)


def race_chance(counters: Sequence[int], me: int) -> float:
    """The chance that seat ``me`` is the first with no counters (see the module doc);
    1 (or 0) if a seat is already there."""
    if counters[me] <= 0:
        return 1.0
    if any(c <= 0 for c in counters):
        return 0.0
    others = sorted(c for i, c in enumerate(counters) if i != me)[:MAX_OTHERS]
    return _race((counters[me], *others))[0]


def outcome_value(lives: Sequence[int], lost: dict[int, int], me: int,
                  forced: float, seats: int, counting: bool = False,
                  winner: int | None = None) -> float:
    """Win chance of ``me`` after a round in which seats lost ``lost`` lives (capped at
    the lives they have), less ``forced`` lives' worth for a drop that brings a forced
    round (:func:`forced_lives`; 0: none). ``counting``: ``lives`` are counters and
    ``lost`` their change; ``winner`` the seat that reached zero in the round."""
    if counting:
        if winner is not None:
            return 1.0 if winner == me else 0.0
        after = [max(0, x + lost.get(i, 0)) for i, x in enumerate(lives)]
        w = race_chance(after, me)
        if forced:
            worse = list(after)
            worse[me] += COUNTER_PENALTY
            w -= forced * (w - race_chance(worse, me))
        return w
    after = [max(0, x - lost.get(i, 0)) for i, x in enumerate(lives)]
    w = win_chance(after, me)
    if forced and after[me] > 0:
        worse = list(after)
        worse[me] -= 1
        w -= forced * (w - win_chance(worse, me))
    return w
