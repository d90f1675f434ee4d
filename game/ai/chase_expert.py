"""The ``expert`` level: ``hard`` plus a model of every opponent from the showdowns.

Every earlier round of the game (``view["history"]``) ends with a showdown that shows
each active seat's final card. Undoing the round's public swaps gives the card each
seat held when it kept or swapped (a dealer's card before a draw stays unknown). From
these (card, move) pairs the expert fits, per opponent, a swap threshold for turns and
one for the dealer's draw, with a prior that favours the equilibrium's thresholds.
An opponent whose fit is the equilibrium's (or without evidence) is modelled as
``hard``; one that keeps too much or swaps too much as that threshold player. When
some opponent deviates, the expert plays the sampled best response
(:func:`game.ai.chase_sampling.outcomes`: the engine plays out sampled worlds) to
those models; otherwise it plays ``hard``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from game.ai.chase_info import Situation, is_blocker, situation
from game.ai.chase_levels import ChaseLevel, Hard
from game.ai.chase_sampling import outcomes
from game.ai.chase_tables import base_threshold
from game.ai.common import LevelError, mix
from game.rules.chase_rules import scale_for

View = Mapping[str, Any]
EPS = 0.1          # slip rate of the threshold model
EXPERT_SAMPLES = 300
DEVIATION = 2       # a fitted threshold this far from the equilibrium's is a style


def observations(view: View) -> dict[int, list[tuple[bool, int, bool]]]:
    """seat → [(as dealer, card 1…13 when deciding, swapped/drew)] from showdowns
    (card 0: a dealer's draw, whose card nobody saw)."""
    strength = scale_for(view["rules"]).strength
    out: dict[int, list[tuple[bool, int, bool]]] = {}
    for events in view["history"]:
        show = next((e for e in events if e.get("type") == "showdown"), None)
        if not show:
            continue
        hands: dict[int, str | None] = {int(s): c for s, c in show["cards"].items()}
        active = sorted(hands)
        first = None
        for e in events:
            t = e.get("type")
            if t in ("keep", "swap"):
                first = e["seat"]
                break
            if t in ("block", "refuse"):
                first = e["by"]
                break
        if first is None or first not in active:
            continue
        dealer = active[active.index(first) - 1]
        recs: list[tuple[int, str | None, bool]] = []
        seen: set[int] = set()
        for e in reversed(events):
            t = e.get("type")
            if t == "swap":
                a, b = e["seat"], e["with"]
                hands[a], hands[b] = hands.get(b), hands.get(a)
                recs.append((a, hands[a], True))
            elif t == "keep":
                recs.append((e["seat"], hands.get(e["seat"]), False))
            elif t in ("block", "refuse"):
                recs.append((e["by"], hands.get(e["by"]), True))
            elif t == "draw":
                hands[e["seat"]] = None
        for seat, card, moved in reversed(recs):
            if seat in seen:
                continue
            seen.add(seat)
            if card is None:
                if seat == dealer and moved:   # a draw: the card it threw away is unseen
                    out.setdefault(seat, []).append((True, 0, True))
                continue
            if is_blocker(card):
                continue
            out.setdefault(seat, []).append((seat == dealer, strength[card], moved))
    return out


def fit(obs: list[tuple[int, bool]], centre: float) -> float | None:
    """A threshold t (swap iff card < t) by maximum a posteriori, or None when the
    equilibrium's threshold ``centre`` explains the moves as well."""
    if not obs:
        return None
    best_t, best = None, -math.inf
    for t2 in range(3, 27):
        t = t2 / 2
        ll = 0.0
        for c, moved in obs:
            if c == 0:    # a draw with an unseen card: likely in proportion to t
                q = min(1.0, max(0.0, (t - 1) / 12))
                ll += math.log((1 - EPS) * q + EPS * (1 - q))
            else:
                ll += math.log(1 - EPS if (c < t) == moved else EPS)
        ll -= 0.35 * abs(t - centre)
        if ll > best:
            best_t, best = t, ll
    if best_t is None or abs(best_t - centre) < DEVIATION:
        return None
    return float(math.ceil(best_t) - 0.5)   # swap iff card < t: one t per integer step


class ThresholdModel(ChaseLevel):
    """An opponent modelled as swapping below ``turn`` and drawing below ``draw``
    (``None``: as ``hard`` does); everything else as ``hard``."""

    name = "model"

    def __init__(self, turn: float | None, draw: float | None, hard: Hard) -> None:
        self.turn = turn
        self.draw = draw
        self.hard = hard

    def core(self, sit: Situation) -> float:
        t = self.draw if sit.dealer else self.turn
        if t is None:
            return self.hard.core(sit)
        return 1.0 if sit.current < t else 0.0


@lru_cache(maxsize=1)
def _hard() -> Hard:
    return Hard()


def models(view: View) -> dict[int, tuple[float | None, float | None]]:
    """seat → (turn threshold, draw threshold) for opponents that deviate."""
    n = len(view["active"])
    out = {}
    for seat, obs in observations(view).items():
        if seat == view["seat"]:
            continue
        turn = fit([(c, m) for dl, c, m in obs if not dl], base_threshold(n, 1))
        draw = fit([(c, m) for dl, c, m in obs if dl], base_threshold(n, n - 1))
        if turn is not None or draw is not None:
            out[seat] = (turn, draw)
    return out


def opponent_policies(view: View, found: Mapping[int, tuple[float | None, float | None]]
                      | None = None) -> dict[int, ChaseLevel]:
    """seat -> the policy the expert expects of it: ``hard``, or its fitted style."""
    hard = _hard()
    found = models(view) if found is None else found
    return {s: ThresholdModel(*found[s], hard) if s in found else hard
            for s in view["active"]}


SIMPLE_RULES = {"queen_refuses_once": False, "reveal_low_on_pass": False, "domino": "off",
                "blocked_swap_skips": False, "deck_policy": "fresh", "aces_double": False,
                "ace_of_spades_double": False}


class Expert(ChaseLevel):
    name = "expert"

    def __init__(self) -> None:
        self.base = _hard()
        self.cache: dict[tuple, str | None] = {}

    def core(self, sit: Situation) -> float:
        return self.base.core(sit)

    def choose(self, view: View) -> str:
        legal = list(view["legal"])
        if len(legal) == 1:
            return legal[0]
        move = self.respond(situation(view), view) or self.base.choose(view)
        if move not in legal:
            raise LevelError(f"expert chose {move!r}, not one of {legal}")
        return move

    def probabilities(self, view: View) -> dict[str, float]:
        """The expert's move, with certainty (its randomness is ``hard``'s)."""
        legal = list(view["legal"])
        if len(legal) == 1:
            return {legal[0]: 1.0}
        move = self.respond(situation(view), view)
        if move is None:
            return self.base.probabilities(view)
        return {m: float(m == move) for m in legal}

    def respond(self, sit: Situation, view: View) -> str | None:
        """The best response to the modelled opponents, or ``None`` to play ``hard``."""
        if sit.decision not in ("turn", "dealer"):
            return None
        if sit.current == sit.blocker or (sit.dealer and sit.current == 1):
            return None
        if not sit.dealer and sit.left_blocks:
            return None
        if sit.n > 6:          # large tables: sampling is too slow for a quick move
            return None
        found = models(view)
        if not found:
            return None
        rules = view["rules"]
        simple = all(rules.get(k, v) == v for k, v in SIMPLE_RULES.items())
        key = None
        if simple:
            order = sit.order
            rel = tuple((order.index(s) - sit.pos) % sit.n for s in sorted(found)
                        if s in order)
            key = (sit.n, sit.pos, sit.dealt, sit.current, sit.hist, rel,
                   tuple(found[s] for s in sorted(found) if s in order),
                   bool(rules.get("dealer_wins_ties")), bool(rules.get("talon_king_blocks")),
                   rules.get("ace_high"), rules.get("deck"))
            if key in self.cache:
                return self.cache[key]
        choice = self._respond(sit, view, found, key)
        if key is not None:
            if len(self.cache) > 200000:
                self.cache.clear()
            self.cache[key] = choice
        return choice

    def _respond(self, sit: Situation, view: View, found: Any, key: Any) -> str | None:
        # with a key the samples depend on the key only (suits never matter under
        # these rules), so the cache cannot make two equal views decide differently
        if key is not None:
            seed = mix(*(ord(ch) for ch in repr(key)))
        else:
            seed = mix(view["seed"], view.get("round", 0), view.get("step", 0), 0xE7)
        yes = "draw" if sit.dealer else "swap"
        samples = EXPERT_SAMPLES if sit.n <= 4 else 150
        got = outcomes(view, opponent_policies(view, found), samples, seed)
        tot = sum(wt for wt, _ in got)
        if tot <= 0:
            return None
        diffs = [(wt, r[yes][0] - r["keep"][0]) for wt, r in got if yes in r and "keep" in r]
        if not diffs:
            return None
        m = sum(wt * d for wt, d in diffs) / tot
        se = math.sqrt(sum((wt * (d - m)) ** 2 for wt, d in diffs)) / tot
        if abs(m) < max(0.004, 1.5 * se):
            return None            # too close to tell: play the equilibrium
        return yes if m < 0 else "keep"
