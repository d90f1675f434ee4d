"""A phone seat as a move source: its moves arrive from the phone server's thread.

It has the surface of every move source of the table's turn flow (``kind``,
``name``, ``begin(decision)``, ``poll()``, ``cancel()``, ``drain_incidents()``).
The table's thread polls it; :class:`game.net.link.PhoneLink` puts the moves the
engine will accept (it checked them) with :meth:`PhoneSource.put`.

While the phone is away and the table chose to let a computer level stand in
(:meth:`PhoneSource.stand_in`), that level's source decides instead, until the phone
is back: a move from the phone always wins over the stand-in's.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

REMOTE = "remote"


class PhoneSource:
    """The move source of one phone seat. ``away()`` says whether the phone is away
    now (the link knows); ``stand_in`` is an optional move source (a level) that
    decides while it is."""

    kind = REMOTE
    name = "phone"

    def __init__(self, seat: int, away: Callable[[], bool] = lambda: False) -> None:
        self.seat = seat
        self.away = away
        self._lock = threading.Lock()
        self._decision: Any = None
        self._moves: queue.SimpleQueue[tuple[int, str]] = queue.SimpleQueue()
        self._stand_in: Any = None
        self._stand_in_step: int | None = None

    # ------------------------------------------------------------------ the flow's side

    def begin(self, decision: Any) -> None:
        with self._lock:
            self._decision = decision
        self._stand_in_step = None

    def current(self) -> Any:
        """The decision waiting for this seat, if the table has put it (any thread)."""
        with self._lock:
            return self._decision

    def put(self, step: int, move: str) -> None:
        """Answer the decision made after ``step`` moves (any thread)."""
        self._moves.put((step, move))

    def poll(self) -> str | None:
        d = self.current()
        if d is None:
            return None
        while True:
            try:
                step, move = self._moves.get_nowait()
            except queue.Empty:
                break
            if step == d.step and move in d.pending.legal:
                self._finish()
                return move
        helper = self._stand_in
        if helper is None or not self.away():
            return None
        if self._stand_in_step != d.step:
            self._stand_in_step = d.step
            helper.begin(d)
        move = helper.poll()
        if move is not None:
            self._finish()
        return move

    def _finish(self) -> None:
        with self._lock:
            self._decision = None
        if self._stand_in is not None and self._stand_in_step is not None:
            self._stand_in.cancel()
        self._stand_in_step = None

    def cancel(self) -> None:
        self._finish()

    def drain_incidents(self) -> list[dict[str, Any]]:
        return []

    # ------------------------------------------------------------------ stand-in

    def stand_in(self, source: Any) -> None:
        """Let ``source`` (a level's move source) decide while the phone is away;
        ``None`` ends it (the phone is back)."""
        if self._stand_in is not None and self._stand_in_step is not None:
            self._stand_in.cancel()
        self._stand_in = source
        self._stand_in_step = None

    @property
    def standing_in(self) -> bool:
        return self._stand_in is not None
