"""Helpers of the Windows tests: the marker of the tests that need Windows itself, and
the process-tree bot (tools/frozen_checks/tree_bot.py) whose helper leaves heartbeats."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREE_BOT = ROOT / "tools" / "frozen_checks" / "tree_bot.py"
windows = pytest.mark.skipif(
    sys.platform != "win32",
    reason="Windows itself: runs under Wine in tools/build_windows.py --smoke")


def beats(path: Path) -> int:
    try:
        return len(path.read_text(encoding="utf-8").splitlines())
    except OSError:
        return 0


def still_beating(path: Path) -> bool:
    """Whether a helper still appends to ``path`` (it does every 0.1 s)."""
    before = beats(path)
    time.sleep(1.0)
    return beats(path) != before


def wait_for_beats(path: Path) -> None:
    for _ in range(300):
        if beats(path) >= 2:
            return
        time.sleep(0.1)
    raise AssertionError("the bot's helper never started")
