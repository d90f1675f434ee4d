"""The phone server under abuse, through real sockets on loopback.

    python tools/bench_phone_abuse.py [--fd-limit 256] [--idle-ws 500] [--idle-tcp 300]
                                      [--seconds 30] [--json]

Runs ``stammtisch host`` (Chase: one phone seat and three ``medium`` computers) in a
subprocess whose descriptor limit is ``--fd-limit`` (``resource.setrlimit``; where
there is no such limit, as on Windows, the host keeps the system's), then measures:

1. **Idle sockets.** From one loopback address (127.0.0.1) ``--idle-ws`` WebSockets
   that never say ``hello`` and ``--idle-tcp`` TCP connections that never send a byte;
   every one the server closes is opened again at once, for the whole game. Meanwhile
   a real phone (from 127.0.0.2, and in a second run from 127.0.0.1 too) loads its
   join link's page, says ``hello`` and plays every decision to the end of the game.
   Figures: seconds to the page and to ``welcome``, whether the game finished, the
   lines the server's stderr gained, the attacker's connections opened and closed.
2. **Deep JSON.** 4 KB of ``[``: the answer (a refusal code, or how the line closed).
3. **Malformed HTTP.** 200 garbage requests: the stderr lines they cost.
4. **Lockout.** 25 wrong tokens from 127.0.0.1, then the right token from the same
   address: seconds until ``welcome`` (target: within 60 s).
5. **Rotating addresses.** Wrong tokens, then wrong join codes, each from a new
   loopback address (127.1.x.y): the checks the server answered (``bad_token`` /
   ``bad_code``) per second, and those it held back (``locked`` or slowed).
6. **A clean stop.** SIGTERM (Ctrl+Break's equivalent elsewhere is not measured);
   whether stderr says "Task was destroyed but it is pending!".

Loopback addresses other than 127.0.0.1 exist on Linux (and Windows); on macOS the
rotating-address and second-address parts are skipped. The last line is one JSON
object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

#: The host in its subprocess: the descriptor limit first, then ``stammtisch host``.
HOST = """
import sys
try:
    import resource
    want = int(sys.argv[1])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if want > 0:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, min(hard, max(want, 0)) if hard != resource.RLIM_INFINITY else want))
except ImportError:
    pass
from game.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _can_use(address: str) -> bool:
    """Whether this system lets a socket use ``address`` as its source (Linux: all of
    127/8; macOS: 127.0.0.1 only)."""
    try:
        with socket.socket() as s:
            s.bind((address, 0))
        return True
    except OSError:
        return False


class Host:
    """``stammtisch host`` in a subprocess, its stderr read in a thread."""

    def __init__(self, fd_limit: int, seats: str, seed: int, think: float) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1",
                   STAMMTISCH_HOME=tempfile.mkdtemp(prefix="stammtisch-abuse-"))
        args = [sys.executable, "-c", HOST, str(fd_limit), "host", "--game", "chase",
                "--seats", seats, "--bind", "127.0.0.1", "--seed", str(seed),
                "--think", str(think), "--away-after", "600", "--json"]
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.err: list[str] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._read_err, daemon=True).start()
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError("the host did not start: " + "".join(self.err)[-2000:])
        self.info: dict[str, Any] = json.loads(first)
        self.port = int(self.info["port"])

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._lock:
                self.err.append(line)

    def err_lines(self) -> int:
        with self._lock:
            return len(self.err)

    def token(self, seat: int) -> str:
        return str(self.info["seats"][seat]["link"]).rsplit("/", 1)[1]

    def stop(self, timeout: float = 20.0) -> dict[str, Any]:
        out: dict[str, Any] = {}
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(8)         # a finished game ends the host by itself
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM if hasattr(signal, "SIGTERM")
                                  else signal.CTRL_BREAK_EVENT)
        try:
            rest, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rest, _ = self.proc.communicate()
            out["killed"] = True
        out["returncode"] = self.proc.returncode
        out["outcome"] = rest.strip().splitlines()[-1] if rest and rest.strip() else None
        time.sleep(0.2)
        with self._lock:
            text = "".join(self.err)
        out["task_destroyed"] = "Task was destroyed" in text
        return out


# --------------------------------------------------------------------------- attackers


