"""Benchmark of the Rams levels: paired duplicate tournaments and decision times.

    python tools/bench_rams_ai.py --pair medium:easy --sequences 2000 [--jobs 2]
    python tools/bench_rams_ai.py --pair hard:medium --sequences 2000 [--jobs 2]
    python tools/bench_rams_ai.py --times --decisions 300

``--pair A:B`` plays 4-seat tables of one ``A`` and three ``B`` over ``--sequences``
deal sequences, each in all 4 seat rotations (same seeds as ``stammtisch tournament
--duplicate``). It prints, as one JSON object:

- ``lives_per_round``: each level's lives lost per round it was dealt into;
- ``diff``: A minus B lives per round, paired by deal sequence (mean of the
  per-sequence difference, with its normal 95% interval);
- ``win_share`` of A (one seat of four: 0.25 is par) with its Wilson interval, and
  the same with a normal interval over the per-sequence share;
- ``decision_ms`` p50/p95 of A and B.

``--samples-declare`` / ``--samples-card`` override the search budget of ``hard``
(and ``expert``) for long runs. ``--times`` measures the decision time of ``hard``
and ``expert`` at their shipped budgets on positions from real games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.common import mix  # noqa: E402
from game.ai.registry import make_player  # noqa: E402
from game.ai.stats import mean_ci, percentile, wilson  # noqa: E402
from game.ai.tournament import participants, play_one  # noqa: E402

N = 4


def _budget(args: dict[str, Any]) -> None:
    from game.ai import rams_levels

    for cls in (rams_levels.RamsHard, rams_levels.RamsExpert):
        if args.get("samples_declare"):
            cls.samples_declare = args["samples_declare"]
        if args.get("samples_card"):
            cls.samples_card = args["samples_card"]


def _run(job: tuple[str, str, int, list[int], dict[str, Any], dict[str, Any] | None]
         ) -> list[dict[str, Any]]:
    a, b, seed, ks, budget, rules = job
    _budget(budget)
    specs = [a, b, b, b]
    players = [make_player("rams", s) for s in specs]
    out = []
    for k in ks:
        game_seed = mix(seed, k) >> 1
        bot_seed = mix(seed, k, 1) >> 1
        rec = {"k": k, "lost": [0, 0], "rounds": [0, 0], "wins": 0.0, "ms": [[], []],
               "unfinished": 0}
        for r in range(N):
            seat_idx = [(i + r) % N for i in range(N)]    # base index of each seat
            seat_player = [players[j] for j in seat_idx]
            times: list[list[int]] = [[] for _ in range(N)]
            g = play_one("rams", rules, seat_player, game_seed, bot_seed, times)
            if not g.finished:
                rec["unfinished"] += 1
            winners = [] if g.winner is None else [g.winner]
            for seat, j in enumerate(seat_idx):
                who = 0 if j == 0 else 1
                rec["ms"][who] += [t / 1e6 for t in times[seat]]
                if seat in winners and who == 0:
                    rec["wins"] += 1
            for entry in g.rounds:
                lost = entry.get("lost", {})
                for s in participants(entry):
                    who = 0 if seat_idx[int(s)] == 0 else 1
                    rec["rounds"][who] += 1
                    rec["lost"][who] += lost.get(s, 0)
        out.append(rec)
    return out


def pair(a: str, b: str, sequences: int, seed: int, jobs: int, budget: dict[str, Any],
         rules: dict[str, Any] | None) -> dict[str, Any]:
    ks = list(range(sequences))
    chunks = [ks[i::jobs * 4] for i in range(jobs * 4)]
    work = [(a, b, seed, c, budget, rules) for c in chunks if c]
    t0 = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            parts = pool.map(_run, work)
    else:
        parts = [_run(w) for w in work]
    recs = sorted((r for p in parts for r in p), key=lambda r: r["k"])
    secs = time.perf_counter() - t0
    diffs = []
    shares = []
    for r in recs:
        la = r["lost"][0] / r["rounds"][0] if r["rounds"][0] else 0.0
        lb = r["lost"][1] / r["rounds"][1] if r["rounds"][1] else 0.0
        diffs.append(la - lb)
        shares.append(r["wins"] / N)
    m, lo, hi = mean_ci(diffs)
    wins = sum(r["wins"] for r in recs)
    games = N * len(recs)
    wlo, whi = wilson(wins, games)
    sm, slo, shi = mean_ci(shares)
    ms_a = [x for r in recs for x in r["ms"][0]]
    ms_b = [x for r in recs for x in r["ms"][1]]
    tot = [sum(r["lost"][i] for r in recs) / max(1, sum(r["rounds"][i] for r in recs))
           for i in (0, 1)]
    return {
        "pair": f"{a} vs 3x {b}", "sequences": len(recs), "games": games,
        "seconds": round(secs, 1), "seed": seed, "budget": budget, "rules": rules,
        "unfinished": sum(r["unfinished"] for r in recs),
        "lives_per_round": {a: round(tot[0], 5), b: round(tot[1], 5)},
        "diff": {"mean": round(m, 5), "ci95": [round(lo, 5), round(hi, 5)],
                 "excludes_zero": hi < 0 or lo > 0},
        "win_share": {"share": round(wins / games, 4), "wilson95": [round(wlo, 4),
                                                                   round(whi, 4)],
                      "paired95": [round(slo, 4), round(shi, 4)],
                      "excludes_quarter": wlo > 0.25 or whi < 0.25},
        "decision_ms": {a: {"p50": round(percentile(ms_a, 50), 3),
                            "p95": round(percentile(ms_a, 95), 3), "n": len(ms_a)},
                        b: {"p50": round(percentile(ms_b, 50), 3),
                            "p95": round(percentile(ms_b, 95), 3), "n": len(ms_b)}},
    }


def times(decisions: int, seed: int) -> dict[str, Any]:
    """Decision times of hard and expert at the shipped budgets (one process)."""
    from game.games import new_game

    out: dict[str, Any] = {}
    for level in ("hard", "expert"):
        me = make_player("rams", level)
        other = make_player("rams", "medium")
        ms: list[float] = []
        by: dict[str, list[float]] = {}
        k = 0
        while len(ms) < decisions:
            g = new_game("rams", None, N, seed=mix(seed, k) >> 1, bot_seed=k)
            g.emit_events = False
            g.start()
            k += 1
            while g.to_move() is not None and len(ms) < decisions:
                p = g.to_move()
                v = g.lazy_view(p.seat)
                if p.seat == 0:
                    t0 = time.perf_counter()
                    move = me.choose(v)
                    dt = (time.perf_counter() - t0) * 1000
                    if len(p.legal) > 1:
                        ms.append(dt)
                        by.setdefault(p.decision, []).append(dt)
                else:
                    move = other.choose(v)
                g.apply(p.seat, move)
        out[level] = {"decisions": len(ms), "p50": round(percentile(ms, 50), 2),
                      "p95": round(percentile(ms, 95), 2), "max": round(max(ms), 2),
                      "by_decision": {d: {"n": len(x), "p95": round(percentile(x, 95), 2)}
                                      for d, x in by.items()}}
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pair", default=None, help="A:B, one A and three B")
    p.add_argument("--sequences", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--samples-declare", type=int, default=None)
    p.add_argument("--samples-card", type=int, default=None)
    p.add_argument("--rules", default=None, help="rules as a JSON object")
    p.add_argument("--times", action="store_true")
    p.add_argument("--decisions", type=int, default=300)
    args = p.parse_args(argv)
    if args.times:
        print(json.dumps({"times": times(args.decisions, args.seed)}))
    if args.pair:
        a, b = args.pair.split(":")
        budget = {"samples_declare": args.samples_declare, "samples_card": args.samples_card}
        rules = json.loads(args.rules) if args.rules else None
        print(json.dumps(pair(a, b, args.sequences, args.seed, max(1, args.jobs), budget,
                              rules)))
    if not args.times and not args.pair:
        p.print_help()
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
