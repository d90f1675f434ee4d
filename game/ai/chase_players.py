"""Chase the Ace's computer players by name (the game registry's ``players``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.ai.chase_expert import Expert
from game.ai.chase_levels import Easy, Hard, Medium, ThresholdPlayer
from game.ai.common import RandomPlayer

PLAYERS: dict[str, Callable[[], Any]] = {
    "easy": Easy,
    "medium": Medium,
    "hard": Hard,
    "expert": Expert,
    "random": RandomPlayer,
    "threshold": ThresholdPlayer,
    "greedy": ThresholdPlayer,
}
