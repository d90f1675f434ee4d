"""How many connections the phone server keeps, from whom, and for how long.

A device on the network can open connections and never use them: TCP connections
that never send a request, WebSockets that never say ``hello``. Left alone, a few
hundred of them use up the server's file descriptors (macOS gives an app 256) and
every phone after them waits in vain. The gate keeps the count low and bounded:

* A connection that holds a phone seat (a WebSocket that said ``hello`` with a seat's
  token) is never closed by the gate: there is at most one per seat.
* A guest's WebSocket (it gave the right join code and is picking a seat) is kept for
  ``guest_deadline`` seconds; ``guests`` of them at most, ``guests_per_address`` from
  one address (the oldest goes first).
* Every other connection is *unseated*: a page or image request, an idle keep-alive,
  a WebSocket before its ``hello``. One address keeps at most ``per_address`` of
  them, all addresses together at most ``total`` (:func:`connection_budget`, from the
  descriptor limit). A new connection over either limit closes the oldest unseated
  one (of its own address, or of all), preferring idle
  requests, then WebSockets waiting for ``hello``, then requests in progress; but a
  connection younger than ``grace`` seconds is never closed for a newcomer (it has
  not had the time to send its request or its ``hello``), nor one younger than
  ``silent_grace`` that has sent nothing yet: when all are that young, the newcomer
  is refused. So a new phone gets in as soon as an older connection
  can give way, whoever hoards connections loses its own oldest ones, and a device
  that opens connections as fast as it can churns through at most ``per_address``
  per ``grace`` seconds.
* :meth:`Gate.sweep` closes an idle keep-alive after ``http_idle`` seconds, a request
  still unanswered after ``request_deadline``, a WebSocket without ``hello`` after
  ``hello_deadline``.

The gate decides; closing is the connection's own ``close`` callback (the server
gives each kind of connection its way to close). Pure logic with an injected clock.
"""

from __future__ import annotations

import os
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

HTTP = "http"          # a request or an idle keep-alive
PENDING = "pending"    # a WebSocket before hello
GUEST = "guest"        # a WebSocket that gave the right join code
SEAT = "seat"          # a WebSocket that holds a phone seat

#: Why a connection was closed (the server's WebSocket close reason): it gave way to a
#: newer one, there was no room for it (the newcomer), it waited too long, the guests
#: were too many.
EVICTED, REFUSED, IDLE, GUESTS = "evicted", "refused", "idle", "guests"

#: Descriptors kept free for everything else the program opens (autosave, statistics,
#: a bot's pipes, the window's files): the connections never take them.
RESERVE = 48
#: The most unseated connections at once, however many descriptors there are.
MAX_TOTAL = 512
#: Where the system has no descriptor limit to read (Windows' sockets are not files).
DEFAULT_TOTAL = 256


