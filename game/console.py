"""The standard streams on Windows: UTF-8 into pipes and files, and a console for the
windowed build's command-line use.

**UTF-8.** Python on Windows writes to a console in Unicode, but to a pipe or a file
in the ANSI code page (cp1252 in western Europe). A tournament's table, a replay's
error or a player's name with a character outside that page (``ботик.py``, ``→``)
then stops the program with ``UnicodeEncodeError``. :func:`utf8_output` switches
such streams to UTF-8 (what every other platform writes, and what a program reading
the JSON output expects).

**A console.** The Windows build is a windowed program (no console window flashes
up when the game starts), so Windows gives it no standard output of its own: run
from ``cmd`` or PowerShell without redirection, ``stammtisch tournament ...`` would
print nowhere. :func:`attach_parent_console` attaches such a run to the console of
the program that started it, for the command-line uses only (subcommands, ``--help``,
``--frame-stats``), never for the window (whose console could then close the game).
``cmd`` does not wait for a windowed program, so the output may follow its prompt;
``start /wait stammtisch ...`` waits. With redirection (``> out.txt``, a pipe) Windows
hands the streams over and nothing needs attaching.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

#: Options and subcommands that are used from a terminal and print.
PRINTING_OPTIONS = ("-h", "--help", "--frame-stats")
#: ``AttachConsole``'s "the parent process's console".
ATTACH_PARENT_PROCESS = 0xFFFFFFFF


def _platform() -> str:
    """``sys.platform``; a function so tests can pretend to be Windows."""
    return sys.platform


def utf8_output() -> list[str]:
    """On Windows, make standard output and error UTF-8 where they are not a console;
    the names of the streams switched (none elsewhere, or when already UTF-8)."""
    if _platform() != "win32":
        return []
    switched = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding = str(getattr(stream, "encoding", "") or "").lower().replace("-", "")
        if stream is None or encoding == "utf8" or not hasattr(stream, "reconfigure"):
            continue
        try:
            if stream.isatty():
                continue
            stream.reconfigure(encoding="utf-8")
        except (OSError, ValueError, AttributeError):
            continue
        switched.append(name)
    return switched


def wants_console(argv: Sequence[str], subcommands: Sequence[str]) -> bool:
    """Whether this run of the windowed build prints for a terminal."""
    args = list(argv)
    return bool(args) and (args[0] in subcommands
                           or any(a in PRINTING_OPTIONS for a in args))


def _kernel32() -> Any:
    import ctypes

    return ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]


def attach_parent_console(argv: Sequence[str], subcommands: Sequence[str], *,
                          kernel32: Callable[[], Any] = _kernel32,
                          opener: Callable[..., Any] = open) -> bool:
    """On Windows, when the process has no standard output or error at all (a windowed
    program started without redirection) and ``argv`` asks for printed output, attach
    to the parent's console and write there; True if it did."""
    if _platform() != "win32" or not wants_console(argv, subcommands):
        return False
    if sys.stdout is not None or sys.stderr is not None:
        return False                 # redirected: Windows handed the streams over
    try:
        if not kernel32().AttachConsole(ATTACH_PARENT_PROCESS):
            return False             # started from Explorer: there is no console
        out = opener("CONOUT$", "w", encoding="utf-8", errors="replace")
        sys.stdout = sys.stderr = out
        sys.__stdout__ = sys.__stderr__ = out
        if sys.stdin is None:
            sys.stdin = opener("CONIN$", "r", encoding="utf-8", errors="replace")
            sys.__stdin__ = sys.stdin
    except (OSError, ValueError, AttributeError):
        return False
    return True


@contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """Nothing a native library writes to the process's standard error (descriptor 2)
    reaches the terminal inside the block. Without a sound card, ALSA prints eight
    lines there while SDL looks for an audio device; the game says why it is silent in
    its log, and Python's own errors in the block are raised, not printed. Another
    thread's writes to standard error in that moment are lost too, so the block holds
    one short native call (the mixer starts once). Only where descriptor 2 can be set
    aside (not on Windows, whose windowed build has none)."""
    if _platform() == "win32":
        yield
        return
    saved = _set_aside_stderr()
    if saved is None:
        yield                        # no descriptor 2, or no null device: as it is
        return
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _set_aside_stderr() -> int | None:
    """Point descriptor 2 at the null device; a copy of what it was, or None (left as
    it was) when that cannot be done."""
    try:
        saved = os.dup(2)
    except OSError:
        return None
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
    except OSError:
        os.close(saved)
        return None
    return saved


__all__ = ["attach_parent_console", "native_stderr_silenced", "utf8_output",
           "wants_console"]
