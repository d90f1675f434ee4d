"""``stammtisch host``: a phone table without a window.

::

    stammtisch host --game chase --seats phone,phone,medium,medium \\
        [--names Anna,Ben] [--lang de|en] [--rules JSON] [--port N] [--bind ADDR]
        [--seed N] [--json]

prints one line with each phone seat's join link (with ``--json`` one JSON object:
``{"game", "url", "join", "code", "port", "seats": [{"seat", "kind", "name",
"link"}]}``), then plays until the game ends or the process is stopped (Ctrl+C,
SIGTERM); a phone that has not confirmed it received the end (reconnecting, or its
line gone silent) gets three more seconds to receive it. When it ends, it prints one
more line: the outcome (``finished``, ``winner``, ``moves``, ``record``). The game is
autosaved and counted in the statistics like any other (what keeps it from being
saved, such as a window that holds the saved games, is said on standard error);
``--record FILE`` also writes its record there.

``--names`` names the seats up front; a seat left without a name is called by its
kind in ``--lang`` ("Phone 1", "Handy 1"; "Medium 3"), and a phone seat so called
may choose its own name once on the phone (docs/phone.md#seats-and-names).

A phone seat whose phone stays away during its own decision for ``--away-after``
seconds is played by ``--stand-in LEVEL`` until the phone is back; without
``--stand-in`` the table waits.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
import unicodedata
from typing import Any

from game import cliargs, drawable, games, i18n, notices, records, seeds
from game.i18n import t
from game.net.access import same_name
from game.net.link import AWAY_AFTER
from game.net.protocol import MAX_NAME, clean_name
from game.net.room import PhoneRoom
from game.rules.base import Event, GameError
from game.turn import flow as F
from game.turn.bookkeeping import Bookkeeper
from game.turn.flow import Pacing, TurnFlow
from game.turn.hooks import Hooks
from game.turn.seats import sources_for
from game.turn.sources import BotSource, Decision, LevelSource, SourceFailure
from game.turn.workers import Interrupted, InterruptibleWorker

PHONE = "phone"


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


def parse_names(text: str, kinds: list[str]) -> list[str | None]:
    """``--names Anna,,Ben``: a name per seat, in order (``None``: the default, also
    for the seats past the list). Raises ``ValueError`` for more names than seats, a
    name longer than ``MAX_NAME`` characters or with characters the table cannot show
    (:mod:`game.drawable`: an emoji, say; a phone's name would lose them),
    and for two names that look the same (letter case and spaces do not count)."""
    parts = [unicodedata.normalize("NFC", p).strip() for p in text.split(",")]
    if len(parts) > len(kinds):
        raise ValueError(f"--names has {len(parts)} names for {len(kinds)} seats")
    out: list[str | None] = []
    for part in parts:
        if not part:
            out.append(None)
            continue
        if len(part) > MAX_NAME:
            raise ValueError(f"--names: {part!r} is longer than {MAX_NAME} characters")
        name = clean_name(part)
        if name is None or not set(part) <= drawable.chars():
            raise ValueError(f"--names: {part!r} has characters the table cannot show")
        if any(other is not None and same_name(name, other) for other in out):
            raise ValueError(f"--names: {part!r} is given twice")
        out.append(name)
    return out + [None] * (len(kinds) - len(out))


def default_names(kinds: list[str], lang: str | None = None) -> list[str]:
    """What a seat is called when nobody names it, in ``lang`` (default: the language
    in force): "Phone 1" ("Handy 1"), a computer by its level, "Medium 3"."""
    with i18n.language(lang or i18n.get_lang()):
        return [str(t("host.phone_n", n=i + 1)) if k == PHONE else
                str(t("host.computer_n", n=i + 1,
                      level=t("level." + k) if i18n.has("level." + k) else k))
                for i, k in enumerate(kinds)]


def seat_names(kinds: list[str], given: list[str | None],
               lang: str | None = None) -> list[str]:
    """Every seat's name: the given ones (one entry a seat), the defaults for the
    others (``None``). A default that looks like a given name gets a number
    (``Phone 1 2``), so names stay distinct."""
    taken = [g for g in given if g is not None]
    out = []
    for name, default in zip(given, default_names(kinds, lang)):
        if name is None:
            name, n = default, 1
            while any(same_name(name, other) for other in taken):
                n += 1
                name = f"{default} {n}"
            taken.append(name)
        out.append(name)
    return out


class _Screenless:
    """The turn flow's view without a screen: nothing to animate, nobody at it."""

    def __init__(self) -> None:
        self.done = False
        self.failure: SourceFailure | None = None

    def animating(self) -> bool:
        return False

    def show(self, event: Event) -> None:
        pass

    def offer(self, decision: Decision) -> None:  # pragma: no cover - no person seats
        raise RuntimeError("a headless table has no person at its screen")

    def hand_off(self, seat: int) -> None:  # pragma: no cover - no person seats
        raise RuntimeError("a headless table has no person at its screen")

    def viewer_changed(self, viewer: int | None) -> None:
        pass

    def finished(self) -> None:
        self.done = True

    def failed(self, failure: SourceFailure) -> None:
        self.failure = failure


class HeadlessTable:
    """One phone game without a window: the engine and its turn flow, the phone
    server, the computers (thinking in this thread: there is no window to keep
    responsive). ``run()`` plays until the game is over or :meth:`stop` is called
    (any thread)."""

    def __init__(self, game_id: str, kinds: list[str], *, rules: dict[str, Any] | None = None,
                 seed: int | None = None, bind: str | None = "127.0.0.1", port: int = 0,
                 bot_seed: int | None = None, think: float = 0.0, away_after: float = AWAY_AFTER,
                 stand_in: str | None = None, names: list[str | None] | None = None,
                 lang: str | None = None, keep_records: bool = True,
                 server_options: dict[str, Any] | None = None,
                 hooks: Hooks | None = None, linger: float = 0.0) -> None:
        entry = games.entry(game_id)
        self.game_id = game_id
        self.kinds = kinds
        if seed is None:
            seed = seeds.fresh()
        self.seed = seed
        # the computers' seed is drawn apart from the shuffles' (docs/records.md, game.seeds)
        self.game = entry.new_game(rules, len(kinds), seed=seed,
                                   bot_seed=seeds.fresh() if bot_seed is None else bot_seed)
        self.phones = [i for i, k in enumerate(kinds) if k == PHONE]
        # a phone seat nobody named keeps the table's default until its phone names it
        given = list(names or []) + [None] * (len(kinds) - len(names or []))
        self.names = seat_names(kinds, given, lang)
        self.seats = [{"name": self.names[i], "human": k == PHONE, "phone": k == PHONE,
                       "level": "medium" if k == PHONE else k} for i, k in enumerate(kinds)]
        local = {lang: seat_names(kinds, given, lang) for lang in i18n.LANGS}
        for i, k in enumerate(kinds):
            if given[i] is None:        # a phone shows it in its own language
                self.seats[i]["default"] = {lang: names[i] for lang, names in local.items()}
                if k == PHONE:
                    self.seats[i]["open_name"] = True
        self.think = think
        #: seconds the finished table keeps serving while a phone is away
        self.linger = linger
        self.stand_in_level = stand_in
        self._wake = threading.Event()
        self._stop = threading.Event()
        #: set by :meth:`stop_now` (a signal handler): a plain flag, as setting an
        #: Event takes its lock, which the interrupted thread may hold at that moment
        self._halt = False
        self.hooks = hooks or Hooks()
        self.room = PhoneRoom(self.game, self.seats, self.hooks, bind=bind, port=port,
                              wake=self._wake.set, away_after=away_after,
                              on_name=self._named, server_options=server_options,
                              saving=self._saving)
        self.server, self.link = self.room.server, self.room.link
        self.worker = InterruptibleWorker()
        self.view = _Screenless()
        sources = sources_for(game_id, self.seats, self.worker, given=self.link.sources)
        self.flow = TurnFlow(self.game, sources, self.view, hooks=self.hooks,
                             pacing=lambda: Pacing(think=self.think))
        self.bookkeeper = (Bookkeeper.for_game(self.game, self.seats).attach(self.hooks)
                           if keep_records else None)
        self._record_seats = [dict(s) for s in self.seats]
        self.started = threading.Event()

    def _named(self, seat: int, name: str) -> None:
        self.names[seat] = name
        self.seats[seat]["name"] = name
        self.seats[seat].pop("open_name", None)
        self.seats[seat].pop("default", None)
        self._record_seats[seat]["name"] = name
        if self.bookkeeper is not None:
            self.bookkeeper.session.seats[seat].name = name
            if not self.game.finished:   # continued later, the game shows the name
                self.bookkeeper.session.save()

    def _saving(self) -> bool:
        return self.bookkeeper is not None and self.bookkeeper.session.saving

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
        self.flow.start()
        self.started.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()

    def stop_now(self) -> None:
        """:meth:`stop` from a signal handler in the thread that runs the table: a
        computer deciding there (a bot still starting, a level thinking) is given up
        at once, and no move is played for it; its process is ended with the table.
        Takes no lock: the table's loop sees the flag within its longest wait."""
        self._halt = True
        self.worker.interrupt()

    @property
    def stopping(self) -> bool:
        return self._halt or self._stop.is_set()

    def run(self) -> dict[str, Any]:
        """Play until the game is over or :meth:`stop`; returns the outcome."""
        self.start()
        try:
            try:
                self._play()
            except Interrupted:     # stopped during a computer's decision: none is played
                pass
            self.link.publish(force=True)
            if self.view.done:
                self._linger()
        finally:
            self.flow.close()
            self.room.close()
            if self.bookkeeper is not None:
                self.bookkeeper.detach()
            self._end_bots()
        return self.outcome()

    def _play(self) -> None:
        """The table's loop, until the game is over or :meth:`stop`."""
        flow, link = self.flow, self.link
        last = time.monotonic()
        while not self.stopping:
            self._wake.clear()
            link.pump()
            now = time.monotonic()
            flow.update(now - last)
            last = now
            if self.view.done or flow.phase == F.FAILED:
                break
            late = link.overdue()
            if late is not None:
                if self.stand_in_level:
                    from game.ai.registry import make_player

                    level = self.stand_in_level
                    link.stand_in(late, LevelSource(make_player(self.game_id, level),
                                                    self.worker, name=level))
                    continue
                link.keep_waiting(late)
            wait = 0.5
            if flow.phase == F.THINKING and flow.pending is not None:
                src = flow.source(flow.pending.seat)
                # at most 0.5 s at a time: a stop by signal (a flag) is seen that soon
                wait = min(0.5, max(0.0, self.think - flow.thought)) if src.paced else 0.5
            elif flow.phase in (F.IDLE, F.OVER):
                wait = 0.0
            if wait > 0:
                self._wake.wait(wait)

    def _end_bots(self) -> None:
        """End the user bots' processes (each with everything it started)."""
        for src in self.flow.sources.values():
            close = getattr(src.player, "close", None) if isinstance(src, BotSource) else None
            if close is not None:
                close()

    def delivered(self) -> bool:
        """Whether every phone seat confirmed it received the final state: its pong to
        the ping after it (:meth:`PhoneServer.heard_step`). That it was written is not
        enough: a line that has just gone silent still takes writes."""
        last = len(self.game.moves)
        return all(self.server.heard_step(s) >= last for s in self.phones)

    def _linger(self) -> None:
        """Serve the finished table until every phone seat has received the end
        (:meth:`delivered`), for ``linger`` seconds at most: a phone that was
        reconnecting when the game ended (its last move sent, the answer lost with its
        line), or whose line went silent just then, still learns that its move was
        taken and how the game ended. A phone that saw the end and left is not waited
        for (its line may be gone before the table looks: what counts is what each
        phone confirmed, not who is connected now)."""
        link = self.link
        until = time.monotonic() + self.linger
        while not self.stopping:
            link.pump()
            if self.delivered():
                return
            if time.monotonic() >= until:
                return
            self._wake.clear()
            self._wake.wait(0.05)

    def outcome(self) -> dict[str, Any]:
        g = self.game
        w = g.winner
        out = {"finished": bool(g.finished), "winner": list(w) if isinstance(w, list) else w,
               "moves": len(g.moves), "lives": list(g.lives)}
        if self.view.failure is not None:
            out["error"] = str(self.view.failure)
        return out

    def record(self) -> records.Record:
        from game import store

        return records.record_of(self.game, store.seats_to_record(self._record_seats),
                                 seed=self.seed, bot_seed=self.game.bot_seed)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(
        prog="stammtisch host",
        description="Host a phone table without a window: players join with their "
                    "phones' browsers on the local network.")
    p.add_argument("--game", choices=games.GAME_IDS, default=games.DEFAULT_GAME)
    p.add_argument("--seats", required=True,
                   help="one entry per seat: 'phone', a computer level or a user bot "
                        "(bot:FILE.py, exe:COMMAND; docs/bots.md), e.g. "
                        "phone,phone,medium,medium")
    p.add_argument("--names", default=None, metavar="LIST",
                   help="the seats' names, in the order of --seats, e.g. Anna,Ben (an empty "
                        "entry keeps the default; a phone seat without a name may choose "
                        f"its own on the phone; at most {MAX_NAME} characters, only ones "
                        "the table's font shows: no emoji)")
    p.add_argument("--lang", choices=i18n.LANGS, default=None,
                   help="the language of the seats' default names (otherwise the one "
                        "chosen in the settings)")
    p.add_argument("--rules", type=cliargs.rules_json, default=None,
                   help="rules keys as a JSON object")
    p.add_argument("--port", type=cliargs.int_range(0, 65535), default=0,
                   help="port (default: any free one)")
    p.add_argument("--bind", default=None,
                   help="listen on this local address only (default: this computer's "
                        "loopback and its main local-network address, the one of its "
                        "Wi-Fi or Ethernet, not of a VPN or a container network)")
    p.add_argument("--seed", type=cliargs.seed, default=None, help="seed of the shuffles")
    p.add_argument("--think", type=cliargs.seconds(0, 60), default=0.8,
                   help="seconds a computer waits before its move (default 0.8)")
    p.add_argument("--away-after", type=cliargs.seconds(0, 1e6), default=AWAY_AFTER,
                   help="seconds a phone may be away during its decision")
    p.add_argument("--stand-in", default=None, metavar="LEVEL",
                   help="a computer level that plays for an away phone until it is back")
    p.add_argument("--record", type=cliargs.file_path, default=None, metavar="FILE",
                   help="also write the game's record (docs/records.md) to FILE at the end "
                        "(its folder must exist)")
    p.add_argument("--json", action="store_true", help="print JSON lines")
    args = p.parse_args(argv)

    def fail(message: str) -> int:
        print(f"error: {message}", file=sys.stderr)
        return 2

    try:
        kinds = parse_seats(args.seats, args.game)
        names = parse_names(args.names, kinds) if args.names is not None else None
        rules = args.rules
        entry = games.entry(args.game)
        entry.validate_rules(rules)
        if not entry.min_seats <= len(kinds) <= entry.max_seats:
            return fail(f"{args.game} takes {entry.min_seats} to {entry.max_seats} seats")
        if args.stand_in:
            from game.ai.registry import make_player

            make_player(args.game, args.stand_in)
        table = HeadlessTable(args.game, kinds, rules=rules, seed=args.seed, bind=args.bind,
                              port=args.port, think=args.think,
                              away_after=args.away_after, stand_in=args.stand_in,
                              names=names, lang=host_lang(args.lang), linger=3.0)
        table.start()
    except (ValueError, GameError) as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(str(exc))

    def stop(*_: Any) -> None:
        table.stop_now()      # a bot still starting is not waited for (nor played)

    # a clean stop is in place before the first line says the table is there: a
    # SIGTERM sent as soon as it is read ends the game with its outcome line
    for sig in stop_signals():
        try:
            signal.signal(sig, stop)
        except (ValueError, OSError):  # pragma: no cover - not the main thread
            pass
    _say(table.addresses(), args.json)
    hint = firewall_hint(table.server.hosts)
    if hint and sys.stderr is not None:
        print(hint, file=sys.stderr, flush=True)
    tell_notices()        # e.g. the game is not autosaved (another window keeps the saves)
    outcome = table.run()
    tell_notices()        # a save or statistics write that failed on the way
    if args.record:
        try:
            records.save(table.record(), args.record)
            outcome["record"] = args.record
        except OSError as exc:
            print(f"error: cannot write the record: {exc}", file=sys.stderr)
    _say(outcome, args.json)
    return 0


def tell_notices() -> None:
    """What the bookkeeping told the player (a window shows it over the table), on
    standard error in the table's language."""
    for n in notices.drain():
        if sys.stderr is not None:
            print(t(n.key, **n.params), file=sys.stderr, flush=True)


def host_lang(asked: str | None) -> str:
    """``--lang``, else the language chosen in the game's settings, else the system's."""
    from game import settings

    return i18n.set_lang(asked or settings.load()["lang"])


def stop_signals() -> tuple[int, ...]:
    """The signals that end the table cleanly (its outcome and record still written):
    Ctrl+C, ``SIGTERM``, and on Windows Ctrl+Break and closing the console window
    (both ``SIGBREAK``)."""
    found = (getattr(signal, name, None) for name in ("SIGINT", "SIGTERM", "SIGBREAK"))
    return tuple(sig for sig in found if sig is not None)


def firewall_hint(hosts: list[str], platform: str | None = None) -> str | None:
    """On Windows, the first table that listens beyond this computer makes the firewall
    ask whether Stammtisch may accept connections; answered "no" (or for the wrong
    network), phones cannot join. The line said before the question comes."""
    if not (platform or sys.platform).startswith("win"):
        return None
    if all(h in ("127.0.0.1", "::1", "localhost") for h in hosts):
        return None
    return ("Windows may ask whether Stammtisch may accept incoming connections: allow it "
            "for private networks, or phones cannot join (Windows Security > Firewall > "
            "Allow an app through firewall changes it later).")


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
