"""User bots as players: each bot runs in its own child process (docs/bots.md).

``bot:PATH`` is a Python file with ``choose(view) -> str``, run by
:mod:`game.ai.bots.runner`; ``exe:COMMAND`` is any program that speaks the protocol
of :mod:`game.ai.bots.protocol` (one JSON view per line in, one move per line out;
a bot may number its answers with the question's ``ask`` number, and then no other
line it writes is taken for an answer). The child gets the view and nothing else: it
cannot reach the engine, the other players or the tournament's output. Ending it ends
every process it started (:mod:`game.ai.bots.tree`).

The parent enforces everything by its own clock and rules:

* a decision takes at most ``time_limit`` seconds (default 5) from writing the view
  to reading the answer; a late answer forfeits the decision;
* an answer line is at most :data:`~game.ai.bots.protocol.MAX_ANSWER_BYTES`;
* a move is legal only if the answered characters equal one of the view's legal
  moves (plain strings, compared by the parent);
* a forfeited decision plays the first legal move and is kept as an incident;
* a child that times out, dies, or floods its answer is killed and restarted for the
  next decision (``restarted``); after :data:`MAX_RESTARTS` restarts, after
  :data:`MAX_FAILURES_IN_ROW` forfeits in a row, or when it cannot be loaded at all,
  the bot is retired (``retired``) and its seat plays the first legal move;
* at most :data:`MAX_INCIDENTS` incidents are kept per bot (``incident_count`` counts
  them all), each with a detail of a few hundred characters at most.

A duplicate tournament also ends the child on purpose before each further rotation of
a sequence of deals and starts a new one (:meth:`BotPlayer.start_afresh`), so that a
bot cannot remember the cards of a deal it already played from another seat. That is
no failure: no incident, no restart used up; the counts of the one :class:`BotPlayer`
run on over every child it started.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
import weakref
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from game import winproc
from game.ai.bots.channel import EOF, LINE, OVERSIZE, TIMEOUT, BotProcess
from game.ai.bots.protocol import (
    MAX_ANSWER_BYTES,
    READY,
    Answer,
    decode_answer,
    encode_json,
    encode_view,
    encode_view_with,
    printable,
    shorten,
    with_ask,
)

DEFAULT_TIME_LIMIT = 5.0
#: Seconds a Python bot may take to start (interpreter and its imports).
STARTUP_LIMIT = 20.0
#: Seconds a bot whose standard output closed is given to exit before the incident
#: says it did not (its exit status follows the end of its output by a moment).
EXIT_GRACE = 2.0
MAX_RESTARTS = 3
MAX_FAILURES_IN_ROW = 20
MAX_INCIDENTS = 100
RUNNER = Path(__file__).resolve().with_name("runner.py")


def runner_command(path: str) -> list[str]:
    """The command that runs the Python bot file ``path`` in a fresh interpreter that
    imports nothing of the game (``-I``: no user site, no ``PYTHONPATH``, not even the
    runner's folder on ``sys.path``). A frozen build runs itself as the runner."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "bot-runner", path]
    return [sys.executable, "-I", str(RUNNER), path]


def exe_command(spec: str) -> list[str]:
    """``exe:`` spec text as a command line (``./mybot``, ``node bot.js``): split as a
    POSIX shell does, on Windows as Windows programs split theirs (game.winproc)."""
    return shlex.split(spec) if os.name == "posix" else winproc.split_command_line(spec)


class BotPlayer:
    """A user bot behind a process boundary; forfeits are recorded, never raised."""

    #: the view is only serialized here, never handed on: the tournament may pass the
    #: engine's shallow view (its event dicts shared, unchanged), which is cheaper
    serializes_view = True


    def __init__(self, target: str, time_limit: float = DEFAULT_TIME_LIMIT,
                 kind: str = "python", threads: bool | None = None) -> None:
        self.kind = kind
        self.path = target                       # named in every incident ("bot")
        self.name = f"{'bot' if kind == 'python' else 'exe'}:{target}"
        self.time_limit = time_limit
        self.startup_limit = STARTUP_LIMIT
        self.threads = threads
        self.incidents: list[dict[str, Any]] = []
        self.incident_count = 0
        self.kinds: Counter[str] = Counter()
        self.retired = False
        self.restarts = 0
        #: children ended on purpose for a new one (:meth:`start_afresh`), not failures
        self.fresh_starts = 0
        self.failures_in_row = 0
        self.decisions = 0
        #: questions asked (the number the next view carries is one more); never reused
        self.asked = 0
        #: lines the bot wrote that answered no question, dropped
        self.stray_lines = 0
        self.process: BotProcess | None = None
        self._finalizer: weakref.finalize | None = None
        # the view's rules and history (earlier rounds) are the same for every decision
        # of a round: within a game they are encoded once per round (see begin_game)
        self._in_game = False
        self._rules: tuple[tuple[Any, ...], str] | None = None
        self._rounds: list[tuple[int, str]] = []
        self._history_text = "[]"
        #: earlier rounds the running Python runner already holds (it keeps them, so a
        #: request carries only the rounds it has not seen: ``history_from``)
        self._held = 0

    # ------------------------------------------------------------------ incidents

    def _incident(self, kind: str, detail: str, view: Mapping[str, Any] | None,
                  played: str | None) -> None:
        self.incident_count += 1
        self.kinds[kind] += 1
        if len(self.incidents) < MAX_INCIDENTS:
            self.incidents.append({
                "bot": self.path, "kind": kind, "detail": shorten(printable(detail)),
                "seat": view.get("seat") if view is not None else None,
                "round": view.get("round") if view is not None else None,
                "played": played})

    def _retire(self, why: str, view: Mapping[str, Any] | None) -> None:
        self.retired = True
        self._stop()
        self._incident("retired", why, view, None)

    # ------------------------------------------------------------------ the process

    def _command(self) -> list[str]:
        if self.kind == "python":
            return runner_command(self.path)
        return exe_command(self.path)

    def _start(self, view: Mapping[str, Any] | None, fallback: str | None) -> bool:
        """Start the child (and for a Python bot wait for it to load); False if that
        failed (the failure is already an incident, the decision forfeited). Without
        a ``fallback`` it is started ahead of any decision (:meth:`start_afresh`):
        a failure then forfeits nothing."""
        self._held = 0
        try:
            self.process = BotProcess(self._command(), MAX_ANSWER_BYTES,
                                              threads=self.threads)
        except (OSError, ValueError, IndexError) as exc:
            self._incident("load_failed", f"cannot start {self.name}: {exc}", view,
                           fallback)
            self._retire("it cannot be started", view)
            return False
        self._finalizer = weakref.finalize(self, _kill_quietly, self.process)
        if self.kind != "python":
            return True
        status, line = self.process.read_line(
            _deadline(max(self.startup_limit, self.time_limit)))
        if status == LINE and line == READY:
            return True
        detail = {TIMEOUT: f"did not start within {self.startup_limit:g} s",
                  EOF: f"stopped while starting: {self._ended_text()}",
                  OVERSIZE: "wrote too much while starting"}.get(
                      status, f"wrote {shorten(line.decode('utf-8', 'replace'), 80)!r} "
                              "instead of starting")
        if fallback is None:
            self._incident("crashed", detail, view, None)
        else:
            self._forfeit("crashed", detail, view, fallback)
        if not self.retired:
            self._restart(view)
        return False

    def _ended_text(self) -> str:
        """What became of a bot whose standard output closed: it exited (how), or it
        closed its output and runs on. The end of its output comes a moment before its
        exit status: that moment is waited for (:data:`EXIT_GRACE` at most, only
        here), so the incident never says "ended" of a bot still running, nor leaves
        its status out when it did end."""
        p = self.process
        code = p.exit_status(EXIT_GRACE) if p is not None else None
        tail = shorten(p.stderr_tail(), 160) if p is not None else ""
        if code is None:
            what = "the bot closed its standard output but did not exit"
        elif code < 0 and os.name == "posix":
            what = f"the bot process was ended by signal {-code}"
        else:
            what = f"the bot process ended with exit status {code}"
        return what + (f"; stderr: {tail}" if tail else "")

    def _stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None

    def _restart(self, view: Mapping[str, Any] | None) -> None:
        """The child cannot be trusted any more: kill it; the next decision starts a
        new one, unless the restarts are used up."""
        self._stop()
        if self.restarts >= MAX_RESTARTS:
            self._retire(f"it failed again after {MAX_RESTARTS} restarts", view)
            return
        self.restarts += 1
        self._incident("restarted", f"restart {self.restarts} of {MAX_RESTARTS}", view, None)

    def close(self) -> None:
        """End the child (the tournament is over)."""
        if self.process is not None:
            self.process.close()
            self.process = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None

    def start_afresh(self) -> None:
        """End the child and start a new one, which remembers nothing of the old one's
        games: a duplicate tournament calls this before each further rotation of a
        sequence of deals (the same cards, dealt to other seats). Not a failure: no
        incident, and the restarts a bot is allowed are not used up.

        The new child is started here, not at the next decision, so that its start
        (tens of milliseconds for a Python bot) is not timed as a decision; if it
        fails to start, that is an incident as at any start, with no move forfeited.
        A retired bot stays retired."""
        if self.retired:
            return
        self.close()
        self.fresh_starts += 1
        self._start(None, None)

    # ------------------------------------------------------------------ deciding

    def begin_game(self) -> None:
        """A new game starts (the tournament says so): until the next call, views come
        from one game, so its rules are encoded once, and each earlier round of its
        history once (a round's events never change once it is over)."""
        self._in_game = True
        self._rules = None
        self._rounds = []
        self._history_text = "[]"
        self._held = 0

    def _encode(self, view: Mapping[str, Any]) -> bytes:
        if not self._in_game:
            self._held = 0
            return encode_view(view)
        game_key = (view["seed"], view.get("games_started"))
        if self._rules is None or self._rules[0] != game_key:
            self._rules = (game_key, encode_json(view["rules"]))
            self._rounds, self._history_text, self._held = [], "[]", 0
        history = view["history"]
        rounds = self._rounds
        if len(rounds) > len(history):
            rounds.clear()
            self._held = 0
        changed = len(rounds) != len(history)
        for i, events in enumerate(history):
            if i < len(rounds) and rounds[i][0] == len(events):
                continue
            del rounds[i:]
            self._held = min(self._held, i)
            rounds.append((len(events), encode_json(events)))
            changed = True
        if self.kind == "python":
            # the runner keeps the rounds it was sent: only the new ones travel
            held, self._held = self._held, len(rounds)
            return encode_view_with(view, {
                "rules": self._rules[1], "history_from": str(held),
                "history": "[" + ",".join(text for _, text in rounds[held:]) + "]"})
        if changed:
            self._history_text = "[" + ",".join(text for _, text in rounds) + "]"
        return encode_view_with(view, {"rules": self._rules[1],
                                       "history": self._history_text})

    def choose(self, view: Mapping[str, Any]) -> str:
        legal = list(view["legal"])
        fallback = legal[0]
        if self.retired:
            return fallback
        self.decisions += 1
        if self.process is None and not self._start(view, fallback):
            return fallback
        process = self.process
        assert process is not None
        try:
            line = self._encode(view)
        except (TypeError, ValueError) as exc:   # not JSON data: a bug of ours, not the bot's
            self._incident("bad_view", str(exc), view, fallback)
            return fallback
        self.asked += 1
        status, data = process.request(with_ask(line, self.asked), self.time_limit)
        self.stray_lines += process.dropped
        while status == LINE:
            answer = decode_answer(data)
            if answer.ask is not None:
                process.numbered = True
            if answer.ask == self.asked or (answer.ask is None and not process.numbered):
                return self._judge(answer, legal, view, fallback)
            # a line that does not answer this question: another number, or any
            # unnumbered line from a bot that numbers its answers
            self.stray_lines += 1
            status, data = process.next_line()
        if status == TIMEOUT:
            detail = f"no answer within {self.time_limit:g} s"
        elif status == OVERSIZE:
            detail = f"an answer longer than {MAX_ANSWER_BYTES} bytes"
        else:
            detail = self._ended_text()
        kind = {TIMEOUT: "timeout", OVERSIZE: "oversize"}.get(status, "crashed")
        self._forfeit(kind, detail, view, fallback)
        if not self.retired:
            self._restart(view)
        return fallback

    def _judge(self, answer: Answer, legal: list[str], view: Mapping[str, Any],
               fallback: str) -> str:
        if answer.error == "load_failed":
            self._incident("load_failed", answer.detail, view, fallback)
            self._retire("it cannot be loaded", view)
            return fallback
        if answer.error is not None:
            self._forfeit(answer.error, answer.detail or answer.error, view, fallback)
            return fallback
        move = answer.move
        if move is None or move not in legal:
            shown = shorten(repr(move), 60)
            self._forfeit("illegal", f"returned {shown}, legal were {legal}", view, fallback)
            return fallback
        self.failures_in_row = 0
        return legal[legal.index(move)]          # the engine's own string

    def _forfeit(self, kind: str, detail: str, view: Mapping[str, Any],
                 fallback: str) -> None:
        self._incident(kind, detail, view, fallback)
        self.failures_in_row += 1
        if self.failures_in_row >= MAX_FAILURES_IN_ROW and not self.retired:
            self._retire(f"{MAX_FAILURES_IN_ROW} decisions in a row forfeited", view)

    def summary(self) -> dict[str, Any]:
        """Per-bot figures for a tournament's result."""
        return {"decisions": self.decisions, "incidents": self.incident_count,
                "restarts": self.restarts, "fresh_starts": self.fresh_starts,
                "retired": self.retired,
                "stray_lines": self.stray_lines,
                "incident_kinds": dict(sorted(self.kinds.items()))}


def _deadline(seconds: float) -> float:
    return time.monotonic() + seconds


def _kill_quietly(process: BotProcess) -> None:
    try:
        process.kill()
    except Exception:  # noqa: BLE001 - at interpreter exit anything may be gone
        pass


__all__ = ["DEFAULT_TIME_LIMIT", "MAX_FAILURES_IN_ROW", "MAX_INCIDENTS", "MAX_RESTARTS",
           "BotPlayer", "exe_command", "runner_command"]
