"""The first game's tips for Rams (see :mod:`game.turn.tips`): the trump, playing or
dropping out, why a seat must play (the drop limit, the dealer, two left), leading and
following suit, the lone player, General Rams, the trick taken, a void round and the
reckoning. Each tip speaks of the scoring in force: lives, or counters (record format
3's default). No pygame."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from game.i18n import scored_key
from game.rules.rams_rules import counters_of
from game.turn.rams_texts import forced_why, suit_name
from game.turn.tips import Names, Tip

#: Every situation a tip explains, in the order a first game meets them.
TIP_IDS = ("rams.trump", "rams.declare", "rams.drop_limit", "rams.must_play", "rams.lead",
           "rams.follow", "rams.lone", "rams.general", "rams.trick", "rams.void_round",
           "rams.reckoning")
#: the engine's event for a round with a lone player (it shares its name with the game)
LONE = "rams"


def _scored(key: str, rules: Mapping[str, Any]) -> str:
    return scored_key(key, counters_of(rules))


def for_decision(view: Mapping[str, Any], names: Names) -> Tip | None:
    """The tip for a decision of the seat at the screen, from that seat's view."""
    kind = view.get("decision")
    rules = view.get("rules") or {}
    if kind == "declare":
        limit = view.get("drop_limit")
        legal = list(view.get("legal", []))
        if "drop" not in legal:
            seat = int(view.get("seat", 0))
            drops = int((view.get("drops") or [0] * (seat + 1))[seat])
            why = forced_why(dict(view), seat, drops)
            if why in ("dealer_must_play", "two_must_play"):
                return Tip("rams.must_play", "tip.rams.drop_limit.title",
                           ("tip.rams.must_play." + why.split("_")[0],))
            if limit is not None:
                return Tip("rams.drop_limit", "tip.rams.drop_limit.title",
                           ("tip.rams.drop_limit." + ("one" if limit == 1 else "other"),),
                           {"n": limit})
        extra: tuple[str, ...] = () if limit is None else \
            ("tip.rams.limit_one",) if limit == 1 else ("tip.rams.limit_n",)
        if "general" in legal:
            extra += (_scored("tip.rams.declare_general", rules),)
        return Tip("rams.declare", "tip.rams.declare.title",
                   (_scored("tip.rams.declare", rules), *extra),
                   {"n": limit, "all": view.get("hand_size", 5)})
    if kind == "trick":
        trick = list(view.get("trick", []))
        if not trick:
            return Tip("rams.lead", "tip.rams.lead.title", ("tip.rams.lead",))
        led = str(trick[0]["card"])[-1]
        holds = any(str(c)[-1] == led for c in view.get("hand", []))
        key = "tip.rams.follow" if holds else "tip.rams.void"
        return Tip("rams.follow", key + ".title", (key,), {"suit": partial(suit_name, led)})
    return None


def for_event(kind: str, data: Mapping[str, Any], rules: Mapping[str, Any],
              viewer: int | None, names: Names) -> Tip | None:
    """The tip for a public event; ``viewer`` is the seat at the screen, if any."""
    if kind == "trump":
        return Tip("rams.trump", "tip.rams.trump.title", (_scored("tip.rams.trump", rules),),
                   {"suit": partial(suit_name, data["suit"]), "n": rules.get("hand_size", 5)})
    if kind == LONE and (counters_of(rules) or not rules.get("lone_needs_one")):
        you = data["seat"] == viewer
        key = "tip.rams.lone_you" if you else "tip.rams.lone"
        return Tip("rams.lone", "tip.rams.lone.title", (_scored(key, rules),),
                   {"name": partial(names, data["seat"])})
    if kind == "general_rams":
        you = data["seat"] == viewer
        key = "tip.rams.general_you" if you else "tip.rams.general"
        return Tip("rams.general", "tip.rams.general.title", (_scored(key, rules),),
                   {"name": partial(names, data["seat"]), "n": rules.get("hand_size", 5)})
    if kind == "trick":
        you = data["winner"] == viewer
        return Tip("rams.trick", "tip.rams.trick.title",
                   ("tip.rams.trick_you" if you else "tip.rams.trick", "tip.rams.trick_again"),
                   {"name": partial(names, data["winner"])})
    if kind == "void_round":
        return Tip("rams.void_round", "tip.rams.void_round.title",
                   (_scored("tip.rams.void_round", rules),))
    if kind in ("lose_life", "score"):
        return Tip("rams.reckoning", "tip.rams.reckoning.title",
                   (_scored("tip.rams.reckoning", rules),))
    return None
