"""Helpers of the phone-table tests: a table in a thread, scripted phones on loopback,
and the check that no message ever told a phone more than its own view."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
from collections.abc import Iterator
from typing import Any

import aiohttp

from game import records
from game.cards import CUCKOO_VALUES, FRENCH52
from game.net.host import HeadlessTable
from game.net.lines import ponged_step
from game.net.link import PHONE_OMITS

CARDS = frozenset(FRENCH52) | frozenset(CUCKOO_VALUES)


class Sent:
    """Every message the server wrote, with the seat of its line (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: list[tuple[int | None, str]] = []

    def __call__(self, seat: int | None, text: str) -> None:
        with self.lock:
            self.items.append((seat, text))

    def all(self) -> list[tuple[int | None, str]]:
        with self.lock:
            return list(self.items)


class ManualClock:
    """A clock that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def running(table: HeadlessTable) -> Iterator[threading.Thread]:
    """``table`` playing in a background thread; stopped and joined at the end."""
    table.start()
    result: dict[str, Any] = {}
    th = threading.Thread(target=lambda: result.setdefault("out", table.run()),
                          name="test-table", daemon=True)
    th.start()
    try:
        yield th
    finally:
        table.stop()
        th.join(30)
        assert not th.is_alive(), "the table did not stop"


def token_of(table: HeadlessTable, seat: int) -> str:
    return table.server.access.tokens[seat]


def page_of(table: HeadlessTable, seat: int) -> str:
    """The address of ``seat``'s page: its link on the screen until a phone opened it,
    then that phone's own (the page puts its new token in its address)."""
    return f"{table.server.base_url}/p/{token_of(table, seat)}"


def ws_url(table: HeadlessTable) -> str:
    return f"http://127.0.0.1:{table.server.port}/ws"


def phone_session() -> aiohttp.ClientSession:
    """A client session for scripted phones: a handshake that gets no answer (a table
    that closed while the phone was reconnecting) gives up after a while, as a
    browser's does, instead of waiting for good."""
    return aiohttp.ClientSession(
        timeout=aiohttp.ClientTimeout(total=None, sock_connect=15, sock_read=15))


class Line:
    """One WebSocket of a scripted phone, reading into a queue."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session, self.url = session, url
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.got: list[dict[str, Any]] = []

    async def open(self) -> Line:
        self.ws = await self.session.ws_connect(self.url, max_msg_size=0)
        return self

    async def send(self, obj: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send_str(obj if isinstance(obj, str) else json.dumps(obj))

    async def next(self, timeout: float = 20.0) -> dict[str, Any] | None:
        """The next message, or ``None`` once the line closed."""
        assert self.ws is not None
        while True:
            try:
                msg = await self.ws.receive(timeout)
                break
            except ConnectionResetError:    # autoping answered a ping on a closing line:
                continue                    # as a browser, read on to the close
        if msg.type != aiohttp.WSMsgType.TEXT:
            return None
        data: dict[str, Any] = json.loads(msg.data)
        self.got.append(data)
        return data

    async def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        async def wait() -> dict[str, Any]:
            while True:
                m = await self.next(timeout)
                if m is None:
                    raise ConnectionError("line closed while waiting")
                if pred(m):
                    return m
        return await asyncio.wait_for(wait(), timeout)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


class Player:
    """A phone that plays random legal moves, and drops its line at random moments:
    right after sending a move (before its answer), or on any message it reads,
    sometimes politely, sometimes by cutting the connection.

    It answers the server's pings as a browser does, at once and with the same payload
    (aiohttp's own autoping would too, but unseen). Once it has the final state it
    stops playing and dropping, and leaves when it has answered the ping that follows
    that state: the table then knows it saw the end. It never stops on the clock:
    ``play`` ends at the end of the game, or once ``table_done`` is set and the table
    cannot be reached."""

    def __init__(self, session: aiohttp.ClientSession, url: str, token: str, seed: int,
                 drop: float = 0.0) -> None:
        self.session, self.url, self.token = session, url, token
        self.rng = random.Random(seed)           # the moves: the same whatever the timing
        self.chance = random.Random(seed + 10**6)    # the drops: read on every message
        self.drop = drop
        self.pending: dict[str, Any] | None = None
        self.acked: list[tuple[int, str]] = []        # (step, move) the table confirmed
        self.refusals: list[dict[str, Any]] = []
        self.answered: set[str] = set()         # ids the table answered
        self.state: dict[str, Any] | None = None
        self.decided = -1                        # the last step a move was chosen for
        self.drops = 0
        self.finished = False
        self.end: int | None = None              # the step of the final state it read
        self.n = 0
        self.where = "not started"              # what the phone waits for (diagnostics)

    def _acked(self, ack: dict[str, Any]) -> None:
        if ack["id"] in self.answered:              # the answer again: fine
            return
        assert self.pending is not None and ack["id"] == self.pending["id"], ack
        self.answered.add(ack["id"])
        self.acked.append((ack["step"], ack["move"]))
        self.pending = None

    async def _cut(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.drops += 1
        if self.chance.random() < 0.5:
            await ws.close()
        else:                                   # the Wi-Fi is gone: no goodbye
            transport = ws._response.connection.transport if ws._response.connection else None
            if transport is not None:
                transport.abort()
            await ws.close()

    async def _again(self, ws: aiohttp.ClientWebSocketResponse,
                     move: dict[str, Any]) -> None:
        await asyncio.sleep(0.5)
        if self.pending is move and not ws.closed:
            with contextlib.suppress(aiohttp.ClientError, ConnectionError, RuntimeError):
                await ws.send_str(json.dumps(move))

    async def play(self, table_done: threading.Event) -> None:
        while not self.finished:
            try:
                self.where = "connecting"
                ws = await self.session.ws_connect(self.url, max_msg_size=0, autoping=False)
            except aiohttp.ClientError:
                if table_done.is_set():
                    return
                await asyncio.sleep(0.05)
                continue
            try:
                await self._session(ws)
            except (aiohttp.ClientError, ConnectionError, asyncio.TimeoutError):
                pass
            finally:
                self.where = "closing"
                await ws.close()
            if table_done.is_set() and not self.finished:
                return

    async def _next(self, ws: aiohttp.ClientWebSocketResponse) -> aiohttp.WSMessage:
        """The next frame the line brings (a subclass may read it late, or tap it)."""
        return await ws.receive()

    async def _session(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        await ws.send_str(json.dumps({"type": "hello", "token": self.token}))
        self.where = "reading"
        while True:
            raw = await self._next(ws)
            if raw.type == aiohttp.WSMsgType.PING:
                await ws.pong(raw.data)
                if self.end is not None and ponged_step(raw.data, self.end) == self.end:
                    return                      # the table heard that it saw the end
                continue
            if raw.type == aiohttp.WSMsgType.PONG:
                continue
            if raw.type != aiohttp.WSMsgType.TEXT:
                return
            msg = json.loads(raw.data)
            kind = msg["type"]
            if kind == "welcome" and "token" in msg:
                self.token = msg["token"]        # the link opens a seat once, as the page
            if kind == "welcome" and self.pending is not None:
                await ws.send_str(json.dumps(self.pending))      # the same id again
            elif kind == "ack":
                self._acked(msg)
            elif kind == "refused":
                self.refusals.append(msg)
                if self.pending is not None and msg.get("id") == self.pending["id"]:
                    self.answered.add(msg["id"])
                    self.pending = None
                elif msg["code"] == "too_fast" and self.pending is not None:
                    # the server dropped a message unread: send the move again later,
                    # as the phone page does
                    asyncio.ensure_future(self._again(ws, self.pending))
            elif kind == "bye":
                self.finished = True
                return
            elif kind == "state":
                if "answered" in msg:               # the last ack, in case it was lost
                    self._acked(msg["answered"])
                if msg["table"]["finished"]:
                    self.finished, self.end = True, msg["step"]
                    continue
                self.state = msg
            if self.end is not None:            # the game is over: nothing to decide
                continue
            # decide on the latest state once no move of ours is on its way
            st = self.state
            if st is not None and st["view"]["legal"] and self.pending is None \
                    and st["step"] > self.decided:
                self.decided = st["step"]
                self.n += 1
                self.pending = {"type": "move", "id": f"m{self.n}-{self.rng.randrange(10**9)}",
                                "step": st["step"], "move": self.rng.choice(st["view"]["legal"])}
                await ws.send_str(json.dumps(self.pending))
                if self.chance.random() < self.drop:   # between sending and the answer
                    await self._cut(ws)
                    return
            if self.chance.random() < self.drop / 10:
                await self._cut(ws)
                return


def card_strings(obj: Any) -> set[str]:
    """Every string in a JSON value (keys included) that is a card code."""
    out: set[str] = set()
    if isinstance(obj, str):
        if obj in CARDS:
            out.add(obj)
        elif obj.startswith("take:") and obj[5:] in CARDS:
            out.add(obj[5:])
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= card_strings(k) | card_strings(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= card_strings(v)
    return out


def check_no_leaks(record: records.Record, sent: list[tuple[int | None, str]]) -> int:
    """Replay ``record`` and check every message sent: a ``state`` carries exactly the
    view of its seat at its step (its public history comes in ``history`` messages,
    which must be the game's); no message names a card its seat could not know;
    no message before ``hello`` names any card. Returns the messages checked."""
    n_steps = len(record.moves)
    wanted: dict[int, set[int]] = {}
    parsed = []
    for seat, text in sent:
        msg = json.loads(text)
        parsed.append((seat, msg))
        if msg.get("type") == "state":
            wanted.setdefault(msg["step"], set()).add(msg["seat"])
    views: dict[tuple[int, int], dict[str, Any]] = {}
    hands: dict[tuple[int, int], set[str]] = {}
    game = records.new_engine(record)
    game.start()
    for step in range(n_steps + 1):
        if step in wanted:
            for s in range(game.n_seats):
                v = game.view(s)
                hands[(step, s)] = set(v["hand"])
                if s in wanted[step]:
                    views[(step, s)] = {k: x for k, x in v.items()
                                        if k not in PHONE_OMITS}
                    views[(step, s)]["history_len"] = len(v["history"])
        if step < n_steps:
            seat, move = record.moves[step]
            game.apply(seat, move)
    history = game.view(0)["history"]          # public, the same for every seat
    knew: dict[int, set[str]] = {}
    for (_step, s), v in views.items():
        knew.setdefault(s, set()).update(card_strings(v))
    for seat, msg in parsed:
        kind = msg.get("type")
        if seat is None:
            assert not card_strings(msg), f"a card before hello: {msg}"
            continue
        if kind == "history":
            assert msg["rounds"] == history[msg["from"]:msg["from"] + len(msg["rounds"])]
            continue
        if kind == "state":
            step = msg["step"]
            assert msg["seat"] == seat, msg
            view = views[(step, seat)]
            assert msg["view"] == view, f"seat {seat} got more or less than its view"
            mine = card_strings(view)
            answered = msg.pop("answered", None)    # this seat's own last confirmed move
            if answered is not None:
                assert record.moves[answered["step"]] == (seat, answered["move"]), answered
            for other in range(record_seats(record)):
                if other == seat:
                    continue
                secret = hands[(step, other)] - mine
                leaked = secret & card_strings(msg)
                assert not leaked, f"seat {seat} was sent seat {other}'s {leaked}"
        else:
            extra = card_strings(msg) - knew.get(seat, set())
            assert not extra, f"seat {seat} got cards it never saw: {extra} in {msg}"
    return len(parsed)


def record_seats(record: records.Record) -> int:
    return len(record.seats)


def confirmed_moves(p: Player, game: Any) -> list[tuple[int, str]]:
    """The moves the phone saw confirmed. Its very last move counts only once confirmed
    too: a phone that cut its line as it sent the game's last move is back for the end
    (the table waits until each phone has received the end, ``HeadlessTable.delivered``),
    and the final state tells it the move was taken (``answered``)."""
    return list(p.acked)
