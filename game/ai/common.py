"""What every computer player shares: the player protocol, deterministic random
numbers from the view, and the uniformly random player.

A player is any object with ``name`` and ``choose(view) -> move``. It decides from the
view (docs/view.md) only; its random numbers come from the view's ``seed`` mixed with the
round and step, so the same view always gives the same move on any machine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from game.seeds import mix  # the series seeds and the levels draw with one hash

View = Mapping[str, Any]


class Player(Protocol):
    name: str

    def choose(self, view: View) -> str: ...


class LevelError(RuntimeError):
    """A computer player failed to decide (a bug): the table reports it, it does not
    quietly play some other move."""


def unit(*parts: int) -> float:
    """A number in [0, 1) from :func:`mix`."""
    return (mix(*parts) >> 11) / float(1 << 53)


def pick(probabilities: Mapping[str, float], order: Sequence[str], r: float) -> str:
    """The move that ``r`` (uniform in [0, 1)) selects from ``probabilities``, walking
    the moves in ``order``; the last move with a positive probability takes the rest."""
    acc = 0.0
    last = None
    for move in order:
        p = probabilities.get(move, 0.0)
        if p <= 0.0:
            continue
        acc += p
        last = move
        if r < acc:
            return move
    if last is None:
        raise LevelError(f"no move has a positive probability in {dict(probabilities)!r}")
    return last


class RandomPlayer:
    """A uniformly random legal move."""

    name = "random"

    def choose(self, view: View) -> str:
        legal = view["legal"]   # sorted, in both games
        x = (view["seed"] ^ view["step"] * 0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9
        x &= 0xFFFFFFFFFFFFFFFF
        return str(legal[(x ^ (x >> 31)) % len(legal)])
