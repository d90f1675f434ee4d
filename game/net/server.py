"""The phone server: aiohttp in a background thread with its own event loop.

It serves the phone page and its files (:mod:`game.net.page`) and one WebSocket
channel per device (``/ws``), and decides nothing about the game: a device that said
``hello`` with a seat's token is that seat's line; its moves and advice requests go to
:attr:`PhoneServer.inbox` (a thread-safe queue the table drains), and the table's
answers come back through :meth:`PhoneServer.send`, which any thread may call.

What it guards (see :mod:`game.net.access` and :mod:`game.net.protocol`):

* only devices on the local network (:func:`game.net.addresses.allowed_peer`), and
  only requests addressed to an IP address or ``localhost`` (a web page elsewhere
  cannot reach it through a rebound name); a WebSocket's ``Origin`` must be the page;
* a message may have at most ``MAX_MESSAGE`` bytes (bigger ones are refused; frames
  past ``HARD_LIMIT`` close the line with code 1009), and a connection at most
  ``rate`` messages a second after a burst (more are refused; a flood closes the
  line with code 1008);
* wrong tokens and join codes count against the device's address (``locked``);
* one live line per seat: a new ``hello`` for a seat (a reload, a second device)
  replaces the old line, which is told ``bye``.

Each seat's last ``state`` and the game's public ``history`` are kept, so a phone
that reconnects gets its current view at once. :meth:`stop` closes every line with ``bye`` and frees the port.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import logging
import queue
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from aiohttp import WSCloseCode, WSMsgType, web

from game.net import page, protocol
from game.net.access import Attempts, Clock, RateLimit, SeatAccess
from game.net.addresses import allowed_peer, listen_hosts, public_host
from game.net.protocol import Refused

log = logging.getLogger("stammtisch.net")

#: Connections the server keeps at once (all devices together).
MAX_CONNECTIONS = 64
#: Messages waiting to be written to one device; a device that reads nothing for
#: this long is disconnected (it gets its current state when it comes back).
MAX_BACKLOG = 256
#: Messages refused in a row for flooding before the line is closed.
FLOOD_CLOSE = 200
#: Close codes: the page reconnects after any of them except ``REPLACED``.
CLOSE_FLOOD = int(WSCloseCode.POLICY_VIOLATION)
CLOSE_REPLACED = 4001
CLOSE_GONE = int(WSCloseCode.GOING_AWAY)


class Inbound(NamedTuple):
    """Something a phone said that the table must hear. ``kind``: ``move``,
    ``advice`` (``data`` is the checked message), ``connected`` (``data["lang"]``),
    ``disconnected``, ``named`` (a guest claimed the seat: ``data["name"]``)."""

    kind: str
    seat: int
    data: dict[str, Any]


@dataclass(eq=False)
class _Line:
    """One device's WebSocket."""

    id: int
    ws: web.WebSocketResponse
    address: str
    rate: RateLimit
    seat: int | None = None
    out: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)


