"""Exact CFR+ and exact best responses for one round of Chase the Ace (2–5 seats).

A development tool: it needs numpy (``pip install numpy``), the game itself never
imports this module. ``tools/solve_chase.py`` uses it to compute the ``hard`` policy
and ``game/ai/exploit.py`` to measure any policy table.

The round (BOTS.md "Policies"): one card per active seat from a fresh deck, positions
0 … N-1 in turn order (N-1 = the dealer). A non-dealer keeps or asks its left
neighbour to swap; a King (the blocker) blocks. The dealer keeps or draws the
talon's top card. The lowest card(s) lose. Each seat minimises its probability of
losing a life this round. This is a fast path: the rules it writes again are held
against the engine by ``tests/test_chase_fast_paths.py``, and the rules it can model
are :mod:`game.ai.solver_rules`'s (the default rules and ``ace_high``).

Cards are *strengths* 1 (lowest) … 13 (highest), the engine's scale
(:class:`game.rules.chase_rules.CardScale`): the King blocks (13, or 12 with
``ace_high``, where the Ace is 13).

Information set: (pos, dealt, current, history), history letters ``k`` kept, ``s``
swapped, ``b`` asked and blocked by a King, ``x`` turn skipped after showing a King
(:func:`game.ai.chase_info.histories`). Seats holding the blocker always keep and
have no entry. Vectorised over every deal: 13^N strength tuples with their exact
probabilities, every action path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from game.ai.chase_info import histories
from game.ai.solver_rules import SolverRules

LETTERS = "ksbx"
K, S, B, X = 0, 1, 2, 3


def hist_code(h: str) -> int:
    c = 0
    for ch in h:
        c = c * 4 + LETTERS.index(ch)
    return c


@dataclass
class Layout:
    """Index of every information set of an N-seat round."""

    n: int
    blocker: int
    keys: list[tuple[int, int, int, str]]        # (pos, dealt, current) strengths, history
    offset: list[np.ndarray]                       # per pos: hist code -> first index (-1)
    swapped: list[np.ndarray]                      # per pos: hist code -> last letter is s
    slot: np.ndarray                               # strength -> 0..11 (blocker: -1)

    @property
    def size(self) -> int:
        return len(self.keys)

    def index(self) -> dict[tuple[int, int, int, str], int]:
        return {k: i for i, k in enumerate(self.keys)}


def layout(n: int, rules: SolverRules | None = None) -> Layout:
    rules = rules or SolverRules()
    blocker = rules.blocker
    values = rules.values
    slot = np.full(14, -1, dtype=np.int64)
    for i, v in enumerate(values):
        slot[v] = i
    keys: list[tuple[int, int, int, str]] = []
    offsets, swapped = [], []
    for p in range(n):
        off = np.full(4 ** p, -1, dtype=np.int64)
        sw = np.zeros(4 ** p, dtype=bool)
        for h in histories(p):
            code = hist_code(h)
            off[code] = len(keys)
            if h.endswith("s"):
                sw[code] = True
                keys.extend((p, d, c, h) for d in values for c in values)
            else:
                keys.extend((p, d, d, h) for d in values)
        offsets.append(off)
        swapped.append(sw)
    return Layout(n, blocker, keys, offsets, swapped, slot)


def deals(n: int, rules: SolverRules | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Every tuple of n strengths with its probability (a fresh deck: the engine's,
    four cards of each strength)."""
    rules = rules or SolverRules()
    counts = np.array(rules.counts)
    size = rules.deck_size
    grids = np.indices((13,) * n).reshape(n, -1).T + 1
    prob = np.ones(len(grids))
    for i in range(n):
        same = (grids[:, :i] == grids[:, i:i + 1]).sum(axis=1) if i else 0
        prob *= (counts[grids[:, i]] - same) / (size - i)
    keep = prob > 0
    return grids[keep].astype(np.int8), prob[keep]


