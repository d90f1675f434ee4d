"""Phone table benchmark on the loopback interface.

    python tools/bench_phone.py [--moves 300] [--phones 10] [--json]

1. Latency: a headless Chase table with ``--phones`` phone seats; scripted phones
   play random legal moves. For every move the time from the phone's send to the
   table's "move applied" news (the engine took it, the table heard it), and to the
   phone receiving its ``ack``. Prints p50/p95 (target: p95 <= 50 ms to the table).
2. Memory: the server process's resident memory before the server starts and with
   ``--phones`` phones connected and playing (Linux: /proc/self/status VmRSS; the
   phones' client side runs in this process too, so the figure is an upper bound).

The last line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from game.net.host import HeadlessTable  # noqa: E402
from game.turn import hooks as H  # noqa: E402
from game.turn.hooks import Hooks  # noqa: E402


def rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


async def phone(session: aiohttp.ClientSession, url: str, token: str, seed: int,
                sent_at: dict[str, float], acked_at: dict[str, tuple[float, int]],
                stop: threading.Event) -> None:
    rng = random.Random(seed)
    n = 0
    async with session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"type": "hello", "token": token}))
        pending = None
        async for raw in ws:
            if raw.type != aiohttp.WSMsgType.TEXT:
                return
            msg = json.loads(raw.data)
            if msg["type"] == "ack":
                acked_at[msg["id"]] = (time.perf_counter(), msg["step"])
                pending = None
            elif msg["type"] == "state":
                if msg["table"]["finished"] or stop.is_set():
                    return
                legal = msg["view"]["legal"]
                if legal and pending is None:
                    n += 1
                    pending = f"s{seed}m{n}"
                    sent_at[pending] = time.perf_counter()
                    await ws.send_str(json.dumps({"type": "move", "id": pending,
                                                  "step": msg["step"],
                                                  "move": rng.choice(legal)}))
            elif msg["type"] == "bye":
                return


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=300, help="moves to time (at least)")
    p.add_argument("--phones", type=int, default=10)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    base_rss = rss_mb()
    applied_at: dict[int, float] = {}
    hooks = Hooks()
    hooks.subscribe(H.MOVE_APPLIED, lambda news: applied_at.__setitem__(
        len(news.game.moves) - 1, time.perf_counter()))
    sent_at: dict[str, float] = {}
    acked_at: dict[str, tuple[float, int]] = {}
    connected_rss: list[float] = []

    def sample(news: object) -> None:
        game = getattr(news, "game", None)
        if game is not None and len(game.moves) == 100 and not connected_rss:
            connected_rss.append(rss_mb() or 0.0)

    hooks.subscribe(H.MOVE_APPLIED, sample)
    to_table: list[float] = []
    round_trip: list[float] = []
    games_played = 0
    while len(to_table) < args.moves:
        table = HeadlessTable("chase", ["phone"] * args.phones, seed=100 + games_played,
                              keep_records=False, hooks=hooks,
                              server_options={"rate": 1000.0, "burst": 1000.0})
        applied_at.clear()
        sent_at.clear()
        acked_at.clear()
        table.start()
        th = threading.Thread(target=table.run, daemon=True)
        th.start()
        stop = threading.Event()

        async def play(table: HeadlessTable = table, stop: threading.Event = stop) -> None:
            url = f"http://127.0.0.1:{table.server.port}/ws"
            async with aiohttp.ClientSession() as session:
                tasks = [phone(session, url, table.server.access.tokens[s], s, sent_at,
                               acked_at, stop) for s in table.phones]
                await asyncio.gather(*tasks)

        asyncio.run(play())
        th.join(30)
        games_played += 1
        for mid, (t_ack, step) in acked_at.items():
            if step in applied_at:
                to_table.append((applied_at[step] - sent_at[mid]) * 1000)
                round_trip.append((t_ack - sent_at[mid]) * 1000)

    result = {
        "phones": args.phones, "games": games_played, "moves": len(to_table),
        "to_table_ms_p50": round(statistics.median(to_table), 2),
        "to_table_ms_p95": round(pct(to_table, 0.95), 2),
        "round_trip_ms_p50": round(statistics.median(round_trip), 2),
        "round_trip_ms_p95": round(pct(round_trip, 0.95), 2),
        "rss_mb_before": round(base_rss, 1) if base_rss else None,
        "rss_mb_with_phones": round(connected_rss[0], 1) if connected_rss else None,
    }
    if not args.json:
        print(f"{result['moves']} moves, {args.phones} phones on loopback")
        print(f"  phone move -> table's 'move applied': p50 {result['to_table_ms_p50']} ms, "
              f"p95 {result['to_table_ms_p95']} ms (target p95 <= 50 ms)")
        print(f"  phone move -> phone's ack:           p50 {result['round_trip_ms_p50']} ms, "
              f"p95 {result['round_trip_ms_p95']} ms")
        print(f"  memory: {result['rss_mb_before']} MB before the server, "
              f"{result['rss_mb_with_phones']} MB with {args.phones} phones playing")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
