"""The rules of Chase the Ace (RULES.md §1) as small pure functions.

Each rule is written here once. :class:`game.rules.chase.ChaseGame` is the state
machine built on them; the computer players' play-outs and the coach drive that same
engine, and the table asks the engine why a move is not allowed. Nothing here keeps
state or emits events: the functions take the facts they need and return what the
rule says.

* :class:`CardScale` -- every card's value under the rules in force (``ace_high``, the
  Cuckoo deck), and which cards block (Kings), may refuse (Queens), are low (shown
  before passing, domino) or lowest (domino ``ace``), or are printed Aces; and the
  one *strength* scale (1 … 13) the computer players, the solved tables and the
  solvers compare cards on, with BOTS.md's rank numbers (1 Ace … 13 King).
* :func:`resolve_ask` -- one ask to exchange: King blocks (``blocked_swap_skips``
  passes the ask on), a Queen's refusal (``queen_refuses_once``), or the exchange.
* :func:`shown_before_exchange` -- which low cards are shown first (``reveal_low_on_pass``).
* :func:`domino_partner` -- whether the asker may demand one more swap (``domino``).
* :func:`dealer_draw` -- the dealer's draw (``talon_king_blocks``).
* :func:`settle_showdown` -- who loses how many lives, final ties (``final_tie``),
  ``dealer_wins_ties``, double losses, sudden death.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

from game.cards import CUCKOO40, CUCKOO_VALUES, FRENCH52

#: Rank letters low -> high, by ``ace_high``.
FRENCH_ORDER_LOW = "A23456789TJQK"
FRENCH_ORDER_HIGH = "23456789TJQKA"
#: How many of the lowest values count as "low" (shown before passing, domino ``low``).
LOW_VALUES = 3
#: Above this many starting seats, ``decks: auto`` shuffles two decks together.
ONE_DECK_MAX_SEATS = 13
#: Steps of the strength scale: the French deck's thirteen ranks.
STRENGTH_STEPS = 13


class CardScale:
    """Card values under the rules in force: ``value[card]`` (1 = lowest) and the
    cards with a part to play (Kings block, Queens may refuse, low cards are shown,
    printed Aces may cost double)."""

    def __init__(self, rules: Mapping[str, Any]) -> None:
        if rules["deck"] == "cuckoo40":
            self.value = {c: i + 1 for i, c in enumerate(CUCKOO_VALUES)}
            self.blockers = frozenset({"Cuckoo"})
            self.queens: frozenset[str] = frozenset()
            self.aces: frozenset[str] = frozenset()
            self.ace_of_spades: str | None = None
            self.deck = CUCKOO40
        else:
            order = FRENCH_ORDER_HIGH if rules["ace_high"] else FRENCH_ORDER_LOW
            self.value = {c: order.index(c[0]) + 1 for c in FRENCH52}
            self.blockers = frozenset(c for c in FRENCH52 if c[0] == "K")
            self.queens = frozenset(c for c in FRENCH52 if c[0] == "Q")
            self.aces = frozenset(c for c in FRENCH52 if c[0] == "A")
            self.ace_of_spades = "AS"
            self.deck = FRENCH52
        #: the highest value (the King; the Ace with ``ace_high``; the Cuckoo)
        self.top = max(self.value.values())
        self.low = frozenset(c for c, v in self.value.items() if v <= LOW_VALUES)
        self.lowest = frozenset(c for c, v in self.value.items() if v == 1)
        #: every card's strength: its value on a scale of :data:`STRENGTH_STEPS` steps
        #: (the French values as they are; the Cuckoo deck's twenty squeezed onto it,
        #: the Cuckoo on the top step), so one set of tables serves both decks
        self.strength = {c: self._squeeze(v) for c, v in self.value.items()}
        #: the blocking card's strength (the King: 13, or 12 with ``ace_high``)
        self.blocker_strength = self.strength[min(self.blockers)]
        if rules["deck"] != "cuckoo40":
            ranks = {self.strength[c]: FRENCH_ORDER_LOW.index(c[0]) + 1 for c in FRENCH52}
        else:       # no printed ranks: the strengths stand for them
            ranks = {s: s for s in self.strength.values()}
        self._rank = ranks
        self._strength_of_rank = {r: s for s, r in ranks.items()}
        #: how many cards of one deck have each strength (index 0 unused)
        self.strength_counts = tuple(
            sum(1 for c in self.deck if self.strength[c] == s) for s in range(STRENGTH_STEPS + 1))

    def _squeeze(self, v: int) -> int:
        top = self.top
        if top == STRENGTH_STEPS:
            return v
        if v == top:
            return STRENGTH_STEPS
        return 1 + round((v - 1) * (STRENGTH_STEPS - 2) / (top - 2))

    def rank_number(self, strength: int) -> int:
        """BOTS.md's rank number (1 Ace … 13 King) of the cards of a strength (the
        Cuckoo deck: the strength itself)."""
        return self._rank[strength]

    def strength_of_rank(self, rank: int) -> int:
        """The strength of the cards with BOTS.md's rank number ``rank``."""
        return self._strength_of_rank[rank]


