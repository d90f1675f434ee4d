"""The hint: the coach's odds (``game.ai.coach.advise_view``) for the person deciding
at the screen. Asked once per decision, in the table's worker, for that seat's view
only; it never moves by itself. No pygame.

When the advice arrives (or shows again), ``on_answer(move)`` hears the suggested move,
so the table can select it: Enter then plays what the hint suggests.

``decision()`` (given by the table) names the decision the hint may answer now --
``None`` while nobody at the screen decides (a computer's turn, the privacy screen,
the demo) -- so a hint never carries over to another decision or another person.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from typing import Any

from game.i18n import t
from game.rules.rams_rules import counters_of
from game.turn.workers import Future, Worker

log = logging.getLogger("stammtisch.table")

FAILED = {"move": None, "options": {}, "error": True}


def advise(view: dict[str, Any]) -> dict[str, Any]:
    """The coach's advice for one view; a failure is logged and shown as "no advice"."""
    try:
        from game.ai.coach import advise_view

        return advise_view(view)
    except Exception:  # noqa: BLE001 - advice is optional; the game goes on
        log.exception("the coach failed")
        return dict(FAILED)


class Coach:
    def __init__(self, worker: Worker, decision: Callable[[], Hashable | None],
                 advisor: Callable[[dict[str, Any]], dict[str, Any]] = advise,
                 on_answer: Callable[[str], Any] | None = None) -> None:
        self.worker = worker
        self.decision = decision
        self.advisor = advisor
        self.on_answer = on_answer
        self.on = False
        self.key: Hashable | None = None        # the decision the advice answers
        self.advice: dict[str, Any] | None = None
        self.future: Future | None = None
        self._future_key: Hashable | None = None
        self.counting = False

    # ------------------------------------------------------------------ state

    def allowed(self) -> bool:
        return self.decision() is not None

    def visible(self) -> bool:
        return self.on and self.key is not None and self.key == self.decision()

    def waiting(self) -> bool:
        return self.future is not None

    def options(self) -> dict[str, Any] | None:
        """The numbers per move while the hint shows (None: not shown, or not yet)."""
        if not self.visible() or self.advice is None:
            return None
        return self.advice.get("options") or {}

    def best(self) -> str | None:
        return self.advice.get("move") if self.options() is not None and self.advice \
            else None

    # ------------------------------------------------------------------ actions

    def toggle(self, view: Callable[[], dict[str, Any]]) -> bool:
        """Show the advice for the current decision (asking for it if needed), or hide
        it again; False when no hint is allowed now."""
        key = self.decision()
        if key is None:
            return False
        if self.key == key and self.on:
            self.on = False
            return True
        self.on = True
        if self.key != key:
            v = view()
            #: ``scoring: counters`` (Rams): the risk shown is of the penalty, not a life
            self.counting = counters_of(v.get("rules") or {})
            self.key, self.advice = key, None
            if self.future is not None:
                self.future.cancel()
            self.future = self.worker.submit(self.advisor, v)
            self._future_key = key
            self.poll()
        else:
            self._suggest()
        return True

    def _suggest(self) -> None:
        best = self.best()
        if best is not None and self.on_answer is not None:
            self.on_answer(best)

    def poll(self) -> None:
        fut = self.future
        if fut is None or not fut.done():
            return
        self.future = None
        if self._future_key == self.key and not fut.cancelled():
            try:
                self.advice = fut.result()
            except Exception:  # noqa: BLE001 - the advisor itself failed
                log.exception("the coach failed")
                self.advice = dict(FAILED)
            self._suggest()

    def forget(self) -> None:
        """The decision was taken: hide the hint and drop its advice."""
        self.on = False
        self.key = None
        self.advice = None

    # ------------------------------------------------------------------ words

    def label(self, move: str, short: bool = False, best: bool = False) -> str:
        """The text beside an option: its risk of losing a life this round."""
        if self.advice is None:
            return "…"
        o = (self.advice.get("options") or {}).get(move)
        if o is None:
            return "–"
        n = int(round(100 * float(o["lose_life"])))
        label = t("coach.risk_short" if short else
                  "coach.risk_counters" if self.counting else "coach.risk", p=n)
        return t("coach.best", risk=label) if best and not short else label

    def note(self, move_label: Callable[[str], str]) -> str:
        """One line about the advice: thinking, the suggestion, or no advice."""
        if self.advice is None:
            return t("coach.thinking")
        best = self.advice.get("move")
        if self.advice.get("error") or best is None:
            return t("coach.failed")
        return t("coach.pick", move=move_label(best))
