"""Benchmark: the statistics screen's first frame with many games in the database.

    python tools/bench_stats.py [--games 10000] [--runs 7] [--size 1920x1080]

Fills a throw-away ``STAMMTISCH_HOME`` with ``--games`` finished games (real Chase
records of random games, every opponent level, one human, win rate drifting over
time), then opens the statistics screen ``--runs`` times: each run reads the database
and draws the first frame. Prints the medians (and the requirement: < 100 ms).
``fill(n)`` is also used by ``tools/render_screens.py`` for its pictures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("STAMMTISCH_HOME", tempfile.mkdtemp(prefix="stammtisch-bench-"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import records, store  # noqa: E402
from game.records import Seat  # noqa: E402
from game.rules.chase import ChaseGame  # noqa: E402

NAMES = ["Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta"]
LEVELS = ("easy", "medium", "hard", "expert")


def random_game(rng: random.Random, you: str = "You") -> tuple[records.Record, dict]:
    n = rng.randint(3, 6)
    level = rng.choice(LEVELS + ("mixed",))
    seats = [Seat(you, "human")] + [
        Seat(NAMES[i], "ai", rng.choice(LEVELS) if level == "mixed" else level)
        for i in range(n - 1)]
    seed, bot_seed = rng.randrange(2**63), rng.randrange(2**63)   # apart, as in a game
    g = ChaseGame({"lives": rng.choice((2, 3, 3, 4))}, n, seed=seed, bot_seed=bot_seed)
    g.start()
    while not g.finished:
        p = g.to_move()
        g.apply(p.seat, rng.choice(p.legal))
    return records.record_of(g, seats, seed=seed, bot_seed=bot_seed), g.summary()


def fill(n: int, seed: int = 1, distinct: int = 200, you: str = "You",
         span_days: float = 120.0) -> None:
    """Add ``n`` finished games to the statistics database (in one transaction)."""
    rng = random.Random(seed)
    pool = [random_game(rng, you) for _ in range(min(n, distinct))]
    now = time.time()
    con = store.open_stats()
    try:
        with con:
            for i in range(n):
                rec, summ = pool[i % len(pool)]
                # the human gets better over time: 25 % at first, 55 % at the end
                p_win = 0.25 + 0.3 * i / max(1, n - 1)
                winner = 0 if rng.random() < p_win else rng.randrange(1, len(rec.seats))
                summ = dict(summ, winner=winner)
                store.record_game(rec, summ, duration=rng.uniform(60, 900),
                                  finished=now - span_days * 86400 * (1 - i / max(1, n)),
                                  con=con)
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", default="1920x1080")
    args = ap.parse_args(argv)
    w, h = (int(x) for x in args.size.lower().split("x"))
    t0 = time.perf_counter()
    fill(args.games)
    print(f"filled {args.games} games in {time.perf_counter() - t0:.1f} s "
          f"({store.stats_path().stat().st_size / 1e6:.1f} MB)")

    import pygame

    from game.scenes import testing as T
    from game.scenes.menu import MenuScene
    from game.scenes.stats import StatsScene

    t0 = time.perf_counter()
    problems = store.startup_checks()
    print(f"startup check (integrity + migrations): {(time.perf_counter() - t0) * 1000:.1f} ms"
          f"{' PROBLEMS ' + str(problems) if problems else ''}")
    app = T.make_app((w, h), "en")
    app.push(MenuScene(app))
    T.frame(app)
    query, first = [], []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        scene = StatsScene(app)
        t1 = time.perf_counter()
        app.push(scene)
        app.draw()
        pygame.display.flip()
        t2 = time.perf_counter()
        app.pop()
        query.append((t1 - t0) * 1000)
        first.append((t2 - t0) * 1000)
    med = statistics.median(first)
    print(f"statistics screen, {args.games} games, {w}x{h}, {args.runs} runs:")
    print(f"  read database  median {statistics.median(query):7.1f} ms")
    print(f"  first frame    median {med:7.1f} ms  (max {max(first):.1f} ms)  "
          f"{'OK' if med < 100 else 'TOO SLOW'} (< 100 ms)")
    pygame.quit()
    return 0 if med < 100 else 1


if __name__ == "__main__":
    sys.exit(main())
