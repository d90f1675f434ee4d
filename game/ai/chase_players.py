"""Chase the Ace's computer players by name (the game registry's ``players``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.ai.chase_expert import Expert
from game.ai.chase_levels import Easy, Hard, Medium, ThresholdPlayer
from game.ai.chase_tables import preload
from game.ai.common import RandomPlayer


def _with_tables(cls: Callable[[], Any]) -> Callable[[], Any]:
    """A level that reads the solved tables: all of them are read when the level is
    made, never during a game (:func:`game.ai.chase_tables.preload`)."""

    def make() -> Any:
        preload()
        return cls()

    make.__name__ = make.__qualname__ = getattr(cls, "__name__", "level")
    make.__doc__ = cls.__doc__
    return make


PLAYERS: dict[str, Callable[[], Any]] = {
    "easy": _with_tables(Easy),
    "medium": _with_tables(Medium),
    "hard": _with_tables(Hard),
    "expert": _with_tables(Expert),
    "random": RandomPlayer,
    "threshold": ThresholdPlayer,
    "greedy": ThresholdPlayer,
}
