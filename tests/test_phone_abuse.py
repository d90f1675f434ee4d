"""The phone server under abuse, through real sockets on loopback: idle connections,
deep and malformed messages and requests, guessing, a line that wants two seats,
names and Host headers that are not what they claim, a descriptor limit, and
stopping. Small limits keep each test to a few seconds; ``tools/bench_phone_abuse.py``
measures the full figures (500 idle WebSockets, 300 idle TCP connections, 256
descriptors)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from game.net import server as server_mod
from game.net.access import SeatAccess
from game.net.host import HeadlessTable
from game.turn import hooks as H
from game.turn.hooks import Hooks
from tests.phone_helpers import Line, ManualClock, Player, phone_session, running, token_of, ws_url

ROOT = Path(__file__).resolve().parents[1]
FAST = {"rate": 10_000.0, "burst": 10_000.0}
#: The headers of every answer (``game.net.http.HEADERS``; spelled out here).
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "X-Frame-Options": "DENY", "Cross-Origin-Resource-Policy": "same-origin"}


def _can_use(address: str) -> bool:
    try:
        with socket.socket() as s:
            s.bind((address, 0))
        return True
    except OSError:
        return False


#: Loopback addresses besides 127.0.0.1 (Linux, Windows; not macOS).
OTHER = _can_use("127.0.0.2")
needs_other = pytest.mark.skipif(not OTHER, reason="only 127.0.0.1 on this system")


def _table(kinds: list[str], **server: Any) -> HeadlessTable:
    return HeadlessTable("chase", kinds, seed=server.pop("seed", 7), keep_records=False,
                         server_options={**FAST, **server}, linger=5.0)


def _session(source: str | None = None) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(local_addr=(source, 0) if source else None,
                                     limit=0, force_close=True)
    return aiohttp.ClientSession(connector=connector,
                                 timeout=aiohttp.ClientTimeout(total=None, sock_connect=10,
                                                               sock_read=20))


async def _hello(session: aiohttp.ClientSession, url: str, token: str) -> Line:
    line = await Line(session, url).open()
    await line.send({"type": "hello", "token": token})
    await line.until(lambda m: m["type"] in ("welcome", "refused"))
    return line


def _first(line: Line, kind: str) -> dict[str, Any]:
    return next(m for m in line.got if m["type"] == kind)


async def _until(check: Any, timeout: float = 20.0) -> None:
    """Wait until ``check()`` (a deadline, never forever)."""
    async def wait() -> None:
        while not check():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(wait(), timeout)


# --------------------------------------------------------------------------- idle sockets


@pytest.mark.parametrize("phone_from", [
    pytest.param("127.0.0.2", marks=needs_other), "127.0.0.1"])
def test_idle_websockets_and_connections_do_not_keep_a_phone_out(phone_from):
    # 70 idle WebSockets used to take every place there was (64, for all devices)
    table = _table(["phone", "phone", "random"])

    async def main() -> None:
        async with _session("127.0.0.1") as hog, _session(phone_from) as phone:
            idle: list[aiohttp.ClientWebSocketResponse] = []
            tcp = []
            for _ in range(70):          # the server refuses most of them: fine
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    idle.append(await hog.ws_connect(ws_url(table)))
            for _ in range(30):
                with contextlib.suppress(OSError):
                    tcp.append(await asyncio.open_connection("127.0.0.1", table.server.port))
            await asyncio.sleep(1.1)        # older than the grace a new connection has
            assert idle and tcp
            line = await _hello(phone, ws_url(table), token_of(table, 0))
            assert line.got[-1]["type"] == "welcome"
            if phone_from != "127.0.0.1":
                assert table.server.gate.of_address("127.0.0.1") <= 16
            for w in idle:
                await w.close()
            for _, writer in tcp:
                writer.close()

    with running(table):
        asyncio.run(main())


def test_a_websocket_without_hello_and_an_idle_connection_are_closed():
    clock = ManualClock()
    table = _table(["phone", "phone", "random"], clock=clock)

    async def main() -> None:
        async with _session() as session:
            ws = await session.ws_connect(ws_url(table))
            reader, writer = await asyncio.open_connection("127.0.0.1", table.server.port)
            seated = await _hello(session, ws_url(table), token_of(table, 0))
            clock.now += 10.5                    # within hello's deadline
            await asyncio.sleep(1.2)             # the server looks once a second
            assert not ws.closed
            clock.now += 1.0
            msg = await ws.receive(10)
            assert msg.type == aiohttp.WSMsgType.CLOSE and msg.data == server_mod.CLOSE_IDLE
            clock.now += 5.0                     # past the idle keep-alive's
            assert await asyncio.wait_for(reader.read(), 10) == b""
            writer.close()
            clock.now += 1000                    # a seat's line is never closed for idling
            await asyncio.sleep(1.2)
            assert not seated.ws.closed

    with running(table):
        asyncio.run(main())


# --------------------------------------------------------------------------- messages


def test_four_kilobytes_of_brackets_get_a_refusal_and_the_line_goes_on():
    table = _table(["phone", "phone", "random"])

    async def main() -> None:
        async with _session() as session:
            line = await _hello(session, ws_url(table), token_of(table, 0))
            for text in ("[" * 4096, "{" * 4096, '{"type":' * 500):
                await line.send(text)
                r = await line.until(lambda m: m["type"] == "refused")
                assert r["code"] == "too_deep"
            await line.send({"type": "ping"})
            assert (await line.until(lambda m: m["type"] in ("pong", "refused")))["type"] == "pong"

    with running(table):
        asyncio.run(main())


def _raw(port: int, data: bytes) -> bytes:
    """Send ``data``; the answer (its head and body), or what came until the close."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        out = b""
        with contextlib.suppress(OSError):
            while chunk := s.recv(65536):
                out += chunk
                head, sep, body = out.partition(b"\r\n\r\n")
                if sep:
                    size = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                                 if line.lower().startswith(b"content-length:")), None)
                    if size is not None and len(body) >= size:
                        break
        return out


