"""What a Chase the Ace view says, read once into the shapes the levels use.

Every level first reads the view (docs/view.md) into a :class:`Situation`: the policy's
information set (docs/view.md#policies-chase-the-ace: active seats, position, dealt and
current card, history letters) plus what the view shows beyond it. Cards are compared on a 13-step
scale: the card values of the rules in force (``ace_high`` included,
:mod:`game.rules.chase_rules`), the Cuckoo deck's 20 values squeezed onto 1 … 13 with
the Cuckoo (the blocker) on 13, so one set of tables serves both decks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.rules.chase_rules import card_scale, scale_for

View = Mapping[str, Any]
#: The cards that block a swap, in either deck (their codes never overlap).
BLOCKERS = card_scale("french52").blockers | card_scale("cuckoo40").blockers
#: The top of the 13-step scale.
SCALE_TOP = 13


def strength(card: str, rules: Mapping[str, Any]) -> int:
    """The card on the 13-step scale (1 lowest; the King 13, or 12 with ``ace_high``
    where the Ace is 13; the Cuckoo deck squeezed, the Cuckoo on 13)."""
    scale = scale_for(rules)
    v = scale.value[card]
    top = scale.top
    if top == SCALE_TOP:
        return v
    return SCALE_TOP if v == top else 1 + round((v - 1) * (SCALE_TOP - 2) / (top - 2))


def blocker_strength(rules: Mapping[str, Any]) -> int:
    """Where the blocking card sits on the 13-step scale under ``rules``."""
    scale = scale_for(rules)
    return strength(next(iter(scale.blockers)), rules)


def is_blocker(card: str) -> bool:
    return card in BLOCKERS


def rank_number(s: int, rules: Mapping[str, Any]) -> int:
    """docs/view.md#policies-chase-the-ace numbering (1 Ace … 13 King) of a strength."""
    if rules.get("ace_high") and rules.get("deck") != "cuckoo40":
        return 1 if s == SCALE_TOP else s + 1
    return s


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
    """Active seats in turn order: left of the dealer first, the dealer last."""
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
    """The view as the levels see it."""
    rules = view["rules"]
    order = turn_order(view)
    seat = view["seat"]
    n = len(order)
    pos = order.index(seat) if seat in order else 0
    hand = view["hand"][0] if view["hand"] else ""
    cur = strength(hand, rules) if hand else 1
    dealt_card = hand
    for e in view["private"]:
        if e.get("type") == "dealt" and e.get("cards"):
            dealt_card = e["cards"][0]
    d = strength(dealt_card, rules) if dealt_card else cur
    let = letters(order, view["events"])
    hist = "".join(x or "k" for x in let[:pos])
    blk = blocker_strength(rules)
    # the seat we would ask: a King face up there (passed on with blocked_swap_skips)
    left = order[(pos + 1) % n]
    up = view["faceup"].get(str(left))
    left_blocks = bool(up) and is_blocker(up) and not rules.get("blocked_swap_skips")
    # a card lower than ours in a finished hand: the right neighbour swapped with us
    # (it holds our dealt card now and its turn is over)
    known_lower = pos > 0 and bool(hist) and hist[-1] == "s" and d < cur
    shown = [strength(e["card"], rules) for e in view["events"]
             if e.get("type") == "show" and e.get("seat") != seat]
    return Situation(n, pos, order, d, cur, hist, view.get("decision") or "turn", rules,
                     blk, left_blocks, known_lower, shown, hand)
