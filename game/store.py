"""What the game keeps between runs: the autosave, finished games' statistics, exports.

Nothing here imports pygame; every function is safe to call from a test or a tool.

* **Autosave** -- ``saves_dir()/autosave.json``: the game in progress as a record
  (RECORD.md), rewritten atomically (temporary file, flush, fsync, rename) after every
  move. The file is a plain record with one extra key, ``"session"`` (game id, start
  time, seconds played), which record readers ignore, so ``stammtisch replay
  autosave.json`` works on it too.
* **Statistics** -- ``data_dir()/stats.sqlite3`` (stdlib ``sqlite3``): one row per
  finished game with its rules, seats, winner, rounds, duration, the lives of every
  seat after each round and the full record. The schema is versioned with
  ``PRAGMA user_version``; :data:`MIGRATIONS` takes any older file to
  :data:`SCHEMA_VERSION` without losing a row.
* **Exports** -- ``saves_dir()/exports/<game>-<time>.json``: any game as a record file.

No file ever stops the game, and the player is told only what really happened
(a :class:`Problem`, shown once through :mod:`game.notices`):

* a damaged file (truncated, not JSON, not a valid record, not a database) is renamed
  ``<name>.bad-<timestamp>`` beside where it was (never overwritten, never deleted)
  and the game starts with a fresh one;
* a file that cannot be read (no permission, a folder, FIFO or device in its place, a
  symbolic link to nothing or a symlink loop, too large), or a damaged one that cannot
  be moved, is left exactly as it is, and nothing is written over it: while an
  unreadable autosave is in the way, games are not autosaved (the player may remove
  or fix the file). Every file is opened through :mod:`game.fileio`'s guard; the
  statistics database (which sqlite opens) is checked by it first, and has no size
  cap (it grows with every game);
* a statistics database from a newer version of the game is left untouched: nothing
  is recorded and the statistics screen says why; a database locked by another
  program is retried, then the game goes on without recording;
* a save or statistics write that fails (full disk, read-only folder) costs the
  autosave or the statistics, never the game.

:class:`GameSession` is the one object a table needs: created when a game starts,
``session.moved()`` after every applied move (autosave; at game over it records the
statistics and clears the autosave), ``session.export()`` for the button. The table
calls none of it itself: ``game.table.bookkeeping`` subscribes a session to the
table's news.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import fileio, jsonio, notices, paths, records
from game.fileio import quarantine, reason
from game.records import Record, RecordError, Seat

AUTOSAVE_NAME = "autosave.json"
STATS_NAME = "stats.sqlite3"
EXPORTS = "exports"
#: Turn off in benchmarks only; a real game always syncs its autosave to disk.
FSYNC = True


#: Seconds sqlite waits for another program's lock, and how often it tries.
BUSY_TIMEOUT = 2.5
BUSY_TRIES = 2


@dataclass
class Problem:
    """Something wrong with a file the game keeps. ``what``: ``save`` or ``stats``;
    ``kind``: ``damaged`` (moved aside to ``moved_to``, or left in place if that is
    None), ``unreadable`` (left in place), ``newer`` (a database from a newer game,
    left untouched), ``locked`` (in use by another program), ``unusable`` (cannot be
    opened or written), ``failed`` (a write failed), ``held`` (an unreadable autosave
    is in the way), ``shelf`` (the unfinished game in the autosave's place could not
    be put on the shelf); ``detail`` the reason in one line."""

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


# --------------------------------------------------------------------------- files


def write_atomic(path: Path, text: str, fsync: bool | None = None) -> None:
    """:func:`game.fileio.write_atomic`, fsynced unless ``FSYNC`` is switched off."""
    fileio.write_atomic(path, text, FSYNC if fsync is None else fsync)


# --------------------------------------------------------------------------- seats


def seats_to_record(seats: Iterable[dict[str, Any]]) -> list[Seat]:
    """Table seats (``name``, ``human``, ``level``, ``role``) as record seats."""
    return [Seat(s["name"], "human" if s.get("human") else "ai",
                 None if s.get("human") else s.get("level", "medium"), s.get("role"))
            for s in seats]


def role_of(name: str, human: bool, seat: int) -> str | None:
    """The role of a seat saved before roles were kept: a person named with the
    game's own word for "you" or "Player N" in any language."""
    from game.settings import DEFAULT_NAMES

    if not human:
        return None
    if name in {names[0] for names in DEFAULT_NAMES.values()}:
        return "you"
    if name in (f"Player {seat + 1}", f"Spieler {seat + 1}"):
        return "player"
    return None


