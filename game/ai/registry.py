"""Computer players by game and name: the levels, the simple built-ins, user bots.

Each game's entry in :mod:`game.games` names its players (``easy`` … ``expert``,
``random``, ``threshold``); this module turns a seat spec into a player for a game:
one of those names, ``threshold:S:D`` (Chase the Ace), ``bot:PATH`` (a user bot: a
Python file, docs/bots.md) or ``exe:COMMAND`` (a user bot in any language, speaking the
JSON-lines protocol of :mod:`game.ai.bots.protocol`). Both kinds of bot run in their
own process. An unknown name is an error, never a silent stand-in.
"""

from __future__ import annotations

from game import games
from game.ai.common import Player

#: The difficulty levels every game offers, weakest first.
LEVELS = ("easy", "medium", "hard", "expert")


def names(game_id: str) -> list[str]:
    """Player names ``game_id`` offers (besides ``bot:PATH``)."""
    return list(games.entry(game_id).players())


def make_player(game_id: str, spec: str, *, bot_threads: bool | None = None) -> Player:
    """A player of ``game_id`` from a seat spec; raises ``ValueError`` if unknown.
    ``bot_threads``: a user bot talks through reader/writer threads rather than
    non-blocking pipes (None: the platform's way, threads on Windows only)."""
    if spec.startswith(("bot:", "exe:")):
        from game.ai.bots import BotPlayer

        return BotPlayer(spec[4:], kind="python" if spec.startswith("bot:") else "exe",
                         threads=bot_threads)
    entry = games.entry(game_id)
    factories = entry.players()
    if spec in factories:
        player: Player = factories[spec]()
        player.name = spec
        return player
    found: Player | None = entry.player_from_spec(spec)
    if found is not None:
        return found
    raise ValueError(f"unknown player {spec!r} for {game_id}: use one of "
                     f"{', '.join(factories)}, bot:PATH or exe:COMMAND")
