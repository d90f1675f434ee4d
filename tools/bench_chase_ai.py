"""Benchmarks of the Chase the Ace computer players; each prints its figures (JSON).

    python tools/bench_chase_ai.py nashconv [--players 2,3,4,5] [--level hard]
    python tools/bench_chase_ai.py nashconv --players 6,7,8,9,10 [--samples 400000]
    python tools/bench_chase_ai.py tournament --case easy|hard-medium|hard-threshold
                                              [--games 8000] [--seed 1]
    python tools/bench_chase_ai.py expert [--style threshold:4:4] [--games 3000]
    python tools/bench_chase_ai.py calibration [--rules JSON] [--decisions 20000] [--jobs 2]
    python tools/bench_chase_ai.py speed [--games 300]

``nashconv`` needs numpy (exact enumeration for 2–5 seats, sampling for 6–10).
``tournament``: duplicate tournaments at 4 seats (every deal sequence in all four
rotations). ``expert``: the expert and hard in the same seat among three fixed-style
bots, the same deal sequences, lives lost per round, paired difference with a 95%
interval. ``calibration``: the coach's predicted chance of losing a life for the move
actually made in all-hard games against what happened, by decile of prediction.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.calibration import calibrate  # noqa: E402
from game.ai.common import mix  # noqa: E402
from game.ai.registry import make_player  # noqa: E402
from game.ai.stats import mean_ci  # noqa: E402
from game.ai.tournament import play_one, run_tournament  # noqa: E402

CASES = {
    "easy": ["easy", "medium", "medium", "medium"],
    "hard-medium": ["hard", "medium", "medium", "medium"],
    "hard-threshold": ["hard", "threshold", "threshold", "threshold"],
    "expert-medium": ["expert", "medium", "medium", "medium"],
}


def cmd_nashconv(args: argparse.Namespace) -> dict:
    from game.ai.exploit import measure

    out = []
    for n in (int(x) for x in args.players.split(",")):
        t0 = time.time()
        r = measure(n, args.level, args.samples)
        r["seconds"] = round(time.time() - t0, 1)
        out.append(r)
        print(json.dumps(r), flush=True)
    return {"results": out}


def cmd_tournament(args: argparse.Namespace) -> dict:
    specs = CASES[args.case]
    r = run_tournament("chase", specs, args.games, seed=args.seed, duplicate=True)
    r.pop("incidents", None)
    print(json.dumps(r), flush=True)
    return r


def _seat_rate(game, seat: int) -> tuple[int, int]:
    lost = rounds = 0
    for entry in game.rounds:
        if str(seat) in entry.get("cards", {}):
            rounds += 1
            lost += entry.get("lost", {}).get(str(seat), 0)
    return lost, rounds


def cmd_expert(args: argparse.Namespace) -> dict:
    """Same deal sequences, seat 0 expert or hard; the others a fixed style."""
    rules = {"lives": args.lives}
    diffs, e_lost, e_rounds, h_lost, h_rounds = [], 0, 0, 0, 0
    times = []
    # one player object per seat for the whole run, as in a tournament (decisions are
    # functions of the view; the expert's cache only saves time)
    cast = {who: [make_player("chase", who)] + [make_player("chase", args.style) for _ in range(3)]
            for who in ("expert", "hard")}
    for k in range(args.games):
        seed = mix(args.seed, k) >> 1
        bot_seed = mix(args.seed, k, 1) >> 1
        rates = []
        for who in ("expert", "hard"):
            players = cast[who]
            t = [[] for _ in range(4)]
            g = play_one("chase", rules, players, seed, bot_seed, t)
            if who == "expert":
                times.extend(t[0])
            lost, rounds = _seat_rate(g, 0)
            rates.append(lost / rounds if rounds else 0.0)
            if who == "expert":
                e_lost, e_rounds = e_lost + lost, e_rounds + rounds
            else:
                h_lost, h_rounds = h_lost + lost, h_rounds + rounds
        diffs.append(rates[0] - rates[1])
    m, lo, hi = mean_ci(diffs)
    times.sort()
    out = {"style": args.style, "games": args.games, "rules": rules,
           "expert_lives_per_round": round(e_lost / e_rounds, 5),
           "hard_lives_per_round": round(h_lost / h_rounds, 5),
           "paired_diff_mean": round(m, 5), "ci95": [round(lo, 5), round(hi, 5)],
           "expert_decision_ms_p95": round(times[int(0.95 * (len(times) - 1))] / 1e6, 3)
           if times else 0.0}
    print(json.dumps(out), flush=True)
    return out


def cmd_calibration(args: argparse.Namespace) -> dict:
    """The coach's predicted chance of losing a life for the move made, against what
    happened, by decile of prediction. Last line: JSON with ``max_gap``."""
    rules = json.loads(args.rules) if args.rules else None
    t0 = time.time()
    got = calibrate("chase", args.level, args.decisions, args.players, args.seed,
                    args.jobs, rules, chunk=8)
    out = {"rules": rules or {}, "players": args.players, "level": args.level,
           "decisions": got["decisions"], "games": got["games"],
           "seconds": round(time.time() - t0, 1), "deciles": got["deciles"],
           "max_gap": got["max_gap"]}
    print(json.dumps(out), flush=True)
    return out


def cmd_speed(args: argparse.Namespace) -> dict:
    out = {}
    for level in ("easy", "medium", "hard", "expert"):
        for style in ("medium", "threshold:9:9"):
            specs = [level] + [style] * 3
            r = run_tournament("chase", specs, args.games, seed=args.seed)
            p = next(x for x in r["players"] if x["name"] == level)
            out[f"{level} vs {style}"] = {"decision_ms_p50": p["decision_ms_p50"],
                                          "decision_ms_p95": p["decision_ms_p95"],
                                          "decisions": p["decisions"]}
    from game.ai.coach import advise_view
    from game.games import new_game

    times = []
    for k in range(200):
        g = new_game("chase", None, 5, seed=k + 1)
        g.start()
        pl = make_player("chase", "hard")
        for _ in range(k % 4):
            p = g.to_move()
            g.apply(p.seat, pl.choose(g.view(p.seat)))
        p = g.to_move()
        v = g.view(p.seat)
        t0 = time.perf_counter_ns()
        advise_view(v, "hard")
        times.append(time.perf_counter_ns() - t0)
    times.sort()
    out["advise_view_ms_p95"] = round(times[int(0.95 * (len(times) - 1))] / 1e6, 2)
    print(json.dumps(out), flush=True)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("nashconv")
    a.add_argument("--players", default="2,3,4,5")
    a.add_argument("--level", default="hard")
    a.add_argument("--samples", type=int, default=400000)
    a = sub.add_parser("tournament")
    a.add_argument("--case", choices=sorted(CASES), required=True)
    a.add_argument("--games", type=int, default=8000)
    a.add_argument("--seed", type=int, default=1)
    a = sub.add_parser("expert")
    a.add_argument("--style", default="threshold:4:4")
    a.add_argument("--games", type=int, default=3000)
    a.add_argument("--lives", type=int, default=5)
    a.add_argument("--seed", type=int, default=1)
    a = sub.add_parser("calibration")
    a.add_argument("--decisions", type=int, default=20000)
    a.add_argument("--players", type=int, default=4)
    a.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    a.add_argument("--rules", default=None, help="rules as a JSON object, e.g. "
                   "'{\"blocked_swap_skips\": true}'")
    a.add_argument("--jobs", type=int, default=2)
    a.add_argument("--seed", type=int, default=1)
    a = sub.add_parser("speed")
    a.add_argument("--games", type=int, default=300)
    a.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    {"nashconv": cmd_nashconv, "tournament": cmd_tournament, "expert": cmd_expert,
     "calibration": cmd_calibration, "speed": cmd_speed}[args.cmd](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
