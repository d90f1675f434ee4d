"""The coach for any game (BOTS.md "Advice"): ``stammtisch advise FILE --json``.

Each game's coach is named by its entry in :mod:`game.games`; this module picks it
for a view and runs the command line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from game import cliargs, games
from game.ai.common import View
from game.ai.registry import LEVELS

#: The most sampled deals per move ``--samples`` accepts.
MAX_SAMPLES = 100_000
#: The error kind for a valid record of a finished game (README, "Command line").
NO_DECISION = "no_decision"


def advise_view(view: View, level: str = "hard", samples: int | None = None, *,
                pick: bool = True) -> dict[str, Any]:
    """``{seat, level, move, options: {move: {lose_life, expected_loss}}}`` for the
    deciding seat of ``view``, assuming the others play as ``level`` would.

    A coach may add ``later: {move: lives}``, what a move is expected to cost in later
    rounds (a Rams drop that brings a forced round). ``pick=False`` leaves out the
    level's own choice where it costs a search of its own (``move`` may then be
    ``None``); the odds are the same either way (the game review needs only them)."""
    coach = games.entry(view["game"]).coach()
    return coach(view, level, samples, pick=pick)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="stammtisch advise",
                                description="Advice for the pending decision of a record.")
    p.add_argument("file", help="record file (JSON) whose moves stop at a decision")
    p.add_argument("--level", default="hard", choices=LEVELS)
    p.add_argument("--samples", type=cliargs.int_range(1, MAX_SAMPLES), default=None,
                   help="sampled deals per move (default: the coach's own, fewer at "
                        "large tables)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    from game.records import RecordError, load
    from game.replaying import rebuild_light, shallow_view

    try:    # no round entries held, the history's equal events shared (game.replaying)
        game = rebuild_light(load(args.file), history=True)
    except RecordError as exc:
        print(f"{exc.kind}: {exc.message}", file=sys.stderr)
        return 2
    pending = game.to_move()
    if pending is None:
        print(f"{NO_DECISION}: the recorded game is over (after {len(game.moves)} moves); "
              "there is no decision to advise on", file=sys.stderr)
        return 2
    result = advise_view(shallow_view(game, pending.seat), args.level, args.samples)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"seat {result['seat']} ({args.level}): {result['move']}")
        for m, o in result["options"].items():
            print(f"  {m:<7} lose a life {o['lose_life']:.2f}  "
                  f"expected loss {o['expected_loss']:.2f}")
    return 0
