"""One process at a time keeps the autosave.

Two windows (or a window and ``stammtisch host``) on the same saves folder would each
write their game into the one autosave: the second game's start shelves the first
one's, and then every move of either writes over the other, so the game that wrote
first at the end was gone. The first process to ask holds an operating-system lock
on ``saves/autosave.lock`` for as long as it runs (the system lets go of it when the
process ends, however it ends); another process finds it held and keeps no autosave,
tells its player so, and leaves the autosave and the shelf alone.

A folder where no lock file can be opened (one that cannot be written), or on Linux
and macOS a file system without locks, does not count as held: the autosave's own
errors tell of that folder. On Windows every refusal counts as held (its error
numbers do not tell a held byte apart, and under Wine they are 0).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO

from game import paths

LOCK_NAME = "autosave.lock"

#: the locks this process holds, by lock file (tests move the saves folder between
#: homes; a lock taken stays for the process's life)
_held: dict[Path, IO[bytes]] = {}


class InUse(OSError):
    """Another process keeps the autosave of this saves folder."""

    def __init__(self, path: Path) -> None:
        super().__init__(0, "another Stammtisch window keeps the saved games", str(path))


def _lock(f: IO[bytes]) -> bool:
    """Take the lock on the open file ``f`` without waiting; False if another holds it."""
    if sys.platform == "win32":
        import msvcrt

        f.seek(0)
        try:
            msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:      # EACCES or EDEADLOCK, and errno 0 under Wine: all "held"
            return False
        return True
    import fcntl

    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:                  # no locks on this file system: not held by anyone
        return True
    return True


def claim() -> bool:
    """Is the autosave this process's to keep? Takes the lock if nobody holds it (asked
    again later, a lock another window let go of is taken then)."""
    try:
        folder = paths.saves_dir(create=True)
    except (OSError, RuntimeError, ValueError):
        return True                  # no folder at all: the checks of the folder say so
    path = folder / LOCK_NAME
    if path in _held:
        return True
    try:
        f = open(path, "a+b")        # noqa: SIM115 - held open for the process's life
    except OSError:
        return True
    if not _lock(f):
        f.close()
        return False
    _held[path] = f
    return True


def check() -> None:
    """Raise :class:`InUse` unless this process keeps the autosave."""
    if not claim():
        raise InUse(paths.saves_dir(create=False) / LOCK_NAME)


def release_all() -> None:
    """Let go of every lock this process holds (tests; a process's end does it too)."""
    for f in _held.values():
        f.close()
    _held.clear()
