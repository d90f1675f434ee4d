"""The log file, opened and rotated through the file guard (:mod:`game.fileio`).

:class:`GuardedLog` is a rotating log handler that never hangs, never prints
``--- Logging error ---`` blocks, and never removes or renames anything but its own
regular files:

* the log is opened when the handler is made, without blocking and only if it is a
  regular file (or missing): a FIFO, a folder, a symbolic link to nothing or a file
  the game may not write raise :class:`OSError` there, so the caller can log
  elsewhere and say why;
* a rotation moves ``stammtisch.log`` to ``.1`` (``.1`` to ``.2`` …) only while every
  name involved holds a regular file or nothing; anything else in the way stops file
  logging for this run instead of being removed;
* any failure while writing (a full disk, a file replaced while the game runs) stops
  file logging for this run, once, and calls ``on_fail`` with the reason in words.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import stat
import sys
from collections.abc import Callable
from typing import Any

from game import fileio

#: Bytes the log grows by before a refused rotation is tried again.
RETRY_BYTES = 64 * 1024


class GuardedLog(logging.handlers.RotatingFileHandler):
    """A :class:`~logging.handlers.RotatingFileHandler` behind the file guard."""

    def __init__(self, path: str | os.PathLike[str], max_bytes: int, backups: int,
                 on_fail: Callable[[str], Any] | None = None) -> None:
        super().__init__(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8",
                         delay=True)
        self.failed: str | None = None
        self.on_fail = on_fail
        #: where the file must have grown to before rotating is tried again, after a
        #: rotation was refused (0: no refusal pending)
        self.retry_at = 0
        self.stream = self._open()        # raises OSError: the caller logs elsewhere

    def _open(self) -> Any:
        fd = fileio.open_append(self.baseFilename)
        return os.fdopen(fd, "a", encoding="utf-8", errors="replace")

    def _give_up(self, why: str) -> None:
        if self.failed is not None:
            return
        self.failed = why
        stream, self.stream = self.stream, None
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
        if self.on_fail is not None:
            try:
                self.on_fail(why)
            except Exception as exc:  # noqa: BLE001 - a boundary: telling must not fail the log call
                _last_words(f"stammtisch: the log failed ({why}) and telling so failed: {exc!r}")

    def emit(self, record: logging.LogRecord) -> None:
        if self.failed is None:
            super().emit(record)

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 - logging's name
        import sys

        exc = sys.exc_info()[1]
        why = fileio.reason(exc) if isinstance(exc, OSError) else \
            f"{type(exc).__name__}: {exc}" if exc is not None else "unknown error"
        self._give_up(why)

    def shouldRollover(self, record: logging.LogRecord) -> int:  # noqa: N802
        if self.failed is not None:
            return False
        if self.stream is None:
            self.stream = self._open()
        if self.retry_at and self.stream.tell() < self.retry_at:
            return False
        return bool(super().shouldRollover(record))

    def doRollover(self) -> None:  # noqa: N802
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        base = self.baseFilename
        names = [base] + [f"{base}.{i}" for i in range(1, self.backupCount + 1)]
        for name in names:
            kind = _occupant(name)
            if kind not in (None, "file"):
                short = os.path.basename(name)
                self._give_up(fileio.Reason(f"{short} is not a regular file but {kind}",
                                            "reason.named_not_regular", name=short,
                                            what=kind))
                return
        try:
            for i in range(self.backupCount, 0, -1):
                src, dst = names[i - 1], names[i]
                if _occupant(src) is None:
                    continue
                self.rotate(src, dst)           # regular files only (checked above)
            self.retry_at = 0
        except PermissionError:
            # Windows refuses to rename a file another process holds open (a second
            # window, a bot's runner): go on in the same file and try again later,
            # rather than failing at every record
            self.stream = self._open()
            self.retry_at = self.stream.tell() + RETRY_BYTES
            return
        self.stream = self._open()

    def rotate(self, source: str, dest: str) -> None:
        os.replace(source, dest)


def _occupant(path: str) -> str | None:
    """What is at ``path`` without following a link: ``None`` (nothing), ``file`` (a
    regular file), or the words for anything else."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return fileio.reason(exc)
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return fileio.kind_of(mode)


__all__ = ["GuardedLog"]


def _last_words(line: str) -> None:
    """One line on the process's own stderr, if it has one (a windowed build has none):
    what a log handler says when it can neither log nor tell."""
    err = sys.__stderr__
    if err is not None:
        try:
            print(line, file=err, flush=True)
        except (OSError, ValueError):   # closed or gone: nobody is left to tell
            pass
