"""The bookkeeping of one game at a table (:class:`GameSession`), and the checks of
the kept files at start-up."""

from __future__ import annotations

import hashlib
import sqlite3
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game import notices, paths, records
from game.fileio import explain, reason
from game.jsonio import is_number
from game.records import Record
from game.store.database import (
    STATS_NAME,
    StatsError,
    check_stats,
    record_game,
    stats_error_kind,
    stats_reason,
)
from game.store.files import (
    AUTOSAVE_NAME,
    Saved,
    SaveHeld,
    clear_autosave,
    export_record,
    read_autosave,
    write_autosave,
)
from game.store.owner import LOCK_NAME, claim
from game.store.problem import Problem
from game.store.seats import phone_seats, seats_to_record, table_seats


def _seconds(value: object) -> float | None:
    """A time in seconds from a saved session, if it is a sensible one."""
    if is_number(value) and 0 <= value < 1e11:
        return float(value)
    return None


class GameSession:
    """The bookkeeping of one game at a table: autosave, statistics, export.

    A table creates one with :meth:`new` (or :meth:`resume`) and calls :meth:`moved`
    after every applied move; the rest happens here. It never raises: a full disk or a
    locked database costs the autosave or the statistics, not the game. Each failure
    is kept in ``problems`` (``error`` is the last one, in words) and reported through
    ``on_problem`` -- by default :meth:`Problem.notify_write_failure`, which the window
    shows once.
    """

    def __init__(self, game: Any, seats: list[dict[str, Any]], *, seed: int | None,
                 bot_seed: int = 0, dealer: int | None = None,
                 deals: list[list[str]] | None = None, game_id: str | None = None,
                 elapsed: float = 0.0, started: float | None = None,
                 autosave: bool = True, stats: bool = True, fsync: bool = True) -> None:
        self.game = game
        self.seats = seats_to_record(seats)
        self.phones = phone_seats(seats)
        self.seed, self.bot_seed, self.dealer = seed, bot_seed, dealer
        self.deals = [list(d) for d in deals or []]
        self.game_id = game_id or uuid.uuid4().hex
        self.started = started if started is not None else time.time()
        self.elapsed = float(elapsed)
        self._since = time.monotonic()
        self.autosave = autosave
        self.stats = stats
        self.fsync = fsync           # False only where a power cut loses nothing (tests)
        self.recorded = False
        self.error: str | None = None
        self.problems: list[Problem] = []
        self.on_problem: Callable[[Problem], object] = Problem.notify_write_failure
        self._told_save = False      # the table said this game is not autosaved

    @classmethod
    def resume(cls, game: Any, record: Record, session: dict[str, Any],
               **kw: Any) -> GameSession:
        gid = session.get("game_id")
        return cls(game, table_seats(record, session), seed=record.seed,
                   bot_seed=record.bot_seed, dealer=record.dealer, deals=record.deals,
                   game_id=gid if isinstance(gid, str) and 0 < len(gid) <= 64 else None,
                   elapsed=_seconds(session.get("elapsed")) or 0.0,
                   started=_seconds(session.get("started")), **kw)

    def duration(self) -> float:
        return self.elapsed + (time.monotonic() - self._since)

    def record(self) -> Record:
        return records.record_of(self.game, self.seats, seed=self.seed, dealer=self.dealer,
                                 deals=self.deals, bot_seed=self.bot_seed)

    def session_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game_id": self.game_id, "started": self.started,
                               "elapsed": round(self.duration(), 3), "saved": time.time()}
        if self.phones:
            out["phones"] = list(self.phones)
        return out

    def _failed(self, problem: Problem) -> None:
        self.error = f"{'autosave' if problem.what == 'save' else 'statistics'}: " \
                     f"{problem.detail}"
        self.problems.append(problem)
        try:
            if problem.what == "save" and not self._told_save:
                self._told_save = True
                problem.notify_game(self.game_id)
            else:
                self.on_problem(problem)
        except Exception as exc:  # noqa: BLE001 - a report never stops the game: logged, told
            notices.unexpected("store", exc)

    @property
    def saving(self) -> bool:
        """Whether the game is in the autosave, to be continued later: autosave on and
        no save failed (what a table may tell its players)."""
        return self.autosave and not any(p.what == "save" for p in self.problems)

    def autosave_off(self, detail: str, kind: str = "shelf") -> None:
        """The game cannot be autosaved (``shelf``: the unfinished game in the
        autosave's place could not be shelved, and is kept; ``in_use``: another window
        keeps the autosave): say so on its table, and write nothing."""
        self.autosave = False
        self._failed(Problem("save", Path(AUTOSAVE_NAME), detail, kind=kind))

    def save(self) -> None:
        if not self.autosave:
            return
        try:
            write_autosave(self.record(), self.session_data(), fsync=self.fsync)
        except SaveHeld as exc:
            self._failed(Problem("save", Path(exc.filename or AUTOSAVE_NAME),
                                 reason(exc), kind="held"))
        except (OSError, ValueError) as exc:
            detail = explain(exc)
            self._failed(Problem("save", Path(AUTOSAVE_NAME), detail, kind="failed"))

    def moved(self) -> None:
        """Call after every applied move (and once after the game started)."""
        if getattr(self.game, "finished", False):
            self.finish()
        else:
            self.save()

    def finish(self) -> None:
        """Record the finished game in the statistics and clear the autosave."""
        if self.recorded:
            return
        self.recorded = True
        if self.stats:
            try:
                record_game(self.record(), self.game.summary(), game_id=self.game_id,
                            duration=self.duration())
            except (sqlite3.Error, StatsError, OSError) as exc:
                kind = stats_error_kind(exc)
                detail = stats_reason(exc)
                self._failed(Problem("stats", Path(STATS_NAME), detail,
                                     kind="failed" if kind == "damaged" else kind))
        if self.autosave:
            clear_autosave(self.game_id)

    def export(self) -> Path:
        return export_record(self.record(), fsync=self.fsync)


