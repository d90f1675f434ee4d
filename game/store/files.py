"""The files the game writes beside the statistics: the autosave and exports.

The autosave is rewritten atomically (temporary file, flush, fsync, rename) after every
move; a damaged one is moved aside, an unreadable one is *held* (never written over).
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import fileio, jsonio, paths, records
from game.fileio import quarantine, reason
from game.records import Record, RecordError
from game.store.owner import check as check_owner
from game.store.problem import Problem

AUTOSAVE_NAME = "autosave.json"
EXPORTS = "exports"

#: What a file's *data* can make the engine raise (its rule errors are ValueErrors):
#: only these set a save aside as damaged. Anything else (an AttributeError, a
#: TypeError) is a bug of the game, and surfaces instead of costing the player a save.
DATA_ERRORS: tuple[type[Exception], ...] = (ValueError, KeyError)


# --------------------------------------------------------------------------- autosave


def autosave_path() -> Path:
    return paths.saves_dir(create=False) / AUTOSAVE_NAME


class SaveHeld(OSError):
    """The autosave's place holds a file the game could not read: it is not written over."""


#: Autosave paths that hold a file the game could not read (or could not move aside).
_held: set[Path] = set()


def write_autosave(record: Record, session: dict[str, Any], *, fsync: bool = True) -> Path:
    """Write the game in progress; ``fsync=False`` only where losing it on a power cut
    does not matter (tests, benchmarks)."""
    check_owner()      # another window's autosave is never written over
    path = autosave_path()
    if path in _held:
        raise SaveHeld(0, "an unreadable saved game is in the way", str(path))
    data = record.as_dict()
    data["session"] = dict(session)
    fileio.write_atomic(path, json.dumps(data, ensure_ascii=False), fsync)
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
    except DATA_ERRORS as exc:   # a strange file the engine refused; a bug is not one
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


def export_record(record: Record, *, fsync: bool = True) -> Path:
    """Write ``record`` to ``saves_dir()/exports`` and return the file's path."""
    folder = paths.saves_dir() / EXPORTS
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{record.game}-{stamp}"
    path = folder / f"{base}.json"
    n = 1
    while os.path.lexists(path):     # never over anything, not even a link to nothing
        path = folder / f"{base}-{n}.json"
        n += 1
    fileio.write_atomic(path, json.dumps(record.as_dict(), ensure_ascii=False, indent=1),
                        fsync)
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