def seats_from_record(record: Record) -> list[dict[str, Any]]:
    """Record seats as table seats (the inverse of :func:`seats_to_record`)."""
    out = []
    for i, s in enumerate(record.seats):
        human = s.type == "human"
        seat = {"name": s.name, "human": human, "level": s.level or "medium"}
        role = s.role or role_of(s.name, human, i)
        if role:
            seat["role"] = role
        out.append(seat)
    return out


def phone_seats(seats: Iterable[dict[str, Any]]) -> list[int]:
    """The seats played from a phone (kept in the autosave's session data: a record's
    seats know only humans and computers)."""
    return [i for i, s in enumerate(seats) if s.get("phone") and s.get("human")]


def table_seats(record: Record, session: dict[str, Any]) -> list[dict[str, Any]]:
    """The table seats of a saved game: the record's, with the phone seats its session
    data names (a resumed phone game opens its phone seats again, with new links)."""
    seats = seats_from_record(record)
    phones = session.get("phones")
    if isinstance(phones, list):
        for i in phones:
            if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(seats) \
                    and seats[i]["human"]:
                seats[i]["phone"] = True
    return seats


def human_seats(seats: Iterable[Any]) -> list[int]:
    out = []
    for i, s in enumerate(seats):
        human = s.get("human") if isinstance(s, dict) else getattr(s, "type", "") == "human"
        if human:
            out.append(i)
    return out


def opponent_level(seats: list[Seat]) -> str:
    """The computer players' level if they share one, ``mixed`` if not, ``none`` for a
    table of humans only."""
    levels = {s.level or "medium" for s in seats if s.type == "ai"}
    if not levels:
        return "none"
    return levels.pop() if len(levels) == 1 else "mixed"


def human_won(winner: Any, seats: list[Seat]) -> bool:
    humans = set(human_seats(seats))
    if isinstance(winner, int) and not isinstance(winner, bool):
        return winner in humans
    if isinstance(winner, list):
        return any(w in humans for w in winner)
    return False


# --------------------------------------------------------------------------- autosave


def autosave_path() -> Path:
    return paths.saves_dir(create=False) / AUTOSAVE_NAME


class SaveHeld(OSError):
    """The autosave's place holds a file the game could not read: it is not written over."""


#: Autosave paths that hold a file the game could not read (or could not move aside).
_held: set[Path] = set()


def write_autosave(record: Record, session: dict[str, Any]) -> Path:
    path = autosave_path()
    if path in _held:
        raise SaveHeld(0, "an unreadable saved game is in the way", str(path))
    data = record.as_dict()
    data["session"] = dict(session)
    write_atomic(path, json.dumps(data, ensure_ascii=False))
    return path


def clear_autosave(game_id: str | None = None) -> None:
    """Remove the autosave; with ``game_id``, only if it is that game's (a finished
    game never removes another game's autosave, nor a file the game cannot read)."""
    path = autosave_path()
    if path in _held:
        return
    if game_id is not None:
        try:
            data = jsonio.load_file(path)
        except (OSError, ValueError):
            return
        session = data.get("session") if isinstance(data, dict) else None
        if not isinstance(session, dict) or session.get("game_id") != game_id:
            return
    try:
        path.unlink()
    except OSError:
        pass


@dataclass
class Saved:
    """An autosave that rebuilds: its record, session data and rebuilt summary."""

    record: Record
    session: dict[str, Any]
    finished: bool
    summary: dict[str, Any] = field(default_factory=dict)


