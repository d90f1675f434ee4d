"""User bots (docs/bots.md): programs that play from the view, each in its own process.

:mod:`~game.ai.bots.protocol` (the JSON-lines messages), :mod:`~game.ai.bots.runner`
(the child that runs a Python bot file), :mod:`~game.ai.bots.channel` (a child process
with deadlines on its pipes) and :mod:`~game.ai.bots.harness` (:class:`BotPlayer`:
time limits, restarts, retirement, incidents).
"""

from game.ai.bots.harness import DEFAULT_TIME_LIMIT, BotPlayer

__all__ = ["DEFAULT_TIME_LIMIT", "BotPlayer"]
