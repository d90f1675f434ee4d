"""One device's WebSocket as the phone server keeps it, what it tells the table
(:class:`Inbound`), and how the server closes a line (close codes)."""

from __future__ import annotations

import asyncio
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
