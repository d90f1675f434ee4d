"""The ``hard`` level's solved tables and the thresholds read from them.

``tools/solve_chase.py`` computes, per table size (2 … 10 active seats), the
equilibrium probability of swapping (the dealer: drawing) in every information set;
the tables ship in ``game/data``. :func:`hard_p` looks a :class:`Situation` up,
:func:`base_threshold` gives the card up to which the equilibrium swaps in the
plainest history (everybody before kept), for the levels built on thresholds.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from pathlib import Path

from game.ai.chase_info import Situation
from game.rules.chase_rules import card_scale

DATA = Path(__file__).resolve().parents[1] / "data"


@cache
def load_table(n: int, ace_high: bool = False) -> dict[str, float]:
    """The shipped ``hard`` table for n active seats (2 … 10): key
    ``"pos,dealt,current,history"`` in BOTS.md rank numbering → p_swap."""
    suffix = "_ace_high" if ace_high else ""
    path = DATA / f"chase_policy_{n}{suffix}.json"
    if not path.is_file() and ace_high:
        path = DATA / f"chase_policy_{n}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no policy table for {n} seats: run tools/solve_chase.py")
    data = json.loads(path.read_text())
    entries: dict[str, float] = data["entries"]
    return entries


def preload() -> None:
    """Read every shipped table now (about 0.5 MB, 0.1 s, once per process). A level
    makes this call when it is created: reading a table the first time a table size
    comes up (a seat out, mid-game) needs a file descriptor, and a process whose
    descriptors are all in use then (a phone table under a flood of connections)
    would lose the seat's move."""
    for n in range(2, 11):
        table_n(n)
        for ace_high in (False, True):
            if (DATA / f"chase_policy_{n}.json").is_file():
                fallback_table(n, ace_high)


@cache
def fallback_table(n: int, ace_high: bool) -> dict[tuple[int, int, int, str], float]:
    """(pos, dealt, current, last letter) → mean p_swap: for histories a table lacks."""
    sums: dict[tuple[int, int, int, str], list[float]] = {}
    for key, p in load_table(n, ace_high).items():
        pos, d, c, h = key.split(",")
        k = (int(pos), int(d), int(c), h[-1:] if h else "")
        sums.setdefault(k, []).append(p)
    return {k: sum(v) / len(v) for k, v in sums.items()}


@cache
def table_n(n: int) -> int:
    """The table used for n active seats: n itself (2 … 10), else the nearest shipped."""
    n = max(2, min(10, n))
    while n > 2 and not (DATA / f"chase_policy_{n}.json").is_file():
        n -= 1
    return n


def hard_p(sit: Situation) -> float:
    """p_swap of the equilibrium table for this information set."""
    rules = sit.rules
    ace_high = bool(rules.get("ace_high")) and rules.get("deck") != "cuckoo40"
    return _hard_lookup(sit.n, sit.pos, sit.dealt, sit.current, sit.hist, ace_high,
                        sit.blocker)


def table_key(n: int, pos: int, dealt: int, current: int, hist: str, ace_high: bool,
              blocker: int) -> str:
    """The key ``"pos,dealt,current,history"`` (BOTS.md rank numbers) of the n-seat
    table (2 … 10 active seats) for a decision: strengths on the scale of the table's
    rules, the history fitted to the table's letters (n ≤ 5: every letter; 6 … 10:
    ``*`` with the swaps so far and the last letter, a block counting as kept). Where
    nobody swapped with the seat its dealt card is its current card."""
    scale = card_scale("french52", ace_high)
    hist = _norm_hist(hist, pos)
    d, c = scale.rank_number(dealt), scale.rank_number(current)
    if dealt == blocker:        # no table has the King: it was never dealt to a decider
        d = scale.rank_number(blocker - 1)
    if n <= 5:
        return f"{pos},{d if hist.endswith('s') else c},{c},{hist}"
    last = {"b": "k"}.get(hist[-1:], hist[-1:] or "k")
    if last != "s":
        d = c
    if pos == 0:
        return f"0,{d},{c},"
    return f"{pos},{d},{c},*{min(hist.count('s'), 3)}{last}"


@lru_cache(maxsize=200000)
def _hard_lookup(n_act: int, pos: int, dealt: int, current: int, hist: str, ace_high: bool,
                 blocker: int) -> float:
    n = table_n(n_act)
    # without a solved ace-high table, read the default one by strength
    ace_high = ace_high and (DATA / f"chase_policy_{n}_ace_high.json").is_file()
    if n_act > n:   # keep the last positions' places, squeeze the early ones
        pos = max(0, n - (n_act - pos))
    key = table_key(n, pos, dealt, current, hist, ace_high, blocker)
    table = load_table(n, ace_high)
    p = table.get(key)
    if p is not None:
        return p
    _, d, c, h = key.split(",")
    if n <= 5:
        return fallback_table(n, ace_high).get((pos, int(d), int(c), h[-1:]),
                                               _threshold(current, pos == n - 1))
    if pos:         # older tables: the last letter only
        p = table.get(f"{pos},{d},{c},*{h[-1:]}")
    return p if p is not None else _threshold(current, pos == n - 1)


def _norm_hist(hist: str, pos: int) -> str:
    """Fit a history to the table's letters: right length, ``b`` followed by ``x``."""
    h = list(hist[len(hist) - pos:] if len(hist) >= pos else "k" * (pos - len(hist)) + hist)
    if not pos:
        h = []
    for i, ch in enumerate(h):
        if ch == "x" and (i == 0 or h[i - 1] != "b"):
            h[i] = "k"
        if ch == "b" and i + 1 < len(h) and h[i + 1] != "x":
            h[i] = "k"
    if h and h[-1] == "b":
        h[-1] = "k"
    return "".join(h)


def _threshold(current: int, dealer: bool) -> float:
    return 1.0 if current <= (7 if dealer else 6) else 0.0


@cache
def base_threshold(n: int, pos: int) -> float:
    """The card (13-step) up to which the equilibrium swaps (draws) in the plainest
    history (everybody before kept): a half-integer from the table's mean."""
    n2 = table_n(n)
    if n > n2:
        pos = max(0, n2 - (n - pos))
    table = load_table(n2, False)
    hist = "k" * pos
    tag = hist if n2 <= 5 else ("" if pos == 0 else "*0k")
    total = sum(table.get(f"{pos},{v},{v},{tag}",
                          table.get(f"{pos},{v},{v},*k", 0.0)) for v in range(1, 13))
    return total + 0.5
