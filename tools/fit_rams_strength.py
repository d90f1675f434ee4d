"""Fit the hand-strength models of ``game/ai/rams_strength.py`` to play-outs.

    python tools/fit_rams_strength.py [--samples 60000] [--seed 1]

For ``m`` other players (1 … 4) it deals random 32-card rounds, plays them out with
the search's card heuristic (:mod:`game.ai.rams_playout`) and fits a logistic model
of "this hand takes no trick" on the features of
:func:`game.ai.rams_strength.features`; likewise "the lone player takes every trick"
against 1 … 4 defenders. Two passes: the first with random opponents' hands, the
second with the opponents drawn as players who chose to play hold them (accepted with
the first pass's chance that such a hand plays) and the defenders as players who
dropped. Then, for ``scoring: counters`` (every trick counts, so everyone plays for
tricks all round), a linear model of the tricks a hand takes against ``m`` players
(opponents drawn as in the second pass) and of the tricks a lone player takes against
``m`` defenders. Prints the coefficient tables to paste into the module (deterministic
for a seed).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai import rams_strength as rs  # noqa: E402
from game.ai.rams_cards import Deck, deck  # noqa: E402
from game.ai.rams_playout import Round, play_out  # noqa: E402

HAND = 5
#: a free player's threshold in the second pass: it plays if its chance of no trick
#: is below this (made soft by TEMP)
PLAY_AT = 0.2
TEMP = 0.07


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression by Newton steps."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        g = x.T @ (p - y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def _chance(coef, trump: int, seen: int, at: float, temp: float):
    """The chance that a player plays a hand whose chance of no trick (logit
    ``coef``) is below ``at``, made soft by ``temp``."""
    dk = deck("skat32")

    def p(h: int) -> float:
        f = rs.features(h, trump, seen, dk)
        z = sum(c * v for c, v in zip(coef, f))
        return sigmoid((at - sigmoid(z)) / temp)
    return p


def draw(pool: list[int], rng: random.Random, accept, tries: int = 40) -> int:
    """A hand of ``HAND`` cards from ``pool`` (removed from it), kept with chance
    ``accept(mask)``."""
    for _ in range(tries):
        idx = rng.sample(range(len(pool)), HAND)
        m = 0
        for i in idx:
            m |= 1 << pool[i]
        if accept is None or rng.random() < accept(m):
            break
    for i in sorted(idx, reverse=True):
        pool.pop(i)
    return m


def turn_up(dk: Deck, rng: random.Random) -> tuple[list[int], int, int]:
    """A shuffled deck with its last card turned up as trump: (the rest, as bits; the
    trump suit; the turned card as a bit set)."""
    pool = sorted(dk.code)
    rng.shuffle(pool)
    tc = pool.pop()
    return pool, tc >> 4, 1 << tc


def tricks_taken(dk: Deck, trump: int, seen: int, hands: list[int], lone: int | None,
                 counting: bool = False) -> list[int]:
    """Every seat's tricks when ``hands`` (seat 0 leads) are played out."""
    n = len(hands)
    r = Round(dk, trump, list(range(n)), lone, n, HAND, counting=counting)
    r.hands = hands[:]
    r.gone = seen
    play_out(r, 0)
    return r.tricks


def gen_no_trick(m: int, n: int, rng: random.Random, model: dict | None
                 ) -> tuple[np.ndarray, np.ndarray]:
    dk = deck("skat32")
    xs, ys = [], []
    for _ in range(n):
        pool, trump, seen = turn_up(dk, rng)
        acc = None
        if model is not None:
            acc = _chance(model[m], trump, seen, PLAY_AT, TEMP)
        me = rng.randrange(m + 1)
        hands = [draw(pool, rng, None if s == me else acc) for s in range(m + 1)]
        tricks = tricks_taken(dk, trump, seen, hands, None)
        xs.append(rs.features(hands[me], trump, seen, dk))
        ys.append(1.0 if tricks[me] == 0 else 0.0)
    return np.array(xs, dtype=float), np.array(ys)


