"""The statistics database: opening, checking and migrating it, and recording a game.

``data_dir()/stats.sqlite3`` (stdlib ``sqlite3``): one row per finished game with its
rules, seats, winner, rounds, duration, the lives of every seat after each round and
the full record. The schema is versioned with ``PRAGMA user_version``;
:data:`MIGRATIONS` takes any older file to :data:`SCHEMA_VERSION` without losing a row.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from game import fileio, paths, records
from game.fileio import quarantine
from game.records import Record, Seat
from game.store.problem import Problem
from game.store.seats import human_won, opponent_level

STATS_NAME = "stats.sqlite3"

#: Seconds sqlite waits for another program's lock, and how often it tries.
BUSY_TIMEOUT = 2.5
BUSY_TRIES = 2


SCHEMA_VERSION = 2

_V1 = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game_id TEXT NOT NULL UNIQUE,      -- uuid of the game (also in its autosave)
    game TEXT NOT NULL,                -- chase | rams
    rules TEXT NOT NULL,               -- JSON object, the rules in force
    seats TEXT NOT NULL,               -- JSON list of {name, type, level}
    winner TEXT NOT NULL,              -- JSON: seat, list of seats, or null
    rounds INTEGER NOT NULL,
    duration REAL NOT NULL,            -- seconds played
    lives TEXT NOT NULL,               -- JSON list: lives of every seat after each round
    finished REAL NOT NULL,            -- unix time
    record TEXT NOT NULL               -- the game's record (docs/records.md)
);
"""


def _migrate_v2(con: sqlite3.Connection) -> None:
    """v2: the opponents' level and whether a human won as columns (computed for every
    old row), and a covering index the statistics screen reads in time order."""
    con.execute("ALTER TABLE games ADD COLUMN level TEXT NOT NULL DEFAULT 'none'")
    con.execute("ALTER TABLE games ADD COLUMN won INTEGER NOT NULL DEFAULT 0")
    rows = con.execute("SELECT id, seats, winner FROM games").fetchall()
    for rid, seats_json, winner_json in rows:
        try:      # a row this cannot read keeps the columns' defaults
            seats = [Seat(s.get("name", "?"), s.get("type", "human"), s.get("level"))
                     for s in json.loads(seats_json)]
            level, won = opponent_level(seats), int(human_won(json.loads(winner_json), seats))
        except (ValueError, TypeError, AttributeError):
            continue
        con.execute("UPDATE games SET level = ?, won = ? WHERE id = ?", (level, won, rid))
    # covering index: the statistics screen reads these columns in time order without
    # touching the rows (whose records are large)
    con.execute("CREATE INDEX IF NOT EXISTS games_by_time ON games (finished, id, game, level, won)")


def _migrate_v1(con: sqlite3.Connection) -> None:
    con.executescript(_V1)


#: ``MIGRATIONS[v]`` takes a database at version ``v - 1`` to version ``v``.
MIGRATIONS = {1: _migrate_v1, 2: _migrate_v2}


class StatsError(Exception):
    pass


class StatsNewer(StatsError):
    """The database was written by a newer version of the game: it is left alone."""


#: What reading or writing the statistics may raise for a reason outside the game (a
#: damaged, locked, foreign or unreachable file); :func:`stats_error_kind` says which.
STATS_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, StatsError, OSError)


def stats_path() -> Path:
    return paths.data_dir(create=False) / STATS_NAME


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT)
    con.execute("PRAGMA foreign_keys = ON")
    return con


def migrate(con: sqlite3.Connection) -> int:
    """Bring ``con`` to this game's schema, one transaction per step; returns the version.
    A file from a newer version of the game is left alone (:class:`StatsNewer`)."""
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StatsNewer(f"statistics schema {version} is newer than this game's "
                         f"({SCHEMA_VERSION})")
    while version < SCHEMA_VERSION:
        step = version + 1
        with con:  # BEGIN … COMMIT, or ROLLBACK on error
            MIGRATIONS[step](con)
            con.execute(f"PRAGMA user_version = {step}")
        version = step
    return version


class IntegrityError(sqlite3.DatabaseError):
    """``PRAGMA quick_check`` found damage."""


def _check(con: sqlite3.Connection) -> None:
    """Cheap sanity checks that fail on a file that is not (or no longer) a database."""
    con.execute("PRAGMA schema_version").fetchone()
    ok = con.execute("PRAGMA quick_check").fetchone()
    if not ok or ok[0] != "ok":
        raise IntegrityError(f"integrity check failed: {ok[0] if ok else '?'}")


# sqlite's primary result codes (the low byte of an extended code)
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_CORRUPT, _SQLITE_NOTADB = 5, 6, 11, 26


def stats_error_kind(exc: BaseException) -> str:
    """What a statistics error means for the file: ``newer`` (leave it alone),
    ``locked`` (another program holds it: retry later), ``damaged`` (not a database or
    corrupt: move it aside) or ``unusable`` (cannot be opened or written: read-only,
    full disk, no permission, something else in a file's place; leave it alone). An
    OS error is always ``unusable``: its words ("Device or resource busy") are not
    sqlite's."""
    if isinstance(exc, OSError):
        return "unusable"
    if isinstance(exc, StatsNewer):
        return "newer"
    if isinstance(exc, IntegrityError):
        return "damaged"
    code = getattr(exc, "sqlite_errorcode", None)   # Python 3.11+
    text = str(exc).lower()
    if code is not None:
        code &= 0xFF
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return "locked"
        if code in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            return "damaged"
        return "unusable"
    if "locked" in text or "busy" in text:
        return "locked"
    if "not a database" in text or "malformed" in text:
        return "damaged"
    return "unusable"


