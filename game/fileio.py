"""Writing user files so that nothing is ever half-written or silently lost.

``write_atomic`` leaves either the old or the new file after a crash; ``quarantine``
keeps a damaged file aside under a new name instead of overwriting it.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


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
        os.replace(tmp, target)
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
    while bad.exists():
        bad = path.with_name(f"{path.name}.bad-{stamp}-{n}")
        n += 1
    try:
        os.replace(path, bad)
    except OSError:
        return None
    return bad
