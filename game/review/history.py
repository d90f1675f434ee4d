"""Each player's accuracy per reviewed game, kept with the statistics.

A finished review of a game in the statistics (``game.store``) adds one row per seat
to the table ``reviews`` of the statistics database: the seat's name, whether a
person or which computer level played it, its accuracy and lives. The table is made
on first use (``CREATE TABLE IF NOT EXISTS``) beside the versioned ``games`` table: a
game version that does not know it never reads it, so it needs no new schema version.
The statistics screen draws :func:`accuracy_history` as a chart.

Nothing here raises into the game: a database that cannot be written costs the
figures, never the review.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from game import store
from game.jsonio import is_number

TABLE = """
CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT NOT NULL,             -- the game's uuid (games.game_id)
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    human INTEGER NOT NULL,
    level TEXT,                        -- a computer's level, NULL for a person
    accuracy REAL,                     -- NULL: no decision put anything at stake
    decision_cost REAL NOT NULL,
    lives_lost INTEGER NOT NULL,
    at_stake REAL NOT NULL,
    decisions INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
)
"""
#: The name under which the person at the screen's games are kept together, whatever
#: the word for "you" was in the language of each game (``Line.name``).
YOU = "you"
#: The reviewed games the chart reads (the most recent ones).
RECENT = 200
#: The players the chart shows (people first, then those with the most games).
MAX_LINES = 6


def keep(game_id: Hashable, review: dict[str, Any], con: sqlite3.Connection | None = None
         ) -> bool:
    """Store a finished review's figures for the game ``game_id`` (a statistics uuid;
    anything else, such as a file that is not in the statistics, is not kept)."""
    if not isinstance(game_id, str) or not game_id:
        return False
    if not review.get("finished"):
        return False          # only whole games: a half-played one would mislead
    rows = [(game_id, p["seat"], p["name"], int(p["type"] == "human"), p.get("level"),
             p.get("accuracy"), float(p["decision_cost"]), int(p["lives_lost"]),
             float(p["at_stake"]), int(p["decisions"])) for p in review["players"]]
    sql = ("INSERT OR REPLACE INTO reviews (game_id, seat, name, human, level, accuracy, "
           "decision_cost, lives_lost, at_stake, decisions) VALUES (?,?,?,?,?,?,?,?,?,?)")

    def write(c: sqlite3.Connection) -> bool:
        with c:
            c.execute(TABLE)
            c.executemany(sql, rows)
        return True

    if con is not None:
        return write(con)
    try:
        with store.stats_db() as c:
            return write(c)
    except (sqlite3.Error, store.StatsError, OSError):
        return False


@dataclass
class Line:
    """One player's accuracy over the reviewed games: ``points`` are ``(game number,
    accuracy)`` with game numbers counted over every reviewed game (1 = the oldest
    shown)."""

    name: str
    human: bool
    level: str | None
    points: list[tuple[int, float]] = field(default_factory=list)


@dataclass
class AccuracyHistory:
    games: int = 0
    lines: list[Line] = field(default_factory=list)


def _kept_as_written(seat: object, name: object, human: object, level: object,
                     acc: object) -> bool:
    """Whether a row of the reviews holds what :func:`keep` writes: a database edited
    or damaged by hand may hold anything (a name that is no text, an accuracy of
    infinity), and the chart must neither stop on it nor draw it."""
    return (isinstance(seat, int) and isinstance(name, str) and human in (0, 1)
            and (level is None or isinstance(level, str))
            and is_number(acc) and 0.0 <= acc <= 1.0)


def accuracy_history(con: sqlite3.Connection | None = None,
                     recent: int = RECENT) -> AccuracyHistory:
    """The accuracy of every person (by name) and every computer level over the most
    recent reviewed games of the statistics."""
    if con is None:
        with store.stats_db() as c:
            return accuracy_history(c, recent)
    found = con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                        "name = 'reviews'").fetchone()
    if found is None:
        return AccuracyHistory()
    rows = con.execute(
        "SELECT g.finished, g.id, r.seat, r.name, r.human, r.level, r.accuracy FROM reviews r "
        "JOIN games g ON g.game_id = r.game_id WHERE g.id IN (SELECT g2.id FROM games g2 "
        "JOIN reviews r2 ON r2.game_id = g2.game_id GROUP BY g2.id "
        "ORDER BY g2.finished DESC, g2.id DESC LIMIT ?) ORDER BY g.finished, g.id, r.seat",
        (recent,)).fetchall()
    out = AccuracyHistory()
    lines: dict[tuple[bool, str], Line] = {}
    sums: dict[tuple[bool, str], list[float]] = {}
    last: tuple[float, int] | None = None

    def close_game() -> None:
        for key, accs in sums.items():
            lines[key].points.append((out.games, sum(accs) / len(accs)))
        sums.clear()

    for finished, gid, seat, name, human, level, acc in rows:
        if (finished, gid) != last:
            close_game()
            last = (finished, gid)
            out.games += 1
        if acc is None or not _kept_as_written(seat, name, human, level, acc):
            continue      # nothing at stake, or a row the game did not write (skipped)
        if human and store.role_of(name, True, seat) == "you":
            name = YOU       # the person at the screen, whatever the language then
        key = (True, name) if human else (False, level or "?")
        if key not in lines:
            lines[key] = Line(name if human else (level or "?"), bool(human),
                              None if human else level)
        # two seats of one level in a game: one point, their mean
        sums.setdefault(key, []).append(float(acc))
    close_game()
    ranked = sorted(lines.values(), key=lambda ln: (not ln.human, -len(ln.points), ln.name))
    out.lines = ranked[:MAX_LINES]
    return out
