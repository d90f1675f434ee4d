"""Rams engine speed: rounds per second of random play at 4 players.

Runs, in the same process, (a) whole games through :class:`RamsGame` with a random
legal move chosen from ``to_move().legal`` at every decision, and (b) a minimal
plain-Python loop (deal, random legal play honouring follow-suit, trick winner).
Each is timed over several repetitions; the medians and their ratio are printed as
one JSON object. The engine must reach at least a quarter of the loop's rate.

    python tools/bench_rams.py [--seconds 1.0] [--reps 5] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.cards import SKAT32  # noqa: E402
from game.rules.rams import RamsGame  # noqa: E402

ORDER = {c: "789TJQKA".index(c[0]) for c in SKAT32}


def engine_rounds(seconds: float, players: int, seed: int, emit_events: bool = True) -> float:
    """Rounds per second of random play through the engine, whole games."""
    rng = random.Random(seed)
    rounds = 0
    game_seed = seed
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        game = RamsGame(None, players, seed=game_seed)
        game.emit_events = emit_events
        game_seed += 1
        game.start()
        to_move, apply, choice = game.to_move, game.apply, rng.choice
        while (p := to_move()) is not None:
            apply(p.seat, choice(p.legal))
        rounds += len(game.rounds)
    return rounds / (time.perf_counter() - start)


def plain_round(rng: random.Random, players: int, hand_size: int = 5) -> int:
    """One round: deal, turn a trump, play every trick with random follow-suit moves.
    Returns the leader of the last trick (so the work cannot be skipped)."""
    stock = rng.sample(SKAT32, players * hand_size + 1)
    hands = [stock[i:players * hand_size:players] for i in range(players)]
    trump = stock[-1][1]
    leader = 0
    for _ in range(hand_size):
        best_card = ""
        best_seat = -1
        led = ""
        for k in range(players):
            seat = (leader + k) % players
            hand = hands[seat]
            if led:
                follow = [c for c in hand if c[1] == led]
                card = rng.choice(follow or hand)
            else:
                card = rng.choice(hand)
                led = card[1]
            hand.remove(card)
            if not best_card or (card[1] == best_card[1] and ORDER[card] > ORDER[best_card]) \
                    or (card[1] == trump and best_card[1] != trump):
                best_card, best_seat = card, seat
        leader = best_seat
    return leader


def plain_rounds(seconds: float, players: int, seed: int) -> float:
    rng = random.Random(seed)
    rounds = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        for _ in range(100):
            plain_round(rng, players)
        rounds += 100
    return rounds / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=1.0, help="time per repetition")
    p.add_argument("--reps", type=int, default=5, help="repetitions (medians are reported)")
    p.add_argument("--players", type=int, default=4)
    args = p.parse_args(argv)
    eng, quiet, loop = [], [], []
    for rep in range(args.reps):
        eng.append(engine_rounds(args.seconds, args.players, seed=1000 * rep))
        quiet.append(engine_rounds(args.seconds, args.players, seed=1000 * rep,
                                   emit_events=False))
        loop.append(plain_rounds(args.seconds, args.players, seed=rep))
    e, q, lp = statistics.median(eng), statistics.median(quiet), statistics.median(loop)
    print(json.dumps({
        "players": args.players,
        "reps": args.reps,
        "seconds_per_rep": args.seconds,
        "engine_rounds_per_s": round(e, 1),
        "engine_rounds_per_s_no_events": round(q, 1),
        "plain_loop_rounds_per_s": round(lp, 1),
        "ratio": round(e / lp, 3),
        "ratio_no_events": round(q / lp, 3),
        "meets_quarter": e / lp >= 0.25,
        "engine_runs": [round(x, 1) for x in eng],
        "plain_runs": [round(x, 1) for x in loop],
    }, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