#: sqlite's result codes for a database file it cannot use -> the locale key of the
#: reason (``game.fileio.Reason``): no permission, read-only, a full disk, cannot open.
SQLITE_REASONS = {3: "reason.permission", 8: "reason.db_read_only", 13: "reason.disk_full",
                  14: "reason.db_cannot_open"}
#: sqlite's words for those codes, for a Python that does not give the code (3.10)
_SQLITE_WORDS = {"access permission denied": 3, "attempt to write a readonly database": 8,
                 "database or disk is full": 13, "unable to open database file": 14}


def stats_reason(exc: BaseException) -> str:
    """Why the statistics cannot be used, for a notice: ``fileio.reason`` for an OS
    error; sqlite's words, translatable for :data:`SQLITE_REASONS`; any other
    error's own words."""
    if isinstance(exc, sqlite3.Error) and not isinstance(exc, IntegrityError):
        text = str(exc)
        code = getattr(exc, "sqlite_errorcode", None)   # Python 3.11+
        code = code & 0xFF if code is not None else _SQLITE_WORDS.get(text)
        key = SQLITE_REASONS.get(code) if code is not None else None
        if key is not None:
            return fileio.Reason(text, key)
    return fileio.explain(exc)


def open_stats(path: Path | None = None, check: bool = False) -> sqlite3.Connection:
    """Open (creating or migrating) the statistics database; raises sqlite3 errors or
    StatsError on a damaged or foreign file (see :func:`check_stats`)."""
    path = path or stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fileio.check_regular(path)   # a FIFO, a folder, a link to nothing: left alone (OSError)
    for side in companions(path):
        # sqlite opens these by name and would wait for ever on a FIFO's other end
        fileio.check_regular(side)
    con = _connect(path)
    try:
        if check:
            _check(con)
        migrate(con)
    except BaseException:
        con.close()
        raise
    return con


#: The files sqlite keeps beside a database while it writes (rollback journal, WAL).
COMPANIONS = ("-journal", "-wal", "-shm")


def companions(path: Path) -> list[Path]:
    """The places of ``path``'s :data:`COMPANIONS`, whether anything is there or not."""
    return [path.with_name(path.name + suffix) for suffix in COMPANIONS]


def _with_retries(fn: Any) -> Any:
    """``fn()``, tried again while the database is locked (BUSY_TRIES times in all, each
    waiting BUSY_TIMEOUT inside sqlite)."""
    for attempt in range(BUSY_TRIES):
        try:
            return fn()
        except sqlite3.Error as exc:
            if stats_error_kind(exc) != "locked" or attempt == BUSY_TRIES - 1:
                raise
            time.sleep(0.05)
    return None  # pragma: no cover - the loop returns or raises


def check_stats() -> Problem | None:
    """Open the database once with an integrity check. A damaged file is moved aside
    (with its ``-journal``/``-wal`` companions) and a fresh one created; a newer,
    locked or unusable one is left exactly as it is."""
    try:
        path = stats_path()
    except (OSError, RuntimeError, ValueError):
        return None            # no usable home at all: the folder check says so

    def probe() -> None:
        with closing(open_stats(path, check=True)):
            pass

    try:
        _with_retries(probe)
        return None
    except (sqlite3.Error, StatsError, OSError) as exc:
        kind = stats_error_kind(exc)
        detail = stats_reason(exc)
        named = getattr(exc, "filename", None)
    if kind != "damaged":
        # the file at fault, by name: the database or a companion in its way
        where = next((p for p in companions(path) if os.fspath(p) == named), path)
        return Problem("stats", where, detail, kind=kind)
    moved = quarantine(path) if path.exists() else None
    if moved is not None:
        for side, suffix in zip(companions(path), COMPANIONS):
            if side.exists():
                try:
                    fileio.replace(side, moved.with_name(moved.name + suffix))
                except OSError:
                    pass
        try:
            with closing(open_stats(path)):
                pass
        except (sqlite3.Error, StatsError, OSError):
            pass
    return Problem("stats", path, detail, moved)


@contextmanager
def stats_db(path: Path | None = None) -> Iterator[sqlite3.Connection]:
    con = _with_retries(lambda: open_stats(path))
    try:
        yield con
    finally:
        con.close()


def lives_by_round(summary: dict[str, Any], n_seats: int) -> list[list[int]]:
    """Lives of every seat after each round, from an engine summary."""
    out = []
    last = None
    for r in summary.get("rounds", []):
        lives = r.get("lives")
        if isinstance(lives, list) and len(lives) == n_seats:
            last = [int(x) for x in lives]
        if last is not None:
            out.append(list(last))
    return out


def record_game(record: Record, summary: dict[str, Any], *, game_id: str | None = None,
                duration: float = 0.0, finished: float | None = None,
                con: sqlite3.Connection | None = None) -> bool:
    """Store a finished game; False if it was already there (same ``game_id``)."""
    game_id = game_id or uuid.uuid4().hex
    seats = record.seats
    winner = summary.get("winner")
    row = (game_id, record.game, json.dumps(record.rules, sort_keys=True),
           json.dumps([s.as_dict() for s in seats], ensure_ascii=False), json.dumps(winner),
           len(summary.get("rounds", [])), float(duration),
           json.dumps(lives_by_round(summary, len(seats))),
           float(finished if finished is not None else time.time()),
           records.dumps(record), opponent_level(seats), int(human_won(winner, seats)))
    sql = ("INSERT OR IGNORE INTO games (game_id, game, rules, seats, winner, rounds, "
           "duration, lives, finished, record, level, won) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    if con is not None:
        cur = con.execute(sql, row)
        return cur.rowcount == 1

    def insert() -> bool:
        with stats_db() as c, c:
            return c.execute(sql, row).rowcount == 1

    return bool(_with_retries(insert))


