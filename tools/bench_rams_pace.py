"""The pace of Rams under a rules set: how long a game lasts, how much of it is void,
how often a declaration is a real choice, how far skill carries, and how many minutes
a game takes on screen.

    python tools/bench_rams_pace.py pace --games 200 [--rules JSON]
    python tools/bench_rams_pace.py steps --games 200 [--rules JSON]
    python tools/bench_rams_pace.py choice --games 30 [--samples 200] [--rules JSON]
    python tools/bench_rams_pace.py screen --games 6 [--rules JSON]
    python tools/bench_rams_pace.py levels --games 400 [--jobs 2] [--pairs hard:medium] [--rules JSON]
    python tools/bench_rams_pace.py all --rules JSON    # one table row, every figure

``pace``: games among ``--players`` copies of ``--level`` (default four ``medium``):
rounds per game (median, p90, mean), the share of void rounds (everyone dropped), and
the two-player endgame (rounds dealt to exactly two seats, median over the games that
had one; a scoring under which nobody goes out has none).

``steps``: the same games; how a seat's score changes in a round (change -> share of
the seat-rounds of finished rounds), and how often a seat plays: the race model of
``game/ai/rams_value.py`` (``RACE_STEP``) is this distribution.

``choice``: the same kind of games; at every declaration the coach (``hard``, the odds
on the table's buttons) gives each option's expected loss in the scoring's own unit
(lives, or counters: see :func:`game.rules.rams_rules.stake_unit`). A declaration is a
*real choice* when both ``play`` and ``drop`` are legal and neither is ahead of the
other by more than a tenth of the stake unit (a tenth of a life, half a counter):
``medium`` blurs calls that close. Printed: the share of all declarations (forced
ones included) that are real choices, and of the free ones; and the ``room``: the
best share any rule could reach that made playing a constant amount dearer or cheaper
than dropping (a fee), the seats deciding as now.

``screen``: one person (seat 0, played as ``medium`` plays) among three ``medium`` at
the game's default pacing (normal animation speed, the computers' thinking pause of
the settings, reveals held until the person goes on), on the real table scene with a
simulated clock: every second counted is a named duration of ``game/view/timing.py``,
a computer's thinking pause, or the person's own time, which is assumed, not measured
(``--decide`` seconds for a choice, ``--click`` for a move with one legal option,
``--read`` to go on after a held reveal). Printed: minutes per game (median, p90), the
same without the person's assumed time, and the seconds a void round is on screen:
from its deal to the next deal (the person's time included, and without it), and from
the moment it is void (its last declaration shows) to the next deal.

``levels``: ``hard`` among three ``medium`` and ``medium`` among three ``easy``
(``tools/bench_rams_ai.py table``: duplicate, every deal in all seat rotations): the
seat's win share (Wilson 95 %) and its loss per round less the opponents' (paired
95 % interval), in the scoring's unit and in stake units per round.
``--pairs hard:medium`` measures only the pairs named (``seat:opponent``, commas).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rams_ai import _in_parts as _parts  # noqa: E402  (games dealt to processes)

from game.ai.common import mix  # noqa: E402
from game.ai.registry import make_player  # noqa: E402
from game.ai.stats import percentile  # noqa: E402
from game.games import new_game  # noqa: E402
from game.rules import rams_rules as RR  # noqa: E402

#: a game that has not ended after this many rounds is counted as unfinished
MAX_ROUNDS = 2000
#: how far apart two options' expected losses may be, in stake units, for a real choice
CLOSE = 0.1


def _stake(rules: dict[str, Any]) -> float:
    """The scoring's stake unit (a life; or what playing without a trick costs)."""
    return float(getattr(RR, "stake_unit", lambda r: 1.0)(rules))


def _seeds(seed: int, k: int) -> tuple[int, int]:
    return mix(seed, k) >> 1, mix(seed, k, 1) >> 1


