"""The simple Rams player: ``greedy`` (also the ``threshold`` built-in for Rams).

Plays a hand holding a trump or an Ace, else drops; in a trick takes the lead as
cheaply as it can, else throws its lowest legal card; as dealer swaps its weakest card
for the turned trump when that trump is stronger. Which card heads a trick is the
rules' own :func:`~game.rules.rams_rules.beats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.rules.rams_rules import beats, rank_table, trick_winner


def choose_greedy(view: Mapping[str, Any]) -> str:
    legal = list(view["legal"])
    trump = view["trump"]
    rank = rank_table(view.get("deck") or "skat32")

    def strength(card: str) -> tuple[bool, int]:
        return card[1] == trump, rank[card]

    decision = view.get("decision")
    if decision == "declare" or "play" in legal:
        if "drop" not in legal:
            return "play"
        hand = view["hand"]
        good = any(c[1] == trump or c[0] == "A" for c in hand)
        return "play" if good else "drop"
    if decision == "take" or "pass_trump" in legal:
        hand = view["hand"]
        weakest = min(hand, key=strength)
        if strength(view["trump_card"]) > strength(weakest):
            move = "take:" + weakest
            if move in legal:
                return move
        return "pass_trump"
    trick = [p["card"] for p in view["trick"]]
    if not trick:  # leading: nothing to beat yet, lead the strongest card
        return max(legal, key=strength)
    best = trick[trick_winner(trick, trump, rank)]
    winners = [c for c in legal if beats(c, best, trump, rank)]
    if winners:
        return min(winners, key=strength)
    return min(legal, key=strength)


class GreedyPlayer:
    """:func:`choose_greedy` as a player."""

    name = "greedy"

    def choose(self, view: Mapping[str, Any]) -> str:
        return choose_greedy(view)