def open_descriptors() -> int | None:
    """How many file descriptors this process has open (Linux, macOS), else ``None``."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return None


@dataclass(frozen=True)
class Budget:
    """What the descriptor limit allows: ``total`` unseated connections, and
    ``backlog``, the listening sockets' queue, which is also how many connections the
    event loop takes at once (asyncio's selector loop accepts up to ``backlog`` in one
    turn and closes the ones the gate refuses a few turns later: several batches of
    them are open together, so the reserve grows with the batch)."""

    total: int
    backlog: int


def connection_budget(keep: int = 0) -> Budget:
    """The connections this process can afford: the descriptor limit, less the
    descriptors open now, :data:`RESERVE`, ``keep`` (one per phone seat, say) and four
    batches of accepted connections; at most :data:`MAX_TOTAL`, at least 16."""
    if sys.platform == "win32":
        return Budget(DEFAULT_TOTAL, 128)
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return Budget(DEFAULT_TOTAL, 128)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return Budget(MAX_TOTAL, 128)
    used = open_descriptors()
    free = soft - (32 if used is None else used)
    backlog = max(8, min(128, free // 8))
    total = free - RESERVE - keep - 4 * backlog
    return Budget(max(16, min(MAX_TOTAL, total)), backlog)


@dataclass(eq=False)
class Conn:
    """One connection: its peer ``address``, how to ``close(reason)`` it, its kind
    and when it last began or ended a request (``active``)."""

    address: str
    close: Callable[[str], None]
    opened: float
    active: float
    kind: str = HTTP
    busy: int = 0
    spoke: bool = False                # it has sent something
    since: float = 0.0                 # when it became what ``kind`` says
    closed: bool = False
    id: int = field(default=0)


@dataclass
class Limits:
    per_address: int = 16
    total: int = DEFAULT_TOTAL
    guests: int = 16
    guests_per_address: int = 4
    http_idle: float = 15.0
    request_deadline: float = 30.0
    hello_deadline: float = 10.0
    guest_deadline: float = 300.0
    grace: float = 1.0
    silent_grace: float = 0.25


class Gate:
    """The connections of one server (see the module's text)."""

    def __init__(self, limits: Limits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        self.clock = clock
        self._ids = 0
        #: unseated connections by address, oldest first
        self._unseated: dict[str, OrderedDict[int, Conn]] = {}
        self._guests: OrderedDict[int, Conn] = OrderedDict()
        self._seated: dict[int, Conn] = {}
        self.unseated_count = 0
        #: connections the gate closed, by reason (``evicted``, ``refused``, ``idle``,
        #: ``guests``)
        self.closed: dict[str, int] = {}

    # ------------------------------------------------------------------ queries

    def count(self, kind: str | None = None) -> int:
        if kind == GUEST:
            return len(self._guests)
        if kind == SEAT:
            return len(self._seated)
        if kind is not None:
            return sum(1 for by in self._unseated.values() for c in by.values()
                       if c.kind == kind)
        return self.unseated_count + len(self._guests) + len(self._seated)

    def of_address(self, address: str) -> int:
        """Unseated connections of ``address``."""
        return len(self._unseated.get(address, ()))

    # ------------------------------------------------------------------ changes

    def opened(self, address: str, close: Callable[[str], None]) -> Conn:
        """A new connection from ``address``: counted, and room made for it."""
        now = self.clock()
        self._ids += 1
        conn = Conn(address, close, now, now, since=now, id=self._ids)
        self._add_unseated(conn)
        by = self._unseated[address]
        if len(by) > self.limits.per_address and not self._evict(by, conn, now):
            self._close(conn, REFUSED)
            return conn
        while self.unseated_count > self.limits.total:
            everyone = sorted((c for b in self._unseated.values() for c in b.values()),
                              key=lambda c: c.opened)
            if not self._evict(everyone, conn, now):
                self._close(conn, REFUSED)          # nothing else can give way
                break
        return conn

    def lost(self, conn: Conn) -> None:
        """The connection closed (whoever closed it)."""
        conn.closed = True
        self._remove(conn)

    def begin(self, conn: Conn) -> None:
        """A request began on ``conn``."""
        conn.spoke = True
        conn.busy += 1
        conn.active = self.clock()

    def end(self, conn: Conn) -> None:
        conn.busy = max(0, conn.busy - 1)
        conn.active = self.clock()

    def become(self, conn: Conn, kind: str,
               close: Callable[[str], None] | None = None) -> None:
        """``conn`` is now a WebSocket before hello, a guest's or a seat's (and from now
        on closed by ``close``, when given: a WebSocket closes another way)."""
        if close is not None:
            conn.close = close
        if conn.closed or conn.kind == kind:
            return
        self._remove(conn)
        conn.kind, conn.since = kind, self.clock()
        if kind == SEAT:
            self._seated[conn.id] = conn
        elif kind == GUEST:
            self._guests[conn.id] = conn
            mine = [c for c in self._guests.values() if c.address == conn.address]
            while len(mine) > self.limits.guests_per_address:
                self._close(mine.pop(0), GUESTS)
            while len(self._guests) > self.limits.guests:
                self._close(next(iter(self._guests.values())), GUESTS)
        else:
            self._add_unseated(conn)

    def sweep(self) -> int:
        """Close what has waited too long (see the module's text); returns how many."""
        now = self.clock()
        lim = self.limits
        late: list[Conn] = []
        for by in self._unseated.values():
            for c in by.values():
                if c.kind == PENDING:
                    if now - c.since > lim.hello_deadline:
                        late.append(c)
                elif c.busy:
                    if now - c.active > lim.request_deadline:
                        late.append(c)
                elif now - c.active > lim.http_idle:
                    late.append(c)
        late += [c for c in self._guests.values() if now - c.since > lim.guest_deadline]
        for c in late:
            self._close(c, IDLE)
        return len(late)

    # ------------------------------------------------------------------ inside

    def _add_unseated(self, conn: Conn) -> None:
        self._unseated.setdefault(conn.address, OrderedDict())[conn.id] = conn
        self.unseated_count += 1

    def _remove(self, conn: Conn) -> None:
        by = self._unseated.get(conn.address)
        if by is not None and by.pop(conn.id, None) is not None:
            self.unseated_count -= 1
            if not by:
                del self._unseated[conn.address]
        self._guests.pop(conn.id, None)
        self._seated.pop(conn.id, None)

    def _evict(self, by: OrderedDict[int, Conn] | list[Conn], spare: Conn,
               now: float) -> bool:
        """Close the best one to lose of ``by`` (oldest first; never ``spare``, the
        newcomer, nor one younger than ``grace``); whether there was one."""
        lim = self.limits
        conns = by.values() if isinstance(by, OrderedDict) else by
        order = [c for c in conns if c is not spare and now - c.opened >= (
            lim.grace if c.spoke else lim.silent_grace)]
        if not order:
            return False
        victim = (next((c for c in order if c.kind == HTTP and not c.busy), None)
                  or next((c for c in order if c.kind == PENDING), None)
                  or order[0])
        self._close(victim, EVICTED)
        return True

    def _close(self, conn: Conn, reason: str) -> None:
        self._remove(conn)
        conn.closed = True
        self.closed[reason] = self.closed.get(reason, 0) + 1
        try:
            conn.close(reason)
        except Exception:  # noqa: BLE001 - a connection already gone
            pass
