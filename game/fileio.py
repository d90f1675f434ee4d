"""Reading and writing user files so that nothing is half-written, silently lost, or
able to hang or flood the game: the one guard every file the game keeps goes through.

* ``read_regular`` reads only a regular file, and only up to a size cap;
* ``check_regular`` says whether a path holds nothing, a regular file, or something
  else, without reading it (for files another library opens: the statistics
  database);
* ``open_append`` opens a regular file for appending (the log);
* ``write_atomic`` leaves either the old or the new file after a crash, and never
  writes over anything but a regular file (on Windows it waits a moment for a file
  that another program holds open, see :func:`replace`);
* ``quarantine`` keeps a damaged file aside under a new name instead of overwriting it.

Every open is non-blocking and checked with ``fstat`` before a byte moves, so a
FIFO, a device such as ``/dev/zero``, a socket or a folder in a file's place is
refused at once with :class:`NotRegularFile` (whose message names what is there),
and so is a symbolic link to a missing file: it is not "nothing there" (writing
would replace the link or create its target somewhere else). A symbolic link to a
regular file is followed, for reading and for writing (the link stays a link).
Permission problems are the OS's own errors. Callers leave what they cannot use
exactly as it is and tell the player, in the player's language: :func:`reason` gives
the common causes (no permission, a full disk, these refusals …) as a :class:`Reason`,
which ``game.i18n.t`` translates.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import time
from pathlib import Path

from game.i18n import Phrase

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
    """The path names a directory, FIFO, device or socket, not a regular file;
    ``what`` says which (:func:`kind_of`'s words, or :data:`DANGLING`)."""

    what: str | None = None


class FileTooLarge(OSError):
    """The file is larger than the reader's cap, ``limit`` bytes."""

    limit: int | None = None


class Reason(Phrase):
    """Why a file could not be used, from :func:`reason`: the English words (for
    logs), and the locale key (``reason.*``) that says them to the player."""


DANGLING = "a symbolic link to a missing file"

#: The OS errors a player meets with the game's files, by errno: the locale key of
#: each one's reason (the English text is the usual OS wording, but for a file in a
#: folder's place).
ERRNO_KEYS: dict[int, str] = {
    errno.EACCES: "reason.permission",
    errno.EPERM: "reason.permission",
    errno.ENOENT: "reason.missing",
    errno.ENOSPC: "reason.disk_full",
    errno.EROFS: "reason.read_only",
    errno.EFBIG: "reason.too_large",
    errno.ENAMETOOLONG: "reason.name_too_long",
    # making a folder where a file is (EEXIST), or in one (ENOTDIR)
    errno.EEXIST: "reason.file_in_the_way",
    errno.ENOTDIR: "reason.file_in_the_way",
    # the phone table's address: taken by another program, or no longer this computer's
    errno.EADDRINUSE: "reason.address_in_use",
    errno.EADDRNOTAVAIL: "reason.address_gone",
}
#: Windows errors (``winerror``) for a file another program has open: a sharing and
#: a lock violation. Python gives them errno EACCES, which would say "no permission".
IN_USE_WINERRORS = (32, 33)

#: What can stand in a file's place: :func:`kind_of`'s words -> the end of its key.
KINDS = {"a folder": "folder", "a FIFO": "fifo", "a device": "device",
         "a socket": "socket", "a special file": "special", "a symbolic link": "link"}


def kind_words(what: str) -> str:
    """``what`` (one of :data:`KINDS`) as a :class:`Reason` the player reads in their
    language; other words unchanged."""
    key = KINDS.get(what)
    return Reason(what, f"reason.kind.{key}") if key else what


def kind_of(mode: int) -> str:
    """Words for what a ``st_mode`` that is not a regular file holds (``a FIFO`` …),
    translatable (see :func:`kind_words`)."""
    if stat.S_ISDIR(mode):
        what = "a folder"
    elif stat.S_ISFIFO(mode):
        what = "a FIFO"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        what = "a device"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    else:
        what = "a special file"
    return kind_words(what)


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
    fd = _open_checked(path, os.O_RDONLY)
    try:
        too_large = _too_large(path, limit)
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


def _too_large(path: str | os.PathLike[str], limit: int) -> FileTooLarge:
    exc = FileTooLarge(errno.EFBIG, f"larger than the limit of {limit:,} bytes",
                       os.fspath(path))
    exc.limit = limit
    return exc


def _not_regular(path: str | os.PathLike[str], what: str) -> NotRegularFile:
    exc = NotRegularFile(errno.EINVAL, what if what == DANGLING
                         else f"not a regular file but {what}", os.fspath(path))
    exc.what = str(what)
    return exc


def _dangling(path: str | os.PathLike[str]) -> bool:
    """A symbolic link whose target is missing (a loop is not: it keeps its own error)."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return False
    except (OSError, ValueError):
        return False
    try:
        os.stat(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False
    return False


def _open_checked(path: str | os.PathLike[str], flags: int, mode: int = 0o666) -> int:
    """``os.open`` without blocking, then ``fstat``: the descriptor of a regular file
    (switched back to blocking), or :class:`NotRegularFile` / the OS's error."""
    nonblock = getattr(os, "O_NONBLOCK", 0)
    flags |= nonblock | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    if flags & os.O_CREAT and _dangling(path):
        raise _not_regular(path, DANGLING)     # O_CREAT would create the link's target
    try:
        fd = os.open(path, flags, mode)
    except FileNotFoundError:
        if _dangling(path):
            raise _not_regular(path, DANGLING) from None
        raise
    except OSError as exc:
        # opening a FIFO for writing without blocking fails when nobody reads it
        if exc.errno == getattr(errno, "ENXIO", -1):
            raise _not_regular(path, "a FIFO") from None
        if exc.errno == errno.EISDIR:
            raise _not_regular(path, "a folder") from None
        raise
    try:
        st_mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(st_mode):
            raise _not_regular(path, kind_of(st_mode))
        if nonblock:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_regular(path: str | os.PathLike[str],
                  limit: int | None = None) -> os.stat_result | None:
    """Whether ``path`` may be opened as a file of ours: ``None`` when nothing is there
    (also when the folder is missing), its ``stat`` when it is a readable regular
    file of at most ``limit`` bytes (no limit if None); otherwise the
    :class:`NotRegularFile`, :class:`FileTooLarge` or OS error that says why. Reads
    nothing."""
    try:
        fd = _open_checked(path, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        st = os.fstat(fd)
    finally:
        os.close(fd)
    if limit is not None and st.st_size > limit:
        raise _too_large(path, limit)
    return st


def open_append(path: str | os.PathLike[str]) -> int:
    """A descriptor for appending to the regular file at ``path`` (created if missing);
    :class:`NotRegularFile` or the OS's error otherwise. Never blocks."""
    return _open_checked(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)


def write_target(path: str | os.PathLike[str]) -> Path:
    """Where writing ``path`` goes: ``path`` itself when nothing or a regular file is
    there, the file a symbolic link points to when that is a regular file (the link
    stays); :class:`NotRegularFile` for anything else (a folder, a FIFO, a link to
    nothing), which must not be written over."""
    target = Path(path)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return target
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(target)
        except FileNotFoundError:
            raise _not_regular(target, DANGLING) from None
        target = Path(os.path.realpath(target))
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, kind_of(st.st_mode))
    return target


def reason(exc: OSError) -> str:
    """A short, human reason for an OS error (``Permission denied``, ``not a regular
    file but a FIFO`` …), without the errno number or the path.

    The common causes (:data:`ERRNO_KEYS`, a file in use on Windows, the refusals of
    this module) are a :class:`Reason`: the same English words, which
    ``game.i18n.t`` translates when they are a parameter of a notice. Any other error
    keeps the OS's words (a plain ``str``).
    """
    text = str(exc.strerror or exc.__class__.__name__)
    if isinstance(exc, NotRegularFile) and exc.what is not None:
        if exc.what == DANGLING:
            return Reason(text, "reason.dangling")
        return Reason(text, "reason.not_regular", what=kind_words(exc.what))
    if isinstance(exc, FileTooLarge) and exc.limit is not None:
        if exc.limit % (1 << 20) == 0:
            return Reason(text, "reason.over_limit_mb", mb=exc.limit >> 20)
        return Reason(text, "reason.over_limit", limit=exc.limit)
    if getattr(exc, "winerror", None) in IN_USE_WINERRORS:
        return Reason(text, "reason.in_use")
    if exc.errno == errno.EISDIR:
        return Reason(text, "reason.not_regular", what=kind_words("a folder"))
    key = ERRNO_KEYS.get(exc.errno) if exc.errno is not None else None
    return Reason(text, key) if key is not None else text


def explain(exc: BaseException) -> str:
    """:func:`reason` for an OS error, ``str(exc)`` for anything else (a ``ValueError``
    from a path with a NUL byte, a statistics error)."""
    return reason(exc) if isinstance(exc, OSError) else str(exc)


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
    fsynced), then renamed over the target. Only a regular file (or nothing) is
    written over; through a symbolic link the file it names is (see
    :func:`write_target`)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    target = write_target(path)
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
