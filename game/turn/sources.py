"""Move sources: who decides for a seat. Every seat of a table has one, and the turn
flow (:mod:`game.turn.flow`) treats them all alike:

* ``begin(decision)`` -- the seat has a decision pending; ``decision.view`` is that
  seat's own view (docs/view.md), the only thing a computer ever sees;
* ``poll()`` -- the move once decided, ``None`` while still deciding; raises
  :class:`SourceFailure` when a built-in player failed (a bug, never hidden);
* ``cancel()`` -- the decision is gone (the table closes); a late answer is dropped;
* ``drain_incidents()`` -- forfeits of a user bot since the last call (docs/bots.md).

The sources:

* :class:`HumanSource` -- a person at this screen, through the table's controls;
* :class:`LevelSource` -- a built-in computer player, thinking in a worker;
* :class:`BotSource` -- a user bot (docs/bots.md): a failure forfeits the decision;
* :class:`RecordSource` -- a record being replayed (the replay viewer);
* :class:`ChannelSource` -- moves that arrive from another thread (a phone seat).

``kind`` says which it is; only ``human`` seats take part in the privacy hand-off of
several people at one screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from game.rules.base import Pending
from game.turn.workers import Future, Worker, decide

HUMAN = "human"
LEVEL = "level"
BOT = "bot"
RECORD = "record"
REMOTE = "remote"


class Decision(NamedTuple):
    """A decision put to one seat: the engine's pending decision and that seat's view."""

    seat: int
    pending: Pending
    view: dict[str, Any]
    step: int          # moves made before it (the record's index of its answer)


class SourceFailure(Exception):
    """A seat's player could not decide: ``seat``, ``player`` (its name) and the
    original ``error``. Raised by :meth:`MoveSource.poll`."""

    def __init__(self, seat: int, player: str, error: BaseException) -> None:
        super().__init__(f"seat {seat} ({player}): {type(error).__name__}: {error}")
        self.seat = seat
        self.player = player
        self.error = error


class MoveSource:
    """The interface (and the do-nothing defaults) of every source."""

    kind = ""
    #: the player's name: a level (``hard``), ``bot:PATH``, ``record`` …
    name = ""
    #: whether the flow waits the pacing's thinking pause before taking its move
    paced = True

    def begin(self, decision: Decision) -> None:
        self.decision = decision

    def poll(self) -> str | None:  # pragma: no cover - interface
        raise NotImplementedError

    def cancel(self) -> None:
        """The pending decision is gone; forget it."""

    def drain_incidents(self) -> list[dict[str, Any]]:
        return []


class HumanSource(MoveSource):
    """A person at this screen: the table's controls :meth:`submit` the move."""

    kind = HUMAN
    name = "human"

    def __init__(self) -> None:
        self.decision: Decision | None = None
        self._move: str | None = None

    def begin(self, decision: Decision) -> None:
        self.decision = decision
        self._move = None

    def submit(self, move: str) -> None:
        self._move = move

    def poll(self) -> str | None:
        move, self._move = self._move, None
        return move

    def cancel(self) -> None:
        self.decision = None
        self._move = None


class LevelSource(MoveSource):
    """A built-in computer player (``player.choose(view)``) thinking in ``worker``.
    An exception or a move that is not legal is a bug: :meth:`poll` raises it."""

    kind = LEVEL

    def __init__(self, player: Any, worker: Worker, name: str | None = None) -> None:
        self.player = player
        self.worker = worker
        self.name = name or getattr(player, "name", "") or type(player).__name__
        self.decision: Decision | None = None
        self.future: Future | None = None

    def begin(self, decision: Decision) -> None:
        self.decision = decision
        if not getattr(self.worker, "out_of_process", False):
            self.future = self.worker.submit(self.player.choose, decision.view)
        elif self.kind == LEVEL:
            # another process makes the same level from its name (workers.decide)
            self.future = self.worker.submit(decide, decision.view["game"], self.name,
                                             decision.view)
        else:       # a user bot is code loaded here: it thinks in a thread of the window
            self.future = self.worker.submit_local(self.player.choose, decision.view)

    def poll(self) -> str | None:
        fut, d = self.future, self.decision
        if fut is None or d is None or not fut.done():
            return None
        self.future = None
        try:
            move = fut.result()
        except Exception as exc:
            raise SourceFailure(d.seat, self.name, exc) from exc
        if move not in d.pending.legal:
            raise SourceFailure(d.seat, self.name, ValueError(
                f"{self.name} chose {move!r}, not one of {list(d.pending.legal)}"))
        return str(move)

    def cancel(self) -> None:
        if self.future is not None:
            self.future.cancel()
        self.future = None
        self.decision = None


