"""Cards, ranks, suits and the decks both games use, with their text codes.

A card is written as a short, case-sensitive code (docs/rules.md):

* French cards: rank then suit, ``TH`` (ten of hearts), ``AS`` (ace of spades).
  Ranks ``A 2 3 4 5 6 7 8 9 T J Q K``, suits ``C D H S``.
* Cuckoo cards: the English value name, ``Fool`` … ``Cuckoo``.

Cards are plain ``str`` codes everywhere in the engine: they are hashable, JSON-ready
and cheap to compare. Decks with two copies of a card simply contain the code twice.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_NAMES_EN = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
SUIT_NAMES_DE = {"C": "Kreuz", "D": "Karo", "H": "Herz", "S": "Pik"}
RANK_NAMES_EN = {
    "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
    "7": "Seven", "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen",
    "K": "King",
}
RANK_NAMES_DE = {
    "A": "Ass", "2": "Zwei", "3": "Drei", "4": "Vier", "5": "Fünf", "6": "Sechs",
    "7": "Sieben", "8": "Acht", "9": "Neun", "T": "Zehn", "J": "Bube", "Q": "Dame",
    "K": "König",
}

#: Cuckoo values, lowest first (docs/rules.md#variants-in-detail).
CUCKOO_VALUES = (
    "Fool", "Lion", "Mask", "Bucket", "Zero",
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "Inn", "Cat", "Horse", "Hussar", "Cuckoo",
)
CUCKOO_NAMES_DE = {
    "Fool": "Narr", "Lion": "Löwe", "Mask": "Maske", "Bucket": "Eimer", "Zero": "Null",
    "Inn": "Wirtshaus", "Cat": "Katze", "Horse": "Pferd", "Hussar": "Husar",
    "Cuckoo": "Kuckuck",
}

FRENCH52: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
SKAT32: tuple[str, ...] = tuple(r + s for s in SUITS for r in "789TJQKA")
CUCKOO40: tuple[str, ...] = CUCKOO_VALUES + CUCKOO_VALUES

DECKS: dict[str, tuple[str, ...]] = {
    "french52": FRENCH52,
    "skat32": SKAT32,
    "cuckoo40": CUCKOO40,
}


class CardError(ValueError):
    """A card code that is malformed or does not belong to the deck in use."""


def is_french(code: str) -> bool:
    return len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def rank_of(code: str) -> str:
    """Rank letter of a French card (``"T"`` for ``"TH"``)."""
    return code[0]


def suit_of(code: str) -> str:
    """Suit letter of a French card (``"H"`` for ``"TH"``)."""
    return code[1]


def parse_card(code: object, deck: Iterable[str] = FRENCH52) -> str:
    """Return ``code`` if it names a card of ``deck``; raise :class:`CardError` otherwise.

    The message says what is wrong, so it can be shown to a user as it is.
    """
    if not isinstance(code, str):
        raise CardError(f"{code!r} is not a card code (expected text such as 'TH' or 'AS')")
    cards = deck if isinstance(deck, (set, frozenset)) else set(deck)
    if code in cards:
        return code
    if is_french(code) or code in CUCKOO_VALUES:
        raise CardError(f"{code!r} is not a card of the deck in use")
    hint = ""
    if len(code) == 2 and code.upper() != code and is_french(code.upper()):
        hint = f" (codes are case-sensitive: did you mean {code.upper()!r}?)"
    elif code == "10" or (len(code) == 3 and code.startswith("10")):
        hint = " (the ten is written 'T', as in 'TH')"
    raise CardError(
        f"{code!r} is not a card code: use rank {' '.join(RANKS)} then suit "
        f"{' '.join(SUITS)}, e.g. 'TH', or a Cuckoo name such as 'Fool'{hint}"
    )


def card_name(code: str, lang: str = "en") -> str:
    """Human-readable name of a card, in English or German."""
    if code in CUCKOO_VALUES:
        return CUCKOO_NAMES_DE.get(code, code) if lang == "de" else code
    rank, suit = code[0], code[1]
    if lang == "de":
        return f"{SUIT_NAMES_DE[suit]}-{RANK_NAMES_DE[rank]}"
    return f"{RANK_NAMES_EN[rank]} of {SUIT_NAMES_EN[suit]}"
