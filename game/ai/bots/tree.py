"""A bot's process and everything it starts, ended together (the seam per OS).

:func:`start` runs a bot's command with three pipes and returns a :class:`Tree`:
``tree.proc`` is the :class:`subprocess.Popen` whose pipes are the bot's and whose
exit status is the bot's; ``tree.end()`` ends the bot *and every process it started*,
however it started them, and waits for that. A tournament ends every tree it
started, and a tournament that dies takes its trees with it.

How, per OS:

* **Linux** (:class:`SupervisedTree`): the command runs under a small supervisor
  (:mod:`game.ai.bots.supervisor`) that is a *child subreaper*: processes the bot
  starts cannot get away from it, not by forking twice and not by ``setsid`` (which
  leaves the bot's process group, so a group kill alone misses them). The supervisor
  kills them all when the bot exits, when the tournament closes its control pipe, or
  when the tournament dies (the kernel closes the pipe). No cgroups, no root.
* **Other POSIX systems** (macOS, the BSDs; :class:`GroupTree`): the bot leads a
  session of its own and the whole process group is killed; a process that calls
  ``setsid`` itself can leave it (documented in ``docs/bots.md``).
* **Windows** (:class:`JobTree`): the bot starts suspended, is put into a Job Object
  that kills every process in it when the job is closed
  (``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``; the children of a process in a job are in
  the job too), and is then resumed; ``end`` terminates the job. If the job cannot be
  made, ``taskkill /T /F`` ends the bot and its descendants. No process groups, no
  ``fork``, no ``/proc``.

:data:`KIND` forces one of them (tests); :func:`kind` says which one is used here.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Protocol

from game import winproc

#: Force ``supervised``, ``group`` or ``job`` (None: by the OS, see :func:`kind`).
KIND: str | None = None
#: Seconds the supervisor may take to start the bot and say so.
START_SECONDS = 20.0
#: Seconds to wait for a tree to end after it was told to.
END_SECONDS = 10.0
SUPERVISOR = Path(__file__).resolve().with_name("supervisor.py")
#: the hidden subcommand a frozen build runs the supervisor as (``game.cli``)
SUPERVISOR_COMMAND = "bot-supervisor"

_PIPES: dict[str, Any] = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE,
                          "stderr": subprocess.PIPE, "bufsize": 0, "close_fds": True}


def _platform() -> str:
    """``sys.platform``; a function so tests can pretend to be another OS."""
    return sys.platform


def kind() -> str:
    """``job`` on Windows, ``supervised`` on Linux (with ``/proc``), ``group`` elsewhere."""
    if KIND is not None:
        return KIND
    plat = _platform()
    if plat.startswith("win"):
        return "job"
    if plat.startswith("linux") and os.path.isdir("/proc/self"):
        return "supervised"
    return "group"


class Tree(Protocol):
    proc: subprocess.Popen

    def end(self) -> None: ...


def start(argv: list[str], cwd: str | None = None) -> Tree:
    """Start ``argv`` with piped standard streams, contained as :func:`kind` says;
    :class:`OSError` when it cannot be started (a missing program ...)."""
    return {"supervised": SupervisedTree, "group": GroupTree, "job": JobTree}[kind()](
        argv, cwd)


def _wait(proc: subprocess.Popen, seconds: float) -> bool:
    try:
        proc.wait(seconds)
        return True
    except subprocess.TimeoutExpired:
        return False


# --------------------------------------------------------------------------- Linux


def supervisor_command() -> list[str]:
    """The supervisor in a fresh interpreter that imports nothing of the game (a frozen
    build runs itself as the supervisor)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, SUPERVISOR_COMMAND]
    return [sys.executable, "-I", str(SUPERVISOR)]


class SupervisedTree:
    """The bot under :mod:`game.ai.bots.supervisor` (a child subreaper)."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        ctrl_r, self._control = os.pipe()
        status_r, status_w = os.pipe()
        try:
            self.proc = subprocess.Popen(
                [*supervisor_command(), str(ctrl_r), str(status_w), "--", *argv],
                pass_fds=(ctrl_r, status_w), cwd=cwd, start_new_session=True, **_PIPES)
        except BaseException:
            os.close(self._control)
            os.close(status_r)
            raise
        finally:
            os.close(ctrl_r)
            os.close(status_w)
        try:
            status = self._status(status_r)
        finally:
            os.close(status_r)
        if not status.startswith(b"ok "):
            self.end()
            raise _start_error(status)
        self.bot_pid = int(status[3:])

    def _status(self, fd: int) -> bytes:
        """The supervisor's one line: ``ok PID`` or ``error ...`` (``b""``: it died)."""
        data = b""
        deadline = time.monotonic() + START_SECONDS
        while b"\n" not in data:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
        return data.split(b"\n", 1)[0]

    def end(self) -> None:
        if self._control is not None:
            os.close(self._control)        # the supervisor kills everything and exits
            self._control = None
        if not _wait(self.proc, END_SECONDS):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
            _wait(self.proc, END_SECONDS)


def _start_error(status: bytes) -> OSError:
    """The supervisor's ``error ERRNO FILE\\0MESSAGE`` as the OSError starting the
    command would have raised."""
    if not status.startswith(b"error "):
        return OSError("the bot could not be started (its supervisor ended)")
    head, _, message = status[6:].decode("utf-8", "replace").partition("\0")
    number, _, filename = head.partition(" ")
    try:
        code = int(number)
    except ValueError:
        code = 0
    return OSError(code, message, filename or None) if code else OSError(message)


# --------------------------------------------------------------------------- POSIX


class GroupTree:
    """The bot leading a session (and process group) of its own."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        self.proc = subprocess.Popen(argv, cwd=cwd, start_new_session=True, **_PIPES)

    def end(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            try:
                self.proc.kill()
            except OSError:
                pass
        _wait(self.proc, END_SECONDS)


# --------------------------------------------------------------------------- Windows

CREATE_NEW_PROCESS_GROUP = 0x00000200


class JobTree:
    """The bot in a Job Object that kills all its processes when it is closed
    (:func:`game.winproc.start_in_job`: started suspended, put in the job, resumed)."""

    def __init__(self, argv: list[str], cwd: str | None = None) -> None:
        self.proc, self.job = winproc.start_in_job(
            argv, cwd=cwd, creationflags=CREATE_NEW_PROCESS_GROUP, **_PIPES)

    def end(self) -> None:
        if self.job is not None:
            self.job.kill()
            self.job.close()
            self.job = None
        else:                              # not in a job: taskkill /T ends the tree
            try:
                subprocess.run(["taskkill", "/F", "/T", "/PID", str(self.proc.pid)],
                               capture_output=True, timeout=END_SECONDS, check=False)
            except (OSError, subprocess.TimeoutExpired):
                pass
            try:
                self.proc.kill()
            except OSError:
                pass
        _wait(self.proc, END_SECONDS)


__all__ = ["KIND", "GroupTree", "JobTree", "SupervisedTree", "Tree", "kind", "start",
           "supervisor_command"]
