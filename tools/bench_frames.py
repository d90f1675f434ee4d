"""Frame-time and idle-CPU figures of the window (headless by default).

    python tools/bench_frames.py [--seconds 8] [--players 6] [--size 1280x720]

1. Runs ``python -m game --demo --seed 1 --quit-after S --frame-stats --players N``
   and prints its JSON line (frame_ms_* is the time to update, draw and flip a frame).
2. Runs the main menu idle for a few seconds and prints the CPU it used, as a share
   of one core (user + system time of the child process / wall time).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def env() -> dict[str, str]:
    e = dict(os.environ)
    e.setdefault("SDL_VIDEODRIVER", "dummy")
    e.setdefault("SDL_AUDIODRIVER", "dummy")
    e.setdefault("STAMMTISCH_HOME", tempfile.mkdtemp(prefix="stammtisch-bench-"))
    return e


def demo_stats(seconds: float, players: int, size: str) -> dict:
    cmd = [sys.executable, "-m", "game", "--demo", "--seed", "1", "--quit-after", str(seconds),
           "--frame-stats", "--players", str(players), "--size", size]
    out = subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def idle_cpu(seconds: float, size: str) -> dict:
    cmd = [sys.executable, "-m", "game", "--quit-after", str(seconds), "--size", size]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, cwd=ROOT, env=env(), capture_output=True, check=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"idle_seconds": round(wall, 2), "cpu_seconds": round(cpu, 3),
            "cpu_share_of_core": round(cpu / wall, 3)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=8.0)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--idle", type=float, default=5.0)
    args = ap.parse_args(argv)
    stats = demo_stats(args.seconds, args.players, args.size)
    print("demo:", json.dumps(stats))
    print("idle menu:", json.dumps(idle_cpu(args.idle, args.size)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
