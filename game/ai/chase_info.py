"""What a Chase the Ace view says, read once into the shapes the levels use.

Every level first reads the view (BOTS.md) into a :class:`Situation`: the policy's
information set (BOTS.md "Policies": active seats, position, dealt and current card,
history letters) plus what the view shows beyond it. Cards are compared by their
*strength*, the one scale of :class:`game.rules.chase_rules.CardScale` (1 … 13 under
the rules in force, ``ace_high`` and the Cuckoo deck included), so one set of tables
serves every deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from game.rules.chase_rules import card_scale, scale_for

View = Mapping[str, Any]
#: The cards that block a swap, in either deck (their codes never overlap).
BLOCKERS = card_scale("french52").blockers | card_scale("cuckoo40").blockers


def is_blocker(card: str) -> bool:
    return card in BLOCKERS


def histories(p: int) -> list[str]:
    """The histories of ``p`` letters (positions 0 … p-1) at which position ``p``
    decides, in the order of the tables: a ``b`` is always followed by ``x`` (the King
    holder's turn is over), and the last letter is never ``b`` (position p then
    showed the King and has no decision)."""
    out = []
    for letters in product("ksbx", repeat=p):
        h = "".join(letters)
        ok = all(not (ch == "x" and (i == 0 or h[i - 1] != "b")) and
                 not (ch == "b" and i + 1 < p and h[i + 1] != "x")
                 for i, ch in enumerate(h))
        if ok and not h.endswith("b"):
            out.append(h)
    return out


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


def _only_swap(events: list[Mapping[str, Any]], seat: int, right: int) -> bool:
    """``right`` swapped with ``seat``, the only swap ``seat`` took part in, and
    ``right`` made no swap after it."""
    swaps = [e for e in events if e.get("type") == "swap"]
    ours = [e for e in swaps if seat in (e.get("seat"), e.get("with"))]
    return (len(ours) == 1 and ours[0].get("seat") == right
            and [e for e in swaps if e.get("seat") == right][-1] is ours[0])


def situation(view: View) -> Situation:
    """The view as the levels see it."""
    rules = view["rules"]
    order = turn_order(view)
    seat = view["seat"]
    n = len(order)
    pos = order.index(seat) if seat in order else 0
    strength = scale_for(rules).strength
    hand = view["hand"][0] if view["hand"] else ""
    cur = strength[hand] if hand else 1
    dealt_card = hand
    for e in view["private"]:
        if e.get("type") == "dealt" and e.get("cards"):
            dealt_card = e["cards"][0]
    d = strength[dealt_card] if dealt_card else cur
    let = letters(order, view["events"])
    hist = "".join(x or "k" for x in let[:pos])
    blk = scale_for(rules).blocker_strength
    # the seat we would ask: a King face up there (passed on with blocked_swap_skips)
    left = order[(pos + 1) % n]
    up = view["faceup"].get(str(left))
    left_blocks = bool(up) and is_blocker(up) and not rules.get("blocked_swap_skips")
    # a card lower than ours in a finished hand: the right neighbour swapped with us,
    # the only swap we took part in, and made none after it (a domino swap would pass
    # our dealt card on): it holds our dealt card now and its turn is over
    known_lower = pos > 0 and d < cur and hist[-1] == "s" and _only_swap(
        view["events"], seat, order[pos - 1])
    shown = [strength[e["card"]] for e in view["events"]
             if e.get("type") == "show" and e.get("seat") != seat]
    return Situation(n, pos, order, d, cur, hist, view.get("decision") or "turn", rules,
                     blk, left_blocks, known_lower, shown, hand)
