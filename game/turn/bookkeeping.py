"""Autosave and statistics as subscribers of a table's news (:mod:`game.turn.hooks`).

A real game's table attaches a :class:`Bookkeeper`: the fresh (or resumed) game is
saved when it starts, every applied move rewrites the autosave, and game over records
the statistics and clears the autosave -- all through :class:`game.store.GameSession`,
which never raises. Demo tables and replays attach none. Nothing here touches the
engine or the table: they publish, this listens.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from game import fileio, records, shelf, store
from game.records import Record
from game.turn import hooks as H
from game.turn.hooks import Hooks, News


class Bookkeeper:
    """Keeps one game's autosave and statistics (``session``)."""

    def __init__(self, session: store.GameSession) -> None:
        self.session = session
        self._off: list[Any] = []

    @classmethod
    def for_game(cls, game: Any, seats: Sequence[dict[str, Any]], record: Record | None = None,
                 saved: dict[str, Any] | None = None, *, fsync: bool = True) -> Bookkeeper:
        """The bookkeeper of a new game, or (``record`` and ``saved``: the autosave's
        record and session data) of a resumed one. ``fsync=False``: autosaves are not
        synced to disk (tests)."""
        if record is not None and saved is not None:
            session = store.GameSession.resume(game, record, saved, fsync=fsync)
        else:
            session = store.GameSession(
                game, list(seats), seed=getattr(game, "seed", None),
                bot_seed=getattr(game, "bot_seed", 0),
                dealer=record.dealer if record is not None else None,
                deals=record.deals if record is not None else None, fsync=fsync)
        # an unfinished game in the autosave's place is kept (game.shelf), not overwritten
        try:
            shelf.shelve_autosave(keep=session.game_id, resumed=saved)
        except store.InUse as exc:        # another window keeps the saved games
            session.autosave_off(fileio.reason(exc), kind="in_use")
        except OSError as exc:            # rather no autosave than one written over
            session.autosave_off(fileio.reason(exc))
        return cls(session)

    def attach(self, hooks: Hooks) -> Bookkeeper:
        self._off += [hooks.subscribe(H.GAME_STARTED, self._moved),
                      hooks.subscribe(H.MOVE_APPLIED, self._moved),
                      hooks.subscribe(H.GAME_OVER, self._over)]
        return self

    def detach(self) -> None:
        for off in self._off:
            off()
        self._off = []

    def _moved(self, news: News) -> None:
        self.session.moved()       # at game over: statistics, autosave cleared

    def _over(self, news: News) -> None:
        self.session.finish()      # idempotent


def table_record(game: Any, seats: Sequence[dict[str, Any]],
                 session: store.GameSession | None = None) -> Record:
    """The record of the game on a table (its session's, when it keeps one)."""
    if session is not None:
        return session.record()
    return records.record_of(game, store.seats_to_record(seats),
                             seed=getattr(game, "seed", None),
                             bot_seed=getattr(game, "bot_seed", 0))


def export(game: Any, seats: Sequence[dict[str, Any]],
           session: store.GameSession | None = None) -> Path:
    """Write ``game`` as a record file to ``saves_dir()/exports``; raises ``OSError``
    or ``ValueError`` when it cannot."""
    if session is not None:
        return session.export()
    return store.export_record(table_record(game, seats))
