"""The phone server's HTTP side: the files it serves, the headers every answer carries,
the exact ``Host`` it answers to, and aiohttp's connection handler with the gate
(:mod:`game.net.gate`) told of every connection.

* Every answer, error answers included (also aiohttp's own answer to a request it
  cannot parse), carries :data:`HEADERS` and ``Server: Stammtisch`` (no versions).
* A request is answered only when its ``Host`` is exactly one of the addresses the
  server listens on with its port (:class:`HostNames`); the page's CSP names that
  address as the server knows it, never as the request spelled it.
* Stopping leaves no connection half-made and no task pending (:func:`stop_accepting`,
  :func:`finish_loop`), also when the loop's run ended under the server.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Callable
from typing import Any

from aiohttp import web

from game.net import page
from game.net.addresses import LOOPBACK, socket_family
from game.net.gate import Conn

SERVER_NAME = "Stammtisch"
#: Connections the system may queue for the server to take.
LISTEN_QUEUE = 128
#: The headers of every answer (the page's own CSP replaces the default one).
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": "default-src 'none'; base-uri 'none'; form-action 'none'; "
                               "frame-ancestors 'none'",
}


def secure(headers: Any) -> None:
    """Give an answer's headers :data:`HEADERS` (a CSP and a ``Cache-Control`` it
    already has stay) and a ``Server`` without versions."""
    for key, value in HEADERS.items():
        if key in ("Content-Security-Policy",):
            headers.setdefault(key, value)
        else:
            headers[key] = value
    headers.setdefault("Cache-Control", "no-store")
    headers["Server"] = SERVER_NAME


def page_csp(host: str) -> str:
    """The page's CSP; ``host`` is the server's own name for the address (the
    WebSocket's ``ws://`` is spelled out: older Safari does not count it as 'self')."""
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src 'self' ws://{host}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")


def url_host(host: str) -> str:
    """An address as written in a URL (IPv6 in brackets)."""
    return f"[{host}]" if ":" in host else host


class HostNames:
    """The ``Host`` values the server answers: each address it listens on with its
    port (``localhost`` too when it listens on loopback), compared exactly but for
    letter case. :meth:`match` gives the server's own spelling, or ``None``."""

    def __init__(self, hosts: list[str], port: int) -> None:
        names: dict[str, str] = {}
        for h in hosts:
            own = f"{url_host(h)}:{port}"
            names[own.lower()] = own
            if port == 80:
                names[url_host(h).lower()] = own
            if _is_loopback(h):
                names[f"localhost:{port}"] = f"localhost:{port}"
                if port == 80:
                    names["localhost"] = f"localhost:{port}"
        self.names = names

    def match(self, value: str | None) -> str | None:
        if not value or len(value) > 64:
            return None
        return self.names.get(value.strip().lower())


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == LOOPBACK


# --------------------------------------------------------------------------- files


def add_routes(app: web.Application, page_handler: Callable[..., Any],
               socket_handler: Callable[..., Any]) -> None:
    """The page (at ``/``, ``/p/<token>`` and ``/j/<code>``), the WebSocket channel
    (``/ws``), the page's files and the card images."""
    r = app.router
    r.add_get("/", page_handler)
    r.add_get("/p/{token}", page_handler)
    r.add_get("/j/{code}", page_handler)
    r.add_get("/ws", socket_handler)
    r.add_get("/icon.png", _icon)
    r.add_get("/cards/{set}/{name}.png", _card)
    r.add_get("/backs/{name}.png", _back)
    r.add_get("/{name}", _file)


def serve_page(host: str) -> web.Response:
    found = page.page()
    if found is None:
        raise web.HTTPNotFound()
    resp = web.Response(body=found.body, content_type="text/html", charset="utf-8")
    resp.headers["Content-Security-Policy"] = page_csp(host)
    return resp


def served(found: page.Served | None, cache: bool = False) -> web.Response:
    if found is None:
        raise web.HTTPNotFound()
    resp = web.Response(body=found.body, headers={"Content-Type": found.content_type})
    if cache:
        resp.headers["Cache-Control"] = "max-age=86400"
    return resp


async def _file(request: web.Request) -> web.Response:
    return served(page.page_file(request.match_info["name"]))


async def _card(request: web.Request) -> web.Response:
    m = request.match_info
    return served(page.card_image(m["set"], m["name"]), cache=True)


async def _back(request: web.Request) -> web.Response:
    return served(page.back_image(request.match_info["name"]), cache=True)


async def _icon(request: web.Request) -> web.Response:
    return served(page.icon(), cache=True)


# --------------------------------------------------------------------------- connections


class Handler(web.RequestHandler):
    """aiohttp's handler of one connection, plus: ``opened(handler, transport)`` hears
    of it (and returns its :class:`~game.net.gate.Conn`), ``lost(conn)`` of its end;
    aiohttp's own error answers get the security headers."""

    def __init__(self, manager: web.Server, *, opened: Callable[[Handler, Any], Conn | None],
                 lost: Callable[[Conn], None], **kw: Any) -> None:
        super().__init__(manager, **kw)
        self.gate_conn: Conn | None = None
        self._opened, self._lost = opened, lost

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.gate_conn = self._opened(self, transport)

    def data_received(self, data: bytes) -> None:
        conn = self.gate_conn
        if conn is not None and not conn.spoke:
            conn.spoke = True
        super().data_received(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        conn, self.gate_conn = self.gate_conn, None
        super().connection_lost(exc)
        if conn is not None:
            self._lost(conn)

    def handle_error(self, request: Any, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        resp = super().handle_error(request, status, exc, message)
        secure(resp.headers)
        return resp


async def with_headers(request: web.Request, response: web.StreamResponse) -> None:
    """The application's ``on_response_prepare``: every answer it makes, errors too."""
    secure(response.headers)


#: Rounds :func:`finish_tasks` cancels in: each may leave tasks its tasks started.
FINISH_ROUNDS = 10


def finish_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel the tasks still pending when the server stops and let them end, so none
    is destroyed pending when the loop closes. A task may start another as it ends (a
    line closing as its connection is shut down): those are finished too, round after
    round, until none is left (at most :data:`FINISH_ROUNDS` rounds)."""
    for _ in range(FINISH_ROUNDS):
        tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if not tasks:
            return
        for t in tasks:
            t.cancel()
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))


def finish_loop(loop: asyncio.AbstractEventLoop, serving: asyncio.Task[Any] | None,
                stop: Callable[[], None], grace: float) -> None:
    """Leave no task pending on ``loop`` before it closes; ``serving`` is the server's
    own task, ``stop`` asks it to stop (in the loop's thread).

    A task left pending is destroyed with its coroutine at an await; the garbage
    collector then throws ``GeneratorExit`` in, and a coroutine whose ``finally``
    awaits -- the server's shuts its connections down -- awaits again instead of
    ending ("coroutine ignored GeneratorExit"), and nothing it would close is closed
    in order. When the loop's run ended under the server (the loop was stopped, a
    callback raised ``SystemExit``), the server is asked to stop and let run for
    ``grace`` seconds until it did, its lines told goodbye, rather than cancelled
    half-way; what is left then is cancelled and awaited (:func:`finish_tasks`)."""
    if serving is not None and not serving.done():
        stop()
        loop.run_until_complete(asyncio.wait([serving], timeout=grace))
    finish_tasks(loop)
    loop.run_until_complete(loop.shutdown_asyncgens())


async def stop_accepting(servers: list[asyncio.AbstractServer]) -> None:
    """Stop taking connections, and let the ones already taken be made.

    A connection is taken in one turn of the loop and made in the next. Closing the
    listening socket in between (what ``Server.close()`` does) makes asyncio fail to
    make it, silently, and leave its socket open: that phone waited, neither answered
    nor closed, until its browser gave up. So the loop stops watching the listening
    sockets first and lets the connections already taken be made; aiohttp's shutdown
    then closes them with the rest. (The selector loop of Linux and macOS.)

    Windows' proactor loop takes connections ahead (an ``AcceptEx`` always waiting):
    one taken just before the stop was made after aiohttp's shutdown, so nothing ever
    closed it (under Wine 8: 9 of 300 requests in such rushes). There the servers stop
    serving first (the waiting accepts are cancelled, their sockets closed), and the
    connections already taken are made in the next turns, before the shutdown."""
    loop = asyncio.get_running_loop()
    if not isinstance(loop, asyncio.SelectorEventLoop):
        for server in servers:
            server.close()
        for _ in range(3):
            await asyncio.sleep(0)
        return
    for server in servers:
        for sock in server.sockets:
            loop.remove_reader(sock.fileno())
    for _ in range(2):     # each taken connection is made in the next turn
        await asyncio.sleep(0)


async def listen(hosts: list[str], port: int, handler: Callable[[], Any], backlog: int,
                 servers: list[asyncio.AbstractServer]) -> int:
    """Listen on each of ``hosts`` at ``port`` (0: the first picks a free one, the
    others take the same), appending each server to ``servers`` as it starts (so a
    failure part-way leaves the caller the ones to close); returns the port."""
    loop = asyncio.get_running_loop()
    for host in hosts:
        # create_server sets SO_REUSEADDR on POSIX only: on Windows it would let a
        # second table bind this port and take the phones' connections
        sock = socket.create_server((host, port), backlog=LISTEN_QUEUE,
                                    family=socket_family(host))
        servers.append(await loop.create_server(handler, sock=sock, backlog=backlog))
        # asyncio takes ``backlog`` connections per turn (few, for few descriptors);
        # the system may queue more meanwhile
        sock.listen(LISTEN_QUEUE)
        if port == 0:
            port = int(sock.getsockname()[1])
    return port
