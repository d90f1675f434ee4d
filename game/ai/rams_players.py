"""Rams' computer players by name (the game registry's ``players``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.ai.common import RandomPlayer
from game.ai.rams_basic import GreedyPlayer
from game.ai.rams_levels import RamsEasy, RamsExpert, RamsHard, RamsMedium

PLAYERS: dict[str, Callable[[], Any]] = {
    "easy": RamsEasy,
    "medium": RamsMedium,
    "hard": RamsHard,
    "expert": RamsExpert,
    "random": RandomPlayer,
    "threshold": GreedyPlayer,
    "greedy": GreedyPlayer,
}