class BotSource(LevelSource):
    """A user bot (``game.ai.bots.BotPlayer``). As docs/bots.md says, a bot that raises,
    answers with something not legal or runs out of time forfeits the decision: the
    first legal move is played and the incident is reported, never raised."""

    kind = BOT

    def __init__(self, player: Any, worker: Worker, name: str | None = None) -> None:
        super().__init__(player, worker, name)
        self._seen = len(getattr(player, "incidents", ()))
        self._own: list[dict[str, Any]] = []

    def poll(self) -> str | None:
        try:
            return super().poll()
        except SourceFailure as failure:
            d = self.decision
            assert d is not None
            fallback = sorted(d.pending.legal)[0]
            self._own.append({"bot": self.name, "kind": "failed",
                              "detail": f"{type(failure.error).__name__}: {failure.error}",
                              "seat": d.seat, "round": d.view.get("round"),
                              "played": fallback})
            return fallback

    def drain_incidents(self) -> list[dict[str, Any]]:
        found = list(getattr(self.player, "incidents", ()))
        out = found[self._seen:] + self._own
        self._seen = len(found)
        self._own = []
        return out


class RecordSource(MoveSource):
    """The moves of a record, in order. ``gate(step)`` (optional) says whether the move
    at ``step`` may be played now (the replay's pause and step buttons); a record of a
    game in progress simply has no move after its last one."""

    kind = RECORD
    name = "record"

    def __init__(self, moves: Sequence[tuple[int, str]],
                 gate: Callable[[int], bool] | None = None) -> None:
        self.moves = list(moves)
        self.gate = gate
        self.decision: Decision | None = None

    def begin(self, decision: Decision) -> None:
        self.decision = decision

    def poll(self) -> str | None:
        d = self.decision
        if d is None or d.step >= len(self.moves):
            return None
        if self.gate is not None and not self.gate(d.step):
            return None
        seat, move = self.moves[d.step]
        if seat != d.seat or move not in d.pending.legal:
            raise SourceFailure(d.seat, self.name, ValueError(
                f"move {d.step} of the record is {move!r} by seat {seat}, but seat "
                f"{d.seat} decides now (legal: {list(d.pending.legal)})"))
        return move

    def cancel(self) -> None:
        self.decision = None


class ChannelSource(MoveSource):
    """Moves that arrive from another thread (a phone seat, issue 17). The other
    thread reads :meth:`current` (the decision and its view) and calls :meth:`put`;
    the window's thread polls. A move may arrive before its decision begins here (the
    other thread saw the new state first): it waits for it. A move for an earlier
    decision is dropped, and the engine checks every move like any other."""

    kind = REMOTE
    #: a person decided: the flow adds no computer's thinking pause
    paced = False

    def __init__(self, name: str = "remote") -> None:
        self.name = name
        self._lock = threading.Lock()
        self._decision: Decision | None = None
        self._moves: dict[int, str] = {}        # step -> the move sent for it

    def begin(self, decision: Decision) -> None:
        with self._lock:
            self._decision = decision

    def current(self) -> Decision | None:
        """The decision waiting for this seat (any thread)."""
        with self._lock:
            return self._decision

    def put(self, step: int, move: str) -> None:
        """Answer the decision made at ``step`` (any thread)."""
        with self._lock:
            self._moves[step] = move

    def poll(self) -> str | None:
        with self._lock:
            d = self._decision
            if d is None:
                return None             # a move sent early waits for its decision
            for step in [s for s in self._moves if s < d.step]:
                del self._moves[step]   # the decision it answered is over
            move = self._moves.pop(d.step, None)
            if move is None or move not in d.pending.legal:
                return None
            self._decision = None
            return move

    def cancel(self) -> None:
        with self._lock:
            self._decision = None
