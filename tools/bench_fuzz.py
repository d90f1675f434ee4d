"""Fuzz ``stammtisch replay FILE --json`` and ``stammtisch advise FILE --json`` with
seeded damaged records (``tools/fuzz_records.py``) and count what must never happen.

    python tools/bench_fuzz.py [--cases 10000] [--seed 1] [--workers 2] [--timeout 60]
                               [--subprocess N] [--long]

Each case is run by both commands. The runs happen in worker processes (the
commands' ``main`` called in-process, a fresh worker after any hang) with a per-run
timeout and a memory cap; ``--subprocess N`` also runs the first N cases as real
``python -m game`` processes, to check exit statuses end to end. Printed: the number
of runs, tracebacks, hangs, exits other than 0 or 2, other breaches of docs/records.md's
error contract (one line that starts with the kind), and the exit-status histogram;
the first few failures are listed with their case names. Target: all zero.
``--long`` also times ``replay --json`` on a valid record of 10**6 moves (under the
readers' size cap).
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import fuzz_records as fz  # noqa: E402

COMMANDS = ("replay", "advise")
MEMORY_CAP = 3 * 1024**3


def _worker(inbox: mp.Queue, outbox: mp.Queue, folder: str) -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    except (ImportError, ValueError, OSError):
        pass
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    base = Path(folder)
    while True:
        job = inbox.get()
        if job is None:
            return
        index, case, command = job
        path = fz.materialize(case, base)
        outcome = fz.run_case(command, path)
        outbox.put((index, command, outcome.code, outcome.problem(),
                    (outcome.traceback or outcome.err)[-600:]))


class Pool:
    """Workers that can be replaced one by one when a run hangs."""

    def __init__(self, workers: int) -> None:
        self.ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
        self.outbox: mp.Queue = self.ctx.Queue()
        self.slots: list[dict] = [self._start(i) for i in range(workers)]

    def _start(self, i: int) -> dict:
        inbox: mp.Queue = self.ctx.Queue()
        folder = tempfile.mkdtemp(prefix=f"stammtisch-fuzz-{i}-")
        proc = self.ctx.Process(target=_worker, args=(inbox, self.outbox, folder), daemon=True)
        proc.start()
        return {"proc": proc, "inbox": inbox, "folder": folder, "job": None, "since": 0.0}

    def restart(self, i: int) -> None:
        slot = self.slots[i]
        slot["proc"].kill()
        slot["proc"].join(5)
        try:
            fz.cleanup(Path(slot["folder"]))
        except OSError:
            pass
        self.slots[i] = self._start(i)

    def close(self) -> None:
        for slot in self.slots:
            slot["inbox"].put(None)
        for slot in self.slots:
            slot["proc"].join(5)
            if slot["proc"].is_alive():
                slot["proc"].kill()


def run_in_workers(jobs: list[tuple], workers: int, timeout: float) -> list[tuple]:
    pool = Pool(workers)
    todo = collections.deque(jobs)
    results: list[tuple] = []
    busy = 0
    try:
        while todo or busy:
            for slot in pool.slots:
                if slot["job"] is None and todo:
                    job = todo.popleft()
                    slot["job"], slot["since"] = job, time.monotonic()
                    slot["inbox"].put(job)
                    busy += 1
            try:
                index, command, code, problem, tail = pool.outbox.get(timeout=0.5)
            except Exception:  # noqa: BLE001 - queue.Empty
                index = None
            if index is not None:
                results.append((index, command, code, problem, tail))
                for slot in pool.slots:
                    job = slot["job"]
                    if job is not None and job[0] == index and job[2] == command:
                        slot["job"] = None
                        busy -= 1
                        break
            now = time.monotonic()
            for i, slot in enumerate(pool.slots):
                job = slot["job"]
                dead = not slot["proc"].is_alive()
                if job is not None and (dead or now - slot["since"] > timeout):
                    results.append((job[0], job[2], None, "died" if dead else "hang", ""))
                    slot["job"] = None
                    busy -= 1
                    pool.restart(i)
    finally:
        pool.close()
    return results


def run_subprocesses(cases: list[fz.Case], timeout: float) -> list[tuple]:
    out = []
    folder = Path(tempfile.mkdtemp(prefix="stammtisch-fuzz-sp-"))
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    for index, case in enumerate(cases):
        path = fz.materialize(case, folder)
        for command in COMMANDS:
            try:
                r = subprocess.run([sys.executable, "-m", "game", command, str(path), "--json"],
                                   capture_output=True, text=True, timeout=timeout, env=env,
                                   cwd=ROOT, errors="replace")
            except subprocess.TimeoutExpired:
                out.append((index, command, None, "hang", ""))
                continue
            o = fz.Outcome(r.returncode, r.stdout, r.stderr,
                           r.stderr if "Traceback (most recent call last)" in r.stderr
                           else None)
            out.append((index, command, r.returncode, o.problem(), r.stderr[-600:]))
    fz.cleanup(folder)
    return out


def report(title: str, results: list[tuple], cases: list[fz.Case]) -> int:
    codes = collections.Counter(code for _, _, code, _, _ in results)
    problems = collections.Counter((p or "").split(" ")[0] for _, _, _, p, _ in results if p)
    tracebacks = sum(1 for r in results if r[3] in ("traceback", "died"))
    hangs = sum(1 for r in results if r[3] == "hang")
    other_exit = sum(1 for r in results if r[2] not in (0, 2) and r[3] not in ("hang",))
    contract = sum(1 for r in results if r[3] and r[3].startswith(("bad error", "exit 0",
                                                                    "exit 2 with")))
    print(f"{title}: {len(results)} runs ({len(cases)} cases x {len(COMMANDS)} commands)")
    print(f"  tracebacks {tracebacks}  hangs {hangs}  exits other than 0/2 {other_exit}  "
          f"contract breaches {contract}")
    print("  exit statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(
        codes.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))))
    shown = 0
    for index, command, _code, problem, tail in sorted(results, key=lambda r: r[0]):
        if problem and shown < 8:
            shown += 1
            print(f"  ! {command} {cases[index].name}: {problem}\n    "
                  + tail.strip().replace("\n", "\n    ")[-400:])
    return tracebacks + hangs + other_exit + contract + sum(
        v for k, v in problems.items() if k not in ("traceback", "died", "hang", "exit"))


def long_record(folder: Path, moves: int = 10**6) -> Path:
    """A valid Rams record of ``moves`` moves: with no drop limit every seat drops, so
    void rounds follow each other for ever."""
    import json

    from game.rules.rams import RamsGame

    g = RamsGame({"drop_limit": "none"}, 4, seed=1, bot_seed=1)
    g.start()
    while g.round_index < 4:
        p = g.to_move()
        g.apply(p.seat, "drop" if "drop" in p.legal else p.legal[0])
    cycle = list(g.moves)
    seq = (cycle * (moves // len(cycle) + 1))[:moves]
    rec = {"format": 1, "game": "rams", "rules": {"drop_limit": "none"},
           "seats": [{"name": c, "type": "human"} for c in "ABCD"], "seed": 1,
           "moves": [{"seat": s, "move": m} for s, m in seq]}
    path = folder / "long.json"
    path.write_text(json.dumps(rec, indent=2))
    return path


def time_long(timeout: float) -> None:
    folder = Path(tempfile.mkdtemp(prefix="stammtisch-long-"))
    path = long_record(folder)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "game", "replay", str(path), "--json"],
                       capture_output=True, text=True, timeout=max(timeout, 600), env=env,
                       cwd=ROOT)
    seconds = time.perf_counter() - t0
    size = path.stat().st_size / 1e6
    path.unlink()
    folder.rmdir()
    print(f"long record: 10**6 moves, {size:.0f} MB: replay --json exit {r.returncode} "
          f"in {seconds:.1f} s" + (f" ({r.stderr.strip()[:200]})" if r.returncode else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds one run may take before it counts as a hang")
    ap.add_argument("--subprocess", type=int, default=0, metavar="N",
                    help="also run the first N cases as real processes")
    ap.add_argument("--long", action="store_true",
                    help="also time replay --json on a record of 10**6 moves")
    args = ap.parse_args()
    if args.long:
        time_long(args.timeout)
    cases = list(fz.cases(args.seed, args.cases))
    jobs = [(i, c, cmd) for i, c in enumerate(cases) for cmd in COMMANDS]
    t0 = time.perf_counter()
    results = run_in_workers(jobs, args.workers, args.timeout)
    seconds = time.perf_counter() - t0
    bad = report("in-process", results, cases)
    print(f"  {seconds:.0f} s, {len(results) / seconds:.1f} runs/s")
    if args.subprocess:
        t0 = time.perf_counter()
        sub = cases[: args.subprocess]
        sp = run_subprocesses(sub, args.timeout)
        bad += report("subprocess", sp, sub)
        print(f"  {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