def test_malformed_requests_cost_one_short_line_each_a_few_a_minute(caplog):
    srv = server_mod.PhoneServer(SeatAccess.new([0]), bind="127.0.0.1").start()
    quiet = getattr(server_mod, "HTTP_QUIET", None)    # the rate is the process's:
    if quiet is not None:                               # earlier tests may have used it
        quiet._kinds.clear()
    junk = [b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(40),
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
            b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]
    try:
        with caplog.at_level(logging.DEBUG):
            answers = [_raw(srv.port, junk[i % len(junk)]) for i in range(40)]
            time.sleep(0.3)
    finally:
        srv.stop()
    assert all(a.startswith(b"HTTP/1.") and b" 400 " in a.split(b"\r\n")[0]
               for a in answers if a), answers[:3]
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert 1 <= len(loud) <= 5, [r.getMessage() for r in loud]
    for r in loud:
        text = r.getMessage()
        assert r.exc_info is None and "\n" not in text and len(text) <= 220, text
    assert not any(r.exc_info for r in caplog.records)


# --------------------------------------------------------------------------- headers


def test_every_answer_carries_the_headers_and_no_versions():
    srv = server_mod.PhoneServer(SeatAccess.new([0]), bind="127.0.0.1").start()
    port = srv.port
    host = f"127.0.0.1:{port}".encode()
    try:
        answers = {
            "page": _raw(port, b"GET /p/x HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"),
            "image": _raw(port, b"GET /cards/classic/AS.png HTTP/1.1\r\nHost: " + host
                          + b"\r\nConnection: close\r\n\r\n"),
            "404": _raw(port, b"GET /nothing HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"),
            "405": _raw(port, b"DELETE / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n"),
            "421": _raw(port, b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"),
            "403": _raw(port, b"GET /ws HTTP/1.1\r\nHost: " + host + b"\r\nOrigin: http://evil"
                        b"\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13"
                        b"\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"),
            "400": _raw(port, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nContent-Length: x\r\n\r\n"),
        }
    finally:
        srv.stop()
    for what, raw in answers.items():
        head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        status = head.split("\r\n")[0]
        headers = {k.lower(): v.strip() for k, v in
                   (line.split(":", 1) for line in head.split("\r\n")[1:] if ":" in line)}
        if what.isdigit():
            assert f" {what} " in status, (what, status)
        for key, value in HEADERS.items():
            assert headers.get(key.lower()) == value, (what, key, head)
        assert "default-src 'none'" in headers["content-security-policy"], what
        assert headers["server"] == "Stammtisch", (what, headers["server"])


def test_the_host_must_be_exact_and_is_never_copied_into_a_header():
    table = _table(["phone", "phone", "random"])

    def get(host: bytes) -> tuple[str, str]:
        port = table.server.port
        raw = _raw(port, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        csp = next((line.split(":", 1)[1] for line in head.split("\r\n")
                    if line.lower().startswith("content-security-policy:")), "")
        return head.split("\r\n")[0], csp

    with running(table):
        port = table.server.port
        status, csp = get(b"127.0.0.1:%d" % port)
        assert " 200 " in status and f"ws://127.0.0.1:{port};" in csp
        for junk in (b"127.0.0.1:%d *" % port, b"127.0.0.1:%d; script-src *" % port,
                     b"127.0.0.1:1", b"127.0.0.1", b"127.0.0.1:%d0" % port, b"[::1]:%d" % port):
            status, csp = get(junk)
            assert " 421 " in status, (junk, status)
            assert "*" not in csp and "script-src" not in csp, (junk, csp)
        status, csp = get(b"localhost:%d" % port)
        assert " 200 " in status and f"ws://localhost:{port};" in csp


# --------------------------------------------------------------------------- guessing


def test_the_right_token_gets_in_at_once_after_another_device_guessed_from_its_address():
    table = _table(["phone", "phone", "random"])

    async def main() -> None:
        async with _session() as session:
            for i in range(21):                 # past the limit of wrong tokens
                line = await _hello(session, ws_url(table), f"wrong{i:07d}")
                assert line.got[-1]["code"] in ("bad_token", "locked")
                await line.close()
            line = await _hello(session, ws_url(table), token_of(table, 0))
            assert line.got[-1]["type"] == "welcome", line.got[-1]
            assert table.server.attempts.slowed("127.0.0.1")   # the guessing is slowed

    with running(table):
        asyncio.run(main())


@needs_other
def test_wrong_codes_from_ever_new_addresses_lock_the_code():
    table = _table(["phone", "phone", "random"])

    async def guess(i: int) -> str:
        async with _session(f"127.3.{i // 250}.{i % 250 + 1}") as session:
            line = await Line(session, ws_url(table)).open()
            await line.send({"type": "join", "code": f"{i:06d}"})
            return str((await line.until(lambda m: m["type"] == "refused"))["code"])

    async def main() -> list[str]:
        codes = []
        for k in range(0, 130, 26):
            codes += await asyncio.gather(*(guess(i) for i in range(k, k + 26)))
        return codes

    with running(table):
        codes = asyncio.run(main())
    assert codes.count("bad_code") == 100           # ``Attempts.overall``
    assert codes.count("locked") == 30


# --------------------------------------------------------------------------- seats and names


def test_a_line_holds_one_seat_and_a_claimed_seat_is_the_claimers_alone():
    table = _table(["phone", "phone", "phone", "random"])
    code = table.server.access.code
    link1 = token_of(table, 1)

    async def main() -> None:
        async with _session() as session:
            url = ws_url(table)
            mine = await _hello(session, url, token_of(table, 0))
            # a line that holds a seat cannot claim a second one
            await mine.send({"type": "claim", "code": code, "seat": 1, "name": "Eve"})
            r = await mine.until(lambda m: m["type"] in ("refused", "claimed"))
            assert r["type"] == "refused" and r["code"] == "one_seat"
            # a guest's line claims seat 1: a token of its own, the seat's link is dead
            guest = await Line(session, url).open()
            await guest.send({"type": "claim", "code": code, "seat": 1, "name": "Mia"})
            claimed = await guest.until(lambda m: m["type"] in ("refused", "claimed"))
            assert claimed["type"] == "claimed" and claimed["token"] != link1
            await guest.send({"type": "claim", "code": code, "seat": 2, "name": "Mia 2"})
            assert (await guest.until(lambda m: m["type"] == "refused"))["code"] == "one_seat"
            # the screen shows no code for the guest's seat: its token is the guest's
            assert table.server.link(1) is None
            assert claimed["token"] not in json.dumps(table.addresses())
            scanner = await _hello(session, url, link1)        # the QR code on the screen
            assert scanner.got[-1]["code"] == "bad_token"
            await guest.send({"type": "hello", "token": claimed["token"]})
            assert (await guest.until(lambda m: m["type"] == "welcome"))["seat"] == 1
            # seat 2's owner joined by its link; away for a moment, nobody claims it
            owner = await _hello(session, url, token_of(table, 2))
            await owner.close()
            await _until(lambda: 2 not in table.server.connected())
            other = await Line(session, url).open()
            await other.send({"type": "claim", "code": code, "seat": 2, "name": "Zed"})
            assert (await other.until(lambda m: m["type"] == "refused"))["code"] == "seat_taken"
            back = await _hello(session, url, token_of(table, 2))
            assert back.got[-1]["type"] == "welcome"

    with running(table):
        asyncio.run(main())
    assert table.names[1] == "Mia"


@needs_other
def test_a_seats_link_opens_it_once_from_the_screen():
    """The table's screen shows every seat's link at once. A link that kept working
    after its owner joined let anyone at the table type in another seat's address,
    get its hand and play for it (the owner was told "replaced"). Now the phone that
    opens a link gets a token of its own and the screen shows no code for the seat;
    the link still opens the seat from the address that opened it (its `welcome` may
    have been lost with the line), and from no other. A phone lost for good gets a
    new code from the screen, and the old phone is let go."""
    table = _table(["phone", "phone", "random"])
    link0 = token_of(table, 0)

    async def main() -> None:
        async with _session("127.0.0.1") as owner_side, _session("127.0.0.2") as other:
            url = ws_url(table)
            owner = await _hello(owner_side, url, link0)
            welcome = _first(owner, "welcome")
            mine = welcome["token"]
            assert welcome["seat"] == 0 and mine != link0 and mine == token_of(table, 0)
            assert table.server.link(0) is None                 # no code on the screen
            assert mine not in json.dumps(table.addresses())
            assert (await owner.until(lambda m: m["type"] == "state"))["view"]["hand"]
            # another device types in the address it saw on the screen: refused
            spy = await _hello(other, url, link0)
            assert spy.got[-1]["type"] == "refused" and spy.got[-1]["code"] == "bad_token"
            assert not [m for m in spy.got if m["type"] in ("welcome", "state")]
            assert 0 in table.server.connected() and not [
                m for m in owner.got if m["type"] == "bye"]
            # the owner's phone, its welcome lost, comes back by the same link
            await owner.close()
            await _until(lambda: 0 not in table.server.connected())
            back = await _hello(owner_side, url, link0)
            assert _first(back, "welcome")["token"] == mine
            # ... and by its own token (a reload of the page's new address)
            again = await _hello(owner_side, url, mine)
            assert again.got[-1]["type"] == "welcome" and "token" not in again.got[-1]
            # the phone is lost: the screen makes a new code, and the old token is dead
            table.server.renew(0)
            await _until(lambda: table.server.link(0) is not None)
            await _until(lambda: 0 not in table.server.connected())
            assert mine not in table.server.link(0)
            assert (await again.until(lambda m: m["type"] == "bye"))["reason"] == "replaced"
            stale = await _hello(owner_side, url, mine)
            assert stale.got[-1]["code"] == "bad_token"
            stale_link = await _hello(owner_side, url, link0)
            assert stale_link.got[-1]["code"] == "bad_token"
            fresh = table.server.link(0).rsplit("/", 1)[1]
            new_phone = await _hello(other, url, fresh)
            assert _first(new_phone, "welcome")["seat"] == 0
            assert table.server.link(0) is None

    with running(table):
        asyncio.run(main())


def test_a_guest_cannot_take_another_seats_name():
    table = _table(["phone", "phone", "phone", "random"])
    code = table.server.access.code

    async def main() -> None:
        async with _session() as session:
            guest = await Line(session, ws_url(table)).open()
            for name in ("Phone 1", "phone 1", " PHONE  1 ", "Random 4"):
                await guest.send({"type": "claim", "code": code, "seat": 2, "name": name})
                r = await guest.until(lambda m: m["type"] in ("refused", "claimed"))
                assert r["type"] == "refused" and r["code"] == "name_taken", name
            await guest.send({"type": "claim", "code": code, "seat": 2, "name": "Phone 3"})
            assert (await guest.until(lambda m: m["type"] in ("refused", "claimed")))["type"] == "claimed"
            # and the next guest cannot take the name the first one chose
            second = await Line(session, ws_url(table)).open()
            await second.send({"type": "claim", "code": code, "seat": 1, "name": "phone 3"})
            r = await second.until(lambda m: m["type"] in ("refused", "claimed"))
            assert r["code"] == "name_taken"

    with running(table):
        asyncio.run(main())


# --------------------------------------------------------------------------- the end, the stop


def test_the_finished_table_does_not_wait_for_a_phone_that_saw_the_end_and_left():
    """The flake of ``test_a_phone_away_at_the_end_still_hears_that_its_move_was_taken``:
    a phone that read the final state and closed its line before the table looked was
    counted as away, and the table waited the whole ``linger`` for it."""
    hooks = Hooks()
    table = HeadlessTable("chase", ["phone", "random", "random"], seed=3, keep_records=False,
                          server_options=FAST, linger=60.0, hooks=hooks)
    gone = threading.Event()

    def at_the_end(news: Any) -> None:
        if news.game.finished:          # the phone saw the end and left: then go on
            assert gone.wait(30)
            deadline = time.monotonic() + 30
            while 0 in table.server.connected() and time.monotonic() < deadline:
                time.sleep(0.01)

    hooks.subscribe(H.MOVE_APPLIED, at_the_end)

    async def main() -> None:
        async with phone_session() as session:
            p = Player(session, ws_url(table), token_of(table, 0), 1)
            await asyncio.wait_for(p.play(threading.Event()), 60)
            assert p.finished
            gone.set()

    with running(table) as th:
        asyncio.run(main())
        th.join(15)
        assert not th.is_alive(), "the finished table waited for a phone that had left"
    assert table.game.finished


def test_stopping_leaves_no_task_behind(caplog):
    servers = [server_mod.PhoneServer(SeatAccess.new([0, 1]), bind="127.0.0.1", **FAST).start()]
    srv = servers[0]
    url = f"http://127.0.0.1:{srv.port}/ws"

    async def main(srv: server_mod.PhoneServer) -> None:
        async with _session() as session:
            # a line that never answers a close, replaced by a second one for its seat
            deaf = await session.ws_connect(url, autoclose=False, autoping=False)
            await deaf.send_str(json.dumps({"type": "hello", "token": srv.access.tokens[0]}))
            await asyncio.sleep(0.2)
            await _hello(session, url, srv.access.tokens[0])
            # a guest, and a line before hello
            guest = await Line(session, url).open()
            await guest.send({"type": "join", "code": srv.access.code})
            await guest.until(lambda m: m["type"] == "seats")
            await session.ws_connect(url)
            await asyncio.sleep(0.2)
            await asyncio.get_running_loop().run_in_executor(None, srv.stop)

    thread = srv._thread
    with caplog.at_level(logging.DEBUG):
        asyncio.run(main(srv))
        assert srv.stopped and thread is not None and not thread.is_alive()
        del srv, servers         # a task still pending now would be destroyed pending
        gc.collect()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not any("destroyed" in s or "never retrieved" in s for s in said), said


def _deaf_line(port: int, token: str) -> socket.socket:
    """A WebSocket that says hello and then reads nothing (a phone asleep): a small
    receive buffer, soon full."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
              b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n" % port)
    hello = json.dumps({"type": "hello", "token": token}).encode()
    mask = b"\x01\x02\x03\x04"
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
    s.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + body)
    return s


def test_a_phone_that_reads_nothing_does_not_hold_up_the_stop(caplog):
    srv = server_mod.PhoneServer(SeatAccess.new([0, 1]), bind="127.0.0.1", **FAST).start()
    deaf = [_deaf_line(srv.port, srv.access.tokens[s]) for s in (0, 1)]
    deadline = time.monotonic() + 10
    while srv.connected() != {0, 1} and time.monotonic() < deadline:
        time.sleep(0.01)
    for _ in range(120):            # far more than the buffers hold
        for seat in (0, 1):
            srv.send(seat, {"type": "state", "step": 0, "pad": "x" * 20_000})
    time.sleep(0.5)
    thread = srv._thread
    with caplog.at_level(logging.DEBUG):
        # the phone wakes up on another line: the old line is being closed when the
        # table stops
        again = _deaf_line(srv.port, srv.access.tokens[0])
        time.sleep(0.05)
        srv.stop(timeout=15)
        assert thread is not None and not thread.is_alive(), "the stop waited for a phone"
        del srv
        gc.collect()
    for s in (*deaf, again):
        s.close()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert not any("destroyed" in s or "never retrieved" in s for s in said), said


def test_a_loop_that_stops_under_the_server_still_stops_it_in_order(caplog):
    """The server's loop stops while the server waits to be stopped (a callback that
    raised ``SystemExit`` ends the loop's run so too). The server was cancelled
    half-way, if its clean-up ran at all: had it failed, the loop closed with the
    server's task pending, and the garbage collector's ``GeneratorExit`` met the
    server's ``finally``, which awaits ("coroutine ignored GeneratorExit"). Now the
    server is asked to stop and let run until it did: its lines are told goodbye, its
    port is freed, and no task is left."""
    srv = server_mod.PhoneServer(SeatAccess.new([0, 1]), bind="127.0.0.1", **FAST).start()
    url, thread, loop = f"http://127.0.0.1:{srv.port}/ws", srv._thread, srv._loop
    assert thread is not None and loop is not None
    left: list[asyncio.Task[Any]] = []
    close = loop.close

    def closing() -> None:
        left.extend(t for t in asyncio.all_tasks(loop) if not t.done())
        close()

    loop.close = closing      # type: ignore[method-assign]

    async def main() -> list[dict[str, Any]]:
        async with _session() as session:
            line = await _hello(session, url, srv.access.tokens[0])
            loop.call_soon_threadsafe(loop.stop)      # the server waits at its Event
            while await line.next() is not None:
                pass
            return line.got

    with caplog.at_level(logging.DEBUG):
        got = asyncio.run(main())
        thread.join(30)
        assert not thread.is_alive()
    assert {"type": "bye", "reason": "closed"} in got, got
    assert left == []
    with socket.socket() as s:               # the port is free again
        s.bind(("127.0.0.1", srv.port))


def test_a_server_destroyed_after_its_loop_closed_leaves_quietly(monkeypatch):
    """A server's coroutine left pending when its loop closed is finished by the
    garbage collector, whenever that runs: it then cancelled its sweeper on the closed
    loop ("Event loop is closed", an exception nobody can catch). Once, in a full test
    run, that happened inside another test's ``ast.parse``, which failed with
    "SystemError: AST constructor recursion depth mismatch". Now the clean-up leaves a
    closed loop alone."""
    said: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: said.append(u.exc_value))
    srv = server_mod.PhoneServer(SeatAccess.new([0]), bind="127.0.0.1")
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda _loop, _context: None)   # "destroyed but pending"
    task = loop.create_task(srv._serve())
    for _ in range(500):
        if srv._ready.is_set():
            break
        loop.run_until_complete(asyncio.sleep(0.01))
    assert srv._ready.is_set() and not task.done()
    loop.close()
    del task, srv, loop         # nothing holds the coroutine now
    gc.collect()
    assert said == [], said


@pytest.mark.parametrize("held", ["before_its_loop", "before_it_listens"])
def test_a_start_that_gives_up_waiting_still_stops_the_server(monkeypatch, held):
    """``start()`` gave up waiting for the server (a machine too busy) and raised, but
    the server went on: it listened for good, with nobody to stop it (and before the
    server's thread had made its loop, ``stop()`` found nothing to tell). It now stops
    as soon as it gets going. The server's thread is held where it was when the start
    gave up: before it made its loop, or before it listened."""
    from game.net import page

    going = threading.Event()
    if held == "before_its_loop":
        new_loop = asyncio.new_event_loop
        monkeypatch.setattr(asyncio, "new_event_loop", lambda: going.wait(30) and new_loop())
    else:
        preload = page.preload
        monkeypatch.setattr(page, "preload", lambda: going.wait(30) and preload())
    srv = server_mod.PhoneServer(SeatAccess.new([0]), bind="127.0.0.1")
    with pytest.raises(OSError, match="did not start in time"):
        srv.start(timeout=0)
    going.set()
    thread = srv._thread
    assert thread is not None
    thread.join(30)
    assert not thread.is_alive(), "the server listens with nobody to stop it"


def test_tasks_started_while_the_others_end_are_finished_too():
    """Tasks the cancelled ones start as they end (a line closing as its connection is
    shut down) were left pending when the loop closed."""
    from game.net.http import finish_tasks

    loop = asyncio.new_event_loop()
    ended: list[str] = []

    async def late() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await asyncio.sleep(0)           # awaits in its finally, as the server's
            ended.append("late")

    async def first() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            asyncio.get_running_loop().create_task(late())
            ended.append("first")

    try:
        loop.run_until_complete(asyncio.sleep(0))
        loop.create_task(first())
        loop.run_until_complete(asyncio.sleep(0))
        finish_tasks(loop)
        assert [t for t in asyncio.all_tasks(loop) if not t.done()] == []
        assert ended == ["first", "late"]
    finally:
        loop.close()


# --------------------------------------------------------------------------- the page


def _browsers() -> list[Any]:
    from tests.test_phone_browser import BROWSERS

    return BROWSERS


@pytest.mark.parametrize("browser_type", _browsers())
def test_an_invalid_link_says_so(browser_type):
    """A link of another table, or one a messenger cut short or mangled: the page says
    the link is not valid and offers the join code, instead of "Connecting…"."""
    table = _table(["phone", "phone", "random"])
    shown = ("(() => { const j = document.getElementById('join'); "
             "return !j.hidden && document.getElementById('joinmsg').textContent; })()")

    async def main() -> None:
        async with browser_type(width=390, height=844) as browser:
            base = f"http://127.0.0.1:{table.server.port}"
            for path in ("/p/zzzzzzzzzzzz", "/p/abc%E2%80%A6", "/p/" + "a" * 70, "/p/ab%20cd"):
                await browser.goto(base + path + "?lang=en")
                text = await browser.wait_for(shown)
                assert text == "This link is not valid for this table. Ask for the join code."
                line = await browser.eval("document.getElementById('line').textContent")
                assert line != "Connecting…", path
            assert await browser.problems() == []

    with running(table):
        asyncio.run(main())


# --------------------------------------------------------------------------- descriptors


HOST_UNDER_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), int(sys.argv[1])))
from game.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no descriptor limit to set")
def test_a_host_with_few_descriptors_plays_on_under_idle_connections(tmp_path):
    """``stammtisch host`` with 128 descriptors, three computers, and 150 idle TCP
    connections and 120 idle WebSockets from one address (opened again whenever the
    server closes one): a phone joins and the game ends; stderr stays short."""
    env = dict(os.environ, STAMMTISCH_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", HOST_UNDER_LIMIT, "128", "host", "--game", "chase",
         "--seats", "phone,medium,hard,expert", "--bind", "127.0.0.1", "--seed", "4",
         "--think", "0", "--rules", '{"lives": 2}', "--json"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        info = json.loads(proc.stdout.readline())
        port = info["port"]
        token = info["seats"][0]["link"].rsplit("/", 1)[1]
        stop = asyncio.Event

        async def hold(kind: str, n: int, done: asyncio.Event) -> int:
            opened = 0
            async with _session() as session:
                async def one() -> None:
                    nonlocal opened
                    while not done.is_set():
                        with contextlib.suppress(aiohttp.ClientError, OSError,
                                                 asyncio.TimeoutError):
                            if kind == "ws":
                                ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
                                opened += 1
                                await ws.receive()
                            else:
                                r, w = await asyncio.open_connection("127.0.0.1", port)
                                opened += 1
                                await r.read()
                                w.close()
                        await asyncio.sleep(0.02)
                await asyncio.gather(*(one() for _ in range(n)))
            return opened

        async def main() -> dict[str, Any]:
            done = stop()
            hogs = [asyncio.ensure_future(hold("tcp", 150, done)),
                    asyncio.ensure_future(hold("ws", 120, done))]
            await asyncio.sleep(1.5)
            async with _session("127.0.0.2" if OTHER else None) as session:
                p = Player(session, f"http://127.0.0.1:{port}/ws", token, 9)
                await asyncio.wait_for(p.play(threading.Event()), 90)
            done.set()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*hogs, return_exceptions=True), 20)
            return {"finished": p.finished, "acked": len(p.acked)}

        got = asyncio.run(main())
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert got["finished"] and got["acked"] > 0
    outcome = json.loads(out.strip().splitlines()[-1])
    assert outcome["finished"] and "error" not in outcome, outcome
    lines = err.strip().splitlines()
    assert len(lines) <= 50, lines[:20]
    assert "Traceback" not in err and "destroyed" not in err, err[-2000:]
