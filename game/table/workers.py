"""Where computer players and the coach think: a background thread in the window, the
caller's own thread in tests and tools, or by hand in tests that check what the table
does while an answer is still missing.

Every worker has ``submit(fn, *args) -> Future`` and ``shutdown()``; the table only
ever polls the futures it got (``done()``, ``result()``), so which worker runs them
changes nothing but timing.
"""

from __future__ import annotations

import concurrent.futures
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
