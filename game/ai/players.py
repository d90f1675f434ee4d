"""The registry of computer players and the two simple built-ins.

A player is any object with ``name`` and ``choose(view) -> move``. ``make_player``
turns a level name (``random``, ``threshold``, ``easy`` …) or ``bot:PATH`` into one.
Levels that are not built yet fall back to ``threshold`` so the table always has
opponents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from game.cards import CUCKOO_VALUES

View = Mapping[str, Any]


class Player(Protocol):
    name: str

    def choose(self, view: View) -> str: ...


def mix(*parts: int) -> int:
    """A cheap, well-spread 64-bit hash of integers (splitmix64 steps).

    Players draw their random numbers from the view's ``seed`` and the game's
    ``step``, so a decision is a pure function of the view.
    """
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x


def unit(*parts: int) -> float:
    """A number in [0, 1) from ``mix``."""
    return (mix(*parts) >> 11) / float(1 << 53)


class RandomPlayer:
    """A uniformly random legal move."""

    name = "random"

    def choose(self, view: View) -> str:
        legal = view["legal"]   # sorted, in both games
        x = (view["seed"] ^ view["step"] * 0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9
        x &= 0xFFFFFFFFFFFFFFFF
        return legal[(x ^ (x >> 31)) % len(legal)]


def chase_strength(card: str, rules: Mapping[str, Any]) -> int:
    """A card's value 1 (lowest) … 13 (French) or … 20 (Cuckoo) under ``rules``."""
    if card in CUCKOO_VALUES:
        return CUCKOO_VALUES.index(card) + 1
    order = "23456789TJQKA" if rules.get("ace_high") else "A23456789TJQK"
    return order.index(card[0]) + 1


def chase_blocker(card: str) -> bool:
    return card == "Cuckoo" or (len(card) == 2 and card[0] == "K")


class ThresholdPlayer:
    """Chase: swap with 6 or lower, the dealer draws with 7 or lower, never ask a
    neighbour who showed a King; accept every exchange, keep after a domino card.
    Rams: the greedy player."""

    name = "threshold"

    def __init__(self, swap_at: int = 6, draw_at: int = 7) -> None:
        self.swap_at = swap_at
        self.draw_at = draw_at

    def choose(self, view: View) -> str:
        legal = view["legal"]
        if view["game"] == "rams":
            from game.ai.rams_basic import choose_greedy

            return str(choose_greedy(view))
        decision = view.get("decision")
        if decision == "queen":
            return "accept"
        if decision == "domino":
            return "keep"
        strength = chase_strength(view["hand"][0], view["rules"])
        if view["rules"].get("deck") == "cuckoo40":
            strength = round(strength * 13 / 20)
        if "draw" in legal:
            return "draw" if strength <= self.draw_at else "keep"
        if strength <= self.swap_at and not self._left_showed_king(view):
            return "swap"
        return "keep"

    @staticmethod
    def _left_showed_king(view: View) -> bool:
        seat = view["seat"]
        active = view["active"]
        i = active.index(seat)
        left = active[(i + 1) % len(active)]
        card = view["faceup"].get(str(left))
        return card is not None and chase_blocker(card)


BUILTIN: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "threshold": ThresholdPlayer,
    "greedy": ThresholdPlayer,
}

LEVELS = ("easy", "medium", "hard", "expert")


def level_factory(name: str) -> Callable[[], Player] | None:
    """The factory of a difficulty level, if that level is built (else ``None``)."""
    try:
        from game.ai import levels
    except ImportError:
        return None
    factory: Callable[[], Player] | None = getattr(levels, "FACTORIES", {}).get(name)
    return factory


def make_player(spec: str) -> Player:
    """A player from a name: a built-in, a level, or ``bot:PATH`` (a user bot)."""
    if spec.startswith("bot:"):
        from game.ai.bots import BotPlayer

        return BotPlayer(spec[4:])
    if spec in BUILTIN:
        return BUILTIN[spec]()
    if spec.startswith("threshold:"):
        # threshold:SWAP_AT[:DRAW_AT] — a fixed style, e.g. threshold:4:4 keeps with 5
        # or more, threshold:9:9 swaps with 9 or less
        try:
            parts = [int(x) for x in spec.split(":")[1:]]
        except ValueError:
            parts = []
        if 1 <= len(parts) <= 2:
            player = ThresholdPlayer(parts[0], parts[-1])
            player.name = spec
            return player
    if spec in LEVELS:
        factory = level_factory(spec)
        player = factory() if factory is not None else ThresholdPlayer()
        player.name = spec
        return player
    raise ValueError(f"unknown player {spec!r}: use one of "
                     f"{', '.join(list(BUILTIN) + list(LEVELS))}, threshold:S:D or bot:PATH")
