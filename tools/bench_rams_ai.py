"""Benchmark of the Rams levels: duplicate tournaments, decision times, the coach.

    python tools/bench_rams_ai.py table --seat hard \\
        --opponent bot:../shared/sparring/rams_heuristic.py --games 1000 --jobs 2
    python tools/bench_rams_ai.py table --seat expert --opponent hard --games 400 --jobs 2
    python tools/bench_rams_ai.py table --seat medium --opponent easy --games 2000 --jobs 2
    python tools/bench_rams_ai.py calibration --level hard --decisions 20000 --jobs 2
    python tools/bench_rams_ai.py times --level hard --decisions 400
    python tools/bench_rams_ai.py rounds --seat expert --against hard --opponent hard \
        --deals 600 --jobs 2

``table``: one ``--seat`` among ``--players - 1`` copies of ``--opponent`` (a level
name or ``bot:PATH``), duplicate: every deal sequence is played in all seat rotations
with the seeds of ``stammtisch tournament --duplicate --seed`` (games are rounded up to
whole rotations). Prints the issue's table row (seat under test, games, wins, Wilson
95 % interval, lives lost per round of the seat and of the opponents, decision p95)
and then one JSON line with more: the paired difference of lives lost per round (seat
minus opponents, per deal sequence, normal 95 % interval), decision times as wall
clock (what the tournament reports) and as the deciding thread's CPU time (what a
loaded machine does not inflate), over all decisions and over those with a choice, and
the seat's lives lost in rounds the drop limit forced it to play against free rounds.

``calibration``: every seat plays ``--level``; before each decision with a choice the
coach (same level) predicts the chance of losing a life with the move then made; by
decile of the prediction, predicted against observed. Last line JSON with ``max_gap``.
The dealer's exchange of the trump card is not counted: the coach gives it the odds of
then playing, and the dealer may still drop (which would count as a life kept against
a prediction made for playing).

``times``: decision times (thread CPU time and wall clock) of one level in seat 0
among ``--opponent`` seats, by kind of decision.

``rounds``: two levels compared in the same forced rounds, paired. Every deal is a
game whose first round every seat drops (the moves are applied, not chosen), so in
the second every seat must play: the round the drop limit brings every other round
at a 4-player table, where the levels differ. That round is played twice with each
seat in turn under test, once by ``--seat`` and once by ``--against``, the other
seats by ``--opponent`` with the same seeds (so they answer the same views the same
way). Printed: lives the tested seat loses per forced round, ``--seat`` minus
``--against``, and the same for the seat's lives less the others' average; means
over deals with normal 95 % intervals. Most rounds come out the same both ways, so
this shows a difference of card play with far fewer games than ``table``; it says
nothing about declarations.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.calibration import calibrate  # noqa: E402
from game.ai.common import mix  # noqa: E402
from game.ai.registry import make_player  # noqa: E402
from game.ai.stats import mean_ci, percentile, wilson  # noqa: E402
from game.ai.tournament import participants  # noqa: E402
from game.games import new_game  # noqa: E402
from game.rules.rams_rules import drop_limit_of  # noqa: E402


def _timed_game(rules: dict[str, Any] | None, seat_player: list[Any], seed: int,
                bot_seed: int, max_rounds: int = 2000) -> tuple[Any, list[list[tuple]]]:
    """One game; per seat ``(wall_ns, cpu_ns, had_choice)`` of every decision."""
    n = len(seat_player)
    g = new_game("rams", rules, n, seed=seed, bot_seed=bot_seed)
    g.emit_events = False
    g.start()
    times: list[list[tuple]] = [[] for _ in range(n)]
    wall = time.perf_counter_ns
    cpu = time.thread_time_ns
    while (p := g.to_move()) is not None and g.round_index < max_rounds:
        v = g.lazy_view(p.seat)
        t0, c0 = wall(), cpu()
        move = seat_player[p.seat].choose(v)
        times[p.seat].append((wall() - t0, cpu() - c0, len(p.legal) > 1))
        g.apply(p.seat, move)
    return g, times


def _forced_flags(g: Any, n: int, limit: int | None) -> list[dict[int, bool]]:
    """Per round of ``g``: seat -> whether the drop limit forced it to play."""
    out = []
    streak = [0] * n
    for rnd in g.history:
        flags = {}
        for e in rnd:
            if e.get("type") == "declare":
                s = e["seat"]
                flags[s] = limit is not None and streak[s] >= limit
                streak[s] = 0 if e["choice"] == "play" else streak[s] + 1
        out.append(flags)
    return out


def _table_job(job: tuple) -> list[dict[str, Any]]:
    seat_spec, opp_spec, n, seed, ks, rules = job
    base = [make_player("rams", seat_spec)] + [make_player("rams", opp_spec)
                                               for _ in range(n - 1)]
    out = []
    for k in ks:
        game_seed = mix(seed, k) >> 1
        bot_seed = mix(seed, k, 1) >> 1
        rec: dict[str, Any] = {"k": k, "lost": [0, 0], "rounds": [0, 0], "wins": 0,
                               "games": 0, "times": [[], []], "forced": [0, 0],
                               "free": [0, 0], "unfinished": 0}
        for r in range(n):
            idx = [(i + r) % n for i in range(n)]       # base player of each seat
            g, times = _timed_game(rules, [base[j] for j in idx], game_seed, bot_seed)
            rec["games"] += 1
            if not g.finished:
                rec["unfinished"] += 1
            test_seat = idx.index(0)
            if g.winner == test_seat:
                rec["wins"] += 1
            for seat in range(n):
                who = 0 if seat == test_seat else 1
                rec["times"][who] += times[seat]
            flags = _forced_flags(g, n, drop_limit_of(g.rules))
            for i, entry in enumerate(g.rounds):
                lost = entry.get("lost", {})
                for s in participants(entry):
                    who = 0 if int(s) == test_seat else 1
                    a = lost.get(s, 0)
                    rec["rounds"][who] += 1
                    rec["lost"][who] += a
                    if who == 0 and i < len(flags) and int(s) in flags[i]:
                        key = "forced" if flags[i][int(s)] else "free"
                        rec[key][0] += a
                        rec[key][1] += 1
        out.append(rec)
    return out


def _ms(ts: list[tuple], which: int, choice_only: bool) -> dict[str, float]:
    xs = [t[which] / 1e6 for t in ts if t[2] or not choice_only]
    return {"p50": round(percentile(xs, 50), 2), "p95": round(percentile(xs, 95), 2),
            "mean": round(sum(xs) / len(xs), 2) if xs else 0.0, "n": len(xs)}


def _in_parts(job: Callable[[tuple], list[Any]], work: Callable[[list[int]], tuple],
              items: int, jobs: int) -> list[Any]:
    """``job`` over items ``0 .. items - 1`` dealt into parts (``work`` makes a part's
    arguments from its items), on ``jobs`` processes; every part's results in one list,
    part by part."""
    ks = list(range(items))
    parts = max(1, min(len(ks), jobs * 6))
    args = [work(ks[i::parts]) for i in range(parts)]
    if jobs > 1:
        with Pool(jobs) as pool:
            res = pool.map(job, args, chunksize=1)
    else:
        res = [job(a) for a in args]
    return [r for part in res for r in part]


def table(seat: str, opponent: str, games: int, players: int, seed: int, jobs: int,
          rules: dict[str, Any] | None) -> dict[str, Any]:
    sequences = -(-games // players)
    t0 = time.perf_counter()
    recs = sorted(_in_parts(_table_job, lambda ks: (seat, opponent, players, seed, ks, rules),
                            sequences, jobs), key=lambda r: r["k"])
    n_games = sum(r["games"] for r in recs)
    wins = sum(r["wins"] for r in recs)
    lo, hi = wilson(wins, n_games)
    rate = [sum(r["lost"][i] for r in recs) / max(1, sum(r["rounds"][i] for r in recs))
            for i in (0, 1)]
    diffs = [r["lost"][0] / max(1, r["rounds"][0]) - r["lost"][1] / max(1, r["rounds"][1])
             for r in recs]
    dm, dlo, dhi = mean_ci(diffs)
    _, share_lo, share_hi = mean_ci([r["wins"] / r["games"] for r in recs])
    ts = [t for r in recs for t in r["times"][0]]
    to = [t for r in recs for t in r["times"][1]]
    forced = [sum(r["forced"][i] for r in recs) for i in (0, 1)]
    free = [sum(r["free"][i] for r in recs) for i in (0, 1)]
    return {
        "seat": seat, "opponent": opponent, "players": players, "rules": rules or {},
        "seed": seed, "games": n_games, "sequences": len(recs), "wins": wins,
        "share": round(wins / n_games, 4), "wilson95": [round(lo, 4), round(hi, 4)],
        "paired95": [round(share_lo, 4), round(share_hi, 4)],
        "unfinished": sum(r["unfinished"] for r in recs),
        "lives_per_round": {"seat": round(rate[0], 4), "opponents": round(rate[1], 4)},
        "diff": {"mean": round(dm, 4), "ci95": [round(dlo, 4), round(dhi, 4)],
                 "excludes_zero": dhi < 0 or dlo > 0},
        "seat_forced_rounds": {"rounds": forced[1], "lives_per_round":
                               round(forced[0] / max(1, forced[1]), 4)},
        "seat_free_rounds": {"rounds": free[1], "lives_per_round":
                             round(free[0] / max(1, free[1]), 4)},
        "decision_ms": {
            "seat_wall_all": _ms(ts, 0, False), "seat_wall_choice": _ms(ts, 0, True),
            "seat_cpu_all": _ms(ts, 1, False), "seat_cpu_choice": _ms(ts, 1, True),
            "opponent_wall_all": _ms(to, 0, False)},
        "seconds": round(time.perf_counter() - t0, 1),
    }


def table_row(r: dict[str, Any]) -> str:
    d = r["decision_ms"]
    lpr = r["lives_per_round"]
    return (f"| `{r['seat']}` vs 3x `{Path(r['opponent']).name}` | {r['games']} | "
            f"{100 * r['share']:.1f} % | [{100 * r['wilson95'][0]:.1f}, "
            f"{100 * r['wilson95'][1]:.1f}] | {lpr['seat']:.3f} vs {lpr['opponents']:.3f} "
            f"(diff {r['diff']['mean']:+.4f} [{r['diff']['ci95'][0]:+.4f}, "
            f"{r['diff']['ci95'][1]:+.4f}]) | {d['seat_wall_all']['p95']:.0f} ms wall, "
            f"{d['seat_cpu_all']['p95']:.0f} ms CPU (choices only: "
            f"{d['seat_cpu_choice']['p95']:.0f} ms CPU) |")


TABLE_HEAD = ("| seat under test | games | wins | 95 % interval | lives lost / round "
              "(seat vs opponents) | decision p95 |\n|---|---|---|---|---|---|")


# ---------------------------------------------------------------- calibration

def calibration(level: str, decisions: int, players: int, seed: int, jobs: int,
                rules: dict[str, Any] | None, samples: int | None) -> dict[str, Any]:
    t0 = time.perf_counter()
    got = calibrate("rams", level, decisions, players, seed, jobs, rules, samples)
    return {"level": level, "players": players, "rules": rules or {},
            "decisions": got["decisions"], "games": got["games"], "samples": samples,
            "seconds": round(time.perf_counter() - t0, 1), "deciles": got["deciles"],
            "max_gap": got["max_gap"]}


# ---------------------------------------------------------------- times

def times(level: str, opponent: str, decisions: int, players: int, seed: int,
          rules: dict[str, Any] | None) -> dict[str, Any]:
    me = make_player("rams", level)
    others = [make_player("rams", opponent) for _ in range(players - 1)]
    by: dict[str, list[tuple[int, int]]] = {}
    k = 0
    count = 0
    while count < decisions:
        g = new_game("rams", rules, players, seed=mix(seed, k) >> 1, bot_seed=k)
        g.emit_events = False
        g.start()
        k += 1
        while (p := g.to_move()) is not None and count < decisions:
            v = g.lazy_view(p.seat)
            if p.seat == 0:
                t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
                move = me.choose(v)
                if len(p.legal) > 1:
                    by.setdefault(p.decision, []).append(
                        (time.perf_counter_ns() - t0, time.thread_time_ns() - c0))
                    count += 1
            else:
                move = others[p.seat - 1].choose(v)
            g.apply(p.seat, move)
    out: dict[str, Any] = {"level": level, "opponent": opponent, "decisions": count}
    every = [t for x in by.values() for t in x]
    for name, xs in [("all", every)] + sorted(by.items()):
        cpu = [c / 1e6 for _, c in xs]
        wall = [w / 1e6 for w, _ in xs]
        out[name] = {"n": len(xs), "cpu_p50": round(percentile(cpu, 50), 1),
                     "cpu_p95": round(percentile(cpu, 95), 1),
                     "cpu_max": round(max(cpu), 1),
                     "wall_p95": round(percentile(wall, 95), 1)}
    return out


# ---------------------------------------------------------------- rounds

def _forced_round(players: list[Any], game_seed: int, bot_seed: int,
                  rules: dict[str, Any] | None) -> list[int]:
    """Lives each seat loses in the second round of a game whose first round every
    seat dropped (so every seat must play the second)."""
    n = len(players)
    g = new_game("rams", rules, n, seed=game_seed, bot_seed=bot_seed)
    g.emit_events = False
    g.start()
    while (p := g.to_move()) is not None and not g.rounds:
        g.apply(p.seat, "drop" if "drop" in p.legal else p.legal[0])
    if len(g.rounds) != 1 or g.rounds[0].get("lost"):
        raise RuntimeError("the first round was not void")
    while (p := g.to_move()) is not None and len(g.rounds) < 2:
        g.apply(p.seat, players[p.seat].choose(g.lazy_view(p.seat)))
    lost = g.rounds[1].get("lost", {})
    out = [0] * n
    for s in participants(g.rounds[1]):
        out[int(s)] = lost.get(s, 0)
    return out


def _rounds_job(job: tuple) -> list[tuple[int, float, float, bool]]:
    """``(deal, own, relative, differed)`` per deal and tested seat."""
    a_spec, b_spec, opp_spec, n, seed, ks, rules = job
    a, b = make_player("rams", a_spec), make_player("rams", b_spec)
    opps = [make_player("rams", opp_spec) for _ in range(n)]
    out = []
    for k in ks:
        game_seed, bot_seed = mix(seed, k) >> 1, mix(seed, k, 1) >> 1
        for t in range(n):
            got = [_forced_round([who if s == t else opps[s] for s in range(n)],
                                 game_seed, bot_seed, rules) for who in (a, b)]
            rel = [x[t] - (sum(x) - x[t]) / (n - 1) for x in got]
            out.append((k, got[0][t] - got[1][t], rel[0] - rel[1], got[0] != got[1]))
    return out


def rounds(seat: str, against: str, opponent: str, deals: int, players: int, seed: int,
           jobs: int, rules: dict[str, Any] | None) -> dict[str, Any]:
    t0 = time.perf_counter()
    rows = _in_parts(_rounds_job, lambda ks: (seat, against, opponent, players, seed, ks,
                                              rules), deals, jobs)
    own: dict[int, float] = {}
    rel: dict[int, float] = {}
    for k, o, r, _ in rows:
        own[k] = own.get(k, 0.0) + o / players
        rel[k] = rel.get(k, 0.0) + r / players
    out: dict[str, Any] = {"seat": seat, "against": against, "opponent": opponent,
                           "players": players, "rules": rules or {}, "seed": seed,
                           "deals": deals, "rounds": len(rows),
                           "rounds_that_differ": sum(1 for r in rows if r[3])}
    for name, xs in (("own", own), ("relative", rel)):
        m, lo, hi = mean_ci(list(xs.values()))
        out[name] = {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("table")
    t.add_argument("--seat", required=True)
    t.add_argument("--opponent", required=True)
    t.add_argument("--games", type=int, default=400)
    c = sub.add_parser("calibration")
    c.add_argument("--level", default="hard")
    c.add_argument("--decisions", type=int, default=20000)
    c.add_argument("--samples", type=int, default=None)
    m = sub.add_parser("times")
    m.add_argument("--level", default="hard")
    m.add_argument("--opponent", default="medium")
    m.add_argument("--decisions", type=int, default=400)
    f = sub.add_parser("rounds")
    f.add_argument("--seat", required=True)
    f.add_argument("--against", required=True)
    f.add_argument("--opponent", required=True)
    f.add_argument("--deals", type=int, default=600)
    for q in (t, c, m, f):
        q.add_argument("--players", type=int, default=4)
        q.add_argument("--seed", type=int, default=1)
        q.add_argument("--rules", default=None, help="rules as a JSON object")
    for q in (t, c, f):
        q.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    rules = json.loads(args.rules) if args.rules else None
    if args.cmd == "table":
        r = table(args.seat, args.opponent, args.games, args.players, args.seed,
                  max(1, args.jobs), rules)
        print(TABLE_HEAD)
        print(table_row(r))
        print(json.dumps(r), flush=True)
    elif args.cmd == "calibration":
        r = calibration(args.level, args.decisions, args.players, args.seed,
                        max(1, args.jobs), rules, args.samples)
        print("| decile | decisions | predicted | observed | gap |\n|---|---|---|---|---|")
        for d in r["deciles"]:
            print(f"| {d['decile']} | {d['n']} | {d['predicted']:.4f} | {d['observed']:.4f} "
                  f"| {d['gap']:+.4f} |")
        print(json.dumps(r), flush=True)
    elif args.cmd == "rounds":
        r = rounds(args.seat, args.against, args.opponent, args.deals, args.players,
                   args.seed, max(1, args.jobs), rules)
        print(f"| `{r['seat']}` minus `{r['against']}`, among `{r['opponent']}` | "
              "deals × seats | rounds that differ | own lives per forced round | "
              "seat less the others' average |\n|---|---|---|---|---|")
        print(f"| | {r['deals']} × {args.players} | {r['rounds_that_differ']} | "
              + " | ".join(f"{r[x]['mean']:+.4f} [{r[x]['ci95'][0]:+.4f}, "
                           f"{r[x]['ci95'][1]:+.4f}]" for x in ("own", "relative")) + " |")
        print(json.dumps(r), flush=True)
    else:
        print(json.dumps(times(args.level, args.opponent, args.decisions, args.players,
                               args.seed, rules)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
