"""User bots: a Python file with ``choose(view) -> str`` (BOTS.md).

A bot gets a plain-dict copy of the view and nothing else. A bot that raises, returns
a move that is not legal, or takes longer than its time limit forfeits that decision:
the first legal move is played instead and the incident is kept in ``incidents``.
"""

from __future__ import annotations

import importlib.util
import threading
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEFAULT_TIME_LIMIT = 5.0


class BotError(ValueError):
    """A bot file that cannot be loaded."""


def load_bot_module(path: str) -> Any:
    file = Path(path)
    if not file.is_file():
        raise BotError(f"bot file {path!r} not found")
    spec = importlib.util.spec_from_file_location(f"stammtisch_bot_{abs(hash(file))}", file)
    if spec is None or spec.loader is None:
        raise BotError(f"bot file {path!r} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the bot's own import failed
        raise BotError(f"bot file {path!r} failed to load: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(module, "choose", None)):
        raise BotError(f"bot file {path!r} has no function choose(view)")
    return module


class BotPlayer:
    """A user bot behind a time limit; forfeits are recorded, never raised."""

    def __init__(self, path: str, time_limit: float = DEFAULT_TIME_LIMIT) -> None:
        self.path = path
        self.name = f"bot:{path}"
        self.time_limit = time_limit
        self.module = load_bot_module(path)
        self.incidents: list[dict[str, Any]] = []
        self._busy = False   # a timed-out call still running in its thread

    def choose(self, view: Mapping[str, Any]) -> str:
        plain = dict(view)
        legal = list(plain["legal"])
        fallback = legal[0]
        if self._busy:
            return self._forfeit(plain, "timeout", "still busy with an earlier decision",
                                 fallback)
        result: dict[str, Any] = {}

        def call() -> None:
            try:
                result["move"] = self.module.choose(plain)
            except BaseException as exc:  # noqa: BLE001 - a bot may raise anything
                result["error"] = f"{type(exc).__name__}: {exc}"
                result["trace"] = traceback.format_exc(limit=3)
            finally:
                self._busy = False

        self._busy = True
        worker = threading.Thread(target=call, name="bot", daemon=True)
        worker.start()
        worker.join(self.time_limit)
        if worker.is_alive():
            return self._forfeit(plain, "timeout",
                                 f"no answer within {self.time_limit:g} s", fallback)
        if "error" in result:
            return self._forfeit(plain, "raised", result["error"], fallback)
        move = result.get("move")
        if move not in legal:
            return self._forfeit(plain, "illegal",
                                 f"returned {move!r}, legal were {legal}", fallback)
        return str(move)

    def _forfeit(self, view: dict[str, Any], kind: str, detail: str, fallback: str) -> str:
        self.incidents.append({"bot": self.path, "kind": kind, "detail": detail,
                               "seat": view.get("seat"), "round": view.get("round"),
                               "played": fallback})
        return fallback
