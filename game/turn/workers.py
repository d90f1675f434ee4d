"""Where computer players and the coach think: a process beside the window (its
computer players and the coach), a background thread (user bots), the caller's own
thread in tests and tools, or by hand in tests that check what the table does while
an answer is still missing.

Every worker has ``submit(fn, *args) -> Future`` and ``shutdown()``; the table only
ever polls the futures it got (``done()``, ``result()``), so which worker runs them
changes nothing but timing.
"""

from __future__ import annotations

import concurrent.futures
import os
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

Future = concurrent.futures.Future


class Worker(Protocol):
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future: ...
    def shutdown(self) -> None: ...


class ThreadWorker:
    """One background thread (started on first use): the window keeps drawing while a
    level or the coach thinks."""

    def __init__(self, name: str = "table-ai") -> None:
        self.name = name
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix=self.name)
        return self._pool.submit(fn, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def decide(game_id: str, spec: str, view: dict[str, Any]) -> str:
    """A built-in level's move for ``view``, in whatever process runs it: the player
    is made from its name once per process and kept (levels decide from the view
    alone, so a player in another process answers exactly as one in this one)."""
    key = (game_id, spec)
    player = _players.get(key)
    if player is None:
        from game.ai.registry import make_player

        player = _players[key] = make_player(game_id, spec)
    return str(player.choose(view))


_players: dict[tuple[str, str], Any] = {}


def _ready() -> bool:
    return True


#: How much a low-priority worker process gives way (``os.nice``; POSIX only).
NICENESS = 5


def _lower_priority() -> None:
    """A worker process's initializer: give way to the window and the table's own
    worker (a game review going on behind a new game)."""
    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):
        pass


class ProcessWorker:
    """One worker process (started on first use, by spawning, as on every platform)
    for the window's computer players and the coach.

    A level thinking in a thread of the window competes with drawing for Python's
    global lock: the window would wait up to a few milliseconds after each drawing
    call, and a hard decision made frames of 100 ms and more. In a process of its own
    it thinks beside the window instead. Everything submitted must pickle (module
    functions such as :func:`decide` and ``game.turn.coach.advise``, plain data).
    If the process cannot be started or breaks, calls run in a thread instead.

    ``processes`` above 1 runs that many calls at once (the game review's coach
    calls); ``low_priority`` lowers the processes' priority so they never slow the
    window or a table's computer players.
    """

    out_of_process = True

    def __init__(self, processes: int = 1, low_priority: bool = False) -> None:
        self.processes = max(1, processes)
        self.low_priority = low_priority
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._fallback: ThreadWorker | None = None
        self._local: ThreadWorker | None = None

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor | None:
        if self._pool is None and self._fallback is None:
            try:
                import multiprocessing

                ctx = multiprocessing.get_context("spawn")
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.processes, mp_context=ctx,
                    initializer=_lower_priority if self.low_priority else None)
            except (OSError, ValueError, ImportError, NotImplementedError):
                self._fallback = ThreadWorker()
        return self._pool

    def start(self) -> None:
        """Start the process now (a table does this when it opens), so the first
        computer decision does not wait for it."""
        pool = self._executor()
        if pool is not None:
            try:
                pool.submit(_ready)
            except (RuntimeError, concurrent.futures.process.BrokenProcessPool):
                self._break()

    def _break(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self._fallback = self._fallback or ThreadWorker()

    def submit_local(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        """Run ``fn`` in a thread of this process (what cannot pickle: a user bot)."""
        if self._local is None:
            self._local = ThreadWorker("table-bot")
        return self._local.submit(fn, *args)

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        pool = self._executor()
        if pool is not None:
            try:
                return pool.submit(fn, *args)
            except (RuntimeError, concurrent.futures.process.BrokenProcessPool):
                self._break()
        assert self._fallback is not None
        return self._fallback.submit(fn, *args)

    def shutdown(self) -> None:
        if self._pool is not None:
            # a decision still being thought about is of no use now: end the process
            # rather than wait for it (the executor's own shutdown would)
            procs = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for proc in procs:
                try:
                    proc.terminate()
                except (OSError, AttributeError):
                    pass
            self._pool = None
        for thread in (self._fallback, self._local):
            if thread is not None:
                thread.shutdown()
        self._fallback = self._local = None


def _run(fut: Future, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    if not fut.set_running_or_notify_cancel():
        return
    try:
        fut.set_result(fn(*args))
    except BaseException as exc:  # noqa: BLE001 - the future carries it to the table
        fut.set_exception(exc)


class InlineWorker:
    """Runs every call at once in the caller's thread (tests, tools, ``App.ai_sync``)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        fut: Future = Future()
        _run(fut, fn, args)
        return fut

    def shutdown(self) -> None:
        pass


class Interrupted(BaseException):
    """Raised into the call an :class:`InterruptibleWorker` runs when it is given up
    (:meth:`InterruptibleWorker.interrupt`). Not an ``Exception``: no move source takes
    it for a player's failure (a bot's forfeit), so it reaches the table's loop."""


class InterruptibleWorker(InlineWorker):
    """An :class:`InlineWorker` whose running call a signal handler of the same thread
    may give up (:meth:`interrupt`): ``stammtisch host`` thinks in its main thread,
    where a stop signal would otherwise wait for the decision under way (a bot still
    starting: up to 20 s), and then play it."""

    def __init__(self) -> None:
        self.running = False
        self.interrupted = False

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        return super().submit(self._call, fn, args)

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        try:
            if self.interrupted:        # given up: no call runs any more
                raise Interrupted
            self.running = True
            return fn(*args)
        finally:
            self.running = False

    def interrupt(self) -> None:
        """From a signal handler in the thread the calls run in: give up the call under
        way, if there is one (it raises :class:`Interrupted` where it is), and every
        later one."""
        self.interrupted = True
        if self.running:
            self.running = False
            raise Interrupted


class ManualWorker:
    """Holds every call until the test runs it (:meth:`run_next`, :meth:`run_all`);
    with ``autorun`` on it behaves like :class:`InlineWorker`. Deterministic: no
    thread, no clock."""

    def __init__(self, autorun: bool = False) -> None:
        self.autorun = autorun
        self.waiting: deque[tuple[Future, Callable[..., Any], tuple[Any, ...]]] = deque()

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future:
        fut: Future = Future()
        if self.autorun:
            _run(fut, fn, args)
        else:
            self.waiting.append((fut, fn, args))
        return fut

    def run_next(self) -> bool:
        """Run the oldest waiting call; False if there was none."""
        if not self.waiting:
            return False
        _run(*self.waiting.popleft())
        return True

    def run_all(self) -> int:
        n = 0
        while self.run_next():
            n += 1
        return n

    def shutdown(self) -> None:
        for fut, _fn, _args in self.waiting:
            fut.cancel()
        self.waiting.clear()