class Idle:
    """``n`` idle connections from ``source`` kept open: every one the server closes is
    opened again at once (``kind``: ``ws`` or ``tcp``)."""

    def __init__(self, kind: str, n: int, port: int, source: str,
                 again: bool = True) -> None:
        self.kind, self.n, self.port, self.source = kind, n, port, source
        self.again = again
        self.opened = self.failed = self.closed = 0
        self.live = 0
        self.stop = asyncio.Event()

    async def run(self) -> None:
        connector = aiohttp.TCPConnector(local_addr=(self.source, 0), limit=0,
                                         force_close=True)
        async with aiohttp.ClientSession(
                connector=connector,
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=5, sock_read=None)
        ) as session:
            await asyncio.gather(*(self._slot(session) for _ in range(self.n)))

    async def _hold(self, read: Coroutine[Any, Any, Any]) -> None:
        """Count one new connection open and live until ``read`` ends (the server
        wrote or closed it) or the run stops."""
        self.opened += 1
        self.live += 1
        try:
            waiter = asyncio.ensure_future(read)
            stopper = asyncio.ensure_future(self.stop.wait())
            await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            stopper.cancel()
        finally:
            self.live -= 1

    async def _slot(self, session: aiohttp.ClientSession) -> None:
        url = f"http://127.0.0.1:{self.port}/ws"
        while not self.stop.is_set():
            try:
                if self.kind == "ws":
                    ws = await session.ws_connect(url, heartbeat=None, autoping=True)
                    try:
                        await self._hold(ws.receive())
                    finally:
                        await ws.close()
                else:
                    reader, writer = await asyncio.open_connection(
                        "127.0.0.1", self.port, local_addr=(self.source, 0))
                    try:
                        await self._hold(reader.read(1))
                    finally:
                        writer.close()
                if not self.stop.is_set():
                    self.closed += 1
            except (aiohttp.ClientError, OSError, asyncio.TimeoutError):
                self.failed += 1
                await asyncio.sleep(0.05)
            if not self.again:
                return
            await asyncio.sleep(0.01)


# --------------------------------------------------------------------------- the phone


async def play_phone(port: int, token: str, source: str, deadline: float) -> dict[str, Any]:
    """A real phone: the page of its link, then hello, then every decision (random
    legal moves) until the game ends. Reconnects like the page when its line drops."""
    out: dict[str, Any] = {"source": source, "page_s": None, "welcome_s": None,
                           "moves": 0, "finished": False, "reconnects": 0}
    t0 = time.perf_counter()
    rng = random.Random(5)
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=20)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        base = f"http://127.0.0.1:{port}"
        while out["page_s"] is None and time.perf_counter() < deadline:
            try:
                async with session.get(f"{base}/p/{token}") as r:
                    await r.read()
                    if r.status == 200:
                        out["page_s"] = round(time.perf_counter() - t0, 3)
                    else:
                        out["page_status"] = r.status
            except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
                out["page_error"] = type(exc).__name__
                await asyncio.sleep(0.25)
        pending: str | None = None
        n = 0
        while not out["finished"] and time.perf_counter() < deadline:
            try:
                async with session.ws_connect(f"{base}/ws", heartbeat=None,
                                              headers={"Origin": base}) as ws:
                    await ws.send_str(json.dumps({"type": "hello", "token": token}))
                    async for raw in ws:
                        if raw.type != aiohttp.WSMsgType.TEXT:
                            break
                        msg = json.loads(raw.data)
                        kind = msg.get("type")
                        if kind == "welcome" and out["welcome_s"] is None:
                            out["welcome_s"] = round(time.perf_counter() - t0, 3)
                        elif kind == "refused":
                            out.setdefault("refusals", []).append(msg.get("code"))
                            if msg.get("id") == pending:
                                pending = None
                        elif kind == "ack" and msg.get("id") == pending:
                            pending = None
                            out["moves"] += 1
                        elif kind == "state":
                            if msg["table"]["finished"]:
                                # read on until bye, as a page does: its autoping
                                # answers the ping after this state, and the host,
                                # which waits for that receipt, ends at once
                                out["finished"] = True
                                continue
                            legal = msg["view"]["legal"]
                            if legal and pending is None:
                                n += 1
                                pending = f"p{n}"
                                await ws.send_str(json.dumps({
                                    "type": "move", "id": pending, "step": msg["step"],
                                    "move": rng.choice(legal)}))
                        elif kind == "bye":
                            break
            except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
                out["line_error"] = type(exc).__name__
            if not out["finished"]:
                out["reconnects"] += 1
                pending = None
                await asyncio.sleep(0.25)
    out["total_s"] = round(time.perf_counter() - t0, 3)
    return out


