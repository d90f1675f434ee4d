"""The four Rams levels: ``easy``, ``medium``, ``hard``, ``expert`` (RULES.md §2).

Every level decides from the BOTS.md view only (a mapping; never the engine). Random
numbers come from ``view["seed"]`` mixed with ``view["step"]``, and the search's
budgets are counts, so the same view gives the same decision on any machine.

- ``easy``: plays or drops by rough feel (trumps and Aces, blurred by noise), forgets
  the cards played, and now and then throws a careless card.
- ``medium``: the heuristics of :mod:`game.ai.rams_heuristics`.
- ``hard``: sampled deals (consistent with voids, cards played and how likely every
  declaration was) with medium play-outs, valuing the whole table's lives
  (:mod:`game.ai.rams_search`).
- ``expert``: ``hard`` with four times the samples, and each opponent's declarations
  modelled from ``history``: how often it played when free, and the hands it showed.
"""

from __future__ import annotations

from game.ai.common import LevelError, unit
from game.ai.rams_heuristics import medium_card, medium_declare, none_declare, take_choice
from game.ai.rams_info import Info, View
from game.ai.rams_search import Budget, search_move


class RamsLevel:
    name = "level"

    def choose(self, view: View) -> str:
        legal = list(view["legal"])
        if len(legal) == 1:
            return legal[0]
        move = self.decide(view)
        if move not in legal:
            raise LevelError(f"{self.name} chose {move!r}, not one of {legal}")
        return move

    def decide(self, view: View) -> str:
        raise NotImplementedError


class RamsMedium(RamsLevel):
    name = "medium"

    def decide(self, view: View) -> str:
        info = Info(view)
        if info.decision == "declare" or "play" in info.legal:
            return medium_declare(info)
        if info.decision == "take" or "pass_trump" in info.legal:
            return take_choice(info)
        return medium_card(info)


class RamsEasy(RamsLevel):
    """Rough feel, little memory, a careless card now and then."""

    name = "easy"

    def decide(self, view: View) -> str:
        r = unit(view["seed"], view.get("step", 0), 0xEA5)
        r2 = unit(view["seed"], view.get("step", 0), 0xEA6)
        info = Info(view, memory=False)
        legal = info.legal
        if info.decision == "declare" or "play" in legal:
            trump = info.trump
            feel = sum(1.0 if c[1] == trump and info.rank[c] >= 3 else
                       0.6 if c[1] == trump else
                       0.7 if c[0] == "A" else 0.25 if c[0] == "K" else 0.0
                       for c in info.hand)
            feel += (r - 0.5) * 1.6
            return "play" if feel >= 1.0 else "drop"
        if info.decision == "take" or "pass_trump" in legal:
            return take_choice(info) if r < 0.7 else "pass_trump"
        if r < 0.2:
            return legal[int(r2 * len(legal)) % len(legal)]
        info.gone = {info.trump_card} if info.took is None else set()
        return medium_card(info)


class RamsHard(RamsLevel):
    """The search of :mod:`game.ai.rams_search` at a budget of counts."""

    name = "hard"
    budget = Budget(declare=160, card=80)

    def decide(self, view: View) -> str:
        info = Info(view)
        if info.decision == "take" or "pass_trump" in info.legal:
            return take_choice(info)
        if info.decision == "declare" and info.limit is None and "drop" in info.legal:
            # 002 literally: dropping is always safe, so a table of searchers would
            # never end; play a promising hand as medium does
            if none_declare(info) == "play":
                return "play"
        move = search_move(info, self.budget)
        if move is not None:
            return move
        return medium_declare(info) if info.decision == "declare" else medium_card(info)


class RamsExpert(RamsHard):
    """``hard`` with more worlds, each opponent's declaring style read from the game
    so far, and the other seats' cards read as evidence about their hands."""

    name = "expert"
    budget = Budget(declare=480, card=240, styles=True, read_play=True)