def play_game(rules: dict[str, Any] | None, specs: list[str], seed: int, k: int,
              on_declare: Any = None) -> Any:
    """One game among ``specs``; ``on_declare(view)`` sees every declaration."""
    players = [make_player("rams", s) for s in specs]
    game_seed, bot_seed = _seeds(seed, k)
    g = new_game("rams", rules, len(specs), seed=game_seed, bot_seed=bot_seed)
    g.emit_events = False
    g.start()
    while (p := g.to_move()) is not None and g.round_index < MAX_ROUNDS:
        v = g.lazy_view(p.seat)
        if on_declare is not None and p.decision == "declare":
            on_declare(g.view(p.seat))
        g.apply(p.seat, players[p.seat].choose(v))
    return g


# ---------------------------------------------------------------- pace

def _ended_by_last_round(g: Any) -> bool:
    """Whether the ``last_round`` rule ended the game: its last round was the last
    one allowed, and nobody had reached zero counters (or was left alone with lives)."""
    if not (g.finished and g.rounds and g.rounds[-1].get("last")):
        return False
    left = g.rounds[-1]["lives"]
    if g.counting:
        return 0 not in left
    return sum(1 for n in left if n > 0) > 1


def _pace_job(job: tuple) -> list[dict[str, Any]]:
    rules, specs, seed, ks = job
    out = []
    for k in ks:
        g = play_game(rules, specs, seed, k)
        rounds = g.rounds
        two = sum(1 for r in rounds if len(r.get("tricks", {})) == 2)
        out.append({"k": k, "rounds": len(rounds), "finished": g.finished,
                    "void": sum(1 for r in rounds if r.get("void")), "two": two,
                    "last": _ended_by_last_round(g)})
    return out