async def idle_and_play(host: Host, args: argparse.Namespace, phone_source: str,
                        again: bool = True) -> dict[str, Any]:
    ws = Idle("ws", args.idle_ws, host.port, "127.0.0.1", again)
    tcp = Idle("tcp", args.idle_tcp, host.port, "127.0.0.1", again)
    err0 = host.err_lines()
    attack = [asyncio.ensure_future(ws.run()), asyncio.ensure_future(tcp.run())]
    await asyncio.sleep(args.settle)              # let the attackers take what they can
    held = {"ws_live": ws.live, "tcp_live": tcp.live}
    phone = await play_phone(host.port, host.token(0), phone_source,
                             time.perf_counter() + args.seconds)
    for a in (ws, tcp):
        a.stop.set()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(asyncio.gather(*attack, return_exceptions=True), 20)
    return {"phone": phone, "held_before_phone": held,
            "attacker": {k: {"opened": a.opened, "closed_by_server": a.closed,
                             "failed": a.failed} for k, a in (("ws", ws), ("tcp", tcp))},
            "stderr_lines": host.err_lines() - err0,
            "stderr_sample": sorted({line.strip()[:120] for line in host.err[err0:]})[:6]}


# --------------------------------------------------------------------------- the others


async def deep_json(port: int) -> dict[str, Any]:
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
            await ws.send_str("[" * 4096)
            try:
                msg = await ws.receive(10)
            except asyncio.TimeoutError:
                return {"answer": "nothing in 10 s"}
            if msg.type == aiohttp.WSMsgType.TEXT:
                data = json.loads(msg.data)
                return {"answer": data.get("type"), "code": data.get("code")}
            return {"answer": "closed", "close_code": ws.close_code}


def garbage_http(port: int, n: int = 200) -> None:
    rng = random.Random(7)
    for i in range(n):
        junk = [b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(rng.randrange(256)
                                                                       for _ in range(40)),
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
                b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",
                b"BREW /pot HTCPCP/1.0\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"]
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(junk[i % len(junk)])
                with contextlib.suppress(OSError):
                    s.recv(4096)
        except OSError:
            pass


async def lockout(host: Host) -> dict[str, Any]:
    """25 wrong tokens from 127.0.0.1, then the right one from the same address."""
    url = f"http://127.0.0.1:{host.port}/ws"
    codes: list[str] = []
    async with aiohttp.ClientSession() as session:
        for i in range(25):
            async with session.ws_connect(url) as ws:
                await ws.send_str(json.dumps({"type": "hello", "token": f"wrong{i:07d}"}))
                msg = await ws.receive(70)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    codes.append(json.loads(msg.data).get("code"))
                else:
                    codes.append(f"closed {ws.close_code}")
        t0 = time.perf_counter()
        got = None
        tries = 0
        while time.perf_counter() - t0 < 90 and got is None:
            tries += 1
            async with session.ws_connect(url) as ws:
                await ws.send_str(json.dumps({"type": "hello", "token": host.token(0)}))
                while True:
                    msg = await ws.receive(70)
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        break
                    data = json.loads(msg.data)
                    if data["type"] == "welcome":
                        got = round(time.perf_counter() - t0, 3)
                        break
                    if data["type"] == "refused":
                        break
            if got is None:
                await asyncio.sleep(1.0)
    return {"wrong_answers": {c: codes.count(c) for c in set(codes)},
            "right_token_in_s": got, "tries": tries}