def read_autosave() -> tuple[Saved | None, Problem | None]:
    """The autosave if there is a valid one; a missing one gives ``(None, None)``.

    A damaged one is moved aside and reported. One that cannot be read (or cannot be
    moved aside) is reported, left where it is and *held*: :func:`write_autosave`
    refuses to write over it until it is gone or readable again (every call looks
    afresh).
    """
    try:
        path = autosave_path()
    except (OSError, RuntimeError, ValueError):
        return None, None      # no usable home at all: the folder check says so
    _held.discard(path)
    try:
        data = jsonio.load_file(path)
    except (FileNotFoundError, NotADirectoryError):
        return None, None      # nothing there (a file in the saves folder's place is
        #                        reported by the folder check)
    except OSError as exc:
        _held.add(path)
        return None, Problem("save", path, reason(exc), kind="unreadable")
    except jsonio.JSONError as exc:
        return None, _damaged_save(path, f"malformed_json: not valid JSON: {exc}")
    try:
        record = records.from_dict(data)
        game = records.rebuild(record)
        session = data.get("session") if isinstance(data.get("session"), dict) else {}
    except RecordError as exc:
        return None, _damaged_save(path, f"{exc.kind}: {exc.message}")
    except Exception as exc:  # anything else the engine may raise on a strange file
        return None, _damaged_save(path, f"{type(exc).__name__}: {exc}")
    return Saved(record, session, bool(game.finished), game.summary()), None


def _damaged_save(path: Path, detail: str) -> Problem:
    moved = quarantine(path)
    if moved is None:
        _held.add(path)
    return Problem("save", path, detail, moved)


def has_autosave() -> bool:
    try:
        return autosave_path().is_file()
    except (OSError, RuntimeError, ValueError):
        return False


# --------------------------------------------------------------------------- exports


def export_record(record: Record, name: str | None = None) -> Path:
    """Write ``record`` to ``saves_dir()/exports`` and return the file's path."""
    folder = paths.saves_dir() / EXPORTS
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = name or f"{record.game}-{stamp}"
    path = folder / f"{base}.json"
    n = 1
    while os.path.lexists(path):     # never over anything, not even a link to nothing
        path = folder / f"{base}-{n}.json"
        n += 1
    write_atomic(path, json.dumps(record.as_dict(), ensure_ascii=False, indent=1))
    return path


def record_files() -> list[Path]:
    """Record files the replay list offers: exports and saves, newest first."""
    out: list[tuple[float, Path]] = []
    try:
        saves = paths.saves_dir(create=False)
    except (OSError, RuntimeError, ValueError):
        return []
    for folder in (saves / EXPORTS, saves):
        try:   # the autosave is the game in progress, not a record of the player's
            found = [p for p in folder.glob("*.json") if p.name != AUTOSAVE_NAME]
        except OSError:
            continue
        for p in found:
            try:
                st = p.stat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                out.append((st.st_mtime, p))
    return [p for _, p in sorted(out, key=lambda x: x[0], reverse=True)]