def pace(rules: dict[str, Any] | None, games: int, players: int, level: str, seed: int,
         jobs: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    specs = [level] * players
    recs = _parts(_pace_job, lambda ks: (rules, specs, seed, ks), games, jobs)
    rounds = [r["rounds"] for r in recs]
    total = sum(rounds)
    twos = [r["two"] for r in recs if r["two"]]
    return {
        "rules": rules or {}, "players": players, "level": level, "games": len(recs),
        "unfinished": sum(1 for r in recs if not r["finished"]),
        # games the last_round rule ended (nobody reached zero or was left alone before)
        "ended_by_last_round": round(sum(1 for r in recs if r["last"]) / len(recs), 4),
        "rounds": {"median": statistics.median(rounds), "p90": round(percentile(rounds, 90), 1),
                   "mean": round(total / len(rounds), 1)},
        "void_share": round(sum(r["void"] for r in recs) / max(1, total), 4),
        "endgame": {"games": len(twos),
                    "median": statistics.median(twos) if twos else None,
                    "p90": round(percentile(twos, 90), 1) if twos else None},
        "seconds": round(time.perf_counter() - t0, 1),
    }


# ---------------------------------------------------------------- steps

def _steps_job(job: tuple) -> list[tuple[int, int, bool]]:
    """``(change, seats dealt in, played)`` of every seat in every finished round."""
    rules, specs, seed, ks = job
    out = []
    for k in ks:
        g = play_game(rules, specs, seed, k)
        for r in g.rounds:
            if r.get("cut"):
                continue
            played = set(r["played"]) | ({r["lone"]} if r["lone"] is not None else set())
            for s in r["tricks"]:
                out.append((r["lost"].get(s, 0), len(r["tricks"]), int(s) in played))
    return out


def steps(rules: dict[str, Any] | None, games: int, players: int, level: str, seed: int,
          jobs: int) -> dict[str, Any]:
    """How a seat's score changes in a round (the race model of
    ``game/ai/rams_value.py``): change -> share of seat-rounds, and the share of
    seat-rounds in which the seat played."""
    specs = [level] * players
    rows = _parts(_steps_job, lambda ks: (rules, specs, seed, ks), games, jobs)
    n = max(1, len(rows))
    dist: dict[int, int] = {}
    for ch, _, _ in rows:
        dist[ch] = dist.get(ch, 0) + 1
    return {"rules": rules or {}, "games": games, "seat_rounds": len(rows),
            "played_share": round(sum(1 for r in rows if r[2]) / n, 4),
            "change": {str(k): round(v / n, 4) for k, v in sorted(dist.items())}}


# ---------------------------------------------------------------- choice

def _choice_job(job: tuple) -> list[float | None]:
    """For every declaration of the games ``ks``: how much more the coach expects
    ``play`` to lose than ``drop``, in stake units (``None``: not both legal)."""
    from game.ai.rams_coach import advise

    rules, specs, seed, ks, samples = job
    out: list[float | None] = []

    def look(view: dict[str, Any]) -> None:
        legal = view["legal"]
        if not ("play" in legal and "drop" in legal):
            out.append(None)
            return
        # the odds do not depend on the level's own pick: leave its search out
        opts = advise(view, "hard", samples, pick=False)["options"]
        gap = opts["play"]["expected_loss"] - opts["drop"]["expected_loss"]
        out.append(gap / _stake(view["rules"]))

    for k in ks:
        play_game(rules, specs, seed, k, look)
    return out


#: other thresholds the choice measure prints the share for (stake units)
CLOSE_MORE = (0.05, 0.2, 0.25)


def choice(rules: dict[str, Any] | None, games: int, players: int, level: str, seed: int,
           jobs: int, samples: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    specs = [level] * players
    rows = _parts(_choice_job, lambda ks: (rules, specs, seed, ks, samples), games, jobs)
    free = [abs(g) for g in rows if g is not None]
    n = max(1, len(rows))
    real = sum(1 for g in free if g <= CLOSE)
    return {"rules": rules or {}, "games": games, "declarations": len(rows),
            "free": len(free), "real": real, "close": CLOSE,
            "real_share": round(real / n, 4),
            "real_share_of_free": round(real / max(1, len(free)), 4),
            "share_at": {str(c): round(sum(1 for g in free if g <= c) / n, 4)
                         for c in CLOSE_MORE},
            "room": room(rows, n),
            "samples": samples, "seconds": round(time.perf_counter() - t0, 1)}


def room(rows: list[float | None], n: int) -> dict[str, float]:
    """The most a rule that moved what playing costs against dropping by a constant (a
    fee for playing, or for dropping) could make of the real-choice share, the seats
    deciding as they do now: the best such shift, in stake units (positive: playing
    costs more), and the share of real choices with it."""
    signed = [g for g in rows if g is not None]
    best = (0.0, -1.0)
    for k in range(-100, 101):
        shift = k / 100
        share = sum(1 for g in signed if abs(g + shift) <= CLOSE) / n
        if share > best[1] + 1e-12:
            best = (shift, share)
    return {"best_shift": best[0], "real_share": round(best[1], 4)}


# ---------------------------------------------------------------- screen

def _screen_game(rules: dict[str, Any] | None, seed: int, k: int, decide: float,
                 click: float, read: float, dt: float) -> dict[str, Any]:
    """One game on the table scene with a simulated clock (see the module doc)."""
    from game.scenes import testing as T
    from game.settings import Settings
    from game.turn.options import TableOptions

    defaults = Settings(path=None)
    app = T.make_app((1280, 720), "en", speed=str(defaults["anim_speed"]),
                     think=float(defaults["think_pause"]),
                     reveal_hold=defaults["reveal_hold"])
    seats = T.mixed_seats(4, 1)
    for s in seats[1:]:
        s["level"] = "medium"
    game_seed, _ = _seeds(seed, k)
    tb = app.scene("table", game_id="rams", seats=seats, rules=rules or {}, seed=game_seed,
                   options=TableOptions(keep_records=False))
    app.push(tb)
    me = make_player("rams", "medium")
    clock = 0.0
    person = 0.0
    spans: list[tuple[float, float]] = []     # the person's own time
    steps = 0
    marks: list[tuple[str, float]] = []
    show = tb.show

    def timed(ev: Any) -> None:       # when each event begins to show
        marks.append((ev.type, clock))
        show(ev)

    tb.show = timed  # type: ignore[method-assign]
    while steps < 2_000_000:
        steps += 1
        top = app.top
        if top is None or top.name == "results" or tb.state in ("over", "done"):
            break
        g = tb.game
        if tb.state == "hold":
            spans.append((clock, clock + read))
            clock += read
            person += read
            tb.flow.release()
            continue
        if tb.state == "human" and tb.pending is not None:
            p = tb.pending
            wait = decide if len(p.legal) > 1 else click
            # the person takes their time while the table goes on animating
            app.update(wait)
            spans.append((clock, clock + wait))
            clock += wait
            person += wait
            tb.human_move(me.choose(g.lazy_view(p.seat)))
            continue
        app.update(dt)
        clock += dt
    g = tb.game
    # a round on screen: from its round_start shown to the next one's
    shown = [t for k, t in marks if k == "round_start"] + [clock]
    voids, voids_table = [], []
    for i, r in enumerate(g.rounds[:len(shown) - 1]):
        if r.get("void"):
            a, b = shown[i], shown[i + 1]
            own = sum(max(0.0, min(b, y) - max(a, x)) for x, y in spans)
            voids.append(b - a)
            voids_table.append(b - a - own)
    # from the moment a round is void (its last declaration shows) to the next deal
    after = []
    for i, (kind, at) in enumerate(marks):
        if kind == "void_round":
            last = max((t for k, t in marks[:i] if k == "declare"), default=at)
            nxt = next((t for k, t in marks[i:] if k == "shuffle"), None)
            if nxt is not None:
                after.append(nxt - last)
    app.pop()
    return {"seconds": clock, "person": person, "rounds": len(g.rounds),
            "finished": g.finished, "void_seconds": voids, "void_table": voids_table,
            "void_after": after}


def _screen_job(job: tuple) -> list[dict[str, Any]]:
    rules, seed, ks, decide, click, read, dt = job
    return [_screen_game(rules, seed, k, decide, click, read, dt) for k in ks]


def screen(rules: dict[str, Any] | None, games: int, seed: int, jobs: int, decide: float,
           click: float, read: float, dt: float = 1 / 30) -> dict[str, Any]:
    t0 = time.perf_counter()
    recs = _parts(_screen_job, lambda ks: (rules, seed, ks, decide, click, read, dt),
                  games, jobs)
    mins = [r["seconds"] / 60 for r in recs]
    table_mins = [(r["seconds"] - r["person"]) / 60 for r in recs]
    voids = [v for r in recs for v in r["void_seconds"]]
    voids_table = [v for r in recs for v in r["void_table"]]
    after = [v for r in recs for v in r["void_after"]]
    return {"rules": rules or {}, "games": len(recs),
            "assumed_person_seconds": {"decide": decide, "click": click, "read": read},
            "minutes": {"median": round(statistics.median(mins), 1),
                        "p90": round(percentile(mins, 90), 1)},
            "minutes_without_person": {"median": round(statistics.median(table_mins), 1)},
            "rounds": statistics.median([r["rounds"] for r in recs]),
            "void_round_seconds": {"rounds": len(voids),
                                   "median": round(statistics.median(voids), 1) if voids
                                   else None,
                                   "max": round(max(voids), 1) if voids else None,
                                   "without_person_median":
                                       round(statistics.median(voids_table), 1) if voids
                                       else None,
                                   "once_void_median": round(statistics.median(after), 1)
                                       if after else None,
                                   "once_void_max": round(max(after), 1) if after
                                       else None},
            "seconds": round(time.perf_counter() - t0, 1)}


# ---------------------------------------------------------------- levels

def levels(rules: dict[str, Any] | None, games: int, players: int, seed: int, jobs: int,
           pairs: tuple[tuple[str, str], ...] = (("hard", "medium"), ("medium", "easy"))
           ) -> dict[str, Any]:
    from bench_rams_ai import table

    unit = _stake(RR_rules(rules))
    out: dict[str, Any] = {"rules": rules or {}, "stake_unit": unit}
    for seat, opp in pairs:
        r = table(seat, opp, games, players, seed, jobs, rules)
        d = r["diff"]
        out[f"{seat}_vs_{opp}"] = {
            "games": r["games"], "share": r["share"], "wilson95": r["wilson95"],
            "diff": d["mean"], "ci95": d["ci95"],
            "diff_stakes": round(d["mean"] / unit, 4),
            "ci95_stakes": [round(x / unit, 4) for x in d["ci95"]],
            "unfinished": r["unfinished"], "seconds": r["seconds"]}
    return out


def RR_rules(rules: dict[str, Any] | None) -> dict[str, Any]:
    from game.rules.rams import rams_rules

    return rams_rules(rules or {})


# ---------------------------------------------------------------- main

def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    """``"hard:medium,medium:easy"`` -> the seat/opponent pairs ``levels`` measures."""
    out = []
    for part in text.split(","):
        seat, _, opp = part.strip().partition(":")
        if not seat or not opp:
            raise SystemExit(f"--pairs: expected seat:opponent, got {part!r}")
        out.append((seat, opp))
    return tuple(out)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    cmds = {name: sub.add_parser(name) for name in ("pace", "steps", "choice", "screen",
                                                     "levels", "all")}
    for name, q in cmds.items():
        q.add_argument("--rules", default=None, help="rules as a JSON object")
        q.add_argument("--seed", type=int, default=1)
        q.add_argument("--jobs", type=int, default=1)
        q.add_argument("--players", type=int, default=4)
        q.add_argument("--level", default="medium")
        q.add_argument("--games", type=int, default={"pace": 200, "steps": 200, "choice": 30, "screen": 6,
                                                     "levels": 400, "all": 0}[name])
        q.add_argument("--samples", type=int, default=200)
        q.add_argument("--decide", type=float, default=2.0)
        q.add_argument("--click", type=float, default=0.8)
        q.add_argument("--read", type=float, default=2.0)
        q.add_argument("--pace-games", type=int, default=200)
        q.add_argument("--choice-games", type=int, default=30)
        q.add_argument("--screen-games", type=int, default=6)
        q.add_argument("--level-games", type=int, default=400)
        q.add_argument("--pairs", default="hard:medium,medium:easy",
                       help="levels: seat:opponent pairs, comma-separated")
    a = p.parse_args(argv)
    rules = json.loads(a.rules) if a.rules else None
    if a.cmd == "pace":
        res = pace(rules, a.games, a.players, a.level, a.seed, a.jobs)
    elif a.cmd == "steps":
        res = steps(rules, a.games, a.players, a.level, a.seed, a.jobs)
    elif a.cmd == "choice":
        res = choice(rules, a.games, a.players, a.level, a.seed, a.jobs, a.samples)
    elif a.cmd == "screen":
        res = screen(rules, a.games, a.seed, a.jobs, a.decide, a.click, a.read)
    elif a.cmd == "levels":
        res = levels(rules, a.games, a.players, a.seed, a.jobs, _pairs(a.pairs))
    else:
        res = {"pace": pace(rules, a.pace_games, a.players, a.level, a.seed, a.jobs),
               "choice": choice(rules, a.choice_games, a.players, a.level, a.seed, a.jobs,
                                a.samples),
               "screen": screen(rules, a.screen_games, a.seed, a.jobs, a.decide, a.click,
                                a.read)}
        if a.level_games:
            res["levels"] = levels(rules, a.level_games, a.players, a.seed, a.jobs,
                                   _pairs(a.pairs))
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    if "STAMMTISCH_HOME" not in os.environ:      # the table writes nothing of the user's
        import tempfile

        os.environ["STAMMTISCH_HOME"] = tempfile.mkdtemp(prefix="stammtisch-bench-")
    raise SystemExit(main(sys.argv[1:]))
