"""Build the game and a bare pygame-ce window the same way; compare folder sizes and start-up.

    python tools/bench_build.py                 # build both, 7 start-ups each, print figures
    python tools/bench_build.py --no-build      # measure the folders from the last run
    python tools/bench_build.py --runs 9 --demo 10 --json out/bench.json

Builds go to ``out/bench/`` (``--out``). Start-up time is wall time from process start
to exit of ``stammtisch --smoke-test`` (first menu frame) against ``bare_window``
(one frame), runs alternating, after one unmeasured warm-up each; the median counts.
Use a real display (e.g. ``Xvfb :99 & DISPLAY=:99``); ``--dummy`` sets
``SDL_VIDEODRIVER=dummy`` instead. Budgets (the issue's "done when"): the app folder
at most 25 MB larger than the bare one (the phone table's server and QR libraries
included, issue 17) and the start-up median at most 2x.
Exit status 1 if a budget is missed or a run fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from build_windows import folder_size

ROOT = Path(__file__).resolve().parent.parent
EXE_SUFFIX = ".exe" if sys.platform.startswith("win") else ""
SIZE_BUDGET_MB = 25.0
TIME_BUDGET_RATIO = 2.0
MB = 1024 * 1024


def breakdown(folder: Path, top: int = 12) -> list[tuple[str, float]]:
    """Largest entries of the bundle folder (``_internal`` of a onedir build), in MB."""
    inner = folder / "_internal"
    base = inner if inner.is_dir() else folder
    rows = []
    for entry in base.iterdir():
        size = folder_size(entry) if entry.is_dir() else (
            0 if entry.is_symlink() else entry.stat().st_size)
        rows.append((str(entry.relative_to(folder)), size / MB))
    rows.sort(key=lambda r: -r[1])
    return rows[:top]


def build(spec: Path, out: Path) -> float:
    t0 = time.perf_counter()
    cmd = [sys.executable, "-m", "PyInstaller", str(spec), "--noconfirm", "--log-level", "WARN",
           "--distpath", str(out / "dist"), "--workpath", str(out / "work")]
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)
    return time.perf_counter() - t0


def _children_cpu() -> float:
    try:
        import resource
    except ImportError:  # Windows: no CPU figure
        return float("nan")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


CPU: list[tuple[str, float]] = []  # (label, user+sys seconds) of every measured run


def timed_run(cmd: list[str], env: dict[str, str], timeout: float = 120,
              label: str = "") -> float:
    """Wall seconds from start to exit; the run's CPU seconds are appended to CPU."""
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          timeout=timeout)
    elapsed = time.perf_counter() - t0
    if label:
        CPU.append((label, _children_cpu() - cpu0))
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace")[-2000:]
        raise RuntimeError(f"{cmd} exited {proc.returncode}:\n{tail}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "bench")
    ap.add_argument("--no-build", action="store_true", help="reuse the folders in --out")
    ap.add_argument("--runs", type=int, default=7, help="start-ups per build (>= 5)")
    ap.add_argument("--dummy", action="store_true", help="SDL_VIDEODRIVER=dummy")
    ap.add_argument("--demo", type=float, default=0, metavar="SECONDS",
                    help="also run the app with --demo --quit-after SECONDS")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here too")
    args = ap.parse_args(argv)
    if args.runs < 5:
        ap.error("--runs must be at least 5")

    out = args.out.resolve()
    dist = out / "dist"
    build_s = {}
    if not args.no_build:
        build_s["app"] = build(ROOT / "build.spec", out)
        build_s["bare"] = build(ROOT / "tools" / "bare.spec", out)
    app_dir, bare_dir = dist / "stammtisch", dist / "bare_window"
    app_exe = app_dir / f"stammtisch{EXE_SUFFIX}"
    bare_exe = bare_dir / f"bare_window{EXE_SUFFIX}"
    for p in (app_exe, bare_exe):
        if not p.is_file():
            print(f"missing {p}; run without --no-build", file=sys.stderr)
            return 1

    env = dict(os.environ)
    env["STAMMTISCH_NO_CRASH_DIALOG"] = "1"
    if args.dummy:
        env["SDL_VIDEODRIVER"] = "dummy"
    elif sys.platform.startswith("linux") and not env.get("DISPLAY") and not env.get(
            "WAYLAND_DISPLAY"):
        print("no DISPLAY: start Xvfb (Xvfb :99 & export DISPLAY=:99) or pass --dummy",
              file=sys.stderr)
        return 1
    home = tempfile.mkdtemp(prefix="stammtisch-bench-")
    env["STAMMTISCH_HOME"] = home

    app_cmd = [str(app_exe), "--smoke-test"]
    bare_cmd = [str(bare_exe)]
    timed_run(app_cmd, env)  # warm-up: page cache, font cache
    timed_run(bare_cmd, env)
    app_t, bare_t = [], []
    for _ in range(args.runs):
        app_t.append(timed_run(app_cmd, env, label="app"))
        bare_t.append(timed_run(bare_cmd, env, label="bare"))

    demo = None
    if args.demo:
        demo_s = timed_run([str(app_exe), "--demo", "--quit-after", str(args.demo)], env,
                           timeout=args.demo + 120)
        demo = {"seconds": args.demo, "wall_s": round(demo_s, 2), "ok": True}

    app_mb, bare_mb = folder_size(app_dir) / MB, folder_size(bare_dir) / MB
    app_med, bare_med = statistics.median(app_t), statistics.median(bare_t)
    app_cpu = statistics.median(c for lab, c in CPU if lab == "app")
    bare_cpu = statistics.median(c for lab, c in CPU if lab == "bare")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    figures = {
        "platform": sys.platform,
        "video": "dummy" if args.dummy else env.get("DISPLAY", "native"),
        "build_s": {k: round(v, 1) for k, v in build_s.items()},
        "size_mb": {"app": round(app_mb, 2), "bare": round(bare_mb, 2),
                    "extra": round(app_mb - bare_mb, 2), "budget_extra": SIZE_BUDGET_MB},
        "startup_s": {"app_median": round(app_med, 3), "bare_median": round(bare_med, 3),
                      "ratio": round(app_med / bare_med, 2), "budget_ratio": TIME_BUDGET_RATIO,
                      "runs": args.runs, "app_all": [round(t, 3) for t in app_t],
                      "bare_all": [round(t, 3) for t in bare_t],
                      "app_cpu_median": round(app_cpu, 3), "bare_cpu_median": round(bare_cpu, 3),
                      "load_average_1min": load},
        "app_breakdown_mb": {name: round(mb, 2) for name, mb in breakdown(app_dir)},
        "demo": demo,
    }
    size_ok = app_mb - bare_mb <= SIZE_BUDGET_MB
    time_ok = app_med <= TIME_BUDGET_RATIO * bare_med
    figures["ok"] = size_ok and time_ok

    print(f"\nfolder size   app {app_mb:7.2f} MB   bare {bare_mb:7.2f} MB   "
          f"extra {app_mb - bare_mb:+6.2f} MB (budget +{SIZE_BUDGET_MB:.0f})   "
          f"{'OK' if size_ok else 'OVER'}")
    print(f"start-up      app {app_med * 1000:7.0f} ms   bare {bare_med * 1000:7.0f} ms   "
          f"ratio {app_med / bare_med:5.2f}x (budget {TIME_BUDGET_RATIO:.0f}x)   "
          f"{'OK' if time_ok else 'OVER'}   median of {args.runs}")
    print(f"CPU (user+sys) app {app_cpu * 1000:7.0f} ms   bare {bare_cpu * 1000:7.0f} ms   "
          f"ratio {app_cpu / bare_cpu:5.2f}x   (less sensitive to a busy machine; "
          f"load average {load if load is None else round(load, 2)})")
    print("app runs (ms): ", " ".join(f"{t * 1000:.0f}" for t in app_t))
    print("bare runs (ms):", " ".join(f"{t * 1000:.0f}" for t in bare_t))
    if demo:
        print(f"demo          --demo --quit-after {args.demo:g}: exit 0 after {demo['wall_s']} s")
    print("largest parts of the app folder:")
    for name, mb in breakdown(app_dir):
        print(f"  {mb:8.2f} MB  {name}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0 if figures["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
