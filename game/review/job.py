"""The review of one record, computed in a worker while the window keeps drawing.

:class:`ReviewJob` plans the review at once (a replay of the record: milliseconds),
then hands the decisions to a worker (:mod:`game.turn.workers`) a few at a time
(:data:`CHUNK`; the worker replays the record to them and asks the coach) and
collects the answers as they come: ``progress()`` says how far it is, ``review``
holds the finished review (the same data ``stammtisch review --json`` prints). Whoever
shows it calls :meth:`ReviewJob.poll` once a frame; nothing here blocks.

:class:`Reviews` keeps the jobs of one window: the review of a game that just ended
starts while its results show and goes on behind other screens; a finished review's
accuracy figures go to the statistics (:mod:`game.review.history`).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Hashable
from typing import Any

from game import notices
from game.records import Record, RecordError
from game.review import compute
from game.turn.workers import Future, Worker

log = logging.getLogger("stammtisch.review")

#: Decisions per call to a worker (the progress bar moves by this many).
CHUNK = 4
#: Calls the window makes at once; the rest wait here (so a job can be cancelled
#: quickly, and a new table's computer players never wait behind a whole review).
IN_FLIGHT = 4


class ReviewJob:
    """One record's review in progress (or done, or failed)."""

    def __init__(self, record: Record, worker: Worker, level: str = compute.DEFAULT_LEVEL,
                 on_done: Callable[[dict[str, Any]], None] | None = None,
                 samples: int | None = None) -> None:
        self.record = record
        self.worker = worker
        self.level = level
        self.samples = samples
        self.on_done = on_done
        self.error: str | None = None
        self.review: dict[str, Any] | None = None
        self.plan: compute.Plan | None = None
        self._answers: list[dict[str, Any] | None] = []
        self._futures: dict[int, Future] = {}       # first decision's index -> call
        self._chunks: list[list[int]] = []
        self._next = 0
        self._token = uuid.uuid4().hex
        try:
            self.plan = compute.plan(record)
        except RecordError as exc:
            self.error = f"{exc.kind}: {exc.message}"
            return
        self._data = record.as_dict()
        self._answers = [None] * len(self.plan.points)
        self._chunks = compute.chunks(self.plan, CHUNK)
        self.poll()

    # ------------------------------------------------------------------ state

    @property
    def total(self) -> int:
        return len(self._answers)

    @property
    def done(self) -> int:
        return sum(a is not None for a in self._answers)

    def progress(self) -> float:
        """From 0 to 1 (1 also for a review that failed)."""
        if self.review is not None or self.error is not None:
            return 1.0
        return self.done / self.total if self.total else 0.0

    @property
    def finished(self) -> bool:
        return self.review is not None or self.error is not None

    # ------------------------------------------------------------------ work

    def poll(self) -> None:
        """Collect the answers that arrived and ask for the next ones."""
        if self.finished or self.plan is None:
            return
        while True:
            for k, fut in list(self._futures.items()):
                if not fut.done():
                    continue
                del self._futures[k]
                try:
                    got = fut.result()
                except Exception as exc:  # noqa: BLE001 - a failed coach call fails the job
                    log.exception("the review's coach failed")
                    self._fail(f"{type(exc).__name__}: {exc}")
                    return
                self._answers[k * CHUNK:k * CHUNK + len(got)] = got
            while self._next < len(self._chunks) and len(self._futures) < IN_FLIGHT:
                k = self._next
                self._next += 1
                self._futures[k] = self.worker.submit(
                    compute.advise_moves, self._data, self._chunks[k], self.level,
                    self.samples, self._token)
            # an inline worker answers at once: collect those before returning
            if not any(f.done() for f in self._futures.values()):
                break
        if self.done == self.total:
            answers = [a for a in self._answers if a is not None]
            self.review = compute.assemble(self.plan, answers, self.level, self.samples)
            if self.on_done is not None:
                try:
                    self.on_done(self.review)
                except Exception as exc:  # noqa: BLE001 - a boundary: the review is shown anyway
                    notices.unexpected("review", exc, "keeping the review's figures")

    def _fail(self, error: str) -> None:
        self.error = error
        self.cancel()

    def cancel(self) -> None:
        for fut in self._futures.values():
            fut.cancel()
        self._futures.clear()
        if self.review is None and self.error is None:
            self.error = "cancelled"


class Reviews:
    """The window's reviews: at most one job per game (by key), computed in a worker
    of their own that the window starts on first use and stops when it closes."""

    def __init__(self, make_worker: Callable[[], Worker],
                 keep: Callable[[Hashable, dict[str, Any]], None] | None = None,
                 samples: int | None = None) -> None:
        self._make_worker = make_worker
        self._worker: Worker | None = None
        self._keep = keep
        self.samples = samples
        self.jobs: dict[Hashable, ReviewJob] = {}

    def worker(self) -> Worker:
        if self._worker is None:
            self._worker = self._make_worker()
        return self._worker

    def start(self, record: Record, key: Hashable | None = None) -> ReviewJob:
        """The review of ``record`` (the running or finished one for ``key``, if any;
        a failed one is tried again)."""
        key = key if key is not None else id(record)
        job = self.jobs.get(key)
        if job is not None and job.error is None:
            return job
        on_done = None
        if self._keep is not None:
            keep = self._keep

            def on_done(review: dict[str, Any], key: Hashable = key) -> None:
                keep(key, review)

        job = ReviewJob(record, self.worker(), on_done=on_done, samples=self.samples)
        self.jobs[key] = job
        return job

    def poll(self) -> None:
        for job in list(self.jobs.values()):
            job.poll()

    def busy(self) -> bool:
        return any(not j.finished for j in self.jobs.values())

    def done(self) -> int:
        """How many reviews have their figures (kept as each finishes, in :meth:`poll`)."""
        return sum(j.review is not None for j in self.jobs.values())

    def close(self) -> None:
        for job in self.jobs.values():
            job.cancel()
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None
