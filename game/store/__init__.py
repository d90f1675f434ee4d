"""What the game keeps between runs: the autosave, finished games' statistics, exports.

Nothing here imports pygame; every function is safe to call from a test or a tool.

* **Autosave** -- ``saves_dir()/autosave.json``: the game in progress as a record
  (docs/records.md), rewritten atomically (temporary file, flush, fsync, rename) after every
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

The package holds one job a module: :mod:`~game.store.files` (autosave, exports),
:mod:`~game.store.seats` (table seats and record seats), :mod:`~game.store.database`
(the statistics database, its checks and migrations), :mod:`~game.store.summary`
(what the statistics screen reads), :mod:`~game.store.session` (one game's
bookkeeping, start-up checks) and :mod:`~game.store.problem` (how a problem is told).

:class:`GameSession` is the one object a table needs: created when a game starts,
``session.moved()`` after every applied move (autosave; at game over it records the
statistics and clears the autosave), ``session.export()`` for the button. The table
calls none of it itself: ``game.turn.bookkeeping`` subscribes a session to the
table's news.
"""

from game.store.database import (
    STATS_ERRORS,
    STATS_NAME,
    StatsError,
    StatsNewer,
    check_stats,
    lives_by_round,
    open_stats,
    record_game,
    stats_db,
    stats_error_kind,
    stats_path,
    stats_reason,
)
from game.store.files import (
    AUTOSAVE_NAME,
    EXPORTS,
    Saved,
    autosave_path,
    clear_autosave,
    export_record,
    has_autosave,
    read_autosave,
    record_files,
    write_autosave,
)
from game.store.owner import InUse
from game.store.problem import Problem
from game.store.seats import (
    human_won,
    opponent_level,
    role_of,
    seats_from_record,
    seats_to_record,
    table_seats,
)
from game.store.session import (
    GameSession,
    count_saved,
    finish_saved,
    startup_checks,
)
from game.store.summary import (
    ROLLING,
    GameRow,
    LevelStats,
    StatsSummary,
    game_record,
    moment,
    recent_games,
    start_count,
    summarize,
)

__all__ = [
    "AUTOSAVE_NAME", "EXPORTS", "ROLLING", "STATS_ERRORS", "STATS_NAME", "GameRow", "GameSession",
    "InUse", "LevelStats", "Problem", "Saved", "StatsError", "StatsNewer", "StatsSummary",
    "autosave_path", "check_stats", "clear_autosave", "count_saved", "export_record",
    "finish_saved", "game_record", "has_autosave", "human_won", "lives_by_round", "moment",
    "open_stats", "opponent_level", "read_autosave", "recent_games", "record_files",
    "record_game", "role_of", "seats_from_record", "seats_to_record",
    "start_count", "startup_checks", "stats_db", "stats_error_kind", "stats_path",
    "stats_reason", "summarize", "table_seats", "write_autosave",
]
