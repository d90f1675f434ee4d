"""Helpers that make the file system hostile for a test: read-only folders and files,
unreadable files, FIFOs and symlink loops in a file's place.

Running as root, permission bits do not stop the process, so a folder or file is
made read-only with the immutable attribute (``chattr +i``), which binds root too;
an unreadable file is simulated by refusing ``os.open`` on that one path with the
error the kernel would give (``EACCES``). Otherwise real permission bits are used.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a folder or a file) cannot be written to, created in or renamed."""
    if is_root():
        if shutil.which("chattr") is None:
            pytest.skip("running as root without chattr: cannot make a path read-only")
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i not supported here: {done.stderr.decode().strip()}")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    path.chmod(0o555 if path.is_dir() else 0o444)
    try:
        yield
    finally:
        path.chmod(mode)


@contextmanager
def unreadable(path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Opening ``path`` fails with "Permission denied"."""
    if not is_root():
        mode = stat.S_IMODE(path.stat().st_mode)
        path.chmod(0)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    real_open = os.open
    target = os.path.realpath(path)

    def refusing_open(p, flags, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        if os.path.realpath(p) == target:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(p))
        return real_open(p, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    try:
        yield
    finally:
        monkeypatch.setattr(os, "open", real_open)


def put_in_place(path: Path, kind: str) -> None:
    """Put a ``directory``, ``fifo`` or ``symlink_loop`` where ``path`` should be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "directory":
        path.mkdir()
        (path / "keep.txt").write_text("mine")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink_loop":
        a, b = path.with_name(path.name + ".a"), path.with_name(path.name + ".b")
        os.symlink(b, a)
        os.symlink(a, b)
        os.symlink(a, path)
    else:
        raise ValueError(kind)


def still_in_place(path: Path, kind: str) -> bool:
    """True if what :func:`put_in_place` put there is untouched."""
    if kind == "directory":
        return path.is_dir() and (path / "keep.txt").read_text() == "mine"
    if kind == "fifo":
        return stat.S_ISFIFO(path.lstat().st_mode)
    if kind == "symlink_loop":
        return path.is_symlink() and os.readlink(path).endswith(".a")
    raise ValueError(kind)
