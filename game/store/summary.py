"""What the statistics screen shows, read from the database: totals, wins by level,
the win-rate curve, the last game, recent games and one game's record."""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from game import games, jsonio, records
from game.jsonio import is_int, is_number
from game.records import Record, RecordError
from game.rules.rams_rules import counters_of
from game.store.database import stats_db


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
    #: whether the last game was scored in counters (Rams' ``scoring: counters``)
    last_counting: bool = False


ROLLING = 20
CURVE_POINTS = 160
LEVEL_ORDER = ("easy", "medium", "hard", "expert", "random", "threshold", "greedy",
               "mixed", "none")


#: The latest moment a row may say it was played: the year 3000, the end of what
#: ``time.localtime`` takes on every system the game runs on (Windows' limit).
LAST_TIME = 32503680000.0

#: stands for a column that does not hold what the game writes there
_BAD = object()


def moment(x: object) -> float | None:
    """A unix time from the database, if it is one the screens can show."""
    if is_number(x) and 0 <= x <= LAST_TIME:
        return float(x)
    return None


def _json(x: object) -> Any:
    if not isinstance(x, str):
        return _BAD
    try:
        return jsonio.loads(x)
    except jsonio.JSONError:
        return _BAD


def _row(r: tuple) -> GameRow | None:
    """A row as the screens read it, or None for a row that does not hold what the
    game writes (a file edited or damaged by hand: the screens skip such a row rather
    than stop on it)."""
    seats, winner = _json(r[3]), _json(r[4])
    finished = moment(r[7])
    if not (is_int(r[0]) and isinstance(r[1], str) and r[2] in games.GAMES
            and isinstance(seats, list) and all(isinstance(s, dict) for s in seats)
            and (winner is None or is_int(winner) or (
                isinstance(winner, list) and all(is_int(w) for w in winner)))
            and is_int(r[5]) and r[5] >= 0
            and is_number(r[6]) and math.isfinite(r[6]) and finished is not None
            and r[8] in (0, 1) and isinstance(r[9], str)):
        return None
    return GameRow(id=r[0], game_id=r[1], game=r[2], seats=seats, winner=winner,
                   rounds=r[5], duration=float(r[6]), finished=finished, won=bool(r[8]),
                   level=r[9])


def _lives(raw: object, seats: int) -> list[list[int]]:
    """A row's lives after each round, if they are a list of one whole number per seat
    for every round; else none (the chart is left empty)."""
    lives = _json(raw)
    if isinstance(lives, list) and all(
            isinstance(r, list) and len(r) == seats and all(is_int(x) and x >= 0 for x in r)
            for r in lives):
        return lives
    return []


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
    rows = [(game, level, won, moment(fin)) for game, level, won, fin in rows
            if isinstance(game, str) and isinstance(level, str) and won in (0, 1)
            and moment(fin) is not None]      # a row the game did not write: skipped
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
    _read_last_game(con, out)
    return out


def _read_last_game(con: sqlite3.Connection, out: StatsSummary) -> None:
    """Fill ``out``'s last game (and the lives it ended with, against the lives its
    rules start with) from the latest row that holds what the game wrote; rows
    something else left behind are passed over, and lives that do not fit the rules
    are left out rather than drawn wrong."""
    latest = con.execute(f"SELECT {_ROW_COLS}, lives, rules FROM games "
                         "ORDER BY finished DESC, id DESC")
    for last in latest:
        out.last_game = _row(last)
        if out.last_game is None:
            continue
        out.last_lives = _lives(last[10], len(out.last_game.seats))
        rules = _json(last[11])
        try:
            out.start_lives = start_count(rules)
            out.last_counting = counters_of(rules)
        except (ValueError, TypeError, AttributeError, OverflowError):
            out.last_lives = []
        if out.start_lives < 1 or out.start_lives > 10**6:
            out.start_lives, out.last_lives = 0, []
        break
    latest.close()


def recent_games(limit: int = 50, con: sqlite3.Connection | None = None) -> list[GameRow]:
    if con is None:
        with stats_db() as c:
            return recent_games(limit, c)
    rows = con.execute(f"SELECT {_ROW_COLS} FROM games ORDER BY finished DESC, id DESC "
                       "LIMIT ?", (limit,)).fetchall()
    return [g for g in map(_row, rows) if g is not None]


def game_record(row_id: int) -> Record:
    with stats_db() as con:
        r = con.execute("SELECT record FROM games WHERE id = ?", (row_id,)).fetchone()
    if r is None:
        raise RecordError(f"no game {row_id} in the statistics", "bad_format")
    if not isinstance(r[0], (str, bytes)):
        raise RecordError(f"game {row_id} in the statistics holds no record", "bad_format")
    return records.parse(r[0])


def start_count(rules: Any) -> int:
    """What every seat starts with: lives, or (Rams' ``scoring: counters``) counters."""
    if counters_of(rules):
        return int(rules.get("counters", 20))
    return int(rules.get("lives", 3))
