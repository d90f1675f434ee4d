"""The phone server: aiohttp in a background thread with its own event loop.

It serves the phone page and its files (:mod:`game.net.http`) and one WebSocket
channel per device (``/ws``), and decides nothing about the game: a device that said
``hello`` with a seat's token is that seat's line; its moves and advice requests go to
:attr:`PhoneServer.inbox` (a thread-safe queue the table drains), and the table's
answers come back through :meth:`PhoneServer.send`, which any thread may call.

What it guards (see :mod:`game.net.access`, :mod:`game.net.gate`,
:mod:`game.net.protocol` and ``docs/phone.md``):

* only devices on the local network (:func:`game.net.addresses.allowed_peer`), and
  only requests addressed exactly to an address it listens on, with its port (a web
  page elsewhere cannot reach it through a rebound name); a WebSocket's ``Origin``
  must be the page;
* how many connections it keeps and for how long (:class:`~game.net.gate.Gate`): idle
  connections and WebSockets that never say ``hello`` cannot lock anybody out, and
  the connections never use up the file descriptors;
* a message may have at most ``MAX_MESSAGE`` bytes and ``MAX_DEPTH`` levels (bigger
  ones are refused; frames past ``HARD_LIMIT`` close the line with code 1009), and a
  connection at most ``rate`` messages, binary frames or pings a second after a burst
  (more are refused; a flood closes the line with code 1008);
* wrong join codes lock the device's address (and all addresses, when they come from
  many); wrong tokens are answered late; the right token always gets in;
* a line holds at most one seat; a seat a guest claims gets a token only that guest
  has; a guest cannot take a seat its owner joined by link, nor another seat's name;
  a seat opened by its link that still has the table's default name may name itself
  once (``renamable``), under the same rules as a guest;
* one live line per seat: a new ``hello`` for a seat (a reload, a second device)
  replaces the old line, which is told ``bye``.

Problems caused from the network are logged as one short line, a few a minute
(:mod:`game.net.quiet`). Each seat's last ``state`` and the game's public ``history``
are kept, so a phone that reconnects gets its current view at once. A ``state`` is
followed by a ping carrying its step; the pong says the device has it
(:meth:`PhoneServer.heard_step`). :meth:`stop` closes every line with ``bye``, frees
the port and leaves no task behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from game import notices
from game.net import gate as G
from game.net import page, protocol
from game.net.access import Attempts, Clock, RateLimit, SeatAccess
from game.net.addresses import allowed_peer, listen_hosts, public_host
from game.net.http import (
    Handler,
    HostNames,
    add_routes,
    finish_loop,
    listen,
    serve_page,
    stop_accepting,
    url_host,
    with_headers,
)
from game.net.lines import (  # noqa: F401 - Inbound and the codes are the server's API
    CLOSE_FAILED,
    CLOSE_FLOOD,
    CLOSE_GONE,
    CLOSE_IDLE,
    CLOSE_REPLACED,
    FLOOD_CLOSE,
    LINE_GONE,
    MAX_BACKLOG,
    Inbound,
    Line,
    Receipts,
    close_idle,
    close_line,
    write_out,
)
from game.net.names import NameBook
from game.net.protocol import Refused
from game.net.quiet import OneLineFilter, Quiet

log = logging.getLogger("stammtisch.net")
#: aiohttp's reports of the connections (a request it cannot parse, a handler that
#: failed): one short line each, a few a minute, whatever a device sends.
_http_log = logging.getLogger("stammtisch.net.http")
HTTP_QUIET = Quiet(log)
_http_log.addFilter(OneLineFilter(HTTP_QUIET))
logging.getLogger("aiohttp.websocket").addFilter(OneLineFilter(Quiet(log), "websocket"))

#: Seconds a stop waits for the lines to say goodbye.
STOP_GRACE = 2.5
#: Seconds a wrong token waits for its answer once its address (or everybody
#: together) sent too many (a line answers one message at a time).
TOKEN_DELAY = 2.0


class PhoneServer:
    """The server of one table's phone seats (``access``: tokens and join code).

    ``bind`` is one local address to listen on (default: loopback and the computer's
    main local-network address), ``port`` 0 picks a free one. ``wake`` is called (in
    the server's thread) whenever something is put in :attr:`inbox`. ``on_sent(seat,
    text)`` hears every message written to a device (``seat`` ``None`` before hello).
    ``limits`` are the gate's (:class:`~game.net.gate.Limits`; by default its total
    comes from the descriptor limit, :func:`~game.net.gate.connection_budget`).
    ``renamable`` are the phone seats whose names are the table's defaults: each may
    choose its name once (``name``), unless a guest claims it under a name first.
    """

    def __init__(self, access: SeatAccess, *, bind: str | None = None, port: int = 0,
                 wake: Callable[[], None] | None = None, clock: Clock = time.monotonic,
                 rate: float = 20.0, burst: float = 40.0, heartbeat: float | None = 15.0,
                 on_sent: Callable[[int | None, str], None] | None = None,
                 limits: G.Limits | None = None, attempts: Attempts | None = None,
                 token_delay: float = TOKEN_DELAY, sweep_every: float = 1.0,
                 renamable: Iterable[int] = ()) -> None:
        self.access = access
        self.hosts = listen_hosts(bind)
        self.port = port
        self.wake = wake
        self.clock = clock
        self.rate, self.burst = rate, burst
        self.heartbeat = heartbeat
        self.on_sent = on_sent
        self.inbox: queue.SimpleQueue[Inbound] = queue.SimpleQueue()
        self.attempts = attempts or Attempts(clock=clock)
        self.token_delay = token_delay
        self.sweep_every = sweep_every
        self._budgeted = limits is None
        self.gate = G.Gate(limits or G.Limits(), clock)
        self.quiet = Quiet(log)
        self.names = HostNames(self.hosts, port)
        #: refusals by code (the server's own; the table's answers are not counted)
        self.refusals: Counter[str] = Counter()
        self._names = NameBook(set(renamable) & set(access.tokens))
        self._latest: dict[int, tuple[str, int | None]] = {}
        self._heard = Receipts()
        self._history: list[Any] = []
        self._lines: dict[int, Line] = {}
        self._by_seat: dict[int, Line] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        #: stop() was called: read by the server's thread, which may not have made
        #: its loop and ``_stopping`` yet (a start that gave up waiting)
        self._stop_asked = threading.Event()
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
            self.stop(timeout=0)         # nobody would stop it: it stops once it runs
            raise OSError("the phone server did not start in time")
        if self._error is not None:
            self._thread.join(timeout)
            raise OSError(f"the phone server cannot listen: {self._error}") from self._error
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Close every line (``bye``) and stop listening. Idempotent; also before the
        server's thread has made its loop (it then stops as soon as it runs)."""
        self._stop_asked.set()           # first: the thread reads it after _stopping
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stopping.set)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread() and \
                thread.is_alive():        # (not alive: ended, or not started yet)
            thread.join(timeout)
        self.stopped = True

    @property
    def base_url(self) -> str:
        return f"http://{url_host(public_host(self.hosts))}:{self.port}"

    def link(self, seat: int) -> str | None:
        """The join link of a phone seat (its QR code); ``None`` once a device has
        taken the seat, by this link or the join code: its token is then that
        device's alone and must never be shown on the table's screen."""
        if seat in self.access.claimed:
            return None
        return f"{self.base_url}/p/{self.access.tokens[seat]}"

    def by_guest(self, seat: int) -> bool:
        """A guest took ``seat`` with the join code (not its owner by its link)."""
        return seat in self.access.by_guest

    def renew(self, seat: int) -> None:
        """A new link for ``seat``, whose phone is lost: the device that held the seat
        is let go (``bye replaced``) and its token works no more; :meth:`link` gives
        the new one once the server's thread has made it."""
        self._call(self._renew, seat)

    def _renew(self, seat: int) -> None:
        self.access.renew(seat)
        old = self._by_seat.get(seat)
        if old is not None:
            self._let_go(old)

    def _let_go(self, line: Line) -> None:
        """Close ``line``: another device holds its seat now, or will."""
        self._spawn(self._close(line, CLOSE_REPLACED, {"type": "bye", "reason": "replaced"}))

    def join_link(self) -> str:
        """The guests' link: the join code is in it."""
        return f"{self.base_url}/j/{self.access.code}"

    def connected(self) -> set[int]:
        """Phone seats with a live line now."""
        with self._connected_lock:
            return set(self._connected)

    def heard_step(self, seat: int) -> int:
        """The highest step whose ``state`` a device of ``seat`` confirmed it received
        (-1: none): by a pong, since a line gone silent still takes writes."""
        return self._heard.step(seat)

    def send(self, seat: int, message: dict[str, Any], *, state: bool = False) -> None:
        """Send ``message`` to the device of ``seat`` (if one is connected). A
        ``state`` is also kept for the seat's next connection."""
        step = message.get("step") if state else None
        self._call(self._deliver, seat, protocol.dumps(message), state,
                   step if isinstance(step, int) else None)

    def send_history(self, first: int, rounds: list[Any]) -> None:
        """The public events of finished rounds ``first``, ``first + 1`` … for every
        phone (kept, so a phone that connects gets all of them at once)."""
        self._call(self._add_history, first, list(rounds))

    def set_names(self, names: list[str], defaults: dict[int, dict[str, str]] | None = None) -> None:
        """The table's seat names, ``defaults`` in every language (the guests' list)."""
        self._call(self._set_names, list(names), dict(defaults or {}))

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
        loop.set_exception_handler(self.quiet.loop_handler)
        self._loop = loop
        serving: asyncio.Task[None] | None = None
        try:
            serving = loop.create_task(self._serve())
            loop.run_until_complete(serving)
        except BaseException as exc:  # noqa: BLE001 - reported to start()
            self._error = exc
        finally:
            self._ready.set()
            try:
                finish_loop(loop, serving, self._ask_stop, STOP_GRACE + 5.0)
            except Exception as exc:  # noqa: BLE001 - a boundary: the loop itself failed
                self.quiet.say("loop", "phone server: stopping failed", exc)
            loop.close()

    def _ask_stop(self) -> None:
        """In the server's thread: what :meth:`stop` asks from any other."""
        self._stop_asked.set()
        if self._stopping is not None:
            self._stopping.set()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """A task kept until it ends (the loop keeps only a weak reference to it)."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        if self._stop_asked.is_set():   # stop() came before the event was there
            self._stopping.set()
        page.preload()                  # no request opens a file
        app = web.Application(client_max_size=1024, middlewares=[self._guard])
        add_routes(app, self._page, self._socket)
        app.on_response_prepare.append(with_headers)
        runner = web.AppRunner(app, access_log=None, handle_signals=False,
                               shutdown_timeout=1.0)
        await runner.setup()
        manager = runner.server
        assert manager is not None
        loop = asyncio.get_running_loop()
        kw = {"loop": loop, "keepalive_timeout": self.gate.limits.http_idle,
              "access_log": None, "logger": _http_log}

        def handler() -> Handler:
            return Handler(manager, opened=self._opened, lost=self.gate.lost, **kw)

        servers: list[asyncio.AbstractServer] = []
        sweeper = None
        budget = G.connection_budget(len(self.access.tokens))
        if self._budgeted:
            self.gate.limits.total = budget.total
        try:
            self.port = await listen(self.hosts, self.port, handler, budget.backlog, servers)
            self.names = HostNames(self.hosts, self.port)
            sweeper = self._spawn(self._sweep())
            self._ready.set()
            await self._stopping.wait()
            await stop_accepting(servers)
            for srv in servers:            # no new connections from here on
                srv.close()
            # every line is told bye at once; one that does not read (a phone asleep,
            # its buffers full) gets no longer than the others
            lines = list(self._lines.values())
            closing = [self._spawn(self._close(line, CLOSE_GONE,
                                               {"type": "bye", "reason": "closed"}))
                       for line in lines]
            if closing:
                await asyncio.wait(closing, timeout=STOP_GRACE)
            for line in lines:
                if line.transport is not None and not line.transport.is_closing():
                    line.transport.abort()
        finally:
            if not loop.is_closed():     # else: left pending, collected after the loop
                if sweeper is not None:
                    sweeper.cancel()
                for srv in servers:
                    srv.close()
                await manager.shutdown(1.0)           # every connection (aiohttp 3.9's
                await runner.cleanup()                # cleanup leaves them to the sites)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every)
            self.gate.sweep()

    def _opened(self, handler: Handler, transport: Any) -> G.Conn | None:
        """A new TCP connection: only from the local network, and counted."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, (tuple, list)) and peer else ""
        if not allowed_peer(address):
            transport.abort()
            return None

        def close(reason: str) -> None:
            if reason == G.IDLE and not transport.is_closing():
                transport.close()
            else:
                transport.abort()

        return self.gate.opened(address, close)

    # ------------------------------------------------------------------ http

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        conn: G.Conn | None = getattr(request.protocol, "gate_conn", None)
        if conn is not None:
            self.gate.begin(conn)
        try:
            if not allowed_peer(request.remote):
                raise web.HTTPForbidden(text="local network only")
            if self._host(request) is None:
                raise web.HTTPMisdirectedRequest(text="use the address the table shows")
            resp: web.StreamResponse = await handler(request)
            return resp
        finally:
            if conn is not None:
                self.gate.end(conn)

    def _host(self, request: web.Request) -> str | None:
        """The server's own spelling of the request's ``Host``, if it is one of its."""
        return self.names.match(request.headers.get("Host"))

    async def _page(self, request: web.Request) -> web.Response:
        return serve_page(self._host(request) or "")

    # ------------------------------------------------------------------ websocket

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"http://{self._host(request)}":
            raise web.HTTPForbidden(text="wrong origin")
        # autoping off: the pongs carry receipts (lines.Receipts); pings answered below
        ws = web.WebSocketResponse(max_msg_size=protocol.HARD_LIMIT, timeout=2.0,
                                   heartbeat=self.heartbeat, compress=False, autoping=False)
        await ws.prepare(request)
        conn: G.Conn | None = getattr(request.protocol, "gate_conn", None)
        line = Line(next(self._ids), ws, str(request.remote),
                     RateLimit(self.rate, self.burst, self.clock), conn, request.transport)
        self._lines[line.id] = line
        if conn is not None:
            if conn.closed:          # it gave way to a newer one during the handshake
                self._kick(line, G.EVICTED)
            self.gate.become(conn, G.PENDING, lambda reason: self._kick(line, reason))
        writer = self._spawn(write_out(line, self.on_sent))
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY, WSMsgType.PING):
                    await self._on_frame(line, msg.data, msg.type)   # all count: the rate
                elif msg.type == WSMsgType.PONG:
                    self._heard.pong(line, msg.data)
                else:       # an error: the frame was too big, or the line broke
                    if getattr(msg.data, "code", None) == WSCloseCode.MESSAGE_TOO_BIG:
                        self.refusals["too_big"] += 1      # aiohttp closed it with 1009
                    break
        except Exception as exc:  # noqa: BLE001 - a boundary: one line never stops the server
            if isinstance(exc, LINE_GONE):      # the network's doing: a short log line
                self.quiet.say("line", "phone server: a line failed", exc)
            else:                               # a bug: logged with its traceback, told
                notices.unexpected("net", exc, "reading a phone's line")
            with contextlib.suppress(*LINE_GONE):
                await ws.close(code=CLOSE_FAILED)
        finally:
            self._drop(line)
            line.out.put_nowait(None)
            try:
                await writer
            except Exception as exc:  # noqa: BLE001 - a boundary: the writer's listener failed
                notices.unexpected("net", exc, "writing to a phone")
            if line.close_code is not None and not ws.closed:
                # closed from another task while this one read: say why, before aiohttp
                # closes it with 1000 once the handler returns (aiohttp before 3.10)
                with contextlib.suppress(*LINE_GONE):
                    await asyncio.wait_for(ws.close(code=line.close_code,
                                                    message=line.close_reason), 2.0)
        return ws

    def _reply(self, line: Line, message: dict[str, Any]) -> None:
        if message.get("type") == "refused":
            self.refusals[message["code"]] += 1
        self._queue(line, protocol.dumps(message))

    def _queue(self, line: Line, text: str, step: int | None = None) -> None:
        if line.out.qsize() >= MAX_BACKLOG:
            self._spawn(line.ws.close(code=int(WSCloseCode.TRY_AGAIN_LATER),
                                      message=b"not reading"))
            return
        line.out.put_nowait((text, step))

    async def _close(self, line: Line, code: int, last: dict[str, Any]) -> None:
        self._reply(line, last)
        line.out.put_nowait(None)
        self._drop(line)
        await close_line(line, code, str(last.get("reason", "")).encode())

    def _kick(self, line: Line, reason: str) -> None:
        """The gate closes ``line`` (never a seat's): at once when it makes room for
        another connection, with ``CLOSE_IDLE`` when it waited too long."""
        self._drop(line)
        line.out.put_nowait(None)
        transport = line.transport
        if reason in (G.EVICTED, G.REFUSED) or transport is None:
            if transport is not None:
                transport.abort()
            return

        line.close_code, line.close_reason = CLOSE_IDLE, b"idle"
        self._spawn(close_idle(line, transport))

    def _drop(self, line: Line) -> None:
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
            except Exception as exc:  # noqa: BLE001 - a boundary: the window's wake-up failed
                notices.unexpected("net", exc, "waking the window")

    async def _on_frame(self, line: Line, text: str | bytes, kind: WSMsgType) -> None:
        """A message, a binary frame or a ping (the page sends neither): each counts."""
        if not line.rate.take():
            if line.rate.over == 1:
                self._reply(line, protocol.refused("too_fast"))
            if line.rate.over >= FLOOD_CLOSE:
                await self._close(line, CLOSE_FLOOD, {"type": "bye", "reason": "too_fast"})
            return
        if kind == WSMsgType.PING:
            await line.ws.pong(text)
            return
        try:
            if kind == WSMsgType.BINARY:
                raise Refused("malformed", "send text, not binary")
            await self._handle(line, protocol.parse(text))
        except Refused as r:
            self._reply(line, r.as_message())

    async def _handle(self, line: Line, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            self._reply(line, {"type": "pong"})
        elif kind == "hello":
            await self._hello(line, msg)
        elif kind in ("join", "claim"):
            self._join(line, msg)
        elif kind == "name":
            self._rename(line, msg)
        elif line.seat is None:
            raise Refused("not_joined", id=msg.get("id"))
        else:           # move, advice: the table answers
            self._post(Inbound(kind, line.seat, msg))

    async def _hello(self, line: Line, msg: dict[str, Any]) -> None:
        seat = self.access.seat_of(msg["token"])
        again = False
        if seat is None:        # its link, from the phone that opened it: the new token lost?
            seat = self.access.reopened(msg["token"], line.address)
            again = seat is not None
        if seat is None:
            late = self.attempts.slowed(line.address)
            self.attempts.failed(line.address, "token")
            if late:                   # this line answers nothing else meanwhile
                await asyncio.sleep(self.token_delay)
            raise Refused("bad_token")
        if line.seat is not None and line.seat != seat:
            raise Refused("bad_token", "this line already belongs to another seat")
        old = self._by_seat.get(seat)
        if old is not None and old is not line:
            old.seat = None            # its closing is not this seat's disconnection
            self._let_go(old)
        line.seat = seat
        if line.conn is not None:
            self.gate.become(line.conn, G.SEAT)
        self._by_seat[seat] = line
        welcome = {"type": "welcome", "seat": seat, "name": self._names.of(seat),
                   "rename": seat in self._names.renamable}
        if seat not in self.access.claimed:     # by the link on the screen: once only
            welcome["token"] = self.access.join(seat, line.address)
        elif again:
            welcome["token"] = self.access.tokens[seat]
        with self._connected_lock:
            self._connected.add(seat)
        self._reply(line, welcome)
        if self._history:
            self._reply(line, {"type": "history", "from": 0, "rounds": self._history})
        latest = self._latest.get(seat)
        if latest is not None:
            self._queue(line, *latest)
        self._post(Inbound("connected", seat, {"lang": msg.get("lang")}))

    def _join(self, line: Line, msg: dict[str, Any]) -> None:
        claim = msg["type"] == "claim"
        if claim and (line.seat is not None or line.claimed is not None):
            raise Refused("one_seat", detail={"seat": line.seat if line.seat is not None
                                              else line.claimed})
        if self.attempts.locked(line.address):
            raise Refused("locked")
        if not self.access.code_ok(msg["code"]):
            self.attempts.failed(line.address, "code")
            raise Refused("bad_code")
        if line.conn is not None and line.seat is None:
            self.gate.become(line.conn, G.GUEST)
        free = self.access.free(self._by_seat)
        if not claim:
            self._reply(line, {"type": "seats", "free": [self._names.entry(s) for s in free]})
            return
        seat, name = msg["seat"], msg["name"]
        if seat not in free:
            raise Refused("seat_taken", detail={"seat": seat})
        self._names.check(seat, name)
        token = self.access.claim(seat)
        line.claimed = seat
        self._name(seat, name)
        self._reply(line, {"type": "claimed", "seat": seat, "token": token})

    def _rename(self, line: Line, msg: dict[str, Any]) -> None:
        """A seat opened by its link names itself (:meth:`NameBook.rename`)."""
        seat, name = line.seat, msg["name"]
        self._names.rename(seat, name)
        assert seat is not None
        self._post(Inbound("named", seat, {"name": name}))   # the table's screen, record
        self._reply(line, {"type": "named", "seat": seat, "name": name})

    def _name(self, seat: int, name: str) -> None:
        """``seat`` is called ``name`` from now on: the table hears it (its screen, the
        record), and the seat cannot be named again."""
        self._names.give(seat, name)
        self._post(Inbound("named", seat, {"name": name}))

    # ------------------------------------------------------------------ from the table

    def _deliver(self, seat: int, text: str, state: bool, step: int | None) -> None:
        if state:
            self._latest[seat] = (text, step)
        line = self._by_seat.get(seat)
        if line is not None:
            self._queue(line, text, step)

    def _add_history(self, first: int, rounds: list[Any]) -> None:
        del self._history[first:]
        self._history += rounds
        text = protocol.dumps({"type": "history", "from": first, "rounds": rounds})
        for line in list(self._by_seat.values()):
            self._queue(line, text)

    def _set_names(self, names: list[str], defaults: dict[int, dict[str, str]]) -> None:
        self._names.set_all(names, defaults)
