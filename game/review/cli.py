"""``stammtisch review RECORD [--json]``: the game review on the command line.

Prints the same review the window shows (:mod:`game.review.compute`): with ``--json``
one JSON object (``docs/review.md``), else a short text: per player the lives lost,
what the decisions cost, the rest put down to the cards and the accuracy, then the
costliest decisions. A bad record exits 2 with one line ``kind: details`` on standard
error, exactly as ``stammtisch replay`` does. The coach calls run in ``--jobs``
processes at once; the review is the same whatever the number.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from typing import Any

from game import cliargs
from game.ai.bots.protocol import printable
from game.review import compute

#: The most processes ``--jobs`` starts.
MAX_JOBS = 16
#: Decisions per call to a process.
CHUNK = 4


def default_jobs() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def review_record(record: Any, level: str = compute.DEFAULT_LEVEL, jobs: int = 1,
                  samples: int | None = None) -> dict[str, Any]:
    """The review of ``record``, its coach calls in ``jobs`` processes (in this one
    for ``jobs=1``)."""
    p = compute.plan(record)
    if jobs <= 1 or len(p.points) < 2:
        return compute.assemble(p, compute.advise_all(p, level, samples), level, samples)
    import concurrent.futures
    import multiprocessing

    groups = compute.chunks(p, CHUNK)
    data = record.as_dict()
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(groups)),
                                                mp_context=ctx) as pool:
        got = pool.map(compute.advise_moves, [data] * len(groups), groups,
                       [level] * len(groups), [samples] * len(groups),
                       [uuid.uuid4().hex] * len(groups))
        answers = [a for chunk in got for a in chunk]
    return compute.assemble(p, answers, level, samples)


def review_file(path: str, level: str = compute.DEFAULT_LEVEL, jobs: int = 1,
                samples: int | None = None) -> dict[str, Any]:
    """The review of the record in ``path`` (raises ``RecordError``)."""
    from game.records import load

    return review_record(load(path), level, jobs, samples)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def text_lines(review: dict[str, Any]) -> list[str]:
    """The review as a few lines of plain English (in counters for Rams under counters,
    where a penalty adds them and a trick sheds them)."""
    # a name is the record's text: shown, never acted on by the terminal (an escape
    # sequence, a right-to-left override) -- as a bot's words are
    names = {p["seat"]: printable(p["name"]) for p in review["players"]}
    counting = review.get("scoring") == "counters"
    unit = "counters" if counting else "lives"
    n_rounds = len(review["rounds"])
    out = [f"Review of a {review['game']} game ({review['level']} coach): {n_rounds} "
           f"round{'s' if n_rounds != 1 else ''}, {len(review['decisions'])} decisions"]
    if review["in_play"] is not None:
        out.append(f"The game is not over: round {review['in_play']['round'] + 1} is in "
                   "play and is not reviewed.")
    out.append("")
    width = max([6] + [len(n) for n in names.values()])
    lost = "counters +/-" if counting else "lives lost"
    out.append(f"{'player':<{width}}  {'decisions':>9}  {lost:>12}  "
               f"{'by choices':>10}  {'by the cards':>12}  {'accuracy':>8}")
    for p in review["players"]:
        out.append(f"{names[p['seat']]:<{width}}  {p['decisions']:>9}  {p['lives_lost']:>12}  "
                   f"{p['decision_cost']:>10.2f}  {p['cards']:>12.2f}  "
                   f"{_pct(p['accuracy']):>8}")
    out.append("")
    out.append(f"Accuracy: the share of the {unit} at stake in a player's decisions that "
               "the choices kept (100 % = always the coach's best option).")
    by_move = {d["move"]: d for d in review["decisions"]}
    if review["key_moments"]:
        out.append("")
        out.append("Costliest decisions:")
    risk = "penalty" if counting else "lose a life"
    for rank, m in enumerate(review["key_moments"], 1):
        d = by_move[m]
        ch, best = d["options"][d["chosen"]], d["options"][d["best"]]
        out.append(
            f"{rank}. move {m + 1}, round {d['round'] + 1}, {names[d['seat']]} holding "
            f"{' '.join(d['hand']) or '-'}: {d['chosen']} ({risk} "
            f"{_pct(ch['lose_life'])}, {ch['lives']:.2f} {unit}) where {d['best']} "
            f"({_pct(best['lose_life'])}, {best['lives']:.2f}) was best: cost "
            f"{d['cost']:.2f} {unit}")
    return out


def main(argv: list[str]) -> int:
    from game.ai.coach import MAX_SAMPLES
    from game.ai.registry import LEVELS

    p = argparse.ArgumentParser(
        prog="stammtisch review",
        description="Review a game record: every decision with the coach's odds, what "
                    "it cost against the best option, and per player the lives lost "
                    "to choices and to the cards.")
    p.add_argument("file", help="record file (JSON)")
    p.add_argument("--json", action="store_true", help="print the review as one JSON object")
    p.add_argument("--level", default=compute.DEFAULT_LEVEL, choices=LEVELS,
                   help="the coach's level (default: hard, as the in-game odds)")
    p.add_argument("--samples", type=cliargs.int_range(1, MAX_SAMPLES), default=None,
                   help="sampled deals per move (default: the coach's own, as the "
                        "in-game odds)")
    p.add_argument("--jobs", type=cliargs.int_range(1, MAX_JOBS), default=None,
                   help="processes for the coach's calls (default: the CPUs, at most 4)")
    args = p.parse_args(argv)
    from game.records import RecordError

    try:
        review = review_file(args.file, args.level, args.jobs or default_jobs(),
                             args.samples)
    except RecordError as exc:
        print(f"{exc.kind}: {exc.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(review, ensure_ascii=False))
    else:
        print("\n".join(text_lines(review)))
    return 0
