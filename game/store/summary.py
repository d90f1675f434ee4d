"""What the statistics screen shows, read from the database: totals, wins by level,
the win-rate curve, the last game, recent games and one game's record."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any

from game import records
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
            rules = json.loads(last[11])
            out.start_lives = start_count(rules)
            out.last_counting = counters_of(rules)
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


def start_count(rules: Any) -> int:
    """What every seat starts with: lives, or (Rams' ``scoring: counters``) counters."""
    if counters_of(rules):
        return int(rules.get("counters", 20))
    return int(rules.get("lives", 3))
