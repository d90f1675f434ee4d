"""``stammtisch policy``: a level's complete keep/swap table (docs/view.md#policies-chase-the-ace),
and :func:`strategy_chart`, the data of the in-game strategy chart.

For 2–5 active seats the table has one entry per information set (pos, dealt,
current, history): 168, 492, 1,296 and 3,228 entries. For 6–10 the ``hard`` policy
is solved on a compact abstraction: its history is ``*``, the number of swaps so far
(0 … 3, 3 meaning 3 or more) and the last letter (the position on the right: ``k``
kept or nothing to tell, ``s`` swapped with us, ``x`` skipped after showing a King),
e.g. ``*2s``; the table lists those entries.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from game import cliargs
from game.ai.chase_info import Situation, histories
from game.ai.chase_players import PLAYERS
from game.ai.chase_tables import load_table, table_n
from game.ai.solver_rules import SolverRules, UnsupportedRules, solver_rules
from game.rules.base import GameError
from game.rules.chase import chase_rules
from game.rules.chase_rules import scale_for

DEFAULT_RULES = {"ace_high": False}


def keys(n: int, rules: SolverRules) -> list[tuple[int, int, int, str]]:
    """Every information set of an n-seat round in strengths (the King's left out:
    its holder keeps)."""
    vals = rules.values
    out: list[tuple[int, int, int, str]] = []
    for p in range(n):
        if n <= 5:
            hs = histories(p)
        else:
            hs = [""] if p == 0 else [f"*{cnt}{last}" for cnt in range(4) for last in "ksx"
                                      if not (last == "s" and cnt == 0)]
        for h in hs:
            if h.endswith("s"):
                out.extend((p, d, c, h) for d in vals for c in vals)
            else:
                out.extend((p, d, d, h) for d in vals)
    return out


def _level_p(level: str, n: int, key: tuple[int, int, int, str],
             rules: dict[str, Any]) -> float:
    player = PLAYERS[level]()
    pos, d, c, h = key
    hist = h
    if h.startswith("*"):
        cnt, last = int(h[1]), h[2]
        before = max(0, min(pos - 1, cnt - (last == "s")))
        hist = "s" * before + "k" * max(0, pos - 1 - before) + last
    blk = scale_for(rules).blocker_strength
    sit = Situation(n, pos, list(range(n)), d, c, hist, "dealer" if pos == n - 1 else "turn",
                    rules, blk, False, bool(hist) and hist[-1] == "s" and d < c, [], "")
    return float(player.p_yes(sit))


def policy_table(players: int, level: str = "hard",
                 rules: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The level's p_swap for every information set of a ``players``-seat round."""
    rules = {**DEFAULT_RULES, **(rules or {})}
    ace_high = bool(rules.get("ace_high"))
    out = []
    if level in ("hard", "expert"):
        table = load_table(players, ace_high)
        for key, p in table.items():
            pos, d, c, h = key.split(",")
            out.append({"pos": int(pos), "dealt": int(d), "current": int(c), "history": h,
                        "p_swap": p})
        return out
    full = chase_rules(rules)
    model = SolverRules(ace_high)
    for pos, d, c, h in keys(players, model):
        p = _level_p(level, players, (pos, d, c, h), full)
        out.append({"pos": pos, "dealt": model.rank(d), "current": model.rank(c),
                    "history": h, "p_swap": round(p, 4)})
    return out


def strategy_chart(players: int) -> dict[str, Any]:
    """Per position, per card rank (1 Ace … 13 King): the ``hard`` policy's p_swap
    (the dealer's: p_draw) when everybody before kept. ``after_swap``: the same for a
    seat whose right neighbour just swapped with it, by the card it now holds
    (averaged over the card it gave away). Tables exist for 2–10 active seats."""
    n = table_n(players)
    table = load_table(n, False)
    rows = []
    for pos in range(n):
        # exact tables (n ≤ 5) key the whole history; the sampled ones (6–10) an
        # abstraction: "*0k" everybody before kept, "*1s" one swap, by the right neighbour
        plain = "k" * pos if n <= 5 else ("" if pos == 0 else "*0k")
        swapped = ("k" * (pos - 1) + "s") if n <= 5 else "*1s"
        row: dict[str, Any] = {"pos": pos, "dealer": pos == n - 1, "p_swap": {},
                               "after_swap": {}}
        for r in range(1, 14):
            row["p_swap"][r] = 0.0 if r == 13 else table.get(f"{pos},{r},{r},{plain}", 0.0)
            if pos:
                vals = [table.get(f"{pos},{d},{r},{swapped}") for d in range(1, 13)]
                got = [v for v in vals if v is not None]
                row["after_swap"][r] = 0.0 if r == 13 or not got else round(
                    sum(got) / len(got), 4)
        rows.append(row)
    return {"players": n, "level": "hard", "positions": rows}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="stammtisch policy",
                                description="Print a level's keep/swap policy.")
    p.add_argument("--game", default="chase", choices=("chase",))
    p.add_argument("--players", type=cliargs.int_range(2, 10), required=True,
                   help="active seats, 2 to 10")
    p.add_argument("--level", default="hard", choices=("easy", "medium", "hard", "expert"))
    p.add_argument("--rules", type=cliargs.rules_json, default=None,
                   help='rules as JSON: {"ace_high": true} and keys that act between rounds')
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rules = dict(DEFAULT_RULES)
    if args.rules:
        try:
            # the engine's own check first (as for a record's rules), then the solvers'
            # model: keys that act only between rounds leave the one-round table alone
            model = solver_rules(args.rules)
        except GameError as exc:
            print(f"{exc.kind}: {exc.message}", file=sys.stderr)
            return 2
        except UnsupportedRules as exc:
            print(f"error: the policy table covers one round under the default rules or "
                  f"ace_high: {exc.unsupported}", file=sys.stderr)
            return 2
        rules["ace_high"] = model.ace_high
    table = policy_table(args.players, args.level, rules)
    out = {"game": "chase", "players": args.players, "level": args.level,
           "rules": {"ace_high": bool(rules["ace_high"])}, "policy": table}
    if args.json:
        print(json.dumps(out))
    else:
        for e in table:
            print(f"pos {e['pos']} dealt {e['dealt']:>2} current {e['current']:>2} "
                  f"history {e['history'] or '-':<10} p_swap {e['p_swap']:.3f}")
    return 0