@cache
def card_scale(deck: str = "french52", ace_high: bool = False) -> CardScale:
    """The (shared, read-only) :class:`CardScale` of a deck under ``ace_high``."""
    return CardScale({"deck": deck, "ace_high": ace_high})


def scale_for(rules: Mapping[str, Any]) -> CardScale:
    """The :class:`CardScale` of ``rules`` (missing keys take their defaults)."""
    return card_scale(rules.get("deck", "french52"), bool(rules.get("ace_high", False)))


def decks_in_play(rules: Mapping[str, Any], n_seats: int) -> int:
    """How many decks are shuffled together (``decks``; ``auto``: two above 13 seats)."""
    if rules["decks"] == "auto":
        return 2 if n_seats > ONE_DECK_MAX_SEATS else 1
    return int(rules["decks"])


def left_in(order: Sequence[int], seat: int) -> int:
    """The next seat after ``seat`` in the round's turn order (wrapping round)."""
    return order[(order.index(seat) + 1) % len(order)]


# --------------------------------------------------------------------------- one ask


class AskResult(NamedTuple):
    """What one ask to exchange comes to.

    ``blocks``: every (seat, King) shown against the ask, in order. ``outcome``:
    ``"exchange"`` with ``target``, ``"queen"`` (``target`` holds a Queen and chooses
    to accept or refuse), or ``"blocked"`` (nobody exchanges; the asker keeps).
    """

    outcome: str
    target: int
    blocks: tuple[tuple[int, str], ...] = ()


def resolve_ask(hands: Sequence[str | None], asker: int, target: int,
                order: Sequence[int], dealer: int, rules: Mapping[str, Any],
                scale: CardScale, may_refuse: Sequence[bool]) -> AskResult:
    """``asker`` asks ``target`` to exchange (RULES.md §1 steps 4-5 and the variants).

    A King holder blocks (its own turn is then over). With ``blocked_swap_skips`` the
    ask goes on to the next seat after the King holder, past each King, but never
    past the dealer and never back to the asker. A Queen holder who may still refuse
    (``queen_refuses_once``, ``may_refuse[seat]``) is offered the choice.
    """
    blocks: list[tuple[int, str]] = []
    while True:
        card = hands[target]
        assert card is not None
        if card in scale.blockers:
            blocks.append((target, card))
            if rules["blocked_swap_skips"] and target != dealer:
                nxt = left_in(order, target)
                if nxt != asker:
                    target = nxt
                    continue
            return AskResult("blocked", target, tuple(blocks))
        if card in scale.queens and rules["queen_refuses_once"] and may_refuse[target]:
            return AskResult("queen", target, tuple(blocks))
        return AskResult("exchange", target, tuple(blocks))


def shown_before_exchange(gave: str, got: str, rules: Mapping[str, Any],
                          scale: CardScale) -> tuple[bool, bool]:
    """Whether the asker and the asked seat must first show the card they pass
    (``reveal_low_on_pass``: the three lowest values)."""
    if not rules["reveal_low_on_pass"]:
        return False, False
    return gave in scale.low, got in scale.low


def domino_partner(got: str, asker: int, partner: int, order: Sequence[int], dealer: int,
                   rules: Mapping[str, Any], scale: CardScale) -> int | None:
    """After ``asker`` exchanged with ``partner`` and received ``got``: the seat a
    domino swap would ask (the next after ``partner``), or ``None`` when the variant
    offers none (off, not a trigger card, the partner was the dealer, or the next seat
    would be the asker). A domino swap itself never offers another."""
    mode = rules["domino"]
    if mode == "off" or partner == dealer:
        return None
    triggers = scale.low if mode == "low" else scale.lowest
    if got not in triggers:
        return None
    nxt = left_in(order, partner)
    return None if nxt == asker else nxt


# --------------------------------------------------------------------------- the dealer


class Draw(NamedTuple):
    """The dealer's draw: the card held now, the card laid on the discards, and whether
    the drawn card was refused (a King under ``talon_king_blocks``)."""

    held: str
    laid: str
    refused: bool


