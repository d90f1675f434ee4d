"""Unfinished games: the autosave of the game played last, and the shelf of the others.

A game in progress is autosaved after every move (:mod:`game.store`). Starting
another game never throws an unfinished one away: its autosave is moved onto the
shelf (``saves/unfinished/<game id>.json``, the same record-with-session format) and
stays there until the player resumes it or discards it after a question
(the Continue screen). Resuming a shelved game moves it back into the autosave's
place (shelving whatever game was there, even another copy of the same game); it is
not resumed while a file that cannot go onto the shelf is in that place
(:class:`InTheWay`). Finished games leave no file behind once the statistics keep
them (one they cannot take yet waits on the shelf, unlisted); the replay list never
shows these files.

The shelf never hangs on, floods on or throws away a file in its folder, and says
what it did (:mod:`game.notices`, once per file):

* only regular files of at most :data:`game.fileio.MAX_FILE_BYTES` count as games;
  a FIFO, a folder, a device, a symbolic link to nothing or a larger file named
  ``*.json`` is left exactly as it is, not offered, and named in a notice
  (``shelf.unreadable``); so is a file that cannot be read (no permission);
* the menu's count is what the list shows (:func:`shelved_count` reads a file as the
  list does, again only once it changed);
* a finished game found there (a save put on the shelf by hand) is no unfinished
  game: it is counted in the statistics as a finished autosave is
  (:func:`game.store.count_saved`: once, under its game id) and leaves the shelf; it
  stays, unlisted and uncounted, while the statistics cannot take it;
* a file that reads but is not an unfinished game (not JSON, not a valid record) is
  set aside as ``<name>.bad-<time>`` (``shelf.moved``), or left as it is when it
  cannot be moved (``shelf.damaged``);
* shelving never writes over anything: a game goes to a free name.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import fileio, jsonio, notices, paths, records, store
from game.fileio import quarantine, reason, replace
from game.records import Record, RecordError
from game.store import owner
from game.store.files import DATA_ERRORS

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
        t = store.moment(self.session.get("saved"))   # a time the list can show
        if t is not None:
            return t
        try:     # the file's own time, if it is a date too (Windows: 1970 to 3000)
            return store.moment(self.path.stat().st_mtime) or 0.0
        except OSError:
            return 0.0


def shelf_dir() -> Path:
    return paths.saves_dir() / SHELF


def _safe(game_id: str) -> str:
    keep = "".join(c for c in game_id if c.isalnum() or c in "-_")[:64]
    return keep or time.strftime("game-%Y%m%d-%H%M%S")


def _tell(key: str, path: Path, reason: str, moved: Path | None = None) -> None:
    notices.post(key, once=f"shelf:{path}", file=path.name, reason=reason,
                 moved=moved.name if moved is not None else "")


def _set_aside(path: Path, reason: str) -> None:
    """A file that read but holds no unfinished game: moved aside, and told."""
    moved = quarantine(path)
    _tell("shelf.moved" if moved is not None else "shelf.damaged", path, reason, moved)


def _read(path: Path, current: bool) -> Unfinished | None:
    """An unfinished game from its file. One that cannot be read is left where it is,
    a damaged one moved aside; either way the player is told."""
    try:
        data = jsonio.load_file(path)
    except FileNotFoundError:
        return None                  # resumed or discarded meanwhile
    except OSError as exc:
        _tell("shelf.unreadable", path, reason(exc))
        return None
    except jsonio.JSONError as exc:
        _set_aside(path, f"not valid JSON: {exc}")
        return None
    try:
        record = records.from_dict(data)
        game = records.rebuild(record)
    except RecordError as exc:
        _set_aside(path, f"{exc.kind}: {exc.message}")
        return None
    except DATA_ERRORS as exc:   # a strange file the engine refused; a bug is not one
        _set_aside(path, f"{type(exc).__name__}: {exc}")
        return None
    session = data.get("session") if isinstance(data.get("session"), dict) else {}
    if game.finished:
        _count_finished(path, store.Saved(record, session, True, game.summary()))
        return None
    return Unfinished(path, record, session, game.summary(), current)


def _count_finished(path: Path, saved: store.Saved) -> None:
    """A finished game on the shelf: counted in the statistics, then removed; kept
    while they cannot take it (it is counted once they can, never twice)."""
    if not store.count_saved(saved):
        return
    try:
        path.unlink()
    except OSError:
        pass     # gone already, or a folder that keeps it: counted, so never again


def _files() -> list[Path]:
    """The shelf's ``*.json`` names, sorted; none if the folder cannot be listed."""
    try:
        return sorted(shelf_dir().glob("*.json"))
    except OSError:
        return []