async def rotating(port: int, kind: str, seconds: float) -> dict[str, Any]:
    """Wrong guesses, each from a new loopback address, for ``seconds``."""
    url = f"http://127.0.0.1:{port}/ws"
    answers: dict[str, int] = {}
    n = 0
    t0 = time.perf_counter()

    async def one(i: int) -> None:
        src = f"127.1.{(i >> 8) & 255}.{i & 255 or 1}"
        connector = aiohttp.TCPConnector(local_addr=(src, 0))
        try:
            async with aiohttp.ClientSession(connector=connector) as session:
                async with session.ws_connect(url) as ws:
                    if kind == "token":
                        msg = {"type": "hello", "token": f"guess{i:07d}"}
                    else:
                        msg = {"type": "join", "code": f"{i:06d}"[-6:]}
                    await ws.send_str(json.dumps(msg))
                    got = await ws.receive(5)
                    code = (json.loads(got.data).get("code") if got.type ==
                            aiohttp.WSMsgType.TEXT else f"closed {ws.close_code}")
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            code = type(exc).__name__
        answers[str(code)] = answers.get(str(code), 0) + 1

    while time.perf_counter() - t0 < seconds:
        await asyncio.gather(*(one(n + k) for k in range(16)))
        n += 16
    elapsed = time.perf_counter() - t0
    checked = answers.get("bad_token" if kind == "token" else "bad_code", 0)
    return {"tries": n, "answers": answers, "checked_per_s": round(checked / elapsed, 1),
            "seconds": round(elapsed, 1)}


# --------------------------------------------------------------------------- main


def guessing(host: Host, seconds: float, other: bool) -> dict[str, Any]:
    """Malformed HTTP, the lockout, and guesses from rotating addresses."""
    out: dict[str, Any] = {}
    err0 = host.err_lines()
    garbage_http(host.port)
    time.sleep(0.5)
    out["garbage_http_stderr_lines"] = host.err_lines() - err0
    out["lockout"] = asyncio.run(lockout(host))
    if other:
        out["rotating_tokens"] = asyncio.run(rotating(host.port, "token", seconds))
        out["rotating_codes"] = asyncio.run(rotating(host.port, "code", seconds))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fd-limit", type=int, default=256)
    p.add_argument("--idle-ws", type=int, default=500)
    p.add_argument("--idle-tcp", type=int, default=300)
    p.add_argument("--seconds", type=float, default=120.0,
                   help="the phone's deadline to finish its game")
    p.add_argument("--settle", type=float, default=3.0,
                   help="seconds the attackers get before the phone starts")
    p.add_argument("--rotate-seconds", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--only", default=None,
                   help="comma-separated parts: other_address, same_address, "
                        "same_address_once, guessing (default: all)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None

    other = _can_use("127.0.0.2")
    result: dict[str, Any] = {"fd_limit": args.fd_limit, "idle_ws": args.idle_ws,
                              "idle_tcp": args.idle_tcp, "stops": []}
    # (name, the phone's address, the attacker opens again what the server closes)
    runs = ([("other_address", "127.0.0.2", True)] if other else []) + [
        ("same_address", "127.0.0.1", True), ("same_address_once", "127.0.0.1", False)]
    runs = [r for r in runs if only is None or r[0] in only]
    for name, source, again in runs:
        host = Host(args.fd_limit, "phone,medium,medium,medium", args.seed, 0.05)
        try:
            if name == runs[0][0]:
                result["deep_json"] = asyncio.run(deep_json(host.port))
            result[name] = asyncio.run(idle_and_play(host, args, source, again))
        finally:
            result["stops"].append(host.stop())
    if only is None or "guessing" in only:
        host = Host(0, "phone,phone,medium", args.seed, 0.8)
        try:
            result.update(guessing(host, args.rotate_seconds, other))
        finally:
            result["stops"].append(host.stop())
    if not args.json:
        for key in ("other_address", "same_address", "same_address_once"):
            r = result.get(key)
            if not r:
                continue
            ph = r["phone"]
            print(f"{key}: phone from {ph['source']}: page {ph['page_s']} s, welcome "
                  f"{ph['welcome_s']} s, {ph['moves']} moves, finished {ph['finished']} "
                  f"(in {ph['total_s']} s, {ph['reconnects']} reconnects); server stderr "
                  f"+{r['stderr_lines']} lines; attacker {r['attacker']}")
            for line in r["stderr_sample"]:
                print(f"    stderr: {line}")
        print(f"deep JSON: {result.get('deep_json')}; garbage HTTP: stderr "
              f"+{result.get('garbage_http_stderr_lines')} lines")
        if "lockout" in result:
            print(f"lockout: {result['lockout']}")
        for key in ("rotating_tokens", "rotating_codes"):
            if key in result:
                print(f"{key}: {result[key]}")
        print(f"stops: {result['stops']}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
