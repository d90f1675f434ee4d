"""The rules the Chase the Ace solvers model, and the round they play.

The solvers (:mod:`game.ai.cfr`, exact; :mod:`game.ai.mccfr`, sampled) are fast
paths: they play one round on card strengths in vectorised numpy instead of running
the engine, so they write the round's rules once more -- a King blocks an ask and
ends the King holder's turn, the dealer draws the talon's top card, the lowest card
loses. ``tests/test_chase_fast_paths.py`` plays both against the engine on thousands
of random deals. Their card scale, blocker and deck are the engine's
(:class:`game.rules.chase_rules.CardScale`).

They model the default rules and ``ace_high``. :func:`solver_rules` refuses every
other variant that changes a round, by name. Keys that only act between rounds
(``lives``, ``stake``, ``first_dealer``, ``final_tie``) do not enter: a solved table
is about one round, in which every seat minimises its chance of losing a life.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.rules.chase import CHASE_RULES, chase_rules
from game.rules.chase_rules import STRENGTH_STEPS, CardScale, card_scale

#: Round variants the solvers play exactly as the engine does.
MODELLED = ("ace_high",)
#: Keys that do not change one round under the solvers' aim (a life lost or not).
BETWEEN_ROUNDS = ("lives", "stake", "first_dealer", "final_tie")


class UnsupportedRules(ValueError):
    """Rules the solvers cannot model (the message names the keys)."""

    def __init__(self, unsupported: list[str]) -> None:
        self.unsupported = ", ".join(unsupported)
        super().__init__("the Chase solvers model one round under the default rules or "
                         f"ace_high; they cannot model {self.unsupported}")


@dataclass(frozen=True)
class SolverRules:
    """One round of the default rules, or of ``ace_high``, in strengths."""

    ace_high: bool = False

    @property
    def scale(self) -> CardScale:
        return card_scale("french52", self.ace_high)

    @property
    def blocker(self) -> int:
        """The King's strength: 13, or 12 with ``ace_high`` (the Ace is 13)."""
        return self.scale.blocker_strength

    @property
    def values(self) -> list[int]:
        """The strengths a seat that decides can hold (every one but the King's)."""
        return [s for s in range(1, STRENGTH_STEPS + 1) if s != self.blocker]

    @property
    def counts(self) -> tuple[int, ...]:
        """Cards of each strength in the deck (index 0 unused)."""
        return self.scale.strength_counts

    @property
    def deck_size(self) -> int:
        return sum(self.counts)

    def deck_strengths(self) -> list[int]:
        """Every card of the deck as its strength, one of each strength per pass,
        lowest first (the order the sampled solver draws its deals from)."""
        left = list(self.counts)
        out: list[int] = []
        while any(left):
            for s in range(1, STRENGTH_STEPS + 1):
                if left[s]:
                    out.append(s)
                    left[s] -= 1
        return out

    def rank(self, strength: int) -> int:
        """The rank number (1 Ace … 13 King, docs/view.md) of a strength."""
        return self.scale.rank_number(strength)

    def strength(self, rank: int) -> int:
        return self.scale.strength_of_rank(rank)

    def engine_rules(self) -> dict[str, Any]:
        """These rules as the engine takes them."""
        return {"ace_high": self.ace_high}


def solver_rules(rules: Mapping[str, Any] | None = None) -> SolverRules:
    """The solvers' model of ``rules`` (checked by the engine first); raises
    :class:`UnsupportedRules` naming every key the solvers cannot model."""
    full = chase_rules(dict(rules or {}))
    unsupported = []
    for key, value in full.items():
        if key in MODELLED or key in BETWEEN_ROUNDS:
            continue
        if key == "decks" and value in ("auto", 1):   # one deck up to 13 seats
            continue
        if value != CHASE_RULES[key].default:
            unsupported.append(f"{key}={value!r}")
    if unsupported:
        raise UnsupportedRules(unsupported)
    return SolverRules(ace_high=bool(full["ace_high"]))
