"""Time and peak memory of ``replay --json`` and ``advise --json`` on a long record.

    python tools/bench_long_record.py [--moves 1000000] [--repeats 3] [--keep]

Builds a valid Rams record of ``--moves`` moves (no drop limit, every seat drops:
void rounds for ever, 250,000 rounds for 10**6 moves, about 50 MB of JSON written
with indentation; the record ``tools/bench_fuzz.py --long`` uses), then runs each
command on it as a real ``python -m game`` process and prints the wall time and the
process's peak resident memory (``ru_maxrss`` from ``wait4``), medians of
``--repeats`` runs, with the size of what ``replay --json`` printed. Target: peak
memory under 200 MB for 10**6 moves. (The record is built in a process of its own:
on Linux a child's ``ru_maxrss`` includes the peak of the process it was started
from, up to its ``exec``.)
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def measure(argv: list[str]) -> tuple[float, float, int, int]:
    """Wall seconds, peak resident MB, exit status and bytes written to stdout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "game", *argv], stdout=out,
                                stderr=subprocess.PIPE, cwd=ROOT, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        if proc.returncode != 0:
            print(f"  ! {' '.join(argv[:1])} exit {proc.returncode}: {err.strip()[:300]}")
        size = out.tell()
    # ru_maxrss is in kilobytes on Linux, bytes on macOS
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024
    return seconds, usage.ru_maxrss / scale, proc.returncode, size


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=10**6)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the record file")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="stammtisch-long-"))
    # built in a process of its own: Linux counts the peak of the process a child was
    # started from (before its exec) in the child's ru_maxrss, so this one stays small
    subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; "
                    f"sys.path[:0] = [{str(HERE)!r}, {str(ROOT)!r}]; "
                    "from bench_fuzz import long_record; "
                    f"long_record(Path({str(folder)!r}), {args.moves})"], check=True)
    path = folder / "long.json"
    size = path.stat().st_size / 1e6
    print(f"record: {args.moves:,} moves, {size:.0f} MB")
    worst = 0.0
    try:
        for command in (["replay", str(path), "--json"], ["advise", str(path), "--json"]):
            runs = [measure(command) for _ in range(args.repeats)]
            secs = statistics.median(r[0] for r in runs)
            mem = statistics.median(r[1] for r in runs)
            worst = max(worst, max(r[1] for r in runs))
            out = runs[0][3] / 1e6
            print(f"{command[0]:>7}: {secs:6.1f} s, peak {mem:6.0f} MB (max of runs "
                  f"{max(r[1] for r in runs):.0f} MB), exit {runs[0][2]}, "
                  f"{out:.0f} MB printed (medians of {args.repeats})")
    finally:
        if args.keep:
            print(f"kept {path}")
        else:
            path.unlink()
            folder.rmdir()
    print(f"peak memory {'under' if worst < 200 else 'OVER'} 200 MB (worst run {worst:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
