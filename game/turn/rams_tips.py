"""The first game's tips for Rams (see :mod:`game.turn.tips`): the trump, playing or
dropping out, the drop limit, leading and following suit, the lone player, the trick
taken, a void round and the reckoning. No pygame."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.turn.rams_texts import suit_name
from game.turn.tips import Names, Tip

#: Every situation a tip explains, in the order a first game meets them.
TIP_IDS = ("rams.trump", "rams.declare", "rams.drop_limit", "rams.lead", "rams.follow",
           "rams.lone", "rams.trick", "rams.void_round", "rams.reckoning")
#: the engine's event for a round with a lone player (it shares its name with the game)
LONE = "rams"


def for_decision(view: Mapping[str, Any], names: Names) -> Tip | None:
    """The tip for a decision of the seat at the screen, from that seat's view."""
    kind = view.get("decision")
    if kind == "declare":
        limit = view.get("drop_limit")
        if list(view.get("legal", [])) == ["play"] and limit is not None:
            return Tip("rams.drop_limit", "tip.rams.drop_limit.title",
                       ("tip.rams.drop_limit." + ("one" if limit == 1 else "other"),),
                       {"n": limit})
        extra = () if limit is None else \
            ("tip.rams.limit_one",) if limit == 1 else ("tip.rams.limit_n",)
        return Tip("rams.declare", "tip.rams.declare.title", ("tip.rams.declare", *extra),
                   {"n": limit})
    if kind == "trick":
        trick = list(view.get("trick", []))
        if not trick:
            return Tip("rams.lead", "tip.rams.lead.title", ("tip.rams.lead",))
        led = str(trick[0]["card"])[-1]
        holds = any(str(c)[-1] == led for c in view.get("hand", []))
        key = "tip.rams.follow" if holds else "tip.rams.void"
        return Tip("rams.follow", key + ".title", (key,), {"suit": suit_name(led)})
    return None


def for_event(kind: str, data: Mapping[str, Any], rules: Mapping[str, Any],
              viewer: int | None, names: Names) -> Tip | None:
    """The tip for a public event; ``viewer`` is the seat at the screen, if any."""
    if kind == "trump":
        return Tip("rams.trump", "tip.rams.trump.title", ("tip.rams.trump",),
                   {"suit": suit_name(data["suit"]), "n": rules.get("hand_size", 5)})
    if kind == LONE and not rules.get("lone_needs_one"):
        you = data["seat"] == viewer
        return Tip("rams.lone", "tip.rams.lone.title",
                   ("tip.rams.lone_you" if you else "tip.rams.lone",),
                   {"name": names(data["seat"])})
    if kind == "trick":
        you = data["winner"] == viewer
        return Tip("rams.trick", "tip.rams.trick.title",
                   ("tip.rams.trick_you" if you else "tip.rams.trick", "tip.rams.trick_again"),
                   {"name": names(data["winner"])})
    if kind == "void_round":
        return Tip("rams.void_round", "tip.rams.void_round.title", ("tip.rams.void_round",))
    if kind == "lose_life":
        return Tip("rams.reckoning", "tip.rams.reckoning.title", ("tip.rams.reckoning",))
    return None