def gen_sweep(d: int, n: int, rng: random.Random, model: dict | None
              ) -> tuple[np.ndarray, np.ndarray]:
    dk = deck("skat32")
    xs, ys = [], []
    for _ in range(n):
        pool, trump, seen = turn_up(dk, rng)
        plays = _chance(rs.NO_TRICK[3], trump, seen, 0.1, 0.05)

        def strong(h: int, plays=plays) -> float:
            return plays(h) * 0.9 + 0.1

        weak = None
        if model is not None:
            drops = _chance(model[min(4, d)], trump, seen, PLAY_AT, TEMP)

            def weak(h: int, drops=drops) -> float:
                return 1.0 - drops(h)
        lone = rng.randrange(d + 1)
        hands = [draw(pool, rng, strong if s == lone else weak) for s in range(d + 1)]
        tricks = tricks_taken(dk, trump, seen, hands, lone)
        xs.append(rs.features(hands[lone], trump, seen, dk))
        ys.append(1.0 if tricks[lone] == HAND else 0.0)
    return np.array(xs, dtype=float), np.array(ys)


def gen_tricks(m: int, n: int, rng: random.Random, model: dict, lone: bool
               ) -> tuple[np.ndarray, np.ndarray]:
    """Tricks a hand takes under ``counters`` against ``m`` players, or alone against
    ``m`` defenders (``lone``: the others drawn as players who dropped)."""
    dk = deck("skat32")
    xs, ys = [], []
    for _ in range(n):
        pool, trump, seen = turn_up(dk, rng)
        plays = _chance(model[min(4, m)], trump, seen, PLAY_AT, TEMP)
        acc = (lambda h, plays=plays: 1.0 - plays(h)) if lone else plays
        me = rng.randrange(m + 1)
        hands = [draw(pool, rng, None if s == me else acc) for s in range(m + 1)]
        tricks = tricks_taken(dk, trump, seen, hands, me if lone else None, counting=True)
        xs.append(rs.features(hands[me], trump, seen, dk))
        ys.append(float(tricks[me]))
    return np.array(xs, dtype=float), np.array(ys)


def least_squares(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    return np.linalg.solve(x.T @ x + l2 * np.eye(x.shape[1]), x.T @ y)


def table(name: str, coefs: dict[int, np.ndarray]) -> str:
    rows = [f"{name}: dict[int, tuple[float, ...]] = {{"]
    for k, w in sorted(coefs.items()):
        rows.append(f"    {k}: ({', '.join(f'{v:.3f}' for v in w)}),")
    rows.append("}")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--samples", type=int, default=60000)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    first: dict[int, np.ndarray] = {}
    for m in (1, 2, 3, 4):
        x, y = gen_no_trick(m, args.samples // 2, rng, None)
        first[m] = fit(x, y)
    second = {}
    for m in (1, 2, 3, 4):
        x, y = gen_no_trick(m, args.samples, rng, first)
        second[m] = fit(x, y)
        print(f"# no trick, {m} others: rate {y.mean():.3f}", file=sys.stderr)
    sweep = {}
    for d in (1, 2, 3, 4):
        x, y = gen_sweep(d, args.samples, rng, second)
        sweep[d] = fit(x, y)
        print(f"# sweep, {d} defenders: rate {y.mean():.3f}", file=sys.stderr)
    tricks, alone = {}, {}
    for m in (1, 2, 3, 4):
        x, y = gen_tricks(m, args.samples, rng, second, lone=False)
        tricks[m] = least_squares(x, y)
        print(f"# tricks, {m} others: mean {y.mean():.3f}", file=sys.stderr)
        x, y = gen_tricks(m, args.samples, rng, second, lone=True)
        alone[m] = least_squares(x, y)
        print(f"# tricks alone, {m} defenders: mean {y.mean():.3f}", file=sys.stderr)
    print(table("NO_TRICK", second))
    print(table("SWEEP", sweep))
    print(table("TRICKS", tricks))
    print(table("TRICKS_ALONE", alone))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