# --------------------------------------------------------------------------- statistics

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
    record TEXT NOT NULL               -- the game's record (RECORD.md)
);
"""


def _migrate_v2(con: sqlite3.Connection) -> None:
    """v2: the opponents' level and whether a human won as columns (computed for every
    old row), and a covering index the statistics screen reads in time order."""
    con.execute("ALTER TABLE games ADD COLUMN level TEXT NOT NULL DEFAULT 'none'")
    con.execute("ALTER TABLE games ADD COLUMN won INTEGER NOT NULL DEFAULT 0")
    rows = con.execute("SELECT id, seats, winner FROM games").fetchall()
    for rid, seats_json, winner_json in rows:
        try:
            seats = [Seat(s.get("name", "?"), s.get("type", "human"), s.get("level"))
                     for s in json.loads(seats_json)]
            winner = json.loads(winner_json)
        except (ValueError, TypeError, AttributeError):
            continue
        con.execute("UPDATE games SET level = ?, won = ? WHERE id = ?",
                    (opponent_level(seats), int(human_won(winner, seats)), rid))
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


def stats_path() -> Path:
    return paths.data_dir(create=False) / STATS_NAME


def _connect(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT)
    con.execute("PRAGMA foreign_keys = ON")
    return con


def migrate(con: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring ``con`` to schema ``target``, one transaction per step; returns the version.
    A file from a newer version of the game is left alone (:class:`StatsNewer`)."""
    version = con.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StatsNewer(f"statistics schema {version} is newer than this game's "
                         f"({SCHEMA_VERSION})")
    while version < target:
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
    full disk, no permission; leave it alone)."""
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


def open_stats(path: Path | None = None, check: bool = False) -> sqlite3.Connection:
    """Open (creating or migrating) the statistics database; raises sqlite3 errors or
    StatsError on a damaged or foreign file (see :func:`check_stats`)."""
    path = path or stats_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fileio.check_regular(path)   # a FIFO, a folder, a link to nothing: left alone (OSError)
    con = _connect(path)
    try:
        if check:
            _check(con)
        migrate(con)
    except BaseException:
        con.close()
        raise
    return con


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


def check_stats(path: Path | None = None) -> Problem | None:
    """Open the database once with an integrity check. A damaged file is moved aside
    (with its ``-journal``/``-wal`` companions) and a fresh one created; a newer,
    locked or unusable one is left exactly as it is."""
    try:
        path = path or stats_path()
    except (OSError, RuntimeError, ValueError):
        return None            # no usable home at all: the folder check says so

    def probe() -> None:
        with closing(open_stats(path, check=True)):
            pass

    try:
        _with_retries(probe)
        return None
    except (sqlite3.Error, StatsError, OSError) as exc:
        kind = stats_error_kind(exc) if not isinstance(exc, OSError) else "unusable"
        detail = reason(exc) if isinstance(exc, OSError) else str(exc)
    if kind != "damaged":
        return Problem("stats", path, detail, kind=kind)
    moved = quarantine(path) if path.exists() else None
    if moved is not None:
        for suffix in ("-journal", "-wal", "-shm"):
            side = path.with_name(path.name + suffix)
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


@dataclass
class LevelStats:
    game: str
    level: str
    games: int = 0
    wins: int = 0
    current: int = 0   # wins in a row up to the last game
    best: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class GameRow:
    id: int
    game_id: str
    game: str
    seats: list[dict[str, Any]]
    winner: Any
    rounds: int
    duration: float
    finished: float
    won: bool
    level: str


@dataclass
class StatsSummary:
    """Everything the statistics screen shows."""

    total: int = 0
    wins: int = 0
    by_level: list[LevelStats] = field(default_factory=list)
    #: (game number, cumulative win rate, rolling win rate over ``ROLLING`` games)
    rate_curve: list[tuple[int, float, float]] = field(default_factory=list)
    first_time: float | None = None
    last_time: float | None = None
    last_game: GameRow | None = None
    last_lives: list[list[int]] = field(default_factory=list)
    start_lives: int = 0


ROLLING = 20
CURVE_POINTS = 160
LEVEL_ORDER = ("easy", "medium", "hard", "expert", "random", "threshold", "greedy",
               "mixed", "none")


def _row(r: tuple) -> GameRow:
    return GameRow(id=r[0], game_id=r[1], game=r[2], seats=json.loads(r[3]),
                   winner=json.loads(r[4]), rounds=r[5], duration=r[6], finished=r[7],
                   won=bool(r[8]), level=r[9])


_ROW_COLS = "id, game_id, game, seats, winner, rounds, duration, finished, won, level"


def summarize(con: sqlite3.Connection | None = None) -> StatsSummary:
    """Aggregate the statistics (fast: reads four small columns, no records)."""
    if con is None:
        with stats_db() as c:
            return summarize(c)
    out = StatsSummary()
    groups: dict[tuple[str, str], LevelStats] = {}
    wins = 0
    curve: list[tuple[int, float, float]] = []
    window: list[int] = []
    wsum = 0
    rows = con.execute("SELECT game, level, won, finished FROM games "
                       "WHERE level != 'none' ORDER BY finished, id").fetchall()
    n = len(rows)
    every = max(1, n // CURVE_POINTS)
    for i, (game, level, won, fin) in enumerate(rows):
        g = groups.get((game, level))
        if g is None:
            g = groups[(game, level)] = LevelStats(game, level)
        g.games += 1
        if won:
            g.wins += 1
            g.current += 1
            g.best = max(g.best, g.current)
            wins += 1
        else:
            g.current = 0
        window.append(won)
        wsum += won
        if len(window) > ROLLING:
            wsum -= window.pop(0)
        if i % every == 0 or i == n - 1:
            curve.append((i + 1, wins / (i + 1), wsum / len(window)))
        if i == 0:
            out.first_time = fin
        out.last_time = fin
    out.total, out.wins, out.rate_curve = n, wins, curve
    order = {lv: i for i, lv in enumerate(LEVEL_ORDER)}
    out.by_level = sorted(groups.values(), key=lambda s: (s.game, order.get(s.level, 99)))
    last = con.execute(f"SELECT {_ROW_COLS}, lives, rules FROM games "
                       "ORDER BY finished DESC, id DESC LIMIT 1").fetchone()
    if last is not None:
        out.last_game = _row(last)
        try:
            out.last_lives = json.loads(last[10])
            out.start_lives = start_count(json.loads(last[11]))
        except (ValueError, TypeError, AttributeError):
            out.last_lives = []
    return out


def recent_games(limit: int = 50, con: sqlite3.Connection | None = None) -> list[GameRow]:
    if con is None:
        with stats_db() as c:
            return recent_games(limit, c)
    rows = con.execute(f"SELECT {_ROW_COLS} FROM games ORDER BY finished DESC, id DESC "
                       "LIMIT ?", (limit,)).fetchall()
    return [_row(r) for r in rows]


def game_record(row_id: int) -> Record:
    with stats_db() as con:
        r = con.execute("SELECT record FROM games WHERE id = ?", (row_id,)).fetchone()
    if r is None:
        raise RecordError(f"no game {row_id} in the statistics", "bad_format")
    return records.parse(r[0])


# --------------------------------------------------------------------------- the session


def _seconds(value: object) -> float | None:
    """A time in seconds from a saved session, if it is a sensible one."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and 0 <= value < 1e11:
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
                 autosave: bool = True, stats: bool = True) -> None:
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
        except Exception:  # noqa: BLE001 - reporting never stops the game
            pass

    def autosave_off(self, detail: str) -> None:
        """The game cannot be autosaved (the unfinished game in the autosave's place
        could not be shelved, and is kept): say so on its table, and write nothing."""
        self.autosave = False
        self._failed(Problem("save", Path(AUTOSAVE_NAME), detail, kind="shelf"))

    def save(self) -> None:
        if not self.autosave:
            return
        try:
            write_autosave(self.record(), self.session_data())
        except SaveHeld as exc:
            self._failed(Problem("save", Path(exc.filename or AUTOSAVE_NAME),
                                 reason(exc), kind="held"))
        except (OSError, ValueError) as exc:
            detail = reason(exc) if isinstance(exc, OSError) else str(exc)
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
                kind = "unusable" if isinstance(exc, OSError) else stats_error_kind(exc)
                detail = reason(exc) if isinstance(exc, OSError) else str(exc)
                self._failed(Problem("stats", Path(STATS_NAME), detail,
                                     kind="failed" if kind == "damaged" else kind))
        if self.autosave:
            clear_autosave(self.game_id)

    def export(self) -> Path:
        return export_record(self.record())


def finish_saved(saved: Saved) -> None:
    """An autosave of a game that had already ended (the process died between the last
    move and clearing it): count it and clear it."""
    try:
        gid = saved.session.get("game_id")
        record_game(saved.record, saved.summary,
                    game_id=gid if isinstance(gid, str) and gid else None,
                    duration=float(saved.session.get("elapsed", 0.0) or 0.0))
    except (sqlite3.Error, StatsError, OSError, TypeError, ValueError, OverflowError):
        return     # not counted: keep the autosave, so it is counted when that works
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
    saved, p = read_autosave()
    if p is not None:
        problems.append(p)
    elif saved is not None and saved.finished:
        finish_saved(saved)
    return problems


def start_count(rules: Any) -> int:
    """What every seat starts with: lives, or (Rams' ``scoring: counters``) counters."""
    if rules.get("scoring") == "counters":
        return int(rules.get("counters", 20))
    return int(rules.get("lives", 3))
