"""The four Chase the Ace levels: ``easy``, ``medium``, ``hard``, ``expert``.

Every level decides from the view (BOTS.md) only. It first reads the view into a
:class:`Situation` — the policy information set (BOTS.md "Policies": active seats,
position, dealt and current card, history letters) plus what the view shows beyond
it — then asks its *core*: the probability of swapping (the dealer: of drawing) in
that information set. Random choices come from ``view["seed"]`` mixed with the round
and step, so the same view always gives the same decision.

Cards are compared on a 13-step scale: the French deck's strengths under the rules
(``ace_high`` included), the Cuckoo deck's 20 values squeezed onto 1 … 13 with the
Cuckoo (the blocker) on 13.

- ``easy``: sensible thresholds blurred by noise on close calls; forgets what it saw.
- ``medium``: thresholds by table size and seat, plus what it saw: a card it gave away
  that now lies lower than its own, a King shown, low cards shown.
- ``hard``: the equilibrium tables of ``tools/solve_chase.py`` (``game/data``).
- ``expert``: ``hard`` until showdowns show how an opponent plays, then a best
  response (sampled) to that model of each opponent (see :mod:`game.ai.advise`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from game.ai.players import unit
from game.cards import CUCKOO_VALUES

View = Mapping[str, Any]
DATA = Path(__file__).resolve().parents[1] / "data"
FRENCH_LOW = "A23456789TJQK"
FRENCH_HIGH = "23456789TJQKA"


# ---------------------------------------------------------------- card scale

def strength(card: str, rules: Mapping[str, Any]) -> int:
    """The card on the 13-step scale (1 lowest; the blocker — King or Cuckoo — is the
    King's value: 13, or 12 with ``ace_high`` where the Ace is 13)."""
    if card in CUCKOO_VALUES:
        v = CUCKOO_VALUES.index(card) + 1          # 1 … 20, Cuckoo 20
        return 13 if v == 20 else 1 + round((v - 1) * 11 / 18)
    order = FRENCH_HIGH if rules.get("ace_high") else FRENCH_LOW
    return order.index(card[0]) + 1


def blocker_strength(rules: Mapping[str, Any]) -> int:
    return 12 if rules.get("ace_high") and rules.get("deck") != "cuckoo40" else 13


def is_blocker(card: str) -> bool:
    return card == "Cuckoo" or (len(card) == 2 and card[0] == "K")


def rank_number(s: int, rules: Mapping[str, Any]) -> int:
    """BOTS.md numbering of a strength (1 Ace … 13 King)."""
    if rules.get("ace_high") and rules.get("deck") != "cuckoo40":
        return 1 if s == 13 else s + 1
    return s


# ---------------------------------------------------------------- the situation

@dataclass
class Situation:
    n: int                     # active seats
    pos: int                   # 0 = left of the dealer … n-1 = dealer
    order: list[int]           # seats in turn order
    dealt: int                 # strengths
    current: int
    hist: str                  # letters k s b x of positions 0 … pos-1
    decision: str
    rules: Mapping[str, Any]
    blocker: int
    left_blocks: bool = False  # the seat we would ask shows a King face up
    known_lower: bool = False  # a card lower than ours lies in a finished hand
    shown_low: list[int] = field(default_factory=list)
    hand_card: str = ""

    @property
    def dealer(self) -> bool:
        return self.pos == self.n - 1


def turn_order(view: View) -> list[int]:
    active = list(view["active"])
    dealer = view["dealer"]
    i = active.index(dealer) if dealer in active else 0
    return active[i + 1:] + active[:i + 1]


def letters(order: list[int], events: list[Mapping[str, Any]]) -> list[str]:
    """History letter of every position that has finished its turn (else '')."""
    pos = {s: i for i, s in enumerate(order)}
    out = [""] * len(order)
    shown_king: set[int] = set()
    acted: set[int] = set()
    for e in events:
        t = e.get("type")
        if t == "keep":
            s = e["seat"]
            if s in pos and s not in acted:
                out[pos[s]] = out[pos[s]] or "k"
                acted.add(s)
        elif t == "swap":
            s = e["seat"]
            if s in pos:
                out[pos[s]] = "s"
                acted.add(s)
        elif t in ("block", "refuse"):
            by = e["by"]
            if by in pos and out[pos[by]] != "s":
                out[pos[by]] = "b"
                acted.add(by)
            if t == "block":
                shown_king.add(e["seat"])
        elif t == "draw":
            s = e["seat"]
            if s in pos:
                out[pos[s]] = "s"
    for s in shown_king:
        if s in pos and s not in acted:
            out[pos[s]] = "x"
    return out


def situation(view: View) -> Situation:
    rules = view["rules"]
    order = turn_order(view)
    seat = view["seat"]
    n = len(order)
    pos = order.index(seat) if seat in order else 0
    hand = view["hand"][0] if view["hand"] else ""
    cur = strength(hand, rules) if hand else 1
    dealt_card = hand
    gave: list[str] = []
    for e in view["private"]:
        if e.get("type") == "dealt" and e.get("cards"):
            dealt_card = e["cards"][0]
        elif e.get("type") == "exchange":
            gave.append(e["gave"])
    d = strength(dealt_card, rules) if dealt_card else cur
    let = letters(order, view["events"])
    hist = "".join(x or "k" for x in let[:pos])
    blk = blocker_strength(rules)
    # the seat we would ask: a King (or Queen that refused) face up there
    left = order[(pos + 1) % n]
    up = view["faceup"].get(str(left))
    left_blocks = bool(up) and is_blocker(up) and not rules.get("blocked_swap_skips")
    # a card lower than ours in a finished hand: the right neighbour swapped with us
    # (it holds our dealt card now and its turn is over)
    known_lower = False
    if pos > 0 and hist and hist[-1] == "s" and d < cur:
        known_lower = True
    shown = [strength(e["card"], rules) for e in view["events"]
             if e.get("type") == "show" and e.get("seat") != seat]
    return Situation(n, pos, order, d, cur, hist, view.get("decision") or "turn", rules,
                     blk, left_blocks, known_lower, shown, hand)


# ---------------------------------------------------------------- policy tables

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


@lru_cache(maxsize=200000)
def _hard_lookup(n_act: int, pos: int, dealt: int, current: int, hist: str, ace_high: bool,
                 blocker: int) -> float:
    n = table_n(n_act)
    # without a solved ace-high table, read the default one by strength
    ace_high = ace_high and (DATA / f"chase_policy_{n}_ace_high.json").is_file()
    rules = {"ace_high": ace_high}
    if n_act > n:   # keep the last positions' places, squeeze the early ones
        pos = max(0, n - (n_act - pos))
    hist = _norm_hist(hist, pos)
    d, c = rank_number(dealt, rules), rank_number(current, rules)
    if dealt == blocker:
        d = rank_number(blocker - 1, rules)
    if hist.endswith("s") or n > 5:
        pass
    else:
        d = c
    table = load_table(n, ace_high)
    if n <= 5:
        p = table.get(f"{pos},{d},{c},{hist}")
        if p is not None:
            return p
        return fallback_table(n, ace_high).get((pos, d, c, hist[-1:]),
                                               _threshold(current, pos == n - 1))
    last = {"b": "k"}.get(hist[-1:], hist[-1:] or "k")
    if last != "s":
        d = c
    if pos == 0:
        p = table.get(f"0,{d},{c},")
    else:   # (swaps so far, last letter); older tables: the last letter only
        p = table.get(f"{pos},{d},{c},*{min(hist.count('s'), 3)}{last}")
        if p is None:
            p = table.get(f"{pos},{d},{c},*{last}")
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


# ---------------------------------------------------------------- thresholds

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


def medium_p(sit: Situation) -> float:
    t = base_threshold(sit.n, sit.pos)
    last = sit.hist[-1:] if sit.hist else ""
    if sit.dealer:
        if last == "s":
            t += 1      # the card handed to us was low: the others are higher
        if sit.rules.get("dealer_wins_ties"):
            t -= 1
    elif last == "s":
        t += 0.0
    if sit.known_lower:
        return 0.0      # a lower card is out of reach of any further swap: we are safe
    if sit.shown_low and any(v < sit.current for v in sit.shown_low) and not sit.dealer:
        t -= 1          # a lower card is already in play
    return 1.0 if sit.current < t else 0.0


def easy_p(sit: Situation) -> float:
    """A casual player: medium's thresholds without memory, blurred on close calls."""
    t = base_threshold(sit.n, sit.pos)
    if sit.current <= 2:
        return 1.0
    if sit.current >= sit.blocker - 1:
        return 0.0
    z = (t - sit.current) / 1.5
    return 1.0 / (1.0 + math.exp(-z))


# ---------------------------------------------------------------- players

class ChaseLevel:
    """A level: ``core(sit)`` → p_swap, special decisions and safety rules shared."""

    name = "level"
    careful = True     # medium and up: keep everything sensible under every variant

    def core(self, sit: Situation) -> float:
        raise NotImplementedError

    def choose(self, view: View) -> str:
        if view.get("game") == "rams":
            from game.ai.rams_basic import choose_greedy

            return str(choose_greedy(view))
        legal = list(view["legal"])
        if len(legal) == 1:
            return legal[0]
        sit = situation(view)
        r = unit(view["seed"], view.get("step", 0), view.get("round", 0), 0x5EA7)
        move = self.decide(sit, view, r)
        return move if move in legal else legal[0]

    def decide(self, sit: Situation, view: View, r: float) -> str:
        if sit.decision == "queen":
            # keep the Queen: the asker wants to get rid of a low card
            return "refuse" if self.careful or r < 0.7 else "accept"
        if sit.decision == "domino":
            # the domino partner is two to the left; it may show a King
            partner = sit.order[(sit.pos + 2) % sit.n]
            up = view["faceup"].get(str(partner))
            blocked = bool(up) and is_blocker(up)
            return "keep" if blocked or sit.current > 6 else "swap"
        yes = "draw" if sit.dealer else "swap"
        return yes if r < self.p_yes(sit) else "keep"

    def p_yes(self, sit: Situation) -> float:
        """Probability of swapping (dealer: drawing) on a turn, safety rules included."""
        if sit.current == sit.blocker or (sit.hand_card and is_blocker(sit.hand_card)):
            return 0.0
        if sit.dealer:
            if sit.current == 1:
                return 1.0
        elif sit.left_blocks:
            return 0.0
        return self.core(sit)


class Easy(ChaseLevel):
    name = "easy"
    careful = False

    def core(self, sit: Situation) -> float:
        return easy_p(sit)


class Medium(ChaseLevel):
    name = "medium"

    def core(self, sit: Situation) -> float:
        return medium_p(sit)


class Hard(ChaseLevel):
    name = "hard"

    def core(self, sit: Situation) -> float:
        p = hard_p(sit)
        if sit.dealer and sit.rules.get("dealer_wins_ties") and 0 < p:
            lower = Situation(**{**sit.__dict__, "current": min(sit.current + 1, 12)})
            p = min(p, hard_p(lower))
        return p
