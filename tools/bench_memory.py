"""Memory of a long demo, in one process, in simulated time (headless).

    python tools/bench_memory.py [--minutes 120] [--every 10] [--pace real|fast]
                                 [--size 1280x720] [--players 6] [--trace]

Drives ``stammtisch --demo`` through the window's own ``update``/``draw`` with a
frame of 1/60 s but without waiting for the clock, so two hours of a demo take a
fraction of that. Every ``--every`` simulated minutes it prints one JSON line: the
process's resident memory (MB); the memory blocks Python holds (``py_blocks``: its
own objects, not the pictures' pixels); the games played so far; the entries of
every cache the package holds (``functools`` caches, and module-level dicts of more
than 100 entries); and the megabytes of pixels its caches of pictures hold. So what
grows can be named. ``--trace`` adds ``tracemalloc``'s five largest growths since
the previous line (much slower, and the tracing itself takes memory).

``--pace real`` keeps the settings' pacing (animations, the computers' think pause);
``--pace fast`` turns both off, so many more games are played per simulated minute:
growth that follows games played shows sooner, growth that follows time does not.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import tracemalloc
import weakref
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FRAME = 1 / 60


def rss_mb() -> float:
    """Resident memory now, from ``/proc`` (Linux); the peak elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def caches() -> dict[str, int]:
    """Entries of every cache in the package's modules: ``functools`` caches by their
    ``cache_info``, and dicts, lists, sets and caches of pictures at module level of
    more than 100."""
    from game.view.picture_cache import PictureCache

    sizes: dict[str, int] = {}
    for name, mod in sorted(sys.modules.items()):
        if not (name == "game" or name.startswith("game.")) or not isinstance(mod, ModuleType):
            continue
        for attr, value in vars(mod).items():
            if attr.startswith("__"):
                continue
            info = getattr(value, "cache_info", None)
            if callable(info) and getattr(value, "__module__", None) == name:
                sizes[f"{name}.{attr}()"] = info().currsize
            elif isinstance(value, (dict, list, set, PictureCache)) and len(value) > 100:
                sizes[f"{name}.{attr}"] = len(value)
    return sizes


def pictures_mb() -> dict[str, float]:
    """Megabytes of pixels held by the package's caches of pictures (the text and
    layer caches) and its module-level dicts of surfaces (the felt, scaled cards):
    what their entry counts mean in memory."""
    import pygame

    from game.view.picture_cache import PictureCache, pixel_bytes

    out: dict[str, float] = {}
    for name, mod in sorted(sys.modules.items()):
        if not name.startswith("game.") or not isinstance(mod, ModuleType):
            continue
        for attr, value in vars(mod).items():
            if isinstance(value, PictureCache):
                held = value.held()
            elif isinstance(value, dict) and value:
                surfaces = [v for v in list(value.values()) if isinstance(v, pygame.Surface)]
                if not surfaces:
                    continue
                held = sum(pixel_bytes(s) for s in surfaces)
            else:
                continue
            out[f"{name}.{attr}"] = round(held / 2**20, 1)
    return out


class Games:
    """Counts the demo's games: it opens a new table scene for each."""

    def __init__(self) -> None:
        self.seen = 0
        self._last: weakref.ref[Any] | None = None   # a weak one: the count keeps no scene

    def look(self, app: Any) -> None:
        top = app.stack[-1] if app.stack else None
        if top is not None and (self._last is None or self._last() is not top):
            self._last = weakref.ref(top)
            self.seen += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=120.0)
    ap.add_argument("--every", type=float, default=10.0)
    ap.add_argument("--pace", choices=("real", "fast"), default="real")
    ap.add_argument("--size", default="1280x720")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args(argv)

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("STAMMTISCH_HOME", tempfile.mkdtemp(prefix="stammtisch-mem-"))
    sys.path.insert(0, str(ROOT))
    from game.scenes.testing import make_app
    from game.settings import Settings

    w, h = (int(v) for v in args.size.lower().split("x"))
    if args.pace == "fast":
        app = make_app((w, h))
    else:        # the settings' own pacing, as a window opened with no settings file
        d = Settings(path=None)
        app = make_app((w, h), speed=d["anim_speed"], think=d["think_pause"],
                       reveal_hold=d["reveal_hold"])
    app.open("demo", game_id=None, players=args.players, seed=args.seed)
    if args.trace:
        tracemalloc.start(8)
    previous = tracemalloc.take_snapshot() if args.trace else None
    frames_per_line = max(1, round(args.every * 60 / FRAME))
    total = round(args.minutes * 60 / FRAME)
    started = time.monotonic()
    games = Games()
    for frame in range(1, total + 1):
        app.update(FRAME)
        app.draw()
        games.look(app)
        if frame % frames_per_line and frame != total:
            continue
        line: dict[str, Any] = {"minute": round(frame * FRAME / 60, 1), "rss_mb": rss_mb(),
                                "py_blocks": sys.getallocatedblocks(),
                                "wall_s": round(time.monotonic() - started, 1)}
        line["games"] = games.seen
        line["pictures_mb"] = pictures_mb()
        line["caches"] = caches()
        if previous is not None:
            now = tracemalloc.take_snapshot()
            top = now.compare_to(previous, "traceback")[:5]
            line["growth"] = [{"kib": round(d.size_diff / 1024, 1), "count": d.count_diff,
                               "where": [f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}"
                                         for f in d.traceback[-4:]]} for d in top]
            previous = now
        print(json.dumps(line), flush=True)
    app.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
