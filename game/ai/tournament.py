"""``stammtisch tournament``: many games between computer players (docs/view.md).

Every seat is a player spec (a level name or ``bot:PATH``). With ``--duplicate``
every deal sequence is played once per seat rotation, so each player meets the same
cards from every seat and luck cancels. Results are per player: entries with the
same spec are pooled (three ``medium`` seats are one player ``medium``).

A user bot's process keeps its memory from game to game, so with ``--duplicate`` it
is started afresh before each further rotation of a sequence: otherwise it could
remember the cards it was dealt from its previous seat, which another player now
holds. The built-in levels need no such care: they decide from the view alone, and
their caches only remember what a function of their arguments returned.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from game import cliargs, games, seeds
from game.ai.bots.protocol import printable
from game.ai.common import Player
from game.ai.registry import make_player
from game.ai.stats import percentile, wilson
from game.rules.base import GameError

DEFAULT_MAX_ROUNDS = 2000
MAX_ROUNDS_LIMIT = 10**6
MAX_GAMES = 10**8
#: the widest range of seats over every game (each game checks its own)
MIN_PLAYERS = min(e.min_seats for e in games.GAMES.values())
MAX_PLAYERS = max(e.max_seats for e in games.GAMES.values())
MAX_TIME_LIMIT = 3600.0


@dataclass
class Tally:
    name: str
    seats: list[int] = field(default_factory=list)
    games: int = 0
    wins: float = 0.0
    lives_lost: int = 0
    rounds_in: int = 0
    times_ns: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.games)
        share = self.wins / self.games if self.games else 0.0
        return {
            "name": self.name,
            "seats": self.seats,
            "games": self.games,
            "wins": round(self.wins, 6),
            "share": round(share, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "lives_lost_per_round": round(self.lives_lost / self.rounds_in, 6)
            if self.rounds_in else 0.0,
            "decision_ms_p50": round(percentile(self.times_ns, 50) / 1e6, 4),
            "decision_ms_p95": round(percentile(self.times_ns, 95) / 1e6, 4),
            "decisions": len(self.times_ns),
        }


def play_one(game_id: str, rules: dict[str, Any] | None, players: Sequence[Player],
             seed: int, bot_seed: int, times: list[list[int]] | None = None,
             max_rounds: int = DEFAULT_MAX_ROUNDS) -> Any:
    """Play one game to its end (or ``max_rounds``); returns the finished engine."""
    game = games.new_game(game_id, rules, len(players), seed=seed, bot_seed=bot_seed)
    game.emit_events = False  # type: ignore[attr-defined]  # nobody watches
    game.start()
    lazy = getattr(game, "lazy_view", game.view)
    # user bots only serialize the view (to send it to their process): they may read
    # the engine's shallow view, whose event dicts are shared and never changed
    shallow = getattr(game, "search_view", lazy)
    view_of = [shallow if getattr(p, "serializes_view", False) else lazy for p in players]
    for p in players:
        begin = getattr(p, "begin_game", None)   # user bots: a new game starts
        if begin is not None:
            begin()
    clock = time.perf_counter_ns
    apply = game.apply
    to_move = game.to_move
    while True:
        pending = to_move()
        if pending is None:
            return game
        if game.round_index >= max_rounds:  # type: ignore[attr-defined]
            return game
        seat = pending.seat
        t0 = clock()
        move = players[seat].choose(view_of[seat](seat))
        if times is not None:
            times[seat].append(clock() - t0)
        apply(seat, move)


def participants(entry: dict[str, Any]) -> list[str]:
    """Seats (as strings) dealt into a round of the summary."""
    if "cards" in entry:
        return list(entry["cards"])
    return list(entry.get("tricks", {}))


def run_tournament(game_id: str, specs: Sequence[str], games: int, seed: int | None = None,
                   duplicate: bool = False, rules: dict[str, Any] | None = None,
                   max_rounds: int = DEFAULT_MAX_ROUNDS,
                   time_limit: float | None = None,
                   bot_seed: int | None = None,
                   bot_threads: bool | None = None) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole rotations with ``duplicate``).

    The deals come from ``seed``, the players' random choices (the views' ``seed``)
    from ``bot_seed``: two roots, each drawn from ``secrets`` when not given, and never
    computed from each other, so that a bot's view tells nothing of the deals
    (:mod:`game.seeds`). The result names both, so a run can be played again exactly.
    A bot that knows (or guesses) ``seed`` knows every deal: give one only to replay a
    run, or against players you trust. ``bot_threads``: see :func:`make_player`."""
    seed = seeds.fresh() if seed is None else seed
    bot_seed = seeds.fresh() if bot_seed is None else bot_seed
    n = len(specs)
    players: list[Player] = [make_player(game_id, s, bot_threads=bot_threads) for s in specs]
    if time_limit is not None:
        for p in players:
            if hasattr(p, "time_limit"):
                p.time_limit = time_limit  # type: ignore[attr-defined]
    try:
        tallies: dict[str, Tally] = {}
        for i, spec in enumerate(specs):
            tallies.setdefault(spec, Tally(spec)).seats.append(i)
        rotations = n if duplicate else 1
        sequences = -(-games // rotations)
        total_rounds = 0
        played = 0
        unfinished = 0
        start = time.perf_counter()
        for k in range(sequences):
            game_seed = seeds.series_deal_seed(seed, k)
            game_bot_seed = seeds.series_bot_seed(bot_seed, k)
            for r in range(rotations):
                if r:   # the same deals again: no bot may remember the rotation before
                    _start_bots_afresh(players)
                # rotation r: seat i holds the player of base seat (i + r) % n
                seat_spec = [specs[(i + r) % n] for i in range(n)]
                seat_player = [players[(i + r) % n] for i in range(n)]
                times: list[list[int]] = [[] for _ in range(n)]
                game = play_one(game_id, rules, seat_player, game_seed, game_bot_seed,
                                times, max_rounds)
                played += 1
                if not game.finished:
                    unfinished += 1
                total_rounds += len(game.rounds)
                _score_game(game, seat_spec, tallies, times)
        seconds = time.perf_counter() - start
    finally:
        for p in players:             # user bots: end their processes
            close = getattr(p, "close", None)
            if close is not None:
                close()
    incidents = [i for p in players for i in getattr(p, "incidents", [])]
    bots: dict[str, dict[str, Any]] = {}
    for p in players:               # per bot spec (two seats of one bot are added up)
        if hasattr(p, "summary"):
            bots[p.name] = _add_summaries(bots.get(p.name), p.summary())
    return {
        "game": game_id,
        "games": played,
        "rounds": total_rounds,
        "seconds": round(seconds, 4),
        "rounds_per_s": round(total_rounds / seconds, 1) if seconds > 0 else 0.0,
        "duplicate": duplicate,
        "seed": seed,
        "bot_seed": bot_seed,
        "unfinished": unfinished,
        "players": [t.as_dict() for t in tallies.values()],
        "incidents": incidents,
        "bots": bots,
    }


def _start_bots_afresh(players: Sequence[Player]) -> None:
    """Give every user bot a new process (``BotPlayer.start_afresh``). Rotation 0 of
    the next sequence needs none: its deals are new to everybody."""
    for p in players:
        afresh = getattr(p, "start_afresh", None)
        if afresh is not None:
            afresh()


def _score_game(game: Any, seat_spec: list[str], tallies: dict[str, Tally],
                times: list[list[int]]) -> None:
    """Credit one played game to the tally of the spec at each seat: its decision
    times, one game per spec (two seats of one spec count once), a share of a shared
    win, and every round it was dealt into with the lives it lost there."""
    winners = game.winner if isinstance(game.winner, list) else (
        [] if game.winner is None else [game.winner])
    seen: set[str] = set()
    for seat, spec in enumerate(seat_spec):
        t = tallies[spec]
        t.times_ns.extend(times[seat])
        if spec not in seen:
            t.games += 1
            seen.add(spec)
        if seat in winners:
            t.wins += 1 / len(winners)
    seat_tally = [tallies[spec] for spec in seat_spec]
    for entry in game.rounds:
        lost = entry.get("lost", {})
        for s in participants(entry):
            t = seat_tally[int(s)]
            t.rounds_in += 1
            if s in lost:
                t.lives_lost += lost[s]


def _add_summaries(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    if a is None:
        return b
    kinds = dict(a["incident_kinds"])
    for k, v in b["incident_kinds"].items():
        kinds[k] = kinds.get(k, 0) + v
    return {"decisions": a["decisions"] + b["decisions"],
            "incidents": a["incidents"] + b["incidents"],
            "restarts": a["restarts"] + b["restarts"],
            "fresh_starts": a.get("fresh_starts", 0) + b.get("fresh_starts", 0),
            "retired": a["retired"] or b["retired"],
            "stray_lines": a.get("stray_lines", 0) + b.get("stray_lines", 0),
            "incident_kinds": dict(sorted(kinds.items()))}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="stammtisch tournament",
                                description="Play computer players against each other.")
    p.add_argument("--game", choices=games.GAME_IDS, default=games.DEFAULT_GAME)
    p.add_argument("--players", type=cliargs.int_range(MIN_PLAYERS, MAX_PLAYERS),
                   required=True, help="number of seats (each game has its own range)")
    p.add_argument("--seats", required=True,
                   help="comma-separated player per seat: a level name, bot:PATH (a Python "
                        "file) or exe:COMMAND (a program speaking the bot protocol)")
    p.add_argument("--games", type=cliargs.int_range(1, MAX_GAMES), default=100)
    p.add_argument("--seed", type=cliargs.seed, default=None,
                   help="seed of the deals (default: drawn from the system's secure "
                        "random source; the JSON output names it)")
    p.add_argument("--bot-seed", type=cliargs.seed, default=None,
                   help="seed of the players' random choices, apart from the deals' "
                        "(default: drawn like --seed; the JSON output names it)")
    p.add_argument("--duplicate", action="store_true",
                   help="play every deal sequence once per seat rotation (user bots "
                        "start afresh between rotations)")
    p.add_argument("--rules", type=cliargs.rules_json, default=None,
                   help="rules as a JSON object")
    p.add_argument("--max-rounds", type=cliargs.int_range(1, MAX_ROUNDS_LIMIT),
                   default=DEFAULT_MAX_ROUNDS,
                   help="stop a game after this many rounds (it then has no winner)")
    p.add_argument("--time-limit", type=cliargs.seconds(0, MAX_TIME_LIMIT, lo_open=True),
                   default=None, help="seconds a user bot may think per decision "
                   f"(default 5, at most {MAX_TIME_LIMIT:g})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    specs = [s.strip() for s in args.seats.split(",") if s.strip()]
    if len(specs) != args.players:
        print(f"error: --seats names {len(specs)} players but --players is {args.players}",
              file=sys.stderr)
        return 2
    rules = args.rules
    try:
        result = run_tournament(args.game, specs, args.games, seed=args.seed,
                                duplicate=args.duplicate, rules=rules,
                                max_rounds=args.max_rounds, time_limit=args.time_limit,
                                bot_seed=args.bot_seed)
    except (GameError, ValueError) as exc:
        kind = getattr(exc, "kind", "error")
        print(f"{kind}: {exc}", file=sys.stderr)
        return 2
    for inc in result["incidents"][:20]:
        played = f"; played {inc['played']!r}" if inc["played"] is not None else ""
        line = (f"incident: {inc['bot']} {inc['kind']} (seat {inc['seat']}, round "
                f"{inc['round']}): {inc['detail']}{played}")
        print(printable(line), file=sys.stderr)     # no bot's bytes reach the terminal raw
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['games']} games, {result['rounds']} rounds, "
              f"{result['rounds_per_s']:.0f} rounds/s")
        for pl in result["players"]:
            lo, hi = pl["ci95"]
            print(f"  {pl['name']:<20} share {pl['share']:.3f} [{lo:.3f}, {hi:.3f}]  "
                  f"lives/round {pl['lives_lost_per_round']:.4f}  "
                  f"p95 {pl['decision_ms_p95']:.3f} ms")
    return 0
