"""The difficulty levels ``easy``, ``medium``, ``hard``, ``expert`` (``FACTORIES``).

Chase the Ace levels live in :mod:`game.ai.chase_levels` and :mod:`game.ai.expert`;
for a Rams view every level delegates to ``game.ai.rams_basic.choose_greedy`` until
the Rams levels arrive.
"""

from __future__ import annotations

from collections.abc import Callable

from game.ai.chase_levels import ChaseLevel, Easy, Hard, Medium
from game.ai.expert import Expert

FACTORIES: dict[str, Callable[[], ChaseLevel]] = {
    "easy": Easy,
    "medium": Medium,
    "hard": Hard,
    "expert": Expert,
}
