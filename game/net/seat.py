"""A phone seat as a move source: its moves arrive from the phone server's thread.

It is the table's :class:`~game.turn.sources.ChannelSource` (a move source whose
moves arrive from another thread) with one addition. The table's thread polls it; :class:`game.net.link.PhoneLink` puts the moves the
engine will accept (it checked them) with :meth:`PhoneSource.put`.

While the phone is away and the table chose to let a computer level stand in
(:meth:`PhoneSource.stand_in`), that level's source decides instead, until the phone
is back: a move from the phone always wins over the stand-in's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.turn.sources import ChannelSource, Decision, MoveSource


class PhoneSource(ChannelSource):
    """The move source of one phone seat. ``away()`` says whether the phone is away
    now (the link knows); a stand-in (a level's move source) decides while it is."""

    name = "phone"

    def __init__(self, seat: int, away: Callable[[], bool] = lambda: False) -> None:
        super().__init__("phone")
        self.seat = seat
        self.away = away
        self._stand_in: MoveSource | None = None
        self._stand_in_step: int | None = None

    @property
    def paced(self) -> bool:
        """A person's move needs no thinking pause; a stand-in's gets one."""
        return self._stand_in is not None and self.away()

    def begin(self, decision: Decision) -> None:
        super().begin(decision)
        self._stand_in_step = None

    def poll(self) -> str | None:
        d = self.current()
        move = super().poll()
        if move is not None or d is None:
            if move is not None:
                self._drop_stand_in_decision()
            return move
        helper = self._stand_in
        if helper is None or not self.away():
            return None
        if self._stand_in_step != d.step:
            self._stand_in_step = d.step
            helper.begin(d)
        move = helper.poll()
        if move is not None:
            super().cancel()
            self._stand_in_step = None
        return move

    def _drop_stand_in_decision(self) -> None:
        if self._stand_in is not None and self._stand_in_step is not None:
            self._stand_in.cancel()
        self._stand_in_step = None

    def cancel(self) -> None:
        super().cancel()
        self._drop_stand_in_decision()

    def stand_in(self, source: MoveSource | None) -> None:
        """Let ``source`` (a level's move source) decide while the phone is away;
        ``None`` ends it (the phone is back)."""
        self._drop_stand_in_decision()
        self._stand_in = source

    @property
    def standing_in(self) -> bool:
        return self._stand_in is not None

    def drain_incidents(self) -> list[dict[str, Any]]:
        return []
