"""A problem with a file the game keeps, and how the player is told of it (once)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game import notices


@dataclass
class Problem:
    """Something wrong with a file the game keeps. ``what``: ``save`` or ``stats``;
    ``kind``: ``damaged`` (moved aside to ``moved_to``, or left in place if that is
    None), ``unreadable`` (left in place), ``newer`` (a database from a newer game,
    left untouched), ``locked`` (in use by another program), ``unusable`` (cannot be
    opened or written), ``failed`` (a write failed), ``held`` (an unreadable autosave
    is in the way), ``shelf`` (the unfinished game in the autosave's place could not
    be put on the shelf), ``in_use`` (another window keeps the autosave, see
    :mod:`game.store.owner`); ``detail`` the reason in one line."""

    what: str
    path: Path
    detail: str
    moved_to: Path | None = None
    kind: str = "damaged"

    @property
    def notice_key(self) -> str:
        kind = "moved" if self.kind == "damaged" and self.moved_to is not None else self.kind
        return f"store.{self.what}.{kind}"

    @property
    def blocks_writing(self) -> bool:
        """True when this problem means later saves or records will fail too."""
        return not (self.kind == "damaged" and self.moved_to is not None)

    def notify(self) -> bool:
        """Tell the player about a file found at start (or when a screen opens), once.
        A problem that keeps the game from writing there also speaks for the write
        failures that follow (see :meth:`GameSession.report`)."""
        name = self.moved_to.name if self.moved_to is not None else self.path.name
        return notices.post(self.notice_key, once=f"{self.what}-file:{self.path}",
                            covers=(self.what,) if self.blocks_writing else (),
                            file=name, reason=self.detail)

    def notify_game(self, game_id: str) -> bool:
        """Tell the player that this game (``game_id``) is not saved automatically, on
        its table when it starts (or at the first failure): once per game, even when a
        notice at start-up already named the cause; later failures of any game are
        then covered (see :meth:`notify_write_failure`)."""
        return notices.post(self.notice_key, once=f"{self.what}-game:{game_id}",
                            covers=(self.what,), file=self.path.name, reason=self.detail)

    def notify_write_failure(self) -> bool:
        """Tell the player a save or record failed: once per run for each ``what``
        (not on every move), and not at all if a notice already said why."""
        return notices.post(self.notice_key, once=self.what, file=self.path.name,
                            reason=self.detail)

