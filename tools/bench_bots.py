"""User bots in their own process: what the boundary costs and what it keeps out.

    python tools/bench_bots.py speed [--games 2000] [--levels threshold,medium,hard]
    python tools/bench_bots.py cheat [--games 400] [--seed 1]

``speed``: for each built-in level, a tournament with one seat played by a Python bot
file that runs exactly that level's code (``bot:`` in its own process), against the
same tournament with the level itself in that seat. The games are identical (the same
decisions from the same views), so the ratio of rounds per second is the cost of the
process boundary. Target: at least 0.5.

``cheat``: a bot that looks through the process's objects (``gc.get_objects()``),
frames (``sys._current_frames()``) and modules for the engine, and swaps only when
its neighbour's hidden card is higher (the dealer draws only when the talon card is
higher). If it finds nothing it plays the same threshold strategy as a fair bot. Over
``--games`` duplicate games against three ``medium`` players it is compared with the
fair bot: as a user bot (its own process) its share must lie within the fair bot's
95 % interval. A control run calls the same file inside the tournament's process, as
bots were run before, to show that the cheat works where the engine can be reached.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.ai import tournament  # noqa: E402

LEVEL_BOT = '''
import sys
sys.path.insert(0, {root!r})
from game.ai.registry import make_player
PLAYER = make_player({game!r}, {level!r})

def choose(view):
    return PLAYER.choose(view)
'''

CHEAT_BOT = '''
"""Chase the Ace: threshold play, unless the engine can be found in memory."""
import gc
import os
import sys

CHEAT = {cheat!r}
FOUND = 0
LOG = os.environ.get("STAMMTISCH_CHEAT_LOG")
ORDER = "A23456789TJQK"


def value(card):
    return ORDER.index(card[0]) + 1 if card and card[0] in ORDER else 0


def engines():
    """Objects that look like the game: hands of cards and a pending decision."""
    seen = []
    for obj in gc.get_objects():
        if hasattr(obj, "hands") and hasattr(obj, "talon") and hasattr(obj, "_pending"):
            seen.append(obj)
    for frame in sys._current_frames().values():
        while frame is not None:
            for v in list(frame.f_locals.values()):
                if hasattr(v, "hands") and hasattr(v, "talon") and v not in seen:
                    seen.append(v)
            frame = frame.f_back
    for mod in list(sys.modules.values()):
        g = getattr(mod, "GAME", None)
        if g is not None and hasattr(g, "hands"):
            seen.append(g)
    return seen


def peek(view):
    """The neighbour's hidden card (or the talon's top card for the dealer)."""
    for g in engines():
        try:
            p = g._pending
            if p is None or p.seat != view["seat"] or g.hands[view["seat"]] != view["hand"][0]:
                continue
            if "draw" in view["legal"]:
                return g.talon[-1] if g.talon else None
            order = list(g._order)
            i = order.index(view["seat"])
            return g.hands[order[(i + 1) % len(order)]]
        except Exception:
            continue
    return None


def fair(view):
    legal = view["legal"]
    if view.get("decision") == "queen":
        return "accept"
    if view.get("decision") == "domino":
        return "keep"
    v = value(view["hand"][0])
    if "draw" in legal:
        return "draw" if v <= 7 else "keep"
    return "swap" if v <= 6 and "swap" in legal else "keep"


def choose(view):
    global FOUND
    legal = view["legal"]
    if CHEAT and view.get("decision") in ("turn", "dealer") and view["hand"][0][0] != "K":
        other = peek(view)
        if other is not None:
            FOUND += 1
            if LOG:
                with open(LOG, "a") as fh:
                    fh.write("found\\n")
            better = value(other) > value(view["hand"][0]) and other[0] != "K"
            if "draw" in legal:
                return "draw" if better else "keep"
            if "swap" in legal:
                return "swap" if better else "keep"
    return fair(view)
'''


def run(specs: list[str], games: int, seed: int, duplicate: bool = True,
        game: str = "chase") -> dict:
    return tournament.run_tournament(game, specs, games, seed=seed, duplicate=duplicate)


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (the bot processes)."""
    total = time.process_time()
    try:
        import resource

        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += r.ru_utime + r.ru_stime
    except (ImportError, OSError):
        pass
    return total


# ----------------------------------------------------------------- speed


