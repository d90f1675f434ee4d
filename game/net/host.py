"""``stammtisch host``: a phone table without a window.

::

    stammtisch host --game chase --seats phone,phone,medium,medium \\
        [--rules JSON] [--port N] [--bind ADDR] [--seed N] [--json]

prints one line with each phone seat's join link (with ``--json`` one JSON object:
``{"game", "url", "join", "code", "port", "seats": [{"seat", "kind", "name",
"link"}]}``), then plays until the game ends or the process is stopped (Ctrl+C,
SIGTERM). When it ends, it prints one more line: the outcome (``finished``,
``winner``, ``moves``, ``record``). The game is autosaved and counted in the
statistics like any other; ``--record FILE`` also writes its record there.

A phone seat whose phone stays away during its own decision for ``--away-after``
seconds is played by ``--stand-in LEVEL`` until the phone is back; without
``--stand-in`` the table waits.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from game import games, records, store
from game.net.access import SeatAccess
from game.net.link import AWAY_AFTER, PhoneLink
from game.net.server import PhoneServer
from game.rules.base import GameError, Pending

PHONE = "phone"


class Decision(NamedTuple):
    """A decision put to one seat (the table's own type replaces this one)."""

    seat: int
    pending: Pending
    view: dict[str, Any]
    step: int


class _Computer:
    """A computer level deciding at once in this thread (a headless table has no
    window to keep responsive)."""

    kind = "level"

    def __init__(self, player: Any, name: str) -> None:
        self.player = player
        self.name = name
        self._move: str | None = None

    def begin(self, decision: Decision) -> None:
        self._move = str(self.player.choose(decision.view))

    def poll(self) -> str | None:
        move, self._move = self._move, None
        return move

    def cancel(self) -> None:
        self._move = None


def parse_seats(text: str, game_id: str) -> list[str]:
    """``phone,medium,...`` as a list; raises ``ValueError`` for an unknown kind."""
    from game.ai.registry import make_player

    kinds = [k.strip() for k in text.split(",") if k.strip()]
    for k in kinds:
        if k != PHONE:
            make_player(game_id, k)      # raises ValueError if unknown
    if PHONE not in kinds:
        raise ValueError("--seats needs at least one 'phone' seat")
    return kinds


class HeadlessTable:
    """One phone game without a window: the engine, the phone server, the computers.

    ``run()`` plays until the game is over or :meth:`stop` is called (any thread).
    """

    def __init__(self, game_id: str, kinds: list[str], *, rules: dict[str, Any] | None = None,
                 seed: int | None = None, bind: str | None = "127.0.0.1", port: int = 0,
                 think: float = 0.0, away_after: float = AWAY_AFTER,
                 stand_in: str | None = None, names: list[str] | None = None,
                 keep_records: bool = True, server_options: dict[str, Any] | None = None,
                 on_applied: Callable[[int, str], None] | None = None) -> None:
        from game.ai.registry import make_player

        entry = games.entry(game_id)
        self.game_id = game_id
        self.kinds = kinds
        if seed is None:
            seed = random.randrange(2**31)
        # the computers' seed is drawn apart from the shuffles' (RECORD.md)
        self.game = entry.new_game(rules, len(kinds), seed=seed,
                                   bot_seed=random.Random(f"bots/{seed}").randrange(2**31))
        self.phones = [i for i, k in enumerate(kinds) if k == PHONE]
        self.names = names or [f"Phone {i + 1}" if k == PHONE else f"{k.title()} {i + 1}"
                               for i, k in enumerate(kinds)]
        self.seats = [{"name": self.names[i], "human": k == PHONE,
                       "level": "medium" if k == PHONE else k} for i, k in enumerate(kinds)]
        self.think = think
        self.stand_in_level = stand_in
        self.on_applied = on_applied
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.server = PhoneServer(SeatAccess.new(self.phones), bind=bind, port=port,
                                  wake=self._wake.set, **(server_options or {}))
        self.link = PhoneLink(self.game, self.phones, self.names, self.server,
                              away_after=away_after, on_name=self._named)
        self.sources: dict[int, Any] = {}
        for i, k in enumerate(kinds):
            self.sources[i] = (self.link.sources[i] if k == PHONE
                               else _Computer(make_player(game_id, k), k))
        self.session = store.GameSession(self.game, self.seats, seed=seed,
                                         bot_seed=self.game.bot_seed,
                                         autosave=keep_records, stats=keep_records)
        self.started = threading.Event()

    def _named(self, seat: int, name: str) -> None:
        self.names[seat] = name
        self.seats[seat]["name"] = name
        self.session.seats[seat].name = name

    def addresses(self) -> dict[str, Any]:
        """The first line ``stammtisch host --json`` prints."""
        return {"game": self.game_id, "url": self.server.base_url,
                "join": self.server.join_link(), "code": self.server.access.code,
                "port": self.server.port,
                "seats": [{"seat": i, "kind": k, "name": self.names[i],
                           "link": self.server.link(i) if k == PHONE else None}
                          for i, k in enumerate(self.kinds)]}

    def start(self) -> None:
        """Start listening and deal (``run`` does it when needed)."""
        if self.started.is_set():
            return
        self.server.start()
        self.game.start()
        self.session.moved()
        self.link.publish(force=True)
        self.started.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def run(self) -> dict[str, Any]:
        """Play until the game is over or :meth:`stop`; returns the outcome."""
        self.start()
        game, link = self.game, self.link
        begun = -1
        since = time.monotonic()
        try:
            while not self._stop.is_set():
                self._wake.clear()
                link.pump()
                if game.finished:
                    break
                p = game.to_move()
                assert p is not None
                step = len(game.moves)
                src = self.sources[p.seat]
                if begun != step:
                    begun = step
                    since = time.monotonic()
                    src.begin(Decision(p.seat, p, game.view(p.seat), step))
                if src.kind != "remote" and time.monotonic() - since < self.think:
                    self._wake.wait(self.think - (time.monotonic() - since))
                    continue
                move = src.poll()
                if move is not None:
                    game.apply(p.seat, move)
                    self.session.moved()
                    link.applied(p.seat, move)
                    if self.on_applied is not None:
                        self.on_applied(p.seat, move)
                    continue
                late = link.overdue()
                if late is not None:
                    if self.stand_in_level:
                        from game.ai.registry import make_player

                        link.stand_in(late, _Computer(
                            make_player(self.game_id, self.stand_in_level),
                            self.stand_in_level))
                        continue
                    link.keep_waiting(late)
                self._wake.wait(0.5)
            link.publish(force=True)
        finally:
            link.close()
            self.server.stop()
        return self.outcome()

    def outcome(self) -> dict[str, Any]:
        g = self.game
        w = g.winner
        return {"finished": bool(g.finished), "winner": list(w) if isinstance(w, list) else w,
                "moves": len(g.moves), "lives": list(g.lives)}

    def record(self) -> records.Record:
        return self.session.record()


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="stammtisch host",
        description="Host a phone table without a window: players join with their "
                    "phones' browsers on the local network.")
    p.add_argument("--game", choices=games.GAME_IDS, default=games.DEFAULT_GAME)
    p.add_argument("--seats", required=True,
                   help="one entry per seat: 'phone' or a computer level, e.g. "
                        "phone,phone,medium,medium")
    p.add_argument("--rules", default=None, help="rules keys as a JSON object")
    p.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    p.add_argument("--bind", default=None,
                   help="listen on this local address only (default: this computer's "
                        "loopback and local-network addresses)")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffles")
    p.add_argument("--think", type=float, default=0.8,
                   help="seconds a computer waits before its move (default 0.8)")
    p.add_argument("--away-after", type=float, default=AWAY_AFTER,
                   help="seconds a phone may be away during its decision")
    p.add_argument("--stand-in", default=None, metavar="LEVEL",
                   help="a computer level that plays for an away phone until it is back")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="also write the game's record (RECORD.md) to FILE at the end")
    p.add_argument("--json", action="store_true", help="print JSON lines")
    args = p.parse_args(argv)

    def fail(message: str) -> int:
        print(f"error: {message}", file=sys.stderr)
        return 2

    try:
        kinds = parse_seats(args.seats, args.game)
        rules = json.loads(args.rules) if args.rules else None
        entry = games.entry(args.game)
        entry.validate_rules(rules)
        if not entry.min_seats <= len(kinds) <= entry.max_seats:
            return fail(f"{args.game} takes {entry.min_seats} to {entry.max_seats} seats")
        if args.stand_in:
            from game.ai.registry import make_player

            make_player(args.game, args.stand_in)
        table = HeadlessTable(args.game, kinds, rules=rules, seed=args.seed, bind=args.bind,
                              port=args.port, think=max(0.0, args.think),
                              away_after=args.away_after, stand_in=args.stand_in)
        table.start()
    except (ValueError, GameError) as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(str(exc))
    _say(table.addresses(), args.json)

    def stop(*_: Any) -> None:
        table.stop()

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, stop)
        except (ValueError, OSError):  # pragma: no cover - not the main thread
            pass
    outcome = table.run()
    if args.record:
        try:
            records.save(table.record(), args.record)
            outcome["record"] = args.record
        except OSError as exc:
            print(f"error: cannot write the record: {exc}", file=sys.stderr)
    _say(outcome, args.json)
    return 0


def _say(obj: dict[str, Any], as_json: bool) -> None:
    """One line on standard output (a windowed build may have none)."""
    if sys.stdout is None:
        return
    if as_json:
        print(json.dumps(obj), flush=True)
    elif "seats" in obj:
        print(f"Phone table at {obj['url']}  (guests: {obj['join']}, code {obj['code']})")
        for s in obj["seats"]:
            if s["link"]:
                print(f"  seat {s['seat'] + 1} ({s['name']}): {s['link']}")
        sys.stdout.flush()
    else:
        print(f"Game over: winner {obj['winner']}, {obj['moves']} moves", flush=True)
