"""The phone server's log under abuse: one short line per problem, a few a minute.

A device on the network decides how often the server meets malformed requests,
broken lines or a lack of file descriptors; a traceback for each would let it fill
the log (and the terminal of ``stammtisch host``) at thousands of lines a second.
:class:`Quiet` turns every such report into one line without a traceback and lets
at most ``burst`` lines of a kind through per ``window`` seconds; the next line that
passes says how many were held back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

#: The longest line written (the rest of a long message is cut).
MAX_LINE = 200


def one_line(text: str, exc: BaseException | None = None) -> str:
    """``text`` and the exception's kind and message, on one line of at most
    :data:`MAX_LINE` characters."""
    if exc is not None:
        text = f"{text}: {type(exc).__name__}: {exc}" if str(exc) else \
            f"{text}: {type(exc).__name__}"
    text = " ".join(text.split())
    return text if len(text) <= MAX_LINE else text[:MAX_LINE - 1] + "…"


class Quiet:
    """Rate-limited one-line reports to ``logger`` (at level WARNING)."""

    def __init__(self, logger: logging.Logger, burst: int = 5, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.burst = burst
        self.window = window
        self.clock = clock
        self._kinds: dict[str, list[float]] = {}   # kind -> [window start, lines, held]

    def allow(self, kind: str) -> tuple[bool, int]:
        """Whether a line of ``kind`` may be written now, and how many were held back
        since the last one that was."""
        now = self.clock()
        k = self._kinds.get(kind)
        if k is None or now - k[0] >= self.window:
            held = int(k[2]) if k is not None else 0
            self._kinds[kind] = [now, 1, 0]
            return True, held
        if k[1] < self.burst:
            k[1] += 1
            held, k[2] = int(k[2]), 0
            return True, held
        k[2] += 1
        return False, 0

    def say(self, kind: str, text: str, exc: BaseException | None = None) -> bool:
        """Report ``text`` (and ``exc``) as one line, if ``kind`` has room; says
        whether it was written."""
        ok, held = self.allow(kind)
        if ok:
            line = one_line(text, exc)
            if held:
                line += f" ({held} more like this held back)"
            self.logger.warning("%s", line)
        return ok

    def loop_handler(self, loop: Any, context: dict[str, Any]) -> None:
        """An asyncio exception handler: the loop's reports (``socket.accept()`` out
        of descriptors, a task that failed unseen) as one line each."""
        exc = context.get("exception")
        self.say("loop", f"phone server: {context.get('message', 'error')}",
                 exc if isinstance(exc, BaseException) else None)


class OneLineFilter(logging.Filter):
    """A logging filter for a logger handed to aiohttp: each record becomes one short
    line without a traceback, and :class:`Quiet` decides whether it passes."""

    def __init__(self, quiet: Quiet, kind: str = "http") -> None:
        super().__init__()
        self.quiet = quiet
        self.kind = kind

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return False
        ok, held = self.quiet.allow(self.kind)
        if not ok:
            return False
        exc = record.exc_info[1] if record.exc_info else None
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a record whose arguments do not fit
            text = str(record.msg)
        line = one_line(f"phone server: {text}", exc)
        if held:
            line += f" ({held} more like this held back)"
        record.msg, record.args = line, ()
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
