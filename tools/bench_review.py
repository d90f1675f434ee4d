"""How long the game review takes: 4-player Chase the Ace and Rams games, each
reviewed as the window does it (every decision's coach call, ``--jobs`` worker
processes started beforehand, the default number of deals).

    python tools/bench_review.py [--game chase,rams] [--games 20] [--jobs 2]
                                 [--seats medium,hard,medium,hard] [--seed 1]
                                 [--rules pub|as_written|JSON]

``--rules`` names a rule preset of the games (``pub``: today's defaults;
``as_written``: Rams as written, lives and the drop limit) or gives the rules as a
JSON object; a preset a game does not have leaves that game at its defaults.

Per game one line (decisions, wall seconds, CPU seconds of the coach calls summed over
the processes); then per game the median, p95 and largest of both, and the machine's
load average before and after (the wall clock depends on what else runs; the CPU time
hardly does). Target: p95 of the wall clock at most 5 s for each game.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import multiprocessing
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import games, records  # noqa: E402
from game.ai.registry import make_player  # noqa: E402
from game.records import Record, Seat  # noqa: E402
from game.review import compute  # noqa: E402
from game.review.job import CHUNK  # noqa: E402


def timed_chunk(data: dict[str, Any], moves: list[int], token: str
                ) -> tuple[list[dict[str, Any]], float]:
    """A few decisions' coach calls (as the window's worker makes them) and the CPU
    time they took in their process."""
    start = time.process_time()
    got = compute.advise_moves(data, moves, token=token)
    return got, time.process_time() - start


def rules_for(game_id: str, spec: str | None) -> dict[str, Any] | None:
    """The rules ``--rules`` gives ``game_id``: a preset's keys, a JSON object, or
    ``None`` (the defaults)."""
    if not spec:
        return None
    if spec.lstrip().startswith("{"):
        return dict(json.loads(spec))
    presets = games.entry(game_id).presets or {}
    return dict(presets[spec]) if spec in presets else None


def play(game_id: str, seats: list[str], seed: int,
         rules: dict[str, Any] | None = None) -> Record:
    g = games.new_game(game_id, rules, len(seats), seed=seed, bot_seed=seed)
    g.start()
    players = [make_player(game_id, s) for s in seats]
    while not g.finished:
        p = g.to_move()
        g.apply(p.seat, players[p.seat].choose(g.view(p.seat)))
    return records.record_of(g, [Seat(f"P{i}", "ai", s) for i, s in enumerate(seats)],
                             seed=seed, bot_seed=seed)


def review(record: Record, pool: concurrent.futures.Executor | None) -> tuple[dict, float, float]:
    """The review, its wall seconds and the coach calls' CPU seconds."""
    start = time.perf_counter()
    p = compute.plan(record)
    groups = compute.chunks(p, CHUNK)
    data = record.as_dict()
    token = uuid.uuid4().hex
    if pool is None:
        got = [timed_chunk(data, g, token) for g in groups]
    else:
        got = list(pool.map(timed_chunk, [data] * len(groups), groups,
                            [token] * len(groups)))
    out = compute.assemble(p, [a for chunk, _ in got for a in chunk])
    return out, time.perf_counter() - start, sum(c for _, c in got)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="chase,rams")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seats", default="medium,hard,medium,hard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default=None,
                    help="a rule preset (pub, as_written) or the rules as JSON")
    args = ap.parse_args(argv)
    seats = args.seats.split(",")
    pool = None
    if args.jobs > 1:
        pool = concurrent.futures.ProcessPoolExecutor(
            args.jobs, mp_context=multiprocessing.get_context("spawn"))
        list(pool.map(abs, range(args.jobs * 4)))          # started, as in the window
    load0 = os.getloadavg() if hasattr(os, "getloadavg") else None
    summary = {}
    try:
        for game_id in args.game.split(","):
            walls, cpus, sizes = [], [], []
            rules = rules_for(game_id, args.rules)
            for k in range(args.games):
                rec = play(game_id, seats, args.seed + k, rules)
                rv, wall, cpu = review(rec, pool)
                walls.append(wall)
                cpus.append(cpu)
                sizes.append(len(rv["decisions"]))
                print(json.dumps({"game": game_id, "seed": args.seed + k,
                                  "rounds": len(rv["rounds"]), "decisions": sizes[-1],
                                  "wall_s": round(wall, 3), "cpu_s": round(cpu, 3)}),
                      flush=True)
            summary[game_id] = {
                "games": args.games, "jobs": args.jobs, "seats": seats, "rules": rules,
                "decisions_median": pct(sizes, 50), "decisions_max": max(sizes),
                "wall_s_median": round(pct(walls, 50), 2), "wall_s_p95": round(pct(walls, 95), 2),
                "wall_s_max": round(max(walls), 2),
                "cpu_s_median": round(pct(cpus, 50), 2), "cpu_s_p95": round(pct(cpus, 95), 2),
                "cpu_ms_per_decision": round(1000 * sum(cpus) / max(1, sum(sizes)), 1)}
    finally:
        if pool is not None:
            pool.shutdown()
    load1 = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(json.dumps({"summary": summary, "load_before": load0, "load_after": load1,
                      "cpus": os.cpu_count()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