class RoundTree:
    """Evaluates a policy (p_swap per information set) over every deal and action
    path; returns per-information-set counterfactual losses of both actions."""

    def __init__(self, n: int, rules: SolverRules | None = None) -> None:
        self.n = n
        self.rules = rules = rules or SolverRules()
        self.blocker = rules.blocker
        self.lay = layout(n, rules)
        self.V, self.P = deals(n, rules)
        self.values = self.V.astype(np.int64)
        # cards of strength <= s in the deck (for the talon's odds)
        self.at_most = np.cumsum(rules.counts)
        self.deck_size = rules.deck_size

    def evaluate(self, strat: np.ndarray) -> dict[str, Any]:
        """Counterfactual losses. ``cf[I, a]`` = Σ over histories in information set I of the others'
        reach (chance included) × the actor's loss after action a (0 keep, 1 swap);
        ``value[p]`` the expected loss of position p under ``strat``."""
        U = self.losses(strat)
        value = (U * self.P[:, None]).sum(axis=0)
        return {"cf": self.cf, "value": value}

    def losses(self, strat: np.ndarray) -> np.ndarray:
        """Every deal's (row of ``V``) expected loss of every position under ``strat``
        (the talon's card averaged over), and the counterfactual losses (``cf``)."""
        self.strat = strat
        self.cf = np.zeros((self.lay.size, 2))
        ids = np.arange(len(self.V))
        H = self.values.copy()
        return self._node(0, ids, H, np.zeros(len(ids), dtype=np.int64),
                          np.zeros(len(ids), dtype=bool), self.P.copy())

    def _infoset(self, p: int, ids: np.ndarray, H: np.ndarray, hist: np.ndarray) -> np.ndarray:
        lay = self.lay
        d = lay.slot[self.values[ids, p]]
        c = lay.slot[H[:, p]]
        base = lay.offset[p][hist]
        sw = lay.swapped[p][hist]
        return base + np.where(sw, d * 12 + c, d)

    def _node(self, p: int, ids: np.ndarray, H: np.ndarray, hist: np.ndarray,
              skip: np.ndarray, W: np.ndarray) -> np.ndarray:
        n = self.n
        blk = self.blocker
        forced = skip | (H[:, p] == blk)
        free = np.nonzero(~forced)[0]
        s = np.zeros(len(ids))
        ii = self._infoset(p, ids[free], H[free], hist[free])
        s[free] = self.strat[ii]
        if p == n - 1:
            U_keep = self._leaf(H)
            U_alt = self._draw(ids[free], H[free])
        else:
            letter = np.where(skip, X, K)
            U_keep = self._node(p + 1, ids, H, hist * 4 + letter,
                                np.zeros(len(ids), dtype=bool), W * (1 - s))
            Hs = H[free].copy()
            blocked = Hs[:, p + 1] == blk
            go = ~blocked
            a = Hs[go, p].copy()
            Hs[go, p] = Hs[go, p + 1]
            Hs[go, p + 1] = a
            U_alt = self._node(p + 1, ids[free], Hs, hist[free] * 4 + np.where(blocked, B, S),
                               blocked, W[free] * s[free])
        U = U_keep.copy()
        sf = s[free][:, None]
        U[free] = (1 - sf) * U_keep[free] + sf * U_alt
        w = W[free]
        self.cf[:, 0] += np.bincount(ii, weights=w * U_keep[free, p], minlength=self.lay.size)
        self.cf[:, 1] += np.bincount(ii, weights=w * U_alt[:, p], minlength=self.lay.size)
        return U

    def _leaf(self, H: np.ndarray) -> np.ndarray:
        m = H.min(axis=1, keepdims=True)
        return (H == m).astype(float)

    def _draw(self, ids: np.ndarray, H: np.ndarray) -> np.ndarray:
        """Losses after the dealer draws: the talon card t has P(t = r) =
        (cards of strength r - dealt r) / (deck - N); the dealer keeps whatever it
        draws (a King too)."""
        n = self.n
        dealt = self.values[ids]
        rest = H[:, :n - 1]
        m = rest.min(axis=1)
        left = self.deck_size - n
        # P(t <= m) and P(t >= m)
        le = (self.at_most[m] - (dealt <= m[:, None]).sum(axis=1)) / left
        lt = (self.at_most[m - 1] - (dealt < m[:, None]).sum(axis=1)) / left
        ge = 1 - lt
        U = np.empty((len(ids), n))
        U[:, :n - 1] = (rest == m[:, None]) * ge[:, None]
        U[:, n - 1] = le
        return U


def gains(tree: RoundTree, strat: np.ndarray) -> dict[str, Any]:
    """Exact best-response gain per position (probability of losing a life)."""
    ev = tree.evaluate(strat)
    cf = ev["cf"]
    cur = (1 - strat) * cf[:, 0] + strat * cf[:, 1]
    gain_is = cur - cf.min(axis=1)
    pos = np.array([k[0] for k in tree.lay.keys])
    per_pos = np.bincount(pos, weights=gain_is, minlength=tree.n)
    value = ev["value"]
    return {"loss": [float(v) for v in value],
            "best_response_loss": [float(value[p] - per_pos[p]) for p in range(tree.n)],
            "gain": [float(g) for g in per_pos],
            "nashconv": float(per_pos.sum())}


def solve(n: int, iterations: int, rules: SolverRules | None = None, log: Any = None,
          target: float = 0.0) -> tuple[np.ndarray, dict[str, Any]]:
    """CFR+ (regret floor at zero, linear averaging, simultaneous updates).

    Returns the better of the average and the last strategy by NashConv."""
    tree = RoundTree(n, rules)
    size = tree.lay.size
    regret = np.zeros((size, 2))
    avg = np.zeros(size)
    wsum = 0.0
    best: tuple[float, np.ndarray] | None = None
    for t in range(1, iterations + 1):
        pos = np.maximum(regret, 0)
        tot = pos.sum(axis=1)
        strat = np.where(tot > 0, pos[:, 1] / np.where(tot > 0, tot, 1), 0.5)
        ev = tree.evaluate(strat)
        cf = ev["cf"]
        cur = (1 - strat) * cf[:, 0] + strat * cf[:, 1]
        # utility = -loss: regret of action a = cur - cf[a]
        regret[:, 0] = np.maximum(regret[:, 0] + cur - cf[:, 0], 0)
        regret[:, 1] = np.maximum(regret[:, 1] + cur - cf[:, 1], 0)
        avg += t * strat
        wsum += t
        if t % 25 == 0 or t == iterations:
            a = avg / wsum
            ga = gains(tree, a)["nashconv"]
            gc = float((cur - cf.min(axis=1)).sum())
            cand = (ga, a.copy()) if ga <= gc else (gc, strat.copy())
            if best is None or cand[0] < best[0]:
                best = cand
            if log:
                log(f"N={n} t={t} nashconv avg={ga:.6f} current={gc:.6f}")
            if best[0] <= target:
                break
    assert best is not None
    return best[1], gains(tree, best[1])