def _checked(tell: bool = True) -> list[tuple[Path, os.stat_result]]:
    """The shelf's files that may hold a game, with their ``stat``: regular files
    within the size cap that open. Anything else is left as it is and (``tell``)
    named in a notice, once."""
    out = []
    for path in _files():
        try:
            st = fileio.check_regular(path, fileio.MAX_FILE_BYTES)
        except OSError as exc:
            if tell:
                _tell("shelf.unreadable", path, reason(exc))
            continue
        if st is not None:        # (None: gone meanwhile)
            out.append((path, st))
    return out


def candidates(tell: bool = True) -> list[Path]:
    """The shelf's files that may hold a game (:func:`_checked`), read by none."""
    return [path for path, _st in _checked(tell)]


def unfinished() -> list[Unfinished]:
    """Every unfinished game, the one played last first, then the newest."""
    out: list[Unfinished] = []
    saved, _problem = store.read_autosave()    # problems are told at start-up
    if saved is not None and not saved.finished:
        out.append(Unfinished(store.autosave_path(), saved.record, saved.session,
                              saved.summary, current=True))
    shelved = [u for u in (_read(p, False) for p in candidates()) if u is not None]
    return out + sorted(shelved, key=lambda u: u.saved_at, reverse=True)


#: Shelf files last read as an unfinished game, by what their ``stat`` said then:
#: the menu, built again after every screen, reads only what changed since.
_known: dict[Path, tuple[int, ...]] = {}


def shelved_count() -> int:
    """How many unfinished games lie on the shelf: what :func:`unfinished` lists of
    it (a file that does not read as one is set aside or named, a finished game is
    counted in the statistics), reading a file again only once it changed."""
    found: dict[Path, tuple[int, ...]] = {}
    for path, st in _checked():
        mark = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        if _known.get(path) == mark or _read(path, False) is not None:
            found[path] = mark
    _known.clear()
    _known.update(found)
    return len(found)


def _free_name(folder: Path, base: str) -> Path:
    """``<base>.json`` in ``folder``, or ``<base>-2.json`` … if anything is there."""
    dest = folder / f"{base}.json"
    n = 2
    while os.path.lexists(dest):
        dest = folder / f"{base}-{n}.json"
        n += 1
    return dest


def shelve_autosave(keep: str | None = None,
                    resumed: dict[str, Any] | None = None) -> Path | None:
    """Move the autosave onto the shelf unless it is the game ``keep`` (its game id) or
    the game being resumed (``resumed``: its session data as read, which tells it
    apart also when its game id is missing or one a session does not take); returns
    where it went. A finished game there is counted in the statistics and cleared
    (:func:`store.finish_saved`), or, when they cannot take it now, shelved too: the
    shelf counts it once they can, where the next game's autosave would have written
    over it. Raises :class:`store.InUse` when another window keeps the autosave."""
    owner.check()
    saved, _problem = store.read_autosave()
    if saved is None or (resumed is not None and saved.session == resumed):
        return None
    gid = saved.session.get("game_id")
    if saved.finished:
        store.finish_saved(saved)
        if not os.path.lexists(store.autosave_path()):
            return None                  # counted and cleared
    elif keep is not None and gid == keep:
        return None
    folder = shelf_dir()
    folder.mkdir(parents=True, exist_ok=True)
    dest = _free_name(folder, _safe(gid if isinstance(gid, str) else ""))
    replace(store.autosave_path(), dest)
    return dest


class InTheWay(OSError):
    """A file in the autosave's place that cannot go onto the shelf (one the game cannot
    read, a damaged one it could not move aside): resuming another game would write
    over it, so it is not resumed."""


def take(entry: Unfinished) -> store.Saved:
    """Make ``entry`` the autosave (to resume it): the game there goes onto the shelf,
    even when it is the same game (a copy the player kept, played on since: its game id
    is the entry's, its moves are not); a finished game there is counted in the
    statistics (or shelved until they can count it: :func:`shelve_autosave`). Raises
    :class:`InTheWay` when something else is in the autosave's place: it is never
    written over, and :class:`store.InUse` when another window keeps the autosave
    (its game is not taken from it)."""
    owner.check()
    if not entry.current:
        _saved, problem = store.read_autosave()
        if problem is not None:    # damaged since the list was read: moved aside, told
            problem.notify()
        shelve_autosave()
        here = store.autosave_path()
        if os.path.lexists(here):
            raise InTheWay(0, "a file that is no unfinished game is in the way", str(here))
        replace(entry.path, here)
    return store.Saved(entry.record, entry.session, False, entry.summary)


def discard(entry: Unfinished) -> None:
    """Throw an unfinished game away (after the player said so)."""
    if entry.current:
        owner.check()       # not the game another window is playing
        store.clear_autosave()
        return
    try:
        entry.path.unlink()
    except FileNotFoundError:
        pass
