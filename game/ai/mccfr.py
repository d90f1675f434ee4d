"""Monte-Carlo CFR+ for Chase the Ace rounds with 6–10 active seats (needs numpy).

A development tool like :mod:`game.ai.cfr`; the game never imports it. Like it, a
fast path that plays the round's rules on strengths (held against the engine by
``tests/test_chase_fast_paths.py``), for the rules of :mod:`game.ai.solver_rules`.

Abstraction: the information set is (pos, dealt, current, swaps so far 0 … 3+, last
history letter): the letter of the position on the right (``k``, ``s`` or ``x``;
none for position 0).
Each iteration samples a batch of deals (and one uniform number per seat for the
others' mixed actions), plays the round under the current strategy and, for every
position, both of its actions against the sampled play of the others (the same
numbers: common random numbers); the loss differences are the sampled regrets.

:func:`br_gain` estimates each position's best-response gain by sampling over the
same abstraction: ``in_sample`` takes the better action per information set on the
sample that measures it (biased upwards by noise), ``held_out`` picks it on one half
and measures on the other (biased downwards). The true gain lies near both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from game.ai.solver_rules import SolverRules


class Abstract:
    """Information sets (pos, dealt, current, swaps so far 0 … 3+, last letter)."""

    def __init__(self, n: int, rules: SolverRules | None = None) -> None:
        self.n = n
        self.rules = rules = rules or SolverRules()
        self.blocker = rules.blocker
        self.values = rules.values
        self.deck = np.array(rules.deck_strengths(), dtype=np.int64)
        slot = np.full(14, -1, dtype=np.int64)
        for i, v in enumerate(self.values):
            slot[v] = i
        self.slot = slot
        self.keys: list[tuple[int, int, int, str]] = []
        self.offset = np.full((n, 4, 3), -1, dtype=np.int64)
        for p in range(n):
            for cnt in range(4):
                for letter, code in (("k", 0), ("s", 1), ("x", 2)):
                    if p == 0 and (code or cnt):
                        continue
                    if code == 1 and cnt == 0:
                        continue        # the last letter s is a swap
                    self.offset[p, cnt, code] = len(self.keys)
                    tag = "" if p == 0 else f"*{cnt}{letter}"
                    if code == 1:
                        self.keys.extend((p, d, c, tag) for d in self.values
                                         for c in self.values)
                    else:
                        self.keys.extend((p, d, d, tag) for d in self.values)

    @property
    def size(self) -> int:
        return len(self.keys)

    def index(self, p: int, d: np.ndarray, c: np.ndarray, last: np.ndarray,
              cnt: np.ndarray) -> np.ndarray:
        sd, sc = self.slot[d], self.slot[c]
        base = self.offset[p][cnt, last]
        return base + np.where(last == 1, sd * 12 + sc, sd)


def sample_deals(rng: np.random.Generator, m: int, n: int, deck: np.ndarray) -> np.ndarray:
    """m deals of n seat cards plus the talon's top card from a fresh ``deck`` (every
    card as its strength)."""
    keys = rng.random((m, len(deck)))
    idx = np.argpartition(keys, n + 1, axis=1)[:, :n + 1]
    return deck[idx]


class Simulator:
    """Plays sampled rounds under a strategy over the abstraction (a fast path: the
    engine's rules written again, held against it by
    ``tests/test_chase_fast_paths.py``)."""

    def __init__(self, ab: Abstract) -> None:
        self.ab = ab
        self.n = ab.n

    def run(self, strat: np.ndarray, D: np.ndarray, R: np.ndarray,
            record: bool = False) -> dict[str, Any]:
        """Play every deal under ``strat``; with ``record``, also both actions of
        every position: ``alt[p]`` = (infoset index, mask, loss keep, loss swap)."""
        n = self.n
        m = len(D)
        H = D[:, :n].copy()
        last = np.zeros(m, dtype=np.int64)
        skip = np.zeros(m, dtype=bool)
        states = []
        swaps = np.zeros(m, dtype=np.int64)     # swaps so far
        prev = np.zeros(m, dtype=np.int64)      # the letter before the last
        self.prev_seen = []
        for p in range(n):
            cnt = np.minimum(swaps, 3)
            states.append((H.copy(), last.copy(), skip.copy(), cnt))
            self.prev_seen.append(prev.copy())
            prev = last.copy()
            H, last, skip, _, _ = self._step(p, strat, D, R, H, last, skip, cnt)
            swaps = swaps + (last == 1)
        base = self._loss(H)
        out: dict[str, Any] = {"loss": base}
        if record:
            alts = []
            for p in range(n):
                H0, l0, s0, c0 = states[p]
                pair = []
                for forced_action in (0, 1):
                    Hp, lp, sp, ii, free = self._step(p, strat, D, R, H0, l0, s0, c0,
                                                      force=forced_action)
                    cq = np.minimum(c0 + (lp == 1), 3)
                    for q in range(p + 1, n):
                        Hp, lp, sp, _, _ = self._step(q, strat, D, R, Hp, lp, sp, cq)
                        cq = np.minimum(cq + (lp == 1), 3)
                    pair.append(self._loss(Hp)[:, p])
                alts.append((ii, free, pair[0], pair[1]))
            out["alt"] = alts
        return out

    def _step(self, p: int, strat: np.ndarray, D: np.ndarray, R: np.ndarray,
              H: np.ndarray, last: np.ndarray, skip: np.ndarray, cnt: np.ndarray,
              force: int | None = None) -> tuple:
        n, ab, blk = self.n, self.ab, self.ab.blocker
        forced = skip | (H[:, p] == blk)
        free = ~forced
        ii = np.full(len(H), -1, dtype=np.int64)
        ii[free] = ab.index(p, D[free, p], H[free, p], last[free], cnt[free])
        if force is None:
            ps = np.where(free, strat[np.maximum(ii, 0)], 0.0)
            act = (R[:, p] < ps) & free
        else:
            act = free & bool(force)
        H = H.copy()
        if p == n - 1:
            H[act, p] = D[act, n]          # the talon card
            return H, last, skip, ii, free
        tgt = H[:, p + 1]
        blocked = act & (tgt == blk)
        go = act & ~blocked
        a = H[go, p].copy()
        H[go, p] = H[go, p + 1]
        H[go, p + 1] = a
        new_last = np.where(skip, 2, np.where(go, 1, 0))
        # a blocked asker keeps: the next seat is skipped (letter x for it)
        return H, new_last, blocked, ii, free

    def _loss(self, H: np.ndarray) -> np.ndarray:
        m = H.min(axis=1, keepdims=True)
        return (H == m).astype(float)


def solve_abstract(n: int, iterations: int, batch: int, rules: SolverRules | None = None,
                   seed: int = 1, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    rules = rules or SolverRules()
    ab = Abstract(n, rules)
    sim = Simulator(ab)
    rng = np.random.default_rng(seed)
    regret = np.zeros((ab.size, 2))
    avg = np.zeros(ab.size)
    visits = np.zeros(ab.size)
    wsum = 0.0
    for t in range(1, iterations + 1):
        pos = np.maximum(regret, 0)
        tot = pos.sum(axis=1)
        strat = np.where(tot > 0, pos[:, 1] / np.where(tot > 0, tot, 1), 0.5)
        D = sample_deals(rng, batch, n, ab.deck)
        R = rng.random((batch, n))
        res = sim.run(strat, D, R, record=True)
        for ii, free, lk, ls in res["alt"]:
            idx = ii[free]
            visits += np.bincount(idx, minlength=ab.size)
            s = strat[idx]
            cur = (1 - s) * lk[free] + s * ls[free]
            regret[:, 0] += np.bincount(idx, weights=cur - lk[free], minlength=ab.size) / batch
            regret[:, 1] += np.bincount(idx, weights=cur - ls[free], minlength=ab.size) / batch
        regret = np.maximum(regret, 0)
        avg += t * strat
        wsum += t
        if log and t % 50 == 0:
            log(f"N={n} t={t}")
    final = np.round(avg / wsum, 3)
    # sharpen near-pure choices (noise), keep genuine mixing
    final = np.where(final < 0.02, 0.0, np.where(final > 0.98, 1.0, final))
    # information sets (almost) never reached: the plain threshold (6, dealer 7)
    rare = visits < 50
    plain = np.array([float(c <= (7 if p == n - 1 else 6)) for p, d, c, h in ab.keys])
    final = np.where(rare, plain, final)
    gain = br_gain(n, final, samples=400000, rules=rules, seed=seed + 7)
    entries = {}
    for (p, d, c, h), v in zip(ab.keys, final):
        entries[f"{p},{rules.rank(d)},{rules.rank(c)},{h}"] = float(v)
    return {"players": n, "rules": rules.engine_rules(),
            "method": "mccfr+ abstraction (pos, dealt, current, last letter)",
            "iterations": iterations, "batch": batch,
            "nashconv": float(sum(gain["in_sample"])), "gain": gain["in_sample"],
            "gain_held_out": gain["held_out"], "loss": gain["loss"], "entries": entries}


def br_gain(n: int, strat: np.ndarray, samples: int = 400000,
            rules: SolverRules | None = None, seed: int = 7, chunk: int = 50000,
            rich: bool = False) -> dict[str, Any]:
    """Sampled best-response gain of every position over the abstraction; with
    ``rich`` the best response also sees the letter before the last one."""
    ab = Abstract(n, rules)
    sim = Simulator(ab)
    rng = np.random.default_rng(seed)
    mult = 3 if rich else 1
    size = ab.size * mult
    cf = np.zeros((2, n, size, 2))     # half, position, infoset, action
    loss = np.zeros(n)
    done = 0
    half = 0
    while done < samples:
        m = min(chunk, samples - done)
        D = sample_deals(rng, m, n, ab.deck)
        R = rng.random((m, n))
        res = sim.run(strat, D, R, record=True)
        loss += res["loss"].sum(axis=0)
        for p, (ii, free, lk, ls) in enumerate(res["alt"]):
            idx = ii[free] * mult + (sim.prev_seen[p][free] if rich else 0)
            cf[half, p, :, 0] += np.bincount(idx, weights=lk[free], minlength=size)
            cf[half, p, :, 1] += np.bincount(idx, weights=ls[free], minlength=size)
        done += m
        half ^= 1
    cf /= samples
    s = np.repeat(strat, mult)
    in_sample, held = [], []
    for p in range(n):
        tot = cf[0, p] + cf[1, p]
        cur = (1 - s) * tot[:, 0] + s * tot[:, 1]
        in_sample.append(float((cur - tot.min(axis=1)).sum()))
        g = 0.0
        for a_half in (0, 1):
            pick = cf[a_half, p].argmin(axis=1)
            other = cf[1 - a_half, p]
            cur_o = (1 - s) * other[:, 0] + s * other[:, 1]
            g += float((cur_o - other[np.arange(size), pick]).sum()) * 2
        held.append(g / 2)
    return {"in_sample": in_sample, "held_out": held, "loss": list(loss / samples)}
