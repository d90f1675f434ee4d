"""Reading and writing user files so that nothing is half-written, silently lost, or
able to hang or flood the game.

``write_atomic`` leaves either the old or the new file after a crash (on Windows it
waits a moment for a file that another program holds open, see :func:`replace`); ``quarantine``
keeps a damaged file aside under a new name instead of overwriting it;
``read_regular`` reads only a regular file, and only up to a size cap (a FIFO, a
device such as ``/dev/zero`` or a directory in a file's place is refused at once).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from pathlib import Path

#: The largest file any reader accepts by default: a record of 10**6 moves written
#: with generous indentation is about 60 MB.
MAX_FILE_BYTES = 128 * 1024 * 1024

_CHUNK = 1 << 20
#: Pauses (seconds) before each new try of a rename that Windows refused because
#: another program has the file open (a virus scanner or an indexer looking at the
#: file just written, a second window of the game reading it): 0.8 s in all.
REPLACE_PAUSES = (0.01, 0.02, 0.05, 0.1, 0.2, 0.4)
_sleep = time.sleep


class NotRegularFile(OSError):
    """The path names a directory, FIFO, device or socket, not a regular file."""


class FileTooLarge(OSError):
    """The file is larger than the reader's cap."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of the regular file at ``path``; raises :class:`OSError` otherwise.

    The file is opened without blocking (a FIFO with no writer would otherwise hang
    the open) and checked with ``fstat`` before anything is read, so a FIFO, a
    device or a folder raises :class:`NotRegularFile` at once. More than ``limit``
    bytes (default :data:`MAX_FILE_BYTES`; also a file that grows while it is read)
    raise :class:`FileTooLarge`.
    """
    if limit is None:
        limit = MAX_FILE_BYTES
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(errno.EINVAL, f"not a regular file but {_kind(mode)}",
                                 os.fspath(path))
        too_large = FileTooLarge(errno.EFBIG, f"larger than the limit of {limit:,} bytes",
                                 os.fspath(path))
        if os.fstat(fd).st_size > limit:
            raise too_large
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise too_large
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def reason(exc: OSError) -> str:
    """A short, human reason for an OS error (``Permission denied``, ``not a regular
    file but a FIFO`` …), without the errno number."""
    return str(exc.strerror or exc.__class__.__name__)


def _windows() -> bool:
    """Whether this is Windows; a function so tests can pretend."""
    return os.name == "nt"


def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    """``os.replace``; on Windows a refusal because another program has ``src`` or
    ``dst`` open (``PermissionError``: a sharing violation, or access denied while the
    other program closes it) is tried again after each of :data:`REPLACE_PAUSES`. The
    last refusal is raised: the caller keeps the game going without that file."""
    pauses = REPLACE_PAUSES if _windows() else ()
    for pause in (*pauses, None):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if pause is None:
                raise
            _sleep(pause)


def write_atomic(path: str | os.PathLike[str], text: str, fsync: bool = True) -> None:
    """Write ``text`` to ``path``: a temporary file in the same folder, flushed (and
    fsynced), then renamed over the target."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def quarantine(path: Path) -> Path | None:
    """Rename a damaged file to ``<name>.bad-<timestamp>`` (never overwriting one);
    ``None`` if it cannot be moved."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    bad = path.with_name(f"{path.name}.bad-{stamp}")
    n = 1
    try:
        while bad.exists() or bad.is_symlink():
            bad = path.with_name(f"{path.name}.bad-{stamp}-{n}")
            n += 1
        replace(path, bad)
    except OSError:
        return None
    return bad
