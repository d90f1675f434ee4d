"""The moments a table publishes, and who hears them.

A table publishes *news* at fixed moments; anything that wants to follow a game
subscribes instead of wrapping the engine or the table:

``game_started``
    the engine started (``data["resumed"]``: a saved game was caught up to where it
    stopped; ``events``: every event so far).
``move_applied``
    the engine accepted ``move`` by ``seat``; ``events`` are the ones it produced.
``round_over``
    a round was settled (``data["round"]``: its index in the engine's ``rounds``).
``game_over``
    the game is finished (the engine's ``winner`` is final).
``incident``
    a user bot forfeited a decision (docs/bots.md); ``data`` is the incident.
``failed``
    a built-in computer player failed: a bug; ``data["error"]`` is the exception.
``cue``
    a sound cue (``data["name"]``), published when the animation reaches it, not when
    the engine produced the event.

The first six are published by :class:`game.turn.flow.TurnFlow` as the engine moves
(so an autosave is never behind the engine); ``cue`` by the table's animators.
Subscribers run in the order they subscribed, in the thread that publishes (the
window's). One that raises is logged and the rest still hear the news: bookkeeping or
sound never stops a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game import notices

GAME_STARTED = "game_started"
MOVE_APPLIED = "move_applied"
ROUND_OVER = "round_over"
GAME_OVER = "game_over"
INCIDENT = "incident"
FAILED = "failed"
CUE = "cue"

KINDS = (GAME_STARTED, MOVE_APPLIED, ROUND_OVER, GAME_OVER, INCIDENT, FAILED, CUE)


@dataclass(frozen=True)
class News:
    """One published moment. ``game`` is the engine (read it, never change it)."""

    kind: str
    game: Any = None
    seat: int | None = None
    move: str | None = None
    events: tuple[Any, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)


Subscriber = Callable[[News], None]


class Hooks:
    """Subscribers by kind of news."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Subscriber]] = {k: [] for k in KINDS}

    def subscribe(self, kind: str, fn: Subscriber) -> Callable[[], None]:
        """Hear every ``kind`` news from now on; returns the call that stops it."""
        if kind not in self._subs:
            raise ValueError(f"unknown kind of news {kind!r} (one of {', '.join(KINDS)})")
        self._subs[kind].append(fn)

        def unsubscribe() -> None:
            if fn in self._subs[kind]:
                self._subs[kind].remove(fn)

        return unsubscribe

    def publish(self, news: News) -> None:
        for fn in list(self._subs[news.kind]):
            try:
                fn(news)
            except Exception as exc:  # noqa: BLE001 - a boundary: one listener never stops the others
                notices.unexpected("table", exc, f"a {news.kind} subscriber")

    def subscribers(self, kind: str) -> int:
        return len(self._subs[kind])
