"""The four Rams levels: ``easy``, ``medium``, ``hard``, ``expert`` (docs/rules.md#rams).

Every level decides from the docs/view.md view only (a mapping; never the engine). Random
numbers come from ``view["seed"]`` mixed with ``view["step"]``, and the search's
budgets are counts, so the same view gives the same decision on any machine.

They err as people do, not at random: ``easy`` and ``medium`` blur close calls, forget
cards and play for their own life only; the search levels differ in how much they look
at and read.

- ``easy``: plays or drops by rough feel (trumps and Aces, blurred by noise), forgets
  the cards played, and often plays on impulse (its strongest card that takes the
  trick where a cheaper one would do).
- ``medium``: the heuristics of :mod:`game.ai.rams_heuristics`; a close declaration
  could go either way, low side cards played are forgotten, a rare impulsive card.
- ``easy`` and ``medium`` play for their own life (:func:`own_life_card`): once they
  hold a trick they shed their lowest cards and leave the players still needing one
  alone.
- ``hard``: the search of :mod:`game.ai.rams_search`: sampled deals consistent with
  the view and weighted by how likely each declaration was, play-outs on packed
  cards, outcomes valued by the chance to win the game (so every life the others
  lose counts, and a seat with its trick takes tricks away from the needy).
- ``expert``: the same search with three times the worlds, each opponent's declaring
  style read from the game so far, and the cards the others played read as evidence
  about their hands.
"""

from __future__ import annotations

from game.ai.common import LevelError, unit
from game.ai.rams_heuristics import (
    counters_margin,
    declare_margin,
    general_call,
    medium_card,
    medium_declare,
    none_declare,
    sigmoid,
    take_choice,
)
from game.ai.rams_info import Info, View, keep_value
from game.ai.rams_search import Budget, search_move
from game.rules.rams_rules import beats, trick_winner


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
    """The heuristics of :mod:`game.ai.rams_heuristics`, played as a fair club player
    does: a close declaration could go either way (the closer, the more even), low
    side cards once played are forgotten, now and then a trick is taken with a bigger
    card than it needed, and once its own life is safe it stops playing
    (:func:`own_life_card`)."""

    name = "medium"
    #: how blurred a close declaration is (lives of expected loss): a call within
    #: about a tenth of a life could go either way
    blur = 0.05
    #: share of cards played on impulse (:func:`impulsive`)
    slips = 0.1

    def decide(self, view: View) -> str:
        info = Info(view)
        r = unit(view["seed"], view.get("step", 0), 0x3ED1)
        if info.decision == "declare" or "play" in info.legal:
            if general_call(info):
                return "general"
            if "drop" not in info.legal:
                return "play"
            if info.counting:
                margin = counters_margin(info)
            elif info.limit is None:
                return none_declare(info)
            else:
                margin = declare_margin(info)
            return "play" if r < sigmoid(margin / self.blur) else "drop"
        if info.decision == "take" or "pass_trump" in info.legal:
            return take_choice(info)
        forget_low_cards(info)
        card = own_life_card(info)
        return impulsive(info) if r < self.slips else card


class RamsEasy(RamsLevel):
    """Rough feel, no memory of the cards played, often impulsive, and only its own life
    in mind (:func:`own_life_card`)."""

    name = "easy"
    slips = 0.25

    def decide(self, view: View) -> str:
        r = unit(view["seed"], view.get("step", 0), 0xEA5)
        info = Info(view, memory=False)
        legal = info.legal
        if info.decision == "declare" or "play" in legal:
            trump = info.trump
            feel = sum(1.0 if c[1] == trump and info.rank[c] >= 3 else
                       0.6 if c[1] == trump else
                       0.7 if c[0] == "A" else 0.25 if c[0] == "K" else 0.0
                       for c in info.hand)
            feel += (r - 0.5) * 1.6
            return "play" if feel >= 1.0 or "drop" not in legal else "drop"
        if info.decision == "take" or "pass_trump" in legal:
            return take_choice(info) if r < 0.7 else "pass_trump"
        info.gone = {info.trump_card} if info.took is None else set()
        if r < self.slips:
            return impulsive(info)
        return own_life_card(info)


def own_life_card(info: Info) -> str:
    """The card of a player who plays for its own life only: the heuristic's card until
    it holds a trick, then (unless someone plays alone, whom everyone stops) its lowest
    card; under ``counters`` every trick sheds a counter, so it plays on for tricks,
    and in a General Rams round it plays the heuristic. The heuristic, like the search,
    would go on taking tricks away from the
    players still needing one, since every life the others lose brings a win nearer;
    club players rarely bother once they are safe, and that is a good part of what sets
    the search levels above them (docs/computer-players.md#the-levels)."""
    if (info.lone is None and info.general is None and not info.counting
            and info.tricks.get(info.me, 0) > 0):
        trump, rank = info.trump, info.rank
        return min(info.legal, key=lambda c: keep_value(c, trump, rank))
    return medium_card(info)


def forget_low_cards(info: Info) -> None:
    """Keep in mind only the trumps and the high cards (Jack and up) played, and the
    cards on the table now."""
    trump = info.trump
    on_table = {c for _, c in info.trick}
    info.gone = {c for c in info.gone if c[1] == trump or c[0] in "JQKA" or c in on_table}


def impulsive(info: Info) -> str:
    """A card played on impulse: the strongest card that takes the trick (or the
    strongest card, leading), where a careful player would look for the cheapest."""
    legal = info.legal
    trump = info.trump
    rank = info.rank

    def kv(c: str) -> int:
        return keep_value(c, trump, rank)

    trick = [c for _, c in info.trick]
    if not trick:
        return max(legal, key=kv)
    best = trick[trick_winner(trick, trump, rank)]
    winners = [c for c in legal if beats(c, best, trump, rank)]
    if winners:
        return max(winners, key=kv)
    return medium_card(info)


class RamsHard(RamsLevel):
    """The search of :mod:`game.ai.rams_search` at a budget of counts."""

    name = "hard"
    budget = Budget(declare=640, card=320)

    def decide(self, view: View) -> str:
        info = Info(view)
        if info.decision == "take" or "pass_trump" in info.legal:
            return take_choice(info)
        if (info.decision == "declare" and info.limit is None and not info.counting
                and "drop" in info.legal and "general" not in info.legal):
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
    budget = Budget(declare=2000, card=1000, styles=True, read_play=True)
