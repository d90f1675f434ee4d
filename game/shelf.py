"""Unfinished games: the autosave of the game played last, and the shelf of the others.

A game in progress is autosaved after every move (:mod:`game.store`). Starting
another game never throws an unfinished one away: its autosave is moved onto the
shelf (``saves/unfinished/<game id>.json``, the same record-with-session format) and
stays there until the player resumes it or discards it after a question
(the Continue screen). Resuming a shelved game moves it back into the autosave's
place (shelving whatever game was there). Finished games leave no file behind (the
statistics keep them); the replay list never shows these files.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import paths, records, store
from game.fileio import quarantine, replace
from game.records import Record, RecordError

SHELF = "unfinished"


@dataclass
class Unfinished:
    """One unfinished game: where it lies, its record, session and summary."""

    path: Path
    record: Record
    session: dict[str, Any]
    summary: dict[str, Any] = field(default_factory=dict)
    current: bool = False        # the autosave itself (the game played last)

    @property
    def game_id(self) -> str:
        gid = self.session.get("game_id")
        return gid if isinstance(gid, str) and gid else self.path.stem

    @property
    def saved_at(self) -> float:
        t = self.session.get("saved")
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            return float(t)
        try:
            return self.path.stat().st_mtime
        except OSError:
            return 0.0


def shelf_dir() -> Path:
    return paths.saves_dir() / SHELF


def _safe(game_id: str) -> str:
    keep = "".join(c for c in game_id if c.isalnum() or c in "-_")[:64]
    return keep or time.strftime("game-%Y%m%d-%H%M%S")


def _read(path: Path, current: bool) -> Unfinished | None:
    """An unfinished game from its file; a damaged file is moved aside."""
    try:
        data = json.loads(path.read_bytes(), strict=False)
        record = records.from_dict(data)
        game = records.rebuild(record)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecordError):
        quarantine(path)
        return None
    except Exception:  # noqa: BLE001 - anything else the engine may raise on a strange file
        quarantine(path)
        return None
    if game.finished:
        return None
    session = data.get("session") if isinstance(data.get("session"), dict) else {}
    return Unfinished(path, record, session, game.summary(), current)


def unfinished() -> list[Unfinished]:
    """Every unfinished game, the one played last first, then the newest."""
    out: list[Unfinished] = []
    saved, _problem = store.read_autosave()    # problems are told at start-up
    if saved is not None and not saved.finished:
        out.append(Unfinished(store.autosave_path(), saved.record, saved.session,
                              saved.summary, current=True))
    try:
        files = sorted(shelf_dir().glob("*.json"))
    except OSError:
        files = []
    shelved = [u for u in (_read(p, False) for p in files) if u is not None]
    return out + sorted(shelved, key=lambda u: u.saved_at, reverse=True)


def shelved_count() -> int:
    """How many games lie on the shelf (files, not read: cheap for the menu)."""
    try:
        return sum(1 for _ in shelf_dir().glob("*.json"))
    except OSError:
        return 0


def shelve_autosave(keep: str | None = None) -> Path | None:
    """Move the autosave onto the shelf unless it is the game ``keep`` (its game id)
    or finished; returns where it went."""
    saved, _problem = store.read_autosave()
    if saved is None or saved.finished:
        return None
    gid = saved.session.get("game_id")
    if keep is not None and gid == keep:
        return None
    folder = shelf_dir()
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{_safe(gid if isinstance(gid, str) else '')}.json"
    replace(store.autosave_path(), dest)
    return dest


def take(entry: Unfinished) -> store.Saved:
    """Make ``entry`` the autosave (to resume it): the game there goes onto the shelf."""
    if not entry.current:
        shelve_autosave(keep=entry.game_id)
        replace(entry.path, store.autosave_path())
    return store.Saved(entry.record, entry.session, False, entry.summary)


def discard(entry: Unfinished) -> None:
    """Throw an unfinished game away (after the player said so)."""
    if entry.current:
        store.clear_autosave()
        return
    try:
        entry.path.unlink()
    except FileNotFoundError:
        pass
