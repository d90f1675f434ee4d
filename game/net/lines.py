"""One device's WebSocket as the phone server keeps it, what it tells the table
(:class:`Inbound`), how the server closes a line (close codes), writes to it
(:func:`write_out`) and ends it (:func:`close_line`, :func:`close_idle`), and learns
what the device received (:class:`Receipts`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from aiohttp import WSCloseCode, web

from game.net.access import RateLimit
from game.net.gate import Conn

#: Messages waiting to be written to one device; a device that reads nothing for
#: this long is disconnected (it gets its current state when it comes back).
MAX_BACKLOG = 256
#: Messages refused in a row for flooding before the line is closed.
FLOOD_CLOSE = 200
#: Close codes: the page reconnects after any of them except ``REPLACED`` and, on the
#: join screen, ``IDLE`` (it connects again when the guest acts).
CLOSE_FLOOD = int(WSCloseCode.POLICY_VIOLATION)
CLOSE_REPLACED = 4001
CLOSE_IDLE = 4002
CLOSE_GONE = int(WSCloseCode.GOING_AWAY)
CLOSE_FAILED = int(WSCloseCode.INTERNAL_ERROR)
#: What a line to a phone that is gone raises (reset, timeout, closed): never a bug.
LINE_GONE: tuple[type[Exception], ...] = (OSError, RuntimeError, asyncio.TimeoutError)


class Inbound(NamedTuple):
    """Something a phone said that the table must hear. ``kind``: ``move``,
    ``advice`` (``data`` is the checked message), ``connected`` (``data["lang"]``),
    ``disconnected``, ``named`` (a guest claimed the seat: ``data["name"]``)."""

    kind: str
    seat: int
    data: dict[str, Any]


@dataclass(eq=False)
class Line:
    """One device's WebSocket."""

    id: int
    ws: web.WebSocketResponse
    address: str
    rate: RateLimit
    conn: Conn | None = None
    transport: Any = None
    seat: int | None = None
    claimed: int | None = None         # the seat this line claimed with the join code
    #: how the server closes it (set before the close: see ``_socket``)
    close_code: int | None = None
    close_reason: bytes = b""
    #: (text, step of a ``state`` or ``None``) to write, ``None`` to stop the writer
    out: asyncio.Queue[tuple[str, int | None] | None] = field(default_factory=asyncio.Queue)
    #: the highest step a ping on this line carried (a pong may confirm no more)
    pinged: int = -1


async def close_line(line: Line, code: int, reason: bytes) -> None:
    """Close ``line`` with ``code`` once its writer has sent what is queued (a moment at
    most), and cut the connection of a peer that does not answer the close frame."""
    with contextlib.suppress(*LINE_GONE):
        for _ in range(50):
            if line.out.empty():
                break
            await asyncio.sleep(0.01)
        # the close frame may wait for a peer that reads nothing: not for long
        line.close_code, line.close_reason = code, reason
        await asyncio.wait_for(line.ws.close(code=code, message=reason), 2.0)
    if line.transport is not None and not line.transport.is_closing() and line.ws.closed:
        line.transport.abort()


async def close_idle(line: Line, transport: Any) -> None:
    """Close a line the gate found idle (``CLOSE_IDLE``), cutting it if it will not."""
    with contextlib.suppress(*LINE_GONE):
        await asyncio.wait_for(line.ws.close(code=CLOSE_IDLE, message=b"idle"), 1.0)
    if not transport.is_closing():
        transport.abort()


# ------------------------------------------------------------------ receipts

#: What the ping after a ``state`` carries: this prefix and the step in ASCII digits.
PING_PREFIX = b"step "
#: More digits than any game has steps; a longer payload is not the server's.
MAX_STEP_DIGITS = 9


def ping_for(step: int) -> bytes:
    """The payload of the ping that follows the ``state`` of ``step``."""
    return PING_PREFIX + str(step).encode("ascii")


def ponged_step(payload: object, pinged: int) -> int | None:
    """The step a pong's ``payload`` confirms, or ``None``: a pong answers a ping with
    the same payload, so only what :func:`ping_for` makes counts, and only for a step
    the line was pinged for (at most ``pinged``). Anything else a device sends (empty,
    the heartbeat's, garbage, a step not yet sent) confirms nothing."""
    if not isinstance(payload, (bytes, bytearray, memoryview)) \
            or len(payload) > len(PING_PREFIX) + MAX_STEP_DIGITS:
        return None
    data = bytes(payload)
    if not data.startswith(PING_PREFIX):
        return None
    digits = data[len(PING_PREFIX):]
    if not 0 < len(digits) <= MAX_STEP_DIGITS or not digits.isdigit():
        return None                    # bytes.isdigit: ASCII digits only, no sign
    if digits != b"0" and digits.startswith(b"0"):
        return None                    # only the spelling ping_for makes
    step = int(digits)
    return step if step <= pinged else None


class Receipts:
    """The highest step each seat's devices confirmed they received: a pong to the
    ping after a ``state`` (a browser answers pings by itself, in order, once it has
    read every frame before). A write proves nothing: a line that has just gone
    silent still takes writes. Written in the server's thread; :meth:`step` may be
    read from any (one dict look-up)."""

    def __init__(self) -> None:
        self._steps: dict[int, int] = {}

    def step(self, seat: int) -> int:
        """The highest step ``seat`` confirmed (-1: none)."""
        return self._steps.get(seat, -1)

    def pong(self, line: Line, payload: object) -> None:
        """``line`` answered a ping with ``payload``."""
        step = ponged_step(payload, line.pinged)
        if step is not None and line.seat is not None:
            self._steps[line.seat] = max(step, self.step(line.seat))


async def write_out(line: Line, on_sent: Callable[[int | None, str], None] | None) -> None:
    """Write one line's messages in order (one writer per line). After a seated
    line's ``state``, a ping carrying its step (:func:`ping_for`): the device's pong
    tells :class:`Receipts` the state arrived. ``on_sent(seat, text)`` hears each
    message once it is written."""
    while True:
        item = await line.out.get()
        if item is None or line.ws.closed:
            return
        text, step = item
        try:
            await line.ws.send_str(text)
            if step is not None and line.seat is not None:
                # before the ping: its pong may be read before this task goes on
                line.pinged = max(line.pinged, step)
                await line.ws.ping(ping_for(step))
        except (ConnectionError, RuntimeError):
            return
        if on_sent is not None:
            on_sent(line.seat, text)
