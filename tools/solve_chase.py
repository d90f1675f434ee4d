"""Compute the ``hard`` Chase the Ace policies shipped in ``game/data/``.

2–5 active seats: CFR+ over the exact enumeration of one round's deals (ranks only,
four suits, fresh deck), information set (pos, dealt, current, history) as BOTS.md
"Policies" defines it; stops once NashConv ≤ --target / 10 (exact). Information sets that
the policy itself never reaches get the better action against a slightly trembling
policy (so the chart shows sensible play there); NashConv is measured again on the
rounded table that is written.

6–10 active seats: Monte-Carlo CFR+ (sampled deals, every seat's two actions
evaluated against the sampled play of the others) over a compact abstraction: the
information set (pos, dealt, current, swaps so far 0 … 3+, last history letter).
See game/ai/mccfr.py.

Needs numpy (``pip install numpy``), which the game itself never imports.

    python tools/solve_chase.py [--players 2,3,4,5,6,7,8,9,10] [--ace-high]

The shipped files: ``--players 2,3,4,5``, ``--players 2,3,4,5 --ace-high`` and
``--players 6,7,8,9,10`` with the defaults (minutes on two cores).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from game.ai import cfr  # noqa: E402
from game.ai.solver_rules import SolverRules  # noqa: E402

DATA = ROOT / "game" / "data"


def solve_exact(n: int, iterations: int, target: float, rules: SolverRules) -> dict:
    t0 = time.time()
    strat, _ = cfr.solve(n, iterations, rules, target=target / 10,
                         log=lambda m: print(m, file=sys.stderr, flush=True))
    tree = cfr.RoundTree(n, rules)
    ev = tree.evaluate(strat)
    weight = ev["cf"].sum(axis=1)
    shaky = 0.98 * strat + 0.01
    cf2 = tree.evaluate(shaky)["cf"]
    unreached = weight <= 0
    strat = strat.copy()
    strat[unreached] = (cf2[unreached, 1] < cf2[unreached, 0] - 1e-15).astype(float)
    strat = np.round(strat, 4)
    result = cfr.gains(tree, strat)
    entries = {}
    for (pos, d, c, h), p in zip(tree.lay.keys, strat):
        entries[f"{pos},{rules.rank(d)},{rules.rank(c)},{h}"] = float(p)
    return {"players": n, "rules": rules.engine_rules(), "method": "cfr+ exact",
            "nashconv": result["nashconv"], "gain": result["gain"],
            "loss": result["loss"], "seconds": round(time.time() - t0, 1),
            "entries": entries}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", default="2,3,4,5,6,7,8,9,10")
    p.add_argument("--iterations", type=int, default=400)
    p.add_argument("--target", type=float, default=0.0005)
    p.add_argument("--ace-high", action="store_true")
    p.add_argument("--mc-iterations", type=int, default=200)
    p.add_argument("--mc-batch", type=int, default=25000)
    args = p.parse_args()
    DATA.mkdir(exist_ok=True)
    suffix = "_ace_high" if args.ace_high else ""
    rules = SolverRules(ace_high=args.ace_high)
    for n in (int(x) for x in args.players.split(",")):
        if n <= 5:
            out = solve_exact(n, args.iterations, args.target, rules)
        else:
            from game.ai import mccfr

            out = mccfr.solve_abstract(n, args.mc_iterations, args.mc_batch, rules,
                                       log=lambda m: print(m, file=sys.stderr, flush=True))
        path = DATA / f"chase_policy_{n}{suffix}.json"
        path.write_text(json.dumps(out, separators=(",", ":")) + "\n")
        print(f"N={n}: nashconv {out['nashconv']:.6f} -> {path.relative_to(ROOT)}",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
