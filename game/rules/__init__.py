"""The pure rules engines (no pygame): Chase the Ace and Rams.

``new_game`` builds either game by its id, so records, tournaments and the table
need not know which engine they drive.
"""

from __future__ import annotations

from typing import Any

from game.rules.base import Game, GameError

GAME_IDS = ("chase", "rams")


def engine_class(game_id: str) -> Any:
    """The engine class of ``game_id`` (imported on demand)."""
    if game_id == "chase":
        from game.rules.chase import ChaseGame

        return ChaseGame
    if game_id == "rams":
        from game.rules.rams import RamsGame

        return RamsGame
    raise GameError(f"unknown game {game_id!r} (expected one of {', '.join(GAME_IDS)})",
                    "bad_format")


def new_game(game_id: str, rules: dict[str, Any] | None, n_seats: int, *,
             seed: int | None = None, dealer: int | None = None,
             deals: list[list[str]] | None = None, bot_seed: int = 0) -> Game:
    """A new, not yet started game of ``game_id``."""
    cls = engine_class(game_id)
    game: Game = cls(rules, n_seats, seed=seed, dealer=dealer, deals=deals, bot_seed=bot_seed)
    return game
