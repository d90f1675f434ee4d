"""The first game's tips for Chase the Ace (see :mod:`game.turn.tips`): your first
decision, a swap made with you, a King that blocks, the dealer's draw, the showdown
where the lowest card loses. No pygame."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from game.i18n import card_name, t
from game.turn.tips import Names, Tip

#: Every situation a tip explains, in the order a first game meets them.
TIP_IDS = ("chase.turn", "chase.swapped_you", "chase.block", "chase.dealer", "chase.showdown")


def _word(key: str) -> Callable[[], str]:
    """The text of ``key``, asked when the tip is drawn (in the language of then)."""
    return partial(t, key)


def _chase_cards(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The lowest and highest card, and the card that blocks, under ``rules``."""
    if rules.get("deck") == "cuckoo40":
        return {"low": _word("tip.card.fool"), "high": _word("tip.card.cuckoo"),
                "blocker": _word("tip.card.cuckoo")}
    if rules.get("ace_high"):
        return {"low": "2", "high": _word("tip.card.ace"), "blocker": _word("tip.card.king")}
    return {"low": _word("tip.card.ace"), "high": _word("tip.card.king"),
            "blocker": _word("tip.card.king")}


def _left_of(seat: int, active: list[int]) -> int | None:
    """The next seat clockwise (seat numbers grow clockwise) among ``active``."""
    later = [s for s in sorted(active) if s > seat]
    rest = [s for s in sorted(active) if s != seat]
    return later[0] if later else (rest[0] if rest else None)


def for_decision(view: Mapping[str, Any], names: Names) -> Tip | None:
    """The tip for a decision of the seat at the screen, from that seat's view."""
    kind = view.get("decision")
    rules = view.get("rules", {})
    facts = _chase_cards(rules)
    if kind == "turn" and view.get("hand"):
        left = _left_of(int(view["seat"]), list(view.get("active", [])))
        facts.update(card=partial(card_name, view["hand"][0]),
                     left=partial(names, left) if left is not None else "?")
        return Tip("chase.turn", "tip.chase.turn.title", ("tip.chase.turn",), facts)
    if kind == "dealer":
        return Tip("chase.dealer", "tip.chase.dealer.title", ("tip.chase.dealer",), facts)
    return None


def for_event(kind: str, data: Mapping[str, Any], rules: Mapping[str, Any],
              viewer: int | None, names: Names) -> Tip | None:
    """The tip for a public event; ``viewer`` is the seat at the screen, if any."""
    facts = _chase_cards(rules)
    if kind == "swap" and viewer is not None and data.get("with") == viewer:
        facts["name"] = partial(names, data["seat"])
        return Tip("chase.swapped_you", "tip.chase.swapped_you.title",
                   ("tip.chase.swapped_you",), facts)
    if kind == "block":
        facts.update(name=partial(names, data["seat"]), asker=partial(names, data["by"]))
        key = ("tip.chase.block_you" if data["seat"] == viewer else
               "tip.chase.block_asker_you" if data["by"] == viewer else "tip.chase.block")
        return Tip("chase.block", "tip.chase.block.title", (key,), facts)
    if kind == "draw" and data.get("seat") != viewer:
        facts["name"] = partial(names, data["seat"])
        return Tip("chase.dealer", "tip.chase.dealer_other.title", ("tip.chase.dealer_other",),
                   facts)
    if kind == "showdown":
        return Tip("chase.showdown", "tip.chase.showdown.title", ("tip.chase.showdown",),
                   facts)
    return None
