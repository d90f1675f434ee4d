"""How strong a Rams hand is, before the tricks: the chance that it takes no trick
against ``m`` other players, and the chance that it takes every trick alone.

Both are logistic models on a few features of the hand (how many trumps, how many of
its cards are the top card still out in their suit or close to it, voids a trump can
use), fitted to play-outs of :mod:`game.ai.rams_playout` by
``tools/fit_rams_strength.py`` (the coefficients below are its output for
``--samples 60000 --seed 1``). The other
players' hands in those play-outs were drawn as players who chose to play hold them
(strong hands), and the lone player's defenders as players who dropped (weak ones).
"""

from __future__ import annotations

import math

from game.ai.rams_cards import SUIT_MASK, Deck

#: feature names, in the order of the coefficients
FEATURES = ("bias", "trumps", "trump_top", "trump_2nd", "trump_3rd", "side_top",
            "side_2nd", "side_low", "void_ruff", "single_ruff")

#: logit of P(no trick) by the number of other players (1, 2, 3, 4+)
NO_TRICK: dict[int, tuple[float, ...]] = {
    1: (-0.581, -1.864, -11.275, -1.093, -0.618, -0.759, -0.325, 0.042, 0.894, 0.526),
    2: (-0.446, -1.796, -12.361, -1.018, -0.372, -0.631, -0.066, 0.263, 0.870, 0.678),
    3: (-0.344, -1.719, -12.942, -0.971, -0.361, -0.546, 0.139, 0.405, 0.766, 0.731),
    4: (-0.289, -1.748, -13.077, -1.088, -0.435, -0.519, 0.318, 0.506, 0.744, 0.790),
}
#: logit of P(every trick) for a lone player by the number of defenders (1 … 4+)
SWEEP: dict[int, tuple[float, ...]] = {
    1: (-0.221, -0.395, 0.259, 0.190, 0.126, 0.138, -0.057, -0.792, 1.394, 0.177),
    2: (-0.548, -0.737, 0.444, 0.422, 0.272, -0.066, -0.516, -1.420, 1.772, 0.212),
    3: (-0.720, -0.707, 0.645, 0.655, 0.325, -0.145, -0.871, -1.879, 1.478, -0.181),
    4: (-0.951, -0.865, 0.861, 0.821, 0.424, -0.194, -1.326, -2.367, 1.438, -0.326),
}


#: tricks a hand takes under ``scoring: counters`` (everyone plays for tricks all round)
#: by the number of other players (1 … 4+), linear in the features; and alone against
#: 1 … 4+ defenders. Fitted by ``tools/fit_rams_strength.py --samples 60000 --seed 1``
#: (the tables above come from an earlier run of it).
TRICKS: dict[int, tuple[float, ...]] = {
    1: (0.390, 0.921, 0.403, 0.074, 0.041, 0.561, 0.345, 0.125, -0.030, -0.060),
    2: (0.263, 0.830, 0.573, 0.205, 0.101, 0.344, 0.141, 0.001, -0.254, -0.226),
    3: (0.179, 0.652, 0.692, 0.321, 0.168, 0.222, 0.047, -0.026, -0.209, -0.225),
    4: (0.156, 0.625, 0.752, 0.346, 0.195, 0.182, 0.003, -0.030, -0.219, -0.239),
}
TRICKS_ALONE: dict[int, tuple[float, ...]] = {
    1: (0.460, 0.804, 0.101, -0.000, -0.011, 0.755, 0.551, 0.192, 0.343, 0.109),
    2: (0.346, 0.833, 0.267, 0.108, 0.070, 0.597, 0.298, 0.002, 0.136, -0.000),
    3: (0.252, 0.716, 0.386, 0.274, 0.167, 0.474, 0.121, -0.052, 0.088, -0.043),
    4: (0.183, 0.600, 0.471, 0.379, 0.216, 0.348, 0.021, -0.056, 0.096, -0.064),
}


def features(hand: int, trump: int, seen: int, dk: Deck) -> tuple[int, ...]:
    """The features of ``hand`` (a bit set) for a seat that also knows the cards
    ``seen`` are out of play (the turned trump card on the stock, say)."""
    unseen = dk.full & ~hand & ~seen
    above = dk.above
    tmask = SUIT_MASK[trump]
    trumps = (hand & tmask).bit_count()
    t0 = t1 = t2 = s0 = s1 = s2 = 0
    h = hand
    while h:
        low = h & -h
        b = low.bit_length() - 1
        h ^= low
        a = (above[b] & unseen).bit_count()
        if b >> 4 == trump:
            if a == 0:
                t0 += 1
            elif a == 1:
                t1 += 1
            elif a == 2:
                t2 += 1
        elif a == 0:
            s0 += 1
        elif a == 1:
            s1 += 1
        else:
            s2 += 1
    voids = singles = 0
    if trumps:
        for s in range(4):
            if s == trump:
                continue
            k = (hand & SUIT_MASK[s]).bit_count()
            if k == 0:
                voids += 1
            elif k == 1:
                singles += 1
    return (1, trumps, t0, t1, t2, s0, s1, s2, voids, singles)


def _logistic(coef: tuple[float, ...], f: tuple[int, ...]) -> float:
    z = 0.0
    for c, x in zip(coef, f):
        z += c * x
    if z > 30:
        return 1.0
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


def p_no_trick(f: tuple[int, ...], others: int) -> float:
    """Chance that a hand with features ``f`` takes no trick against ``others``
    players (at least one)."""
    return _logistic(NO_TRICK[min(4, max(1, others))], f)


def p_sweep(f: tuple[int, ...], defenders: int) -> float:
    """Chance that a lone player with features ``f`` takes every trick."""
    return _logistic(SWEEP[min(4, max(1, defenders))], f)


def _linear(coef: tuple[float, ...], f: tuple[int, ...]) -> float:
    return sum(c * x for c, x in zip(coef, f))


def expected_tricks(f: tuple[int, ...], others: int, hand_size: int = 5) -> float:
    """Tricks a hand with features ``f`` takes against ``others`` players when every
    trick counts (``scoring: counters``)."""
    return min(float(hand_size), max(0.0, _linear(TRICKS[min(4, max(1, others))], f)))


def expected_tricks_alone(f: tuple[int, ...], defenders: int, hand_size: int = 5) -> float:
    """Tricks a lone player with features ``f`` takes against ``defenders``."""
    return min(float(hand_size),
               max(0.0, _linear(TRICKS_ALONE[min(4, max(1, defenders))], f)))
