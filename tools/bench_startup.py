"""Start-up time: ``stammtisch --smoke-test`` against a bare pygame-ce window script.

    python tools/bench_startup.py [--runs 7]

Prints the median wall time of each (a fresh interpreter every run) and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BARE = """
import pygame
pygame.init()
screen = pygame.display.set_mode((1280, 720), pygame.RESIZABLE)
screen.fill((20, 90, 50))
pygame.display.flip()
pygame.quit()
"""


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    env = dict(os.environ)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env.setdefault("STAMMTISCH_HOME", tempfile.mkdtemp(prefix="stammtisch-bench-"))
    # An installed game has its modules compiled (pip writes the .pyc files): let
    # Python cache bytecode here too, and warm both commands once before timing.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    timed([sys.executable, "-c", BARE], env)
    timed([sys.executable, "-m", "game", "--smoke-test"], env)
    bare, smoke = [], []
    for _ in range(args.runs):
        bare.append(timed([sys.executable, "-c", BARE], env))
        smoke.append(timed([sys.executable, "-m", "game", "--smoke-test"], env))
    b, s = statistics.median(bare), statistics.median(smoke)
    print(f"bare pygame window: median {b * 1000:.0f} ms")
    print(f"stammtisch --smoke-test: median {s * 1000:.0f} ms")
    print(f"ratio: {s / b:.2f} (limit 2.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
