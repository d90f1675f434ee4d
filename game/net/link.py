"""The table's side of the phone seats: it runs in the thread that owns the game.

:class:`PhoneLink` drains the phone server's inbox (:meth:`PhoneLink.pump`), checks
every move with the engine before it reaches the seat's move source, and answers each
move exactly once by its id: ``ack`` when the engine applied it, ``refused`` with the
engine's reason code when it would not. A repeated id (a phone that lost its line and
sends again) gets the same answer again and is never played twice; a move for a
decision that is over is ``stale``.

After every applied move (:meth:`PhoneLink.applied`) each phone seat gets its state:
``game.view(seat)`` -- what a bot would get (docs/view.md; its public ``history`` is sent
once per round, and the ``seed`` for a program's random choices is left out) -- and the table's public facts (names, whose turn, who is
connected). Nothing else of the game ever leaves.

It also keeps the time each phone has been away: :meth:`PhoneLink.overdue` names a
seat whose decision waits for a phone that has been gone for ``away_after`` seconds;
the table then asks whether to wait or let a computer level stand in.
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from game import notices
from game.net.access import Clock
from game.net.protocol import refused
from game.net.seat import PhoneSource
from game.net.server import Inbound, PhoneServer

log = logging.getLogger("stammtisch.net")

#: How many answered move ids each seat remembers (a phone resends only its last).
REMEMBER = 64
#: Seconds a phone may be away during its own decision before the table asks.
AWAY_AFTER = 45.0
#: the least time between two states that tell only of phones coming and going
TOLD_EVERY = 0.1
#: View keys a phone's state leaves out: ``history`` travels apart; ``seed`` is for a
#: program's random choices, and a person's phone makes none.
PHONE_OMITS = frozenset({"history", "seed"})
#: The coach's level and samples for the phones' "odds" button.
COACH_LEVEL = "hard"


class _Waiting(NamedTuple):
    id: str
    step: int
    move: str


class PhoneLink:
    """The phone seats ``seats`` of ``game`` (names by seat in ``names``), served by
    ``server``. ``on_name(seat, name)`` hears a guest's name for a seat. ``defaults``:
    the seats whose name is the table's default ("Player 1", "Phone 2"), that name in
    every language by seat: a page shows it in its own (:func:`game.net.room.defaults`).
    ``saving()``: whether the game is autosaved, to be continued at the computer (no
    ``saving``: it is not)."""

    def __init__(self, game: Any, seats: Iterable[int], names: list[str],
                 server: PhoneServer, *, clock: Clock = time.monotonic,
                 away_after: float = AWAY_AFTER, coach_level: str = COACH_LEVEL,
                 coach_samples: int | None = None,
                 on_name: Callable[[int, str], None] | None = None,
                 defaults: dict[int, dict[str, str]] | None = None,
                 saving: Callable[[], bool] | None = None) -> None:
        self.game = game
        self.seats = sorted(set(seats))
        self.names = list(names)
        self.defaults = dict(defaults or {})
        self.saving = saving
        self.server = server
        self.clock = clock
        self.away_after = away_after
        self.coach_level = coach_level
        self.coach_samples = coach_samples
        self.on_name = on_name
        self.sources = {s: PhoneSource(s, away=lambda s=s: self.is_away(s))
                        for s in self.seats}
        self.connected: set[int] = set()
        #: lines each seat has opened (a line that came and went between two pumps
        #: still counts: it was sent the latest state with its welcome)
        self.arrivals: dict[int, int] = {s: 0 for s in self.seats}
        self.away_since: dict[int, float] = {s: clock() for s in self.seats}
        self.asked: dict[int, float] = {}        # seat -> when the table last asked
        self.answers: dict[int, OrderedDict[str, dict[str, Any]]] = {
            s: OrderedDict() for s in self.seats}
        self.waiting: dict[int, _Waiting] = {}
        self.last_ack: dict[int, dict[str, Any]] = {}
        self._coach: concurrent.futures.ThreadPoolExecutor | None = None
        self._advising: dict[int, concurrent.futures.Future[Any]] = {}
        #: the last advice each seat was given: asked again for the same decision (a
        #: phone that taps "odds" over and over), it is sent again, not worked out anew
        self._advised: dict[int, dict[str, Any]] = {}
        self._published = -1
        #: a phone came, went or took a name since the last states: every phone hears
        #: it, at most every TOLD_EVERY seconds however many lines a device opens and
        #: closes meanwhile (a state per change let one seat's token send the other
        #: phones hundreds a second, each built in the table's loop)
        self._told = False
        self._told_at = -TOLD_EVERY
        self._history_sent = 0
        #: the person at the screen paused the table (its menu is open): the phones
        #: are told, so their players know why nothing moves (:meth:`pause`)
        self.paused = False
        #: the window holds a round's reveal (its result stays up until the person at
        #: the screen goes on, or for a few seconds): the game has moved on to the next
        #: round, whose first player does not decide yet (:meth:`hold`)
        self.held = False
        server.set_names(self.names, self.defaults)

    # ------------------------------------------------------------------ queries

    def is_away(self, seat: int) -> bool:
        return seat not in self.connected

    def overdue(self) -> int | None:
        """The phone seat whose pending decision waits for a phone gone for
        ``away_after`` seconds, the table not asked since (and no stand-in yet)."""
        p = self.game.to_move()
        if p is None or p.seat not in self.sources or p.seat in self.connected:
            return None
        seat = p.seat
        if self.sources[seat].standing_in:
            return None
        since = max(self.away_since.get(seat, self.clock()), self.asked.get(seat, -1e18))
        return seat if self.clock() - since >= self.away_after else None

    # ------------------------------------------------------------------ the table's answers

    def hold(self, held: bool) -> None:
        """The window began (True) or ended (False) holding a round's reveal: every
        phone gets its state again with ``table.held`` telling it, once per change, so
        a page does not say that the next round's first player decides meanwhile."""
        if held != self.held:
            self.held = held
            self.publish(force=True)

    def keep_waiting(self, seat: int) -> None:
        """The table waits for the phone (asked again after ``away_after``)."""
        self.asked[seat] = self.clock()

    def stand_in(self, seat: int, source: Any) -> None:
        """Let ``source`` (a level's move source) play ``seat`` until its phone is back."""
        self.asked[seat] = self.clock()
        self.sources[seat].stand_in(source)
        self.publish(force=True)

    def pause(self, paused: bool) -> None:
        """The table's menu opened (True) or closed (False): every phone gets its
        state again with ``table.paused`` telling it, once per change."""
        if paused != self.paused:
            self.paused = paused
            self.publish(force=True)

    # ------------------------------------------------------------------ driving

    def pump(self) -> int:
        """Handle everything the phones said since the last call; returns how many."""
        n = 0
        while True:
            try:
                item = self.server.inbox.get_nowait()
            except queue.Empty:
                if self._told and self.clock() - self._told_at >= TOLD_EVERY:
                    self.publish(force=True)
                return n
            n += 1
            try:
                self._handle(item)
            except Exception as exc:  # noqa: BLE001 - a boundary: one odd message never stops the table
                notices.unexpected("net", exc, f"phone link: {item.kind} from seat {item.seat}")

    def applied(self, seat: int, move: str) -> None:
        """The engine applied ``move`` by ``seat`` (the table's "move applied")."""
        step = len(self.game.moves) - 1
        w = self.waiting.get(seat)
        if w is not None:
            if w.step == step and w.move == move:
                ack = {"type": "ack", "id": w.id, "step": step, "move": move}
                self._answer(seat, w.id, ack)
                self.last_ack[seat] = ack
            else:
                self._answer(seat, w.id, refused("stale", id=w.id, detail={"step": step}))
            del self.waiting[seat]
        self.publish()

    def publish(self, force: bool = False) -> None:
        """Send every phone seat its state, if the game moved since the last time.

        A seat's view is ``game.view(seat)``; its ``history`` (the public events of
        the finished rounds, the same for every seat) travels apart, each round once
        (``history`` messages), so a move costs a few kilobytes however long the game.
        """
        step = len(self.game.moves)
        if step == self._published and not force:
            return
        self._published = step
        if self._told:
            self._told, self._told_at = False, self.clock()
        hist = self.game.history
        if len(hist) != self._history_sent:
            first = min(self._history_sent, len(hist))
            rounds = self.game.lazy_view(self.seats[0])["history"][first:]
            self.server.send_history(first, rounds)
            self._history_sent = len(hist)
        table = self.table_facts()
        for seat in self.seats:
            view = self.game.lazy_view(seat)
            state = {k: view[k] for k in view if k not in PHONE_OMITS}
            state["history_len"] = len(hist)
            msg = {"type": "state", "step": step, "seat": seat, "view": state, "table": table}
            if seat in self.last_ack:       # a lost ack is still told by every later state
                msg["answered"] = self.last_ack[seat]
            self.server.send(seat, msg, state=True)

    def table_facts(self) -> dict[str, Any]:
        """What the big screen shows anyway: names, whose turn, connections, the
        last settled round's losses and who went out in it, the end."""
        g = self.game
        p = g.to_move()
        last = g.rounds[-1] if getattr(g, "rounds", None) else None
        winner = g.winner
        return {
            "names": list(self.names),
            "defaults": {str(s): dict(d) for s, d in self.defaults.items()},
            "phones": list(self.seats),
            "connected": sorted(self.connected),
            "stand_in": [s for s in self.seats if self.sources[s].standing_in],
            "to_move": p.seat if p is not None else None,
            "decision": p.decision if p is not None else None,
            "rounds": len(g.rounds) if getattr(g, "rounds", None) is not None else 0,
            "last_lost": dict(last.get("lost", {})) if last else {},
            # a sudden-death round costs no lives: who went out, or that it is replayed
            "last_out": sorted(int(s) for s in last.get("out") or []) if last else [],
            "replayed": bool(last.get("replayed")) if last else False,
            "finished": bool(g.finished),
            # a table that closes early says "continue at the computer" only if so
            "saved": bool(self.saving is not None and self.saving()),
            # the table's menu is open at the screen: the game waits (not a privacy
            # screen, which is only another person's turn)
            "paused": self.paused,
            # the window shows the last round's result until its person goes on
            "held": self.held,
            "winner": list(winner) if isinstance(winner, list) else winner,
        }

    def close(self) -> None:
        """The table closes: every source forgets its decision, the coach stops."""
        for src in self.sources.values():
            src.cancel()
        if self._coach is not None:
            self._coach.shutdown(wait=False, cancel_futures=True)
            self._coach = None

    # ------------------------------------------------------------------ inside

    def _handle(self, item: Inbound) -> None:
        seat = item.seat
        if seat not in self.sources:
            return
        if item.kind == "move":
            self._move(seat, item.data)
        elif item.kind == "advice":
            self._advice(seat, item.data)
        elif item.kind == "connected":
            self.connected.add(seat)
            self.arrivals[seat] += 1
            self.away_since.pop(seat, None)
            self.asked.pop(seat, None)
            if self.sources[seat].standing_in:
                self.sources[seat].stand_in(None)
            self._told = True
        elif item.kind == "disconnected":
            self.connected.discard(seat)
            self.away_since[seat] = self.clock()
            self._told = True
        elif item.kind == "named":
            name = str(item.data.get("name", ""))[:16]
            if name:
                self.names[seat] = name
                self.defaults.pop(seat, None)     # a name of its own: no language's
                self.server.set_names(self.names, self.defaults)
                if self.on_name is not None:
                    self.on_name(seat, name)
                self._told = True

    def _answer(self, seat: int, move_id: str, message: dict[str, Any]) -> None:
        book = self.answers[seat]
        book[move_id] = message
        while len(book) > REMEMBER:
            book.popitem(last=False)
        self.server.send(seat, message)

    def _move(self, seat: int, msg: dict[str, Any]) -> None:
        move_id, step, move = msg["id"], msg["step"], msg["move"]
        earlier = self.answers[seat].get(move_id)
        if earlier is not None:                 # sent again: the same answer, nothing else
            self.server.send(seat, earlier)
            return
        w = self.waiting.get(seat)
        if w is not None and w.id == move_id:   # still on its way to the engine
            return
        now = len(self.game.moves)
        if step != now:
            self._answer(seat, move_id, refused(
                "stale", f"the decision after move {step} is over (now: {now})",
                {"step": now}, id=move_id))
            return
        why = self.game.why_illegal(seat, move)
        if why is not None:
            self._answer(seat, move_id, refused(why.code, f"{move!r} is refused: {why.code}",
                                                dict(why.detail), id=move_id))
            return
        if w is not None:                       # another tap for the same decision
            self._answer(seat, move_id, refused("stale", "a move is already on its way",
                                                {"step": now}, id=move_id))
            return
        self.waiting[seat] = _Waiting(move_id, step, move)
        self.sources[seat].put(step, move)

    def _advice(self, seat: int, msg: dict[str, Any]) -> None:
        p = self.game.to_move()
        if p is None or p.seat != seat or msg["step"] != len(self.game.moves):
            self.server.send(seat, refused("stale", "advice is for your own decision"))
            return
        step = len(self.game.moves)
        given = self._advised.get(seat)
        if given is not None and given["step"] == step:
            self.server.send(seat, given)
            return
        if seat in self._advising:
            self.server.send(seat, refused("busy"))
            return
        from game.ai.coach import advise_view

        view = self.game.view(seat)
        if self._coach is None:
            self._coach = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="phone-coach")
        fut = self._coach.submit(advise_view, view, self.coach_level, self.coach_samples)
        self._advising[seat] = fut

        def done(f: concurrent.futures.Future[Any]) -> None:
            self._advising.pop(seat, None)
            if f.cancelled():
                return
            exc = f.exception()
            if exc is not None:
                log.warning("phone coach failed: %s", exc)
                self.server.send(seat, refused("busy", "the coach could not answer"))
                return
            advice = f.result()
            message = {"type": "advice", "step": step, "move": advice.get("move"),
                       "options": advice.get("options", {})}
            self._advised[seat] = message
            self.server.send(seat, message)

        fut.add_done_callback(done)
