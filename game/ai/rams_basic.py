"""Two simple Rams players, functions of the BOTS.md view only.

``choose_random(view, rng)``  a uniformly random legal move.
``choose_greedy(view)``       plays a hand holding a trump or an Ace, else drops; in a
                              trick takes the lead as cheaply as it can, else throws
                              its lowest legal card; as dealer swaps its weakest card
                              for the turned trump when that trump is stronger.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

#: Rank order low→high; the Skat deck's 7 … A keep the same relative order.
ORDER = "23456789TJQKA"


def choose_random(view: Mapping[str, Any], rng: random.Random | int) -> str:
    """A uniformly random legal move. ``rng`` is a :class:`random.Random` or an integer
    (a ready-made random number: the move is ``legal[rng % len(legal)]``)."""
    legal = sorted(view["legal"])
    if isinstance(rng, int):
        return legal[rng % len(legal)]
    return legal[rng.randrange(len(legal))]


def strength(card: str, trump: str) -> tuple[int, int]:
    """Sort key: every trump above every other card, then by rank."""
    return (card[1] == trump, ORDER.index(card[0]))


def beats(card: str, best: str, trump: str) -> bool:
    """Whether ``card`` takes the lead of a trick from ``best``."""
    if card[1] == best[1]:
        return ORDER.index(card[0]) > ORDER.index(best[0])
    return card[1] == trump


def trick_leader(trick: Sequence[Mapping[str, Any]], trump: str) -> str:
    """The card heading the trick so far."""
    best = trick[0]["card"]
    for play in trick[1:]:
        if beats(play["card"], best, trump):
            best = play["card"]
    return str(best)


def choose_greedy(view: Mapping[str, Any]) -> str:
    legal = list(view["legal"])
    trump = view["trump"]
    decision = view.get("decision")
    if decision == "declare" or "play" in legal:
        if "drop" not in legal:
            return "play"
        hand = view["hand"]
        good = any(c[1] == trump or c[0] == "A" for c in hand)
        return "play" if good else "drop"
    if decision == "take" or "pass_trump" in legal:
        hand = view["hand"]
        weakest = min(hand, key=lambda c: strength(c, trump))
        if strength(view["trump_card"], trump) > strength(weakest, trump):
            move = "take:" + weakest
            if move in legal:
                return move
        return "pass_trump"
    trick = view["trick"]
    if not trick:  # leading: nothing to beat yet, lead the strongest card
        return max(legal, key=lambda c: strength(c, trump))
    best = trick_leader(trick, trump)
    winners = [c for c in legal if beats(c, best, trump)]
    if winners:
        return min(winners, key=lambda c: strength(c, trump))
    return min(legal, key=lambda c: strength(c, trump))
