"""The words of the Chase the Ace table: its move buttons' order and labels, and the
prompt for the person deciding. No pygame."""

from __future__ import annotations

from collections.abc import Sequence

from game.i18n import card_name, t
from game.rules.base import Pending
from game.turn.texts import SeatNames

#: The order of a decision's buttons (moves not listed follow in the engine's order).
MOVE_ORDER = {"turn": ("keep", "swap"), "dealer": ("keep", "draw"),
              "queen": ("accept", "refuse"), "domino": ("keep", "swap")}


def ordered_moves(p: Pending) -> list[str]:
    order = MOVE_ORDER.get(p.decision, tuple(p.legal))
    return [m for m in order if m in p.legal] + [m for m in p.legal if m not in order]


def move_label(p: Pending | None, move: str) -> str:
    return t(f"move.{p.decision}.{move}") if p is not None else move


def prompt(p: Pending, names: SeatNames, active: Sequence[int]) -> str:
    """What the person deciding is asked, naming the other seat of the decision."""
    other = ""
    if p.decision == "turn":
        order = list(active)
        if p.seat in order:
            other = names.name(order[(order.index(p.seat) + 1) % len(order)])
    elif p.decision in ("queen", "domino") and p.partner is not None:
        other = names.name(p.partner)
    key = names.log_key(f"prompt.{p.decision}", p.seat)   # "You deal: …", not "You, you deal"
    return t(key, name=names.name(p.seat), other=other)


def card_story(view: dict, names: SeatNames) -> list[str]:
    """What the person deciding knows about their card beyond the one they hold, from
    their own view (``private``: what they were dealt and every swap they took part
    in, matched in order with the public swaps): empty when their card is still the
    one they were dealt."""
    me = view["seat"]
    private = view.get("private", [])
    exchanges = [e for e in private if e.get("type") == "exchange"]
    if not exchanges:
        return []
    swaps = [e for e in view.get("events", []) if e.get("type") == "swap"
             and me in (e.get("seat"), e.get("with"))]
    lines = []
    dealt = next((e["cards"][0] for e in private if e.get("type") == "dealt"), None)
    if dealt is not None:
        lines.append(t("story.dealt", card=card_name(dealt)))
    for i, ex in enumerate(exchanges):
        asked = i < len(swaps) and swaps[i].get("seat") == me
        key = "story.you_swapped" if asked else "story.swapped_you"
        lines.append(t(key, other=names.name(ex["with"]), gave=card_name(ex["gave"]),
                       got=card_name(ex["got"])))
    return lines
