"""Where a game's random numbers come from, and why none of them tells a card.

A game has two roots that are drawn apart and never computed from each other:

* the **shuffle seed** (the record's ``seed``): every deal of the game. A game that
  nobody seeded draws it here from :mod:`secrets`, 64 bits wide, so that nobody can
  guess it from the cards they see and then know the cards to come;
* the **bot seed** (the record's ``bot_seed``): the computer players' random choices.
  Each seat's view carries ``seed``, a one-way hash of it and the seat
  (:func:`game.rules.base.seat_seed`). It is drawn here from :mod:`secrets` too, for
  every game, also when the shuffle seed was given, so that it is no function of the
  deal: a seat that knows its own seed knows nothing more about any card.

Both stay in the record, so a replay is exact. A series of games (a tournament, a
benchmark) has one root of each kind, and every game's seeds are hashes of its root
and the game's number: the deals from the shuffle root, the bot seeds from the bot
root. Given the same two roots, a series plays the same games again.
"""

from __future__ import annotations

import secrets

from game.ai.common import mix

#: Bits of every seed drawn here.
SEED_BITS = 64


def fresh() -> int:
    """A new seed from the system's secure random source (:mod:`secrets`)."""
    return secrets.randbits(SEED_BITS)


def series_deal_seed(root: int, k: int) -> int:
    """The shuffle seed of game ``k`` of a series whose shuffle root is ``root``."""
    return mix(root, k) >> 1


def series_bot_seed(root: int, k: int) -> int:
    """The bot seed of game ``k`` of a series whose bot root is ``root`` (a root of its
    own: never the shuffle root)."""
    return mix(root, k, 1) >> 1


__all__ = ["SEED_BITS", "fresh", "series_bot_seed", "series_deal_seed"]