def saved_game_id(saved: Saved) -> str:
    """The game id a saved game is counted under: its session's, or for a file without
    one (put together by hand) one made from its record, so that the same file found
    again (at the next start, or a copy of it) is still the same game."""
    gid = saved.session.get("game_id")
    if isinstance(gid, str) and gid:
        return gid
    return "record-" + hashlib.sha256(records.dumps(saved.record).encode()).hexdigest()[:32]


def count_saved(saved: Saved) -> bool:
    """Count a saved game that had already ended in the statistics: True once they hold
    it (now, or from before: a game id is never counted twice), False when they cannot
    take it now (keep its file then, so that it is counted when they can)."""
    try:
        # the time played only if it is one (as resume takes it): "nan" read as a float
        # became SQL NULL, which the INSERT OR IGNORE dropped without a word
        record_game(saved.record, saved.summary, game_id=saved_game_id(saved),
                    duration=_seconds(saved.session.get("elapsed")) or 0.0)
    except (sqlite3.Error, StatsError, OSError, TypeError, ValueError, OverflowError):
        return False
    return True


def finish_saved(saved: Saved) -> None:
    """An autosave of a game that had already ended (the process died between the last
    move and clearing it): count it and clear it (kept if it cannot be counted)."""
    if count_saved(saved):
        clear_autosave()


def startup_checks() -> list[Problem]:
    """Check the autosave and the statistics database once at start; damaged files are
    moved aside. Returns the problems to tell the player about (never raises)."""
    problems = []
    # a process killed while writing leaves its temporary file; the real one is whole
    try:
        leftovers = list(paths.saves_dir(create=False).glob(AUTOSAVE_NAME + ".*.tmp"))
    except (OSError, RuntimeError, ValueError):
        leftovers = []
    for tmp in leftovers:
        try:
            tmp.unlink()
        except OSError:
            pass
    p = check_stats()
    if p is not None:
        problems.append(p)
    if not claim():      # another window keeps the autosave: it is left to that one
        problems.append(Problem("save", Path(LOCK_NAME), "", kind="in_use"))
        return problems
    saved, p = read_autosave()
    if p is not None:
        problems.append(p)
    elif saved is not None and saved.finished:
        finish_saved(saved)
    return problems
