"""Helpers to set up Chase the Ace situations card by card."""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.cards import CUCKOO40, FRENCH52
from game.rules.chase import ChaseGame


def stock_for(hands: dict[int, str], n: int, dealer: int, talon: list[str] | None = None,
              deck: tuple[str, ...] = FRENCH52, copies: int = 1) -> list[str]:
    """A full stock that deals ``hands[seat]`` to each seat, then ``talon`` on top of
    the rest of the deck. Seats missing from ``hands`` are not dealt in (out)."""
    order = [(dealer + k) % n for k in range(1, n + 1)]
    order = [s for s in order if s in hands]
    top = [hands[s] for s in order] + list(talon or [])
    rest = Counter(deck * copies)
    rest.subtract(Counter(top))
    assert all(v >= 0 for v in rest.values()), "a card is used more often than the deck has it"
    tail = []
    for card in deck * copies:
        if rest[card] > 0:
            tail.append(card)
            rest[card] -= 1
    return top + tail


def game_with(hands: list[str], dealer: int = 0, rules: dict[str, Any] | None = None,
              talon: list[str] | None = None, more: list[list[str]] | None = None,
              seed: int | None = 1) -> ChaseGame:
    """A started game whose first round deals ``hands[i]`` to seat ``i``."""
    n = len(hands)
    deck = CUCKOO40 if (rules or {}).get("deck") == "cuckoo40" else FRENCH52
    deals = [stock_for(dict(enumerate(hands)), n, dealer, talon, deck)] + list(more or [])
    g = ChaseGame(rules, n, seed=seed, dealer=dealer, deals=deals)
    g.start()
    return g


def play(g: ChaseGame, *moves: str) -> list[Any]:
    """Apply moves for whoever is to move; returns all events."""
    out = []
    for m in moves:
        p = g.to_move()
        assert p is not None, f"game over before {m!r}"
        out.extend(g.apply(p.seat, m))
    return out


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]