class PhoneServer:
    """The server of one table's phone seats (``access``: tokens and join code).

    ``bind`` is one local address to listen on (default: loopback and the computer's
    local-network addresses), ``port`` 0 picks a free one. ``wake`` is called (in the
    server's thread) whenever something is put in :attr:`inbox`. ``on_sent(seat,
    text)`` hears every message written to a device (``seat`` ``None`` before hello).
    """

    def __init__(self, access: SeatAccess, *, bind: str | None = None, port: int = 0,
                 wake: Callable[[], None] | None = None, clock: Clock = time.monotonic,
                 rate: float = 20.0, burst: float = 40.0, heartbeat: float | None = 15.0,
                 on_sent: Callable[[int | None, str], None] | None = None) -> None:
        self.access = access
        self.hosts = listen_hosts(bind)
        self.port = port
        self.wake = wake
        self.clock = clock
        self.rate, self.burst = rate, burst
        self.heartbeat = heartbeat
        self.on_sent = on_sent
        self.inbox: queue.SimpleQueue[Inbound] = queue.SimpleQueue()
        self.attempts = Attempts(clock=clock)
        #: refusals by code (the server's own; the table's answers are not counted)
        self.refusals: Counter[str] = Counter()
        self._names: list[str] = []
        self._latest: dict[int, str] = {}
        self._history: list[Any] = []
        self._lines: dict[int, _Line] = {}
        self._by_seat: dict[int, _Line] = {}
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._connected_lock = threading.Lock()
        self._connected: set[int] = set()
        self.stopped = False

    # ------------------------------------------------------------------ any thread

    def start(self, timeout: float = 15.0) -> PhoneServer:
        """Start listening (returns once bound); raises ``OSError`` if it cannot."""
        if self._thread is not None:
            return self
        self._thread = threading.Thread(target=self._run, name="phone-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError("the phone server did not start in time")
        if self._error is not None:
            self._thread.join(timeout)
            raise OSError(f"the phone server cannot listen: {self._error}") from self._error
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Close every line (``bye``) and stop listening. Idempotent."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        self.stopped = True

    @property
    def base_url(self) -> str:
        return f"http://{_url_host(public_host(self.hosts))}:{self.port}"

    def link(self, seat: int) -> str:
        """The join link of a phone seat (its QR code)."""
        return f"{self.base_url}/p/{self.access.tokens[seat]}"

    def join_link(self) -> str:
        """The guests' link: the join code is in it."""
        return f"{self.base_url}/j/{self.access.code}"

    def connected(self) -> set[int]:
        """Phone seats with a live line now."""
        with self._connected_lock:
            return set(self._connected)

    def send(self, seat: int, message: dict[str, Any], *, state: bool = False) -> None:
        """Send ``message`` to the device of ``seat`` (if one is connected). A
        ``state`` is also kept for the seat's next connection."""
        self._call(self._deliver, seat, protocol.dumps(message), state)

    def send_history(self, first: int, rounds: list[Any]) -> None:
        """The public events of finished rounds ``first``, ``first + 1`` … for every
        phone (kept, so a phone that connects gets all of them at once)."""
        self._call(self._add_history, first, list(rounds))

    def set_names(self, names: list[str]) -> None:
        """The table's seat names (the guests' seat list shows them)."""
        self._call(self._set_names, list(names))

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self._loop
        if self._thread is None:      # not started: nobody else touches the state yet
            fn(*args)
            return
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):   # the loop closed meanwhile
            loop.call_soon_threadsafe(fn, *args)

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # noqa: BLE001 - reported to start()
            self._error = exc
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        app = web.Application(client_max_size=1024, middlewares=[self._guard])
        r = app.router
        r.add_get("/", self._page)
        r.add_get("/p/{token}", self._page)
        r.add_get("/j/{code}", self._page)
        r.add_get("/ws", self._socket)
        r.add_get("/icon.png", self._icon)
        r.add_get("/cards/{set}/{name}.png", self._card)
        r.add_get("/backs/{name}.png", self._back)
        r.add_get("/{name}", self._file)
        runner = web.AppRunner(app, access_log=None, handle_signals=False,
                               shutdown_timeout=1.0)
        await runner.setup()
        sites: list[web.TCPSite] = []
        try:
            for host in self.hosts:
                site = web.TCPSite(runner, host, self.port, reuse_address=reuse_address())
                await site.start()
                sites.append(site)
                if self.port == 0:
                    server = site._server
                    assert server is not None
                    self.port = int(server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
            self._ready.set()
            await self._stopping.wait()
            await _stop_accepting(sites)
            for site in sites:            # no new connections from here on
                await site.stop()
            for line in list(self._lines.values()):
                await self._close(line, CLOSE_GONE, {"type": "bye", "reason": "closed"})
        finally:
            await runner.cleanup()

    # ------------------------------------------------------------------ http

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not allowed_peer(request.remote):
            raise web.HTTPForbidden(text="local network only")
        if not _host_ok(request.host):
            raise web.HTTPMisdirectedRequest(text="use the address the table shows")
        resp: web.StreamResponse = await handler(request)
        if not resp.prepared:
            resp.headers["X-Content-Type-Options"] = "nosniff"
            resp.headers["Referrer-Policy"] = "no-referrer"
            resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    async def _page(self, request: web.Request) -> web.Response:
        found = page.page()
        if found is None:
            raise web.HTTPNotFound()
        resp = web.Response(body=found.body, content_type="text/html", charset="utf-8")
        resp.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src 'self' ws://{request.host}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")
        return resp

    async def _file(self, request: web.Request) -> web.Response:
        return _served(page.page_file(request.match_info["name"]))

    async def _card(self, request: web.Request) -> web.Response:
        m = request.match_info
        return _served(page.card_image(m["set"], m["name"]), cache=True)

    async def _back(self, request: web.Request) -> web.Response:
        return _served(page.back_image(request.match_info["name"]), cache=True)

    async def _icon(self, request: web.Request) -> web.Response:
        return _served(page.icon(), cache=True)

    # ------------------------------------------------------------------ websocket

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"http://{request.host}":
            raise web.HTTPForbidden(text="wrong origin")
        if len(self._lines) >= MAX_CONNECTIONS:
            raise web.HTTPServiceUnavailable(text=protocol.CODES["full"])
        ws = web.WebSocketResponse(max_msg_size=protocol.HARD_LIMIT,
                                   heartbeat=self.heartbeat, compress=False)
        await ws.prepare(request)
        line = _Line(next(self._ids), ws, str(request.remote),
                     RateLimit(self.rate, self.burst, self.clock))
        self._lines[line.id] = line
        writer = asyncio.ensure_future(self._writer(line))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_text(line, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    self._reply(line, protocol.refused("malformed", "send text, not binary"))
                else:       # an error: the frame was too big, or the line broke
                    if getattr(msg.data, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                        self.refusals["too_big"] += 1      # aiohttp closed it with 1009
                    break
        finally:
            self._drop(line)
            line.out.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
        return ws

    async def _writer(self, line: _Line) -> None:
        """Write one line's messages in order (one writer per line)."""
        while True:
            text = await line.out.get()
            if text is None or line.ws.closed:
                return
            try:
                await line.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
            if self.on_sent is not None:
                self.on_sent(line.seat, text)

    def _reply(self, line: _Line, message: dict[str, Any]) -> None:
        if message.get("type") == "refused":
            self.refusals[message["code"]] += 1
        self._queue(line, protocol.dumps(message))

    def _queue(self, line: _Line, text: str) -> None:
        if line.out.qsize() >= MAX_BACKLOG:
            asyncio.ensure_future(line.ws.close(code=int(WSCloseCode.TRY_AGAIN_LATER),
                                                message=b"not reading"))
            return
        line.out.put_nowait(text)

    async def _close(self, line: _Line, code: int, last: dict[str, Any]) -> None:
        self._reply(line, last)
        line.out.put_nowait(None)
        self._drop(line)
        with contextlib.suppress(Exception):
            # let the writer send what is queued before the close frame
            for _ in range(50):
                if line.out.empty():
                    break
                await asyncio.sleep(0.01)
            await line.ws.close(code=code, message=str(last.get("reason", "")).encode())

    def _drop(self, line: _Line) -> None:
        if self._lines.pop(line.id, None) is None:
            return
        seat = line.seat
        if seat is not None and self._by_seat.get(seat) is line:
            del self._by_seat[seat]
            with self._connected_lock:
                self._connected.discard(seat)
            self._post(Inbound("disconnected", seat, {}))

    def _post(self, item: Inbound) -> None:
        self.inbox.put(item)
        if self.wake is not None:
            try:
                self.wake()
            except Exception:  # noqa: BLE001 - a failing wake-up must not stop the server
                log.exception("phone server: wake-up failed")

    async def _on_text(self, line: _Line, text: str) -> None:
        if not line.rate.take():
            if line.rate.over == 1:
                self._reply(line, protocol.refused("too_fast"))
            if line.rate.over >= FLOOD_CLOSE:
                await self._close(line, CLOSE_FLOOD,
                                  {"type": "bye", "reason": "too_fast"})
            return
        try:
            msg = protocol.parse(text)
            self._handle(line, msg)
        except Refused as r:
            self._reply(line, r.as_message())

    def _handle(self, line: _Line, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            self._reply(line, {"type": "pong"})
        elif kind == "hello":
            self._hello(line, msg)
        elif kind in ("join", "claim"):
            self._join(line, msg)
        elif line.seat is None:
            raise Refused("not_joined", id=msg.get("id"))
        else:           # move, advice: the table answers
            self._post(Inbound(kind, line.seat, msg))

    def _check_attempts(self, line: _Line) -> None:
        if self.attempts.locked(line.address):
            raise Refused("locked")

    def _hello(self, line: _Line, msg: dict[str, Any]) -> None:
        self._check_attempts(line)
        seat = self.access.seat_of(msg["token"])
        if seat is None:
            self.attempts.failed(line.address)
            raise Refused("bad_token")
        if line.seat is not None and line.seat != seat:
            raise Refused("bad_token", "this line already belongs to another seat")
        old = self._by_seat.get(seat)
        if old is not None and old is not line:
            old.seat = None            # its closing is not this seat's disconnection
            asyncio.ensure_future(self._close(old, CLOSE_REPLACED,
                                              {"type": "bye", "reason": "replaced"}))
        line.seat = seat
        self._by_seat[seat] = line
        self.access.claimed.add(seat)
        with self._connected_lock:
            self._connected.add(seat)
        self._reply(line, {"type": "welcome", "seat": seat,
                           "name": self._names[seat] if seat < len(self._names) else ""})
        if self._history:
            self._reply(line, {"type": "history", "from": 0, "rounds": self._history})
        latest = self._latest.get(seat)
        if latest is not None:
            self._queue(line, latest)
        self._post(Inbound("connected", seat, {"lang": msg.get("lang")}))

    def _join(self, line: _Line, msg: dict[str, Any]) -> None:
        self._check_attempts(line)
        if not self.access.code_ok(msg["code"]):
            self.attempts.failed(line.address)
            raise Refused("bad_code")
        free = self.access.free(self._by_seat)
        if msg["type"] == "join":
            self._reply(line, {"type": "seats", "free": [
                {"seat": s, "name": self._names[s] if s < len(self._names) else ""}
                for s in free]})
            return
        seat = msg["seat"]
        if seat not in free:
            raise Refused("seat_taken", detail={"seat": seat})
        self.access.claimed.add(seat)
        self._post(Inbound("named", seat, {"name": msg["name"]}))
        self._reply(line, {"type": "claimed", "seat": seat,
                           "token": self.access.tokens[seat]})

    # ------------------------------------------------------------------ from the table

    def _deliver(self, seat: int, text: str, state: bool) -> None:
        if state:
            self._latest[seat] = text
        line = self._by_seat.get(seat)
        if line is not None:
            self._queue(line, text)

    def _add_history(self, first: int, rounds: list[Any]) -> None:
        del self._history[first:]
        self._history += rounds
        text = protocol.dumps({"type": "history", "from": first, "rounds": rounds})
        for line in list(self._by_seat.values()):
            self._queue(line, text)

    def _set_names(self, names: list[str]) -> None:
        self._names = names


def reuse_address(platform: str | None = None) -> bool:
    """``SO_REUSEADDR`` on the listening sockets: on POSIX a table may listen again at
    once on the port a closed one used; on Windows the option lets another socket bind
    the same port while ours listens (and take the phones' connections), so there
    never: a port in use is then refused as one."""
    return not (platform or sys.platform).startswith(("win", "cygwin"))


async def _stop_accepting(sites: list[web.TCPSite]) -> None:
    """Stop taking connections, and let the ones already taken be made.

    A connection is taken in one turn of the loop and made in the next. Closing the
    listening socket in between (what ``site.stop()`` does) makes asyncio fail to make
    it, silently, and leave its socket open: that phone waited, neither answered nor
    closed, until its browser gave up. So the loop stops watching the listening
    sockets first and lets the connections already taken be made; aiohttp's shutdown
    then closes them with the rest. (The selector loop of Linux and macOS.)

    Windows' proactor loop takes connections ahead (an ``AcceptEx`` always waiting):
    one taken just before the stop was made after aiohttp's shutdown, so nothing ever
    closed it (under Wine 8: 9 of 300 requests in such rushes). There the servers stop
    serving first (the waiting accepts are cancelled, their sockets closed), and the
    connections already taken are made in the next turns, before the shutdown."""
    loop = asyncio.get_running_loop()
    if not isinstance(loop, asyncio.SelectorEventLoop):
        for site in sites:
            if site._server is not None:
                site._server.close()
        for _ in range(3):
            await asyncio.sleep(0)
        return
    for site in sites:
        server = site._server
        for sock in server.sockets if server is not None else ():
            loop.remove_reader(sock.fileno())
    for _ in range(2):     # each taken connection is made in the next turn
        await asyncio.sleep(0)


def _served(found: page.Served | None, cache: bool = False) -> web.Response:
    if found is None:
        raise web.HTTPNotFound()
    resp = web.Response(body=found.body, headers={"Content-Type": found.content_type})
    if cache:
        resp.headers["Cache-Control"] = "max-age=86400"
    return resp


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _host_ok(host: str) -> bool:
    """A request's ``Host``: an IP address or ``localhost`` (with any port)."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 or host.startswith("[") else host
    name = name.strip("[]")
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
