"""The Chase the Ace levels ``easy``, ``medium``, ``hard`` and the ``threshold`` bot.

Every level decides from the view (docs/view.md) only: it reads the view into a
:class:`~game.ai.chase_info.Situation` and gives each legal move a probability
(:meth:`ChaseLevel.probabilities`); ``choose`` draws from those with a number from the
view's ``seed``, round and step, so the same view always gives the same move. The
coach and the ``expert`` play out sampled worlds with these same probabilities.

- ``easy``: sensible thresholds blurred by noise on close calls; forgets what it saw.
- ``medium``: thresholds by table size and seat, plus what it saw: a card it gave away
  that now lies lower than its own, a King shown, low cards shown.
- ``hard``: the equilibrium tables of ``tools/solve_chase.py`` (:mod:`chase_tables`).
- ``threshold``: swaps with 6 or lower, draws with 7 or lower (a fixed, simple style;
  ``threshold:S:D`` sets both).
"""

from __future__ import annotations

import math

from game.ai.chase_info import Situation, View, is_blocker, situation
from game.ai.chase_tables import base_threshold, hard_p
from game.ai.common import LevelError, pick, unit

#: The order in which a random number walks the moves (the "yes" moves first).
MOVE_ORDER = ("refuse", "swap", "draw", "accept", "keep")
#: Salt of the number a level draws for a decision.
DECISION_SALT = 0x5EA7


def decision_number(view: View) -> float:
    """The level's random number for this decision, from the view alone."""
    return unit(view["seed"], view.get("step", 0), view.get("round", 0), DECISION_SALT)


def medium_p(sit: Situation) -> float:
    t = base_threshold(sit.n, sit.pos)
    last = sit.hist[-1:] if sit.hist else ""
    if sit.dealer:
        if last == "s":
            t += 1      # the card handed to us was low: the others are higher
        if sit.rules.get("dealer_wins_ties"):
            t -= 1
    if sit.known_lower:
        return 0.0      # a lower card is out of reach of any further swap: we are safe
    if sit.shown_low and any(v < sit.current for v in sit.shown_low) and not sit.dealer:
        t -= 1          # a lower card is already in play
    return 1.0 if sit.current < t else 0.0


def easy_p(sit: Situation) -> float:
    """A casual player: medium's thresholds without memory, blurred on close calls."""
    t = base_threshold(sit.n, sit.pos)
    if sit.current <= 2:
        return 1.0
    if sit.current >= sit.blocker - 1:
        return 0.0
    z = (t - sit.current) / 1.5
    return 1.0 / (1.0 + math.exp(-z))


class ChaseLevel:
    """A level: ``core(sit)`` -> p_swap; special decisions and safety rules shared."""

    name = "level"
    careful = True     # medium and up: keep everything sensible under every variant

    def core(self, sit: Situation) -> float:
        raise NotImplementedError

    def choose(self, view: View) -> str:
        legal = list(view["legal"])
        if len(legal) == 1:
            return legal[0]
        move = pick(self.probabilities(view), MOVE_ORDER, decision_number(view))
        if move not in legal:
            raise LevelError(f"{self.name} chose {move!r}, not one of {legal}")
        return move

    def probabilities(self, view: View) -> dict[str, float]:
        """The probability of every legal move of the view."""
        legal = view["legal"]
        if len(legal) == 1:
            return {legal[0]: 1.0}
        return self.decision_probabilities(situation(view), view)

    def decision_probabilities(self, sit: Situation, view: View) -> dict[str, float]:
        if sit.decision == "queen":
            # keep the Queen: the asker wants to get rid of a low card
            p = 1.0 if self.careful else 0.7
            return {"refuse": p, "accept": 1.0 - p}
        if sit.decision == "domino":
            # the seat a domino swap would ask (the view's partner) may show a King,
            # which blocks it (unless the ask goes on, ``blocked_swap_skips``)
            up = view["faceup"].get(str(view.get("partner")))
            blocked = bool(up) and is_blocker(up) and not sit.rules.get("blocked_swap_skips")
            keep = blocked or sit.current > 6
            return {"keep": 1.0, "swap": 0.0} if keep else {"swap": 1.0, "keep": 0.0}
        p = self.p_yes(sit)
        return {"draw" if sit.dealer else "swap": p, "keep": 1.0 - p}

    def p_yes(self, sit: Situation) -> float:
        """Probability of swapping (dealer: drawing) on a turn, safety rules included."""
        if sit.current == sit.blocker or (sit.hand_card and is_blocker(sit.hand_card)):
            return 0.0
        if sit.dealer:
            if sit.current == 1:
                return 1.0
        elif sit.left_blocks:
            return 0.0
        return self.core(sit)


class Easy(ChaseLevel):
    name = "easy"
    careful = False

    def core(self, sit: Situation) -> float:
        return easy_p(sit)


class Medium(ChaseLevel):
    name = "medium"

    def core(self, sit: Situation) -> float:
        return medium_p(sit)


class Hard(ChaseLevel):
    name = "hard"

    def core(self, sit: Situation) -> float:
        p = hard_p(sit)
        if sit.dealer and sit.rules.get("dealer_wins_ties") and 0 < p:
            lower = Situation(**{**sit.__dict__, "current": min(sit.current + 1, 12)})
            p = min(p, hard_p(lower))
        return p


class ThresholdPlayer(ChaseLevel):
    """Swap with ``swap_at`` or lower, the dealer draws with ``draw_at`` or lower (on the
    13-step scale); never ask a neighbour who showed a King; accept every exchange,
    keep after a domino card."""

    name = "threshold"

    def __init__(self, swap_at: int = 6, draw_at: int = 7) -> None:
        self.swap_at = swap_at
        self.draw_at = draw_at

    def decision_probabilities(self, sit: Situation, view: View) -> dict[str, float]:
        if sit.decision == "queen":
            return {"accept": 1.0, "refuse": 0.0}
        if sit.decision == "domino":
            return {"keep": 1.0, "swap": 0.0}
        if sit.dealer:
            yes = sit.current <= self.draw_at
            return {"draw": float(yes), "keep": float(not yes)}
        up = view["faceup"].get(str(sit.order[(sit.pos + 1) % sit.n]))
        yes = sit.current <= self.swap_at and not (up and is_blocker(up))
        return {"swap": float(yes), "keep": float(not yes)}


def threshold_player(spec: str) -> ThresholdPlayer | None:
    """``threshold:SWAP_AT[:DRAW_AT]`` (e.g. ``threshold:4:4`` keeps with 5 or more),
    or ``None`` if ``spec`` is not of that form."""
    if not spec.startswith("threshold:"):
        return None
    try:
        parts = [int(x) for x in spec.split(":")[1:]]
    except ValueError:
        return None
    if not 1 <= len(parts) <= 2 or not all(1 <= x <= 13 for x in parts):
        return None
    player = ThresholdPlayer(parts[0], parts[-1])
    player.name = spec
    return player
