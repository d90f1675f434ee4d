"""The turn flow of a card table, with no pygame in it: whose decision it is, which
move source answers it, the privacy hand-off between several people at one screen,
pacing, and the end of the game.

The scene drives it: every frame it calls :meth:`TurnFlow.update` with the time that
passed, and the flow talks back through the :class:`FlowView` the scene implements:

1. While the view is not animating (no blocking animation), queued engine events go out one
   by one (``view.show``); the view animates them.
2. With nothing left to show, the flow asks the engine for the pending decision. A
   person at the screen gets it at once (``view.offer``) -- unless several people
   share the screen and this one has not just confirmed it is them: then
   ``view.hand_off(seat)`` asks for the right person (everything private is hidden)
   and :meth:`TurnFlow.confirm_handoff` goes on. Any other seat's source
   (:mod:`game.turn.sources`) gets ``begin(decision)`` and is polled from then on,
   no sooner than the pacing's thinking pause.
3. A move -- ``human_move`` for the person at the screen, ``poll()`` for the rest --
   goes to the engine; its events join the queue and the news is published
   (:mod:`game.turn.hooks`: move applied, round over, game over).

Privacy with several people at one screen: a person's private cards show only
between their confirmation at the privacy screen and their decision. As soon as
they have decided, every private card is hidden again (``view.viewer_changed(None)``)
-- before the move is shown, through the deal and the computers' turns, until the
next person confirms. Only when the same person decides again within the same turn
(a domino demand after one's own swap, the dealer's declaration after passing on the
trump card) is the card shown again without a new hand-off: nobody else has moved
since, and nothing happened that the whole table watches (:data:`WATCHED`: a trick
swept, a round's reckoning, a new deal). The last person of a round who is also the
first of the next, or a trick's winner who leads the next, gets the hand-off again.
4. A reveal is held: before an event the view names (``view.holds_before``: the next
   round after a showdown), the flow stops in phase ``hold`` and tells the view
   (``hold_started``); it goes on when the person continues (:meth:`TurnFlow.release`)
   or, if the pacing says so, after ``pacing.hold`` seconds (``hold_ended``).
5. When the game is over and everything is shown, the flow holds for
   ``pacing.over_hold`` and calls ``view.finished()``.

A built-in computer player that fails stops the flow in phase ``failed`` and tells
the view and the hooks; nothing plays a move in its place.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.rules.base import Event, IllegalMove, Pending, Refusal
from game.turn import hooks as H
from game.turn.hooks import Hooks, News
from game.turn.sources import HUMAN, Decision, HumanSource, MoveSource, SourceFailure

# Phases (plain strings: they read well in tests and logs).
IDLE = "idle"            # showing events, or about to fetch the next decision
HUMAN_TURN = "human"     # the person at the screen decides
THINKING = "thinking"    # another source decides
HANDOFF = "handoff"      # waiting for the next person to come to the screen
HOLD = "hold"            # a reveal stays until the person continues (or its time is up)
OVER = "over"            # the game is over; holding before the end
DONE = "done"            # finished (the view was told)
FAILED = "failed"        # a built-in computer player failed

#: Enough for any one frame; a loop that runs longer than this is a bug, not a game.
_STEP_GUARD = 100_000

#: Engine events after which everyone at the screen has been looking at the table (a
#: trick taken, a showdown, a round reckoned or voided, a new round dealt, the game
#: restarted or over): the person who decides next gets the privacy hand-off even if
#: nobody else moved since their last decision.
WATCHED = frozenset({"trick", "showdown", "void_round", "lose_life", "out", "round_start",
                     "sudden_death", "replay_round", "final_tie", "restart", "game_over"})


@dataclass(frozen=True)
class Pacing:
    """How the table paces itself: a computer's move is applied no sooner than
    ``think`` seconds after its turn began, the finished table holds ``over_hold``
    seconds before the end, a reveal is held ``hold`` seconds (``None``: until the
    person continues; ``0``: not at all), and ``instant`` (animations off) waits for
    nothing but a person."""

    think: float = 0.0
    over_hold: float = 0.0
    instant: bool = False
    hold: float | None = 0.0


class FlowView(Protocol):
    """What the flow needs from whoever shows the table."""

    def animating(self) -> bool:
        """A blocking animation is running (the next event has to wait)."""

    def show(self, event: Event) -> None:
        """Start showing one engine event."""

    def offer(self, decision: Decision) -> None:
        """The person at the screen decides: show the controls for ``decision``."""

    def hand_off(self, seat: int) -> None:
        """Everything private is hidden; ask the person of ``seat`` to the screen."""

    def viewer_changed(self, viewer: int | None) -> None:
        """Whose private cards may show changed (``None``: nobody's)."""

    def holds_before(self, event: Event) -> bool:
        """A reveal is held before this event (optional; default: never)."""

    def hold_started(self) -> None:
        """A reveal is held now (show it, and how to go on)."""

    def hold_ended(self) -> None:
        """The held reveal goes on."""

    def finished(self) -> None:
        """The game is over, shown, and the hold has passed."""

    def failed(self, failure: SourceFailure) -> None:
        """A built-in computer player failed; the game stops here."""


class TurnFlow:
    """One game's turns. ``sources`` has a move source for every seat; ``viewer`` is
    whose private cards show (default: the one human, if there is exactly one)."""

    def __init__(self, game: Any, sources: Mapping[int, MoveSource], view: FlowView, *,
                 hooks: Hooks | None = None, pacing: Callable[[], Pacing] | None = None,
                 viewer: int | None = None) -> None:
        missing = [s for s in range(game.n_seats) if s not in sources]
        if missing:
            raise ValueError(f"no move source for seats {missing}")
        self.game = game
        self.sources = dict(sources)
        self.view = view
        self.hooks = hooks or Hooks()
        self.pacing = pacing or Pacing
        #: seats of people at this screen (the privacy hand-off is between them)
        self.humans = [s for s in sorted(self.sources) if self.sources[s].kind == HUMAN]
        if viewer is None and len(self.humans) == 1:
            viewer = self.humans[0]
        self.viewer = viewer
        self.queue: deque[Event] = deque()
        self.phase = IDLE
        self.pending: Pending | None = None
        self.decision: Decision | None = None
        self.failure: SourceFailure | None = None
        self.started = False
        self.thought = 0.0          # seconds the deciding computer has had so far
        self.held = 0.0             # seconds the finished table (or a reveal) has been held
        self._released: Event | None = None     # the event a finished hold was before
        #: the person who confirmed last and the round then: they may decide again
        #: without a hand-off while nobody else has moved and nothing was WATCHED
        self._at_screen: tuple[int, int] | None = None
        #: tools and tests: stop before showing an event for which this is true
        self.stop_before: Callable[[Event], bool] | None = None

    # ------------------------------------------------------------------ queries

    @property
    def thinking_seat(self) -> int | None:
        return self.pending.seat if self.phase == THINKING and self.pending else None

    def source(self, seat: int) -> MoveSource:
        return self.sources[seat]

    def is_human(self, seat: int) -> bool:
        return seat in self.humans

    # ------------------------------------------------------------------ driving

    def start(self, resume: Sequence[tuple[int, str]] = ()) -> None:
        """Start the engine; with ``resume`` (a saved game's moves) catch up to where
        it stopped. Every event so far is queued; ``game_started`` is published."""
        if self.started:
            return
        self.started = True
        events = list(self.game.start())
        for seat, move in resume:
            events += self.game.apply(seat, move)
        self.queue.extend(events)
        self.hooks.publish(News(H.GAME_STARTED, self.game, events=tuple(events),
                                data={"resumed": bool(resume), "moves": len(resume)}))

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds: show what can be shown, fetch the next decision,
        let the deciding computer's move through when its time has come."""
        guard = _STEP_GUARD
        while guard > 0 and not self.view.animating():
            guard -= 1
            if self.queue:
                if self.stop_before is not None and self.stop_before(self.queue[0]):
                    break
                if self.phase == HOLD:
                    break
                if self._should_hold(self.queue[0]):
                    self.phase = HOLD
                    self.held = 0.0
                    self.view.hold_started()
                    break
                self.view.show(self.queue.popleft())
                continue
            if self.phase == IDLE:
                self._next_decision()
            break
        if self.phase == THINKING:
            self._think(dt)
        elif self.phase == HOLD:
            self.held += dt
            limit = self.pacing().hold
            if limit is not None and self.held >= limit:
                self.release()
        elif self.phase == OVER:
            self.held += dt
            pace = self.pacing()
            if (pace.instant or self.held >= pace.over_hold) and not self.view.animating():
                self.phase = DONE
                self.view.finished()

    def release(self) -> None:
        """The person continues after a held reveal (click, Space, Enter)."""
        if self.phase != HOLD:
            return
        self._released = self.queue[0] if self.queue else None
        self.phase = IDLE
        self.view.hold_ended()

    def _should_hold(self, event: Event) -> bool:
        if event is self._released:
            return False
        pace = self.pacing()
        if pace.hold is not None and (pace.hold <= 0 or pace.instant):
            return False
        holds = getattr(self.view, "holds_before", None)
        return bool(holds is not None and holds(event))

    def human_move(self, move: str) -> Refusal | None:
        """The person at the screen plays ``move``; the engine's reason if it refuses
        (nothing changes then), else ``None`` and the move is applied now."""
        p = self.pending
        src = self.sources.get(p.seat) if p is not None else None
        if self.phase != HUMAN_TURN or p is None or not isinstance(src, HumanSource):
            return Refusal("not_your_turn", {"seat": p.seat if p else None})
        refusal = self.game.why_illegal(p.seat, move)
        if refusal is not None:
            return refusal
        src.submit(move)
        taken = src.poll()
        assert taken is not None
        if self.shared_screen:
            self._hide()     # the person has decided: nothing private stays on screen
        self._apply(p.seat, taken)
        return None

    @property
    def shared_screen(self) -> bool:
        """Several people take turns at this screen (hot-seat)."""
        return len(self.humans) > 1

    def confirm_handoff(self, seat: int) -> None:
        """The person of ``seat`` is at the screen now (the privacy screen's button)."""
        self.viewer = seat
        self._at_screen = (seat, self.game.round_index)
        self.view.viewer_changed(seat)
        p = self.game.to_move()
        if self.phase == HANDOFF and p is not None and p.seat == seat:
            self.pending = p
            self._offer(p)
        elif self.phase == HANDOFF:
            self.phase = IDLE

    def conclude(self) -> bool:
        """The person leaves a decided game (its last round still being shown): every
        event left is shown now, no reveal held and no pause at the end, and the view
        is told the game is finished. False, and nothing done, while the game is
        undecided or after the view was told."""
        if not self.game.finished or self.phase in (DONE, FAILED):
            return False
        while self.queue:
            self.view.show(self.queue.popleft())
        self.phase = DONE
        self.view.finished()
        return True

    def close(self) -> None:
        """The table goes away: every source forgets its decision."""
        for src in self.sources.values():
            src.cancel()

    # ------------------------------------------------------------------ inside

    def _decision(self, p: Pending) -> Decision:
        return Decision(p.seat, p, self.game.view(p.seat), len(self.game.moves))

    def _next_decision(self) -> None:
        if self.game.finished:
            self.phase = OVER
            self.held = 0.0
            return
        p = self.game.to_move()
        if p is None:
            return
        self.pending = p
        src = self.sources[p.seat]
        if src.kind == HUMAN:
            if self.shared_screen and self.viewer != p.seat:
                if self._still_at_screen(p.seat):
                    self.viewer = p.seat
                    self.view.viewer_changed(p.seat)
                    self._offer(p)
                    return
                self.viewer = None
                self.view.viewer_changed(None)
                self.phase = HANDOFF
                self.view.hand_off(p.seat)
                return
            self._offer(p)
            return
        self.phase = THINKING
        self.thought = 0.0
        self.decision = self._decision(p)
        src.begin(self.decision)

    def _hide(self) -> None:
        """Nobody's private cards show (several people share the screen)."""
        if self.viewer is not None:
            self.viewer = None
            self.view.viewer_changed(None)

    def _still_at_screen(self, seat: int) -> bool:
        """``seat`` confirmed at the privacy screen, and since then nobody else has
        moved and nothing the whole table watches has happened (the same turn)."""
        at = self._at_screen
        return at is not None and at[0] == seat and at[1] == self.game.round_index

    def _offer(self, p: Pending) -> None:
        self.phase = HUMAN_TURN
        self.decision = self._decision(p)
        self.sources[p.seat].begin(self.decision)
        self.view.offer(self.decision)

    def _think(self, dt: float) -> None:
        self.thought += dt
        pace = self.pacing()
        p = self.pending
        assert p is not None
        src = self.sources[p.seat]
        if self.thought < pace.think and not pace.instant and src.paced:
            return
        try:
            move = src.poll()
        except SourceFailure as failure:
            self._fail(failure)
            return
        for incident in src.drain_incidents():
            self.hooks.publish(News(H.INCIDENT, self.game, seat=p.seat, data=incident))
        if move is None:
            return
        try:
            self._apply(p.seat, move)
        except IllegalMove as exc:
            self._fail(SourceFailure(p.seat, src.name, exc))

    def _fail(self, failure: SourceFailure) -> None:
        self.phase = FAILED
        self.failure = failure
        self.hooks.publish(News(H.FAILED, self.game, seat=failure.seat,
                                data={"error": failure.error, "player": failure.player}))
        self.view.failed(failure)

    def _apply(self, seat: int, move: str) -> None:
        rounds_before = len(self.game.rounds)
        events = self.game.apply(seat, move)       # an illegal move raises, nothing changes
        self.queue.extend(events)
        at = self._at_screen
        if at is not None and (seat != at[0] or any(e.type in WATCHED for e in events)):
            self._at_screen = None     # the turn is over: the next one needs a hand-off
        self.phase = IDLE
        self.pending = None
        self.decision = None
        g = self.game
        self.hooks.publish(News(H.MOVE_APPLIED, g, seat=seat, move=move,
                                events=tuple(events)))
        for i in range(rounds_before, len(g.rounds)):
            self.hooks.publish(News(H.ROUND_OVER, g, data={"round": i}))
        if g.finished:
            self.hooks.publish(News(H.GAME_OVER, g, data={"winner": g.winner}))