def speed(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="stammtisch-botbench-"))
    worst = None
    for level in args.levels.split(","):
        bot = folder / f"{level}_bot.py"
        bot.write_text(LEVEL_BOT.format(root=str(ROOT), game=args.game, level=level))
        ratios, cpu_ratios, with_bot, built_in = [], [], [], []
        for rep in range(args.repeats):
            c0 = cpu_seconds()
            a = run([f"bot:{bot}"] + [level] * (args.players - 1), args.games, rep,
                    duplicate=False, game=args.game)
            c1 = cpu_seconds()
            b = run([level] * args.players, args.games, rep, duplicate=False, game=args.game)
            c2 = cpu_seconds()
            assert a["rounds"] == b["rounds"], "the same decisions must give the same games"
            assert not a["incidents"], a["incidents"][:3]
            with_bot.append(a["rounds_per_s"])
            built_in.append(b["rounds_per_s"])
            ratios.append(a["rounds_per_s"] / b["rounds_per_s"])
            cpu_ratios.append((c2 - c1) / (c1 - c0))
        r = statistics.median(ratios)
        worst = r if worst is None else min(worst, r)
        print(f"{args.game} {args.players} seats, {level:<9}: built-in "
              f"{statistics.median(built_in):8.0f} rounds/s, one seat as a bot process "
              f"{statistics.median(with_bot):8.0f} rounds/s, ratio {r:.2f}; by CPU time "
              f"(both processes) {statistics.median(cpu_ratios):.2f} "
              f"(medians of {args.repeats}; target >= 0.5)")
    try:
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    except OSError:
        pass
    return 0 if worst is not None and worst >= 0.5 else 1


# ----------------------------------------------------------------- cheat


class InProcessBot:
    """The old way: the bot's module is called inside the tournament's process."""

    def __init__(self, path: str) -> None:
        import importlib.util

        spec = importlib.util.spec_from_file_location("cheat_in_process", path)
        assert spec is not None and spec.loader is not None
        self.module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.module)
        self.name = f"inproc:{path}"

    def choose(self, view):  # noqa: ANN001, ANN201
        return self.module.choose(dict(view))


def cheat(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="stammtisch-cheat-"))
    cheater = folder / "cheater.py"
    fair = folder / "fair.py"
    cheater.write_text(CHEAT_BOT.format(cheat=True))
    fair.write_text(CHEAT_BOT.format(cheat=False))
    log = folder / "found.log"
    os.environ["STAMMTISCH_CHEAT_LOG"] = str(log)
    opponents = ["medium"] * 3
    rows = []
    for label, spec in (("fair bot (own process)", f"bot:{fair}"),
                        ("cheater (own process)", f"bot:{cheater}"),
                        ("cheater (in-process control)", f"inproc:{cheater}")):
        if log.exists():
            log.unlink()
        real = tournament.make_player
        if spec.startswith("inproc:"):
            tournament.make_player = (  # type: ignore[assignment]
                lambda g, s, real=real: InProcessBot(s[7:]) if s.startswith("inproc:")
                else real(g, s))
        t0 = time.perf_counter()
        try:
            res = run([spec] + opponents, args.games, args.seed)
        finally:
            tournament.make_player = real  # type: ignore[assignment]
        me = next(p for p in res["players"] if p["name"] == spec)
        found = len(log.read_text().splitlines()) if log.exists() else 0
        decisions = me["decisions"]
        rows.append((label, me, found, decisions))
        print(f"{label:<30} share {me['share']:.3f}  95% [{me['ci95'][0]:.3f}, "
              f"{me['ci95'][1]:.3f}]  games {me['games']}  engine found in {found} of "
              f"{decisions} decisions  ({time.perf_counter() - t0:.0f} s)")
    fair_row, cheat_row, control = rows
    lo, hi = fair_row[1]["ci95"]
    inside = lo <= cheat_row[1]["share"] <= hi
    print(f"cheater in its own process: share {cheat_row[1]['share']:.3f} "
          f"{'within' if inside else 'OUTSIDE'} the fair bot's interval [{lo:.3f}, {hi:.3f}]; "
          f"engine found {cheat_row[2]} times. In-process control: share "
          f"{control[1]['share']:.3f}, engine found {control[2]} times.")
    summary = {"games": args.games, "fair": fair_row[1]["share"], "fair_ci95": [lo, hi],
               "cheater": cheat_row[1]["share"], "cheater_found": cheat_row[2],
               "control": control[1]["share"], "control_found": control[2]}
    print(json.dumps(summary))
    return 0 if inside and cheat_row[2] == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--game", default="chase", choices=("chase", "rams"))
    s.add_argument("--players", type=int, default=4)
    s.add_argument("--games", type=int, default=2000)
    s.add_argument("--repeats", type=int, default=3)
    s.add_argument("--levels", default="threshold,medium,hard")
    c = sub.add_parser("cheat")
    c.add_argument("--games", type=int, default=400)
    c.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    return speed(args) if args.mode == "speed" else cheat(args)


if __name__ == "__main__":
    sys.exit(main())
