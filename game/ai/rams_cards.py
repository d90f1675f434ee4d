"""Cards packed into bits, for the search's fast play-outs.

A card is one bit of an ``int``: bit ``16 * suit + rank`` (suits in the order of
:data:`SUIT_ORDER`, rank 0 = the lowest of the deck in use), so a hand is a bit set and
"the cards of a suit", "the cards above this one" are masks. The rules of a trick are
the ones of :mod:`game.rules.rams_rules` written on those masks (follow suit, the
``must_trump`` / ``must_beat`` variants, which card heads a trick);
``tests/test_rule_primitives.py`` plays them against the rules' own functions on
random states, ``tests/test_rams_fast_paths.py`` against the engine, card by card.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from game.rules.rams_rules import DECK_CARDS, RANK_ORDER

SUIT_ORDER = "CDHS"
SUIT_BITS = 16
SUIT_MASK = tuple(0xFFFF << (SUIT_BITS * s) for s in range(4))


class Deck:
    """Bit <-> card code for one deck, and the masks the play-outs need."""

    def __init__(self, name: str) -> None:
        self.name = name
        order = RANK_ORDER[name]
        self.bit: dict[str, int] = {}
        self.code: dict[int, str] = {}
        full = 0
        for c in DECK_CARDS[name]:
            b = SUIT_BITS * SUIT_ORDER.index(c[1]) + order.index(c[0])
            self.bit[c] = b
            self.code[b] = c
            full |= 1 << b
        self.full = full
        #: cards of the same suit above each bit (index: bit number)
        self.above = [0] * 64
        self.below = [0] * 64
        for b in self.code:
            s = b >> 4
            self.above[b] = SUIT_MASK[s] & full & ~((2 << b) - 1)
            self.below[b] = SUIT_MASK[s] & full & ((1 << b) - 1)

    def mask(self, cards: Iterable[str]) -> int:
        m = 0
        bit = self.bit
        for c in cards:
            m |= 1 << bit[c]
        return m

    def cards(self, mask: int) -> list[str]:
        """The codes of a mask, lowest bit first."""
        out = []
        code = self.code
        while mask:
            low = mask & -mask
            out.append(code[low.bit_length() - 1])
            mask ^= low
        return out


@cache
def deck(name: str) -> Deck:
    return Deck(name)


def suit_index(suit: str) -> int:
    return SUIT_ORDER.index(suit)


def bits(mask: int) -> list[int]:
    """The bit numbers of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def legal_mask(hand: int, led: int, best: int, trump: int, above: list[int],
               must_trump: bool, must_beat: bool) -> int:
    """The cards of ``hand`` that may follow in a trick led in suit ``led`` (an index)
    whose heading card is bit ``best``; ``led < 0``: a lead, any card. As
    :func:`game.rules.rams_rules.playable`."""
    if led < 0:
        return hand
    cands = hand & SUIT_MASK[led]
    if not cands:
        cands = hand
        if must_trump:
            t = hand & SUIT_MASK[trump]
            if t:
                cands = t
    if must_beat:
        wins = cands & beating(best, trump, above)
        if wins:
            cands = wins
    return cands


def beating(best: int, trump: int, above: list[int]) -> int:
    """Every card that would take the lead from the heading card ``best``: a higher one
    of its suit, and every trump if it is not one (as
    :func:`game.rules.rams_rules.beats`)."""
    if best >> 4 == trump:
        return above[best]
    return above[best] | SUIT_MASK[trump]


def beats_bit(card: int, best: int, trump: int) -> bool:
    """Whether bit ``card`` takes the lead from bit ``best``."""
    cs = card >> 4
    if cs == best >> 4:
        return card > best
    return cs == trump
