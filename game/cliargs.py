"""Argument types for the ``stammtisch`` command and its subcommands.

Every number on the command line is range-checked here, so a bad one ends in
argparse's usual ``error:`` line and exit status 2, never in a traceback or in a run
with nonsense settings (``nan`` seconds, ``-1`` rounds, an infinite time limit).
``rules_json`` reads a ``--rules`` argument through the game's one JSON reader, and
``file_path`` refuses a file to write whose folder does not exist before anything
starts (no folder is made for it).
"""

from __future__ import annotations

import argparse
import math
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game import jsonio

#: Seeds are non-negative 64-bit integers (they are mixed as such).
SEED_MAX = 2**64 - 1
#: The most characters of a path an error line names.
PATH_SHOWN = 200


def quoted(text: str, most: int = 40) -> str:
    """``text`` quoted for an error line, shortened to ``most`` characters: an argument
    of 5,000 digits is named, not echoed whole."""
    return repr(text if len(text) <= most else text[:most] + "…")


def int_range(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``lo`` to ``hi``."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {quoted(text)}") \
                from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be from {lo} to {hi}, "
                                             f"got {quoted(text.strip())}")
        return value

    parse.__name__ = "integer"
    return parse


def seconds(lo: float, hi: float, *, lo_open: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from ``lo`` (excluded when
    ``lo_open``) to ``hi``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number of seconds, "
                                             f"got {quoted(text)}") from None
        if not math.isfinite(value) or value > hi or value < lo or (lo_open and value == lo):
            low = f"more than {lo:g}" if lo_open else f"at least {lo:g}"
            raise argparse.ArgumentTypeError(f"must be {low} and at most {hi:g} seconds, "
                                             f"got {quoted(text)}")
        return value

    parse.__name__ = "seconds"
    return parse


def seed(text: str) -> int:
    """An argparse type: a seed, 0 to 2**64 - 1."""
    return int_range(0, SEED_MAX)(text)


seed.__name__ = "seed"


def rules_json(text: str) -> dict[str, Any]:
    """An argparse type: a JSON object of rules keys (validated later by the engine)."""
    try:
        value = jsonio.loads(text)
    except jsonio.JSONError as exc:
        raise argparse.ArgumentTypeError(f"not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(
            f"must be a JSON object such as '{{\"lives\": 2}}', got {quoted(text.strip())}")
    return value


rules_json.__name__ = "rules"


def file_path(text: str) -> str:
    """An argparse type: the path of a file to write, checked before anything starts.

    Not empty (an empty one would quietly write nothing), not a folder, and in a
    folder that exists: a missing one is most likely a typo, and a folder made for it
    would hide the file where nobody looks (``host --record`` writes only at the end
    of a game, so a bad path found then would cost the game's record). The path is
    named as typed, shortened when long."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file's path, got an empty one")
    path = Path(text)
    if _kind(path) == "folder":
        raise argparse.ArgumentTypeError(f"{quoted(text, PATH_SHOWN)} is a folder, "
                                         "not a file")
    folder = path.parent
    kind = _kind(folder)
    if kind in (None, "other"):
        named = quoted(str(folder), PATH_SHOWN)
        raise argparse.ArgumentTypeError(f"the folder {named} does not exist"
                                         if kind is None else f"{named} is not a folder")
    return text


file_path.__name__ = "path"


def _kind(path: Path) -> str | None:
    """``"folder"``; ``"other"`` (a file, a device …); ``None`` when nothing is there
    (or cannot be: a name too long, a NUL character); ``"unknown"`` when the system
    does not say (no permission to look): not refused here, the write will tell."""
    try:
        st = os.stat(path)
    except PermissionError:
        return "unknown"
    except (OSError, ValueError):
        return None
    return "folder" if stat.S_ISDIR(st.st_mode) else "other"


__all__ = ["SEED_MAX", "file_path", "int_range", "quoted", "rules_json", "seconds", "seed"]
