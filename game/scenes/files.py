"""What the screens do with record files: watch one (a file dropped on the window, or
picked in the replay list) and export the game on a table (pause menu, results).
A bad file or a failed write is a toast; nothing is lost."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from game import fileio, store
from game.i18n import t
from game.records import Record, RecordError, UnreadableRecord, load
from game.replaying import rebuild_light
from game.turn import bookkeeping


def read_record(app: Any, path: str | Path) -> Record | None:
    """The record file at ``path``, checked by replaying it; None (and a toast) if bad."""
    try:
        record = load(path)
        rebuild_light(record)
    except UnreadableRecord as exc:
        app.notify(partial(t, "replay.unreadable", name=Path(exc.path).name, reason=exc.reason))
        return None
    except RecordError as exc:
        app.notify(partial(t, "replay.bad", error=f"{exc.kind}: {exc.message}"))
        return None
    return record


def stored_record(app: Any, row_id: int) -> Record | None:
    """The record of finished game ``row_id`` in the statistics, checked by replaying
    it; None (and a toast: why, in the player's language) if it cannot be read."""
    try:
        record = store.game_record(row_id)
        rebuild_light(record)
    except RecordError as exc:
        app.notify(partial(t, "replay.bad", error=exc.message))
        return None
    except store.STATS_ERRORS as exc:
        app.notify(partial(t, "replay.bad", error=store.stats_reason(exc)))
        return None
    return record


def watch_file(app: Any, path: str | Path) -> bool:
    """Open the replay of the record file at ``path``; False (and a toast) if bad."""
    record = read_record(app, path)
    if record is None:
        return False
    app.open("replay", record=record, title=Path(path).name)
    return True


def export_table(app: Any, table: Any) -> Path | None:
    """Write the table's game as a record file to ``saves_dir()/exports`` and say where."""
    try:
        path = bookkeeping.export(table.game, table.seats, table.session)
    except (OSError, ValueError) as exc:
        app.notify(lambda e=exc: t("store.export_failed", error=fileio.explain(e)))
        return None
    app.notify(lambda: t("store.exported", path=str(path)))   # in a language chosen later too
    return path