def dealer_draw(own: str, drawn: str, rules: Mapping[str, Any], scale: CardScale) -> Draw:
    """The dealer, holding ``own``, draws ``drawn`` from the talon. With
    ``talon_king_blocks`` a King drawn is refused and the dealer keeps their own card;
    otherwise any card drawn is kept (a King too)."""
    if rules["talon_king_blocks"] and drawn in scale.blockers:
        return Draw(own, drawn, True)
    return Draw(drawn, own, False)


# --------------------------------------------------------------------------- the showdown


class Settlement(NamedTuple):
    """What a showdown does to the game.

    ``losers``: seats holding the lowest card (after ``dealer_wins_ties``).
    ``lost``: lives each seat loses now (capped at its lives; empty when the round is
    replayed or in sudden death). ``final_tie``: the ``final_tie`` policy when every
    remaining player would reach 0 lives together, else ``None``. ``out``: seats that
    leave the game. ``replayed``: the round counts for nothing and is dealt again.
    ``sudden_death``: the tied seats now play sudden-death rounds. ``winner``: the
    game's winner (a seat, or a sorted list for a shared win) when it ends here.
    ``restart``: everyone gets full lives back and the game starts over.
    """

    losers: tuple[int, ...]
    lost: dict[int, int] = {}  # noqa: RUF012 - a NamedTuple default, never changed
    final_tie: str | None = None
    out: tuple[int, ...] = ()
    replayed: bool = False
    sudden_death: bool = False
    restart: bool = False
    winner: int | list[int] | None = None


def showdown_losers(cards: Mapping[int, str], dealer: int, rules: Mapping[str, Any],
                    scale: CardScale) -> list[int]:
    """Seats holding the lowest value (ties all lose); with ``dealer_wins_ties`` the
    dealer is spared a tie."""
    value = scale.value
    low = min([value[c] for c in cards.values()])
    losers = [s for s, c in cards.items() if value[c] == low]
    if rules["dealer_wins_ties"] and len(losers) > 1 and dealer in losers:
        losers.remove(dealer)
    return losers


def life_cost(card: str, lives: int, rules: Mapping[str, Any], scale: CardScale) -> int:
    """Lives a losing ``card`` costs (two for a printed Ace with ``aces_double``, or
    the Ace of spades with ``ace_of_spades_double``), capped at the ``lives`` left."""
    amount = 1
    if (rules["aces_double"] and card in scale.aces) or (
            rules["ace_of_spades_double"] and card == scale.ace_of_spades):
        amount = 2
    return min(amount, lives)


def settle_showdown(cards: Mapping[int, str], dealer: int, lives: Sequence[int],
                    in_game: Sequence[bool], sudden_death: bool, rules: Mapping[str, Any],
                    scale: CardScale) -> Settlement:
    """The outcome of a showdown of ``cards`` (seat -> card, every active seat).

    ``lives`` and ``in_game`` are before the showdown; in sudden death the contenders
    are the seats still ``in_game``.
    """
    losers = showdown_losers(cards, dealer, rules, scale)
    if sudden_death:
        contenders = [s for s in range(len(in_game)) if in_game[s]]
        if len(losers) == len(contenders):
            return Settlement(tuple(losers), replayed=True)
        alive = [s for s in contenders if s not in losers]
        return Settlement(tuple(losers), out=tuple(sorted(losers)),
                          winner=alive[0] if len(alive) == 1 else None)
    if rules["aces_double"] or rules["ace_of_spades_double"]:
        lost = {s: life_cost(cards[s], lives[s], rules, scale) for s in losers}
    else:   # one life each: every loser still in the game has one to lose
        lost = dict.fromkeys(losers, 1)
    final = len(losers) == len(cards) and all([lives[s] <= a for s, a in lost.items()])
    if final:
        policy = rules["final_tie"]
        if policy == "replay":
            return Settlement(tuple(losers), final_tie=policy, replayed=True)
        if policy == "sudden_death":
            return Settlement(tuple(losers), lost, policy, sudden_death=True)
        if policy == "shared":
            return Settlement(tuple(losers), lost, policy, winner=sorted(losers))
        return Settlement(tuple(losers), lost, policy, restart=True)
    out = [s for s in losers if lives[s] == lost[s]]
    if not out:
        return Settlement(tuple(losers), lost)
    alive = [s for s in range(len(in_game)) if in_game[s] and s not in out]
    return Settlement(tuple(losers), lost, None, tuple(out), False, False, False,
                      alive[0] if len(alive) == 1 else None)
