"""Benchmark: Chase the Ace engine speed beside a minimal plain-Python loop.

Runs the tournament command's work (6 random players, 5000 games by default) and a
bare loop (shuffle, deal one card each, swap by threshold, find the lowest) in the
same process, several times, and prints medians and their ratio as JSON.

    python tools/bench_chase.py [--games 5000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.tournament import run_tournament  # noqa: E402

RANKS = [1 + i % 13 for i in range(52)]  # Ace 1 … King 13, four suits


def plain_loop(rounds: int, players: int = 6, seed: int = 1) -> float:
    """Rounds per second of the simplest round: no rules objects, no events.

    As the issue describes it: shuffle the deck, deal one card each, swap by
    threshold, find the lowest.
    """
    rng = random.Random(seed)
    shuffle = rng.shuffle
    deck = list(RANKS)
    start = time.perf_counter()
    losses = 0
    for _ in range(rounds):
        shuffle(deck)
        cards = deck[:players]
        talon = deck[players]
        for i in range(players - 1):        # each swaps with the left one at 6 or lower
            if cards[i] <= 6 and cards[i + 1] != 13:
                cards[i], cards[i + 1] = cards[i + 1], cards[i]
        if cards[-1] <= 7:                  # the dealer draws at 7 or lower
            cards[-1] = talon
        low = min(cards)
        losses += cards.count(low)
    elapsed = time.perf_counter() - start
    return rounds / elapsed


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    engine, loop = [], []
    for r in range(args.repeat):
        res = run_tournament("chase", ["random"] * 6, args.games, seed=r)
        engine.append(res["rounds_per_s"])
        loop.append(plain_loop(res["rounds"], seed=r))
    e, lo = statistics.median(engine), statistics.median(loop)
    print(json.dumps({
        "engine_rounds_per_s_median": round(e), "engine_runs": [round(x) for x in engine],
        "plain_loop_rounds_per_s_median": round(lo), "plain_loop_runs": [round(x) for x in loop],
        "ratio": round(e / lo, 3), "target_ratio": 0.25,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
