"""The rules of Rams (docs/rules.md#rams) as small pure functions.

Each rule is written here once: :class:`game.rules.rams.RamsGame` is built on these,
and so are the computer players' play-outs, the coach and the table's explanation of
a card it will not take. Cards are French codes (``"TH"``); ``rank`` maps a card to
its strength within its suit for the deck in use (:func:`rank_table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from game.cards import FRENCH52, SKAT32

#: Rank letters low -> high of each deck.
RANK_ORDER = {"skat32": "789TJQKA", "french52": "23456789TJQKA"}
DECK_CARDS = {"skat32": SKAT32, "french52": FRENCH52}


@cache
def rank_table(deck: str) -> dict[str, int]:
    """Every card of ``deck`` -> its strength within its suit (0 = lowest)."""
    order = RANK_ORDER[deck]
    return {c: order.index(c[0]) for c in DECK_CARDS[deck]}


def beats(card: str, best: str, trump: str, rank: Mapping[str, int]) -> bool:
    """Whether ``card`` takes the lead of a trick from ``best``, the card heading it:
    a higher card of the same suit, or a trump over a card that is not one."""
    if card[1] == best[1]:
        return rank[card] > rank[best]
    return card[1] == trump


def trick_winner(cards: Sequence[str], trump: str, rank: Mapping[str, int]) -> int:
    """Index in play order of the card that heads the (possibly partial) trick
    ``cards``: the highest trump, else the highest card of the suit led."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, rank):
            best = i
    return best


def legal_cards(hand: Sequence[str], trick: Sequence[str], trump: str,
                rank: Mapping[str, int], must_trump: bool = False,
                must_beat: bool = False) -> tuple[str, ...]:
    """The cards of ``hand`` that may be added to ``trick`` (the cards played so far,
    in order; empty: a lead, which is free). See :func:`playable`."""
    if not trick:
        return tuple(hand)
    return playable(hand, trick[0][1], trick[trick_winner(trick, trump, rank)], trump, rank,
                    must_trump, must_beat)


def playable(hand: Sequence[str], led: str, best: str, trump: str, rank: Mapping[str, int],
             must_trump: bool = False, must_beat: bool = False) -> tuple[str, ...]:
    """The cards of ``hand`` that may follow in a trick whose led suit is ``led`` and
    whose heading card is ``best``.

    Follow the suit led if able; otherwise any card (``must_trump``: a trump if the
    hand holds one). ``must_beat``: if any of those cards would head the trick, only
    they are allowed.
    """
    cands = [c for c in hand if c[1] == led]
    if not cands:
        cands = list(hand)
        if must_trump:
            cands = [c for c in hand if c[1] == trump] or cands
    if must_beat:
        wins = [c for c in cands if beats(c, best, trump, rank)]
        if wins:
            cands = wins
    return tuple(cands)


def voids_shown(card: str, led: str, trump: str, must_trump: bool = False) -> frozenset[str]:
    """Suits a player shows it holds none of by adding ``card`` to a trick led in
    ``led``: not following shows a void in the suit led; under ``must_trump`` a card
    that is neither of the suit led nor a trump shows no trump either."""
    if card[1] == led:
        return frozenset()
    if must_trump and card[1] != trump:
        return frozenset((led, trump))
    return frozenset((led,))


def why_not_card(card: str, hand: Sequence[str], trick: Sequence[str], trump: str,
                 rank: Mapping[str, int], must_trump: bool = False,
                 must_beat: bool = False) -> str | None:
    """Why ``card`` may not be added to ``trick`` (a reason code), or ``None`` if it
    may: ``not_in_hand``, ``follow_suit``, ``must_trump``, ``must_beat``."""
    if card not in hand:
        return "not_in_hand"
    if card in legal_cards(hand, trick, trump, rank, must_trump, must_beat):
        return None
    led = trick[0][1]
    if card[1] != led and any(c[1] == led for c in hand):
        return "follow_suit"
    base = legal_cards(hand, trick, trump, rank, must_trump, False)
    if card not in base:
        return "must_trump"
    return "must_beat"


#: The scorings of ``scoring``: lives lost (002), or counters shed (traditional).
SCORINGS = ("lives", "counters")
#: Counters a player adds for playing and taking no trick (the traditional five).
COUNTER_PENALTY = 5


def round_losses(players: Sequence[int], tricks: Mapping[int, int], lone: int | None,
                 hand_size: int, lone_needs_one: bool = False, *, counters: bool = False,
                 general: int | None = None) -> dict[int, int]:
    """What each seat loses by a finished round, before the cap at what it has.

    Lives (002): everyone who played and took no trick loses one. A lone player (Rams)
    loses two unless they took every trick (``lone_needs_one``: one, with no trick); the
    defenders never lose. ``general``: the seat that announced General Rams (everyone
    plays) loses two unless it took every trick; the others count as usual.

    ``counters``: the change of each seat's counters, which it wants to bring down to
    zero: minus one for every trick taken, plus :data:`COUNTER_PENALTY` for playing
    and taking none. A lone player counts so too; the defenders count nothing. The
    General Rams announcer sheds ``hand_size`` if it took every trick, else adds the
    penalty (its tricks count nothing). Seats with no change are left out.
    """
    if counters:
        out: dict[int, int] = {}
        for s in players:
            won = tricks.get(s, 0)
            if s == general:
                out[s] = -hand_size if won >= hand_size else COUNTER_PENALTY
            elif lone is not None and s != lone:
                continue
            elif won:
                out[s] = -won
            else:
                out[s] = COUNTER_PENALTY
        return out
    if general is not None:
        out = {s: 1 for s in players if s != general and tricks.get(s, 0) == 0}
        if tricks.get(general, 0) < hand_size:
            out[general] = 2
        return out
    if lone is not None:
        won = tricks.get(lone, 0)
        if lone_needs_one:
            return {lone: 1} if won == 0 else {}
        return {lone: 2} if won < hand_size else {}
    return {s: 1 for s in players if tricks.get(s, 0) == 0}


def round_players(order: Sequence[int], declared: Mapping[int, str]
                  ) -> tuple[list[int], int | None, int | None]:
    """Who takes part in the tricks after the declarations ``declared`` (seat ->
    ``play`` / ``drop`` / ``general``) of the seats dealt in, ``order`` (left of the
    dealer first): ``(players, lone, general)``, the players in play order from the
    dealer's left.

    General Rams: every seat dealt in plays (those who dropped take their cards back,
    those after the announcer are not asked) and the announcer leads. Exactly one
    player: Rams, everyone takes part and the others defend; the dealer's left
    neighbour leads. Otherwise those who declared play play, the first of them leads
    (nobody: a void round, ``players`` empty).
    """
    general = next((s for s in order if declared.get(s) == "general"), None)
    if general is not None:
        return list(order), None, general
    playing = [s for s in order if declared.get(s) == "play"]
    if len(playing) == 1:
        return list(order), playing[0], None
    return playing, None, None


def round_leader(players: Sequence[int], general: int | None) -> int:
    """Who leads the first trick of a round played by ``players`` (see
    :func:`round_players`): the General Rams announcer, else the first player."""
    return players[0] if general is None else general


def sheds(seat: int, tricks: Mapping[int, int], lone: int | None, general: int | None,
          hand_size: int) -> int:
    """Counters ``seat`` has shed so far this round by its tricks (``counters``
    scoring): every trick of a player (a lone one too), none of a defender's, and the
    General Rams announcer's all at once with its last trick."""
    won = tricks.get(seat, 0)
    if seat == general:
        return hand_size if won >= hand_size else 0
    if lone is not None and seat != lone:
        return 0
    return won


def stake_unit(rules: Mapping[str, Any]) -> int:
    """What playing and taking no trick costs in the scoring's own unit: one life, or
    the counters' penalty. Measures of gain and loss are comparable in this unit."""
    return COUNTER_PENALTY if rules.get("scoring") == "counters" else 1


def forced_to_play(drops_in_a_row: int, drop_limit: int | None, *, dealer: bool = False,
                   nobody_plays: bool = False, seats: int = 3,
                   dealer_must_play: bool = False, two_must_play: bool = False) -> str | None:
    """Why this seat may not drop out (a reason code), or ``None`` if it may:
    ``must_play`` (it dropped ``drop_limit`` rounds in a row), ``dealer_must_play``
    (the dealer, with everyone before it dropped), ``two_must_play`` (only two seats
    are dealt in)."""
    if must_play(drops_in_a_row, drop_limit):
        return "must_play"
    if two_must_play and seats <= 2:
        return "two_must_play"
    if dealer_must_play and dealer and nobody_plays:
        return "dealer_must_play"
    return None


def counters_of(rules: Mapping[str, Any]) -> bool:
    """Whether the rules count counters rather than lives."""
    return rules.get("scoring") == "counters"


def must_play(drops_in_a_row: int, drop_limit: int | None) -> bool:
    """Whether the drop limit forces this seat to play (``None``: no limit)."""
    return drop_limit is not None and drops_in_a_row >= drop_limit


def drop_limit_of(rules: Mapping[str, Any]) -> int | None:
    """The ``drop_limit`` in force as a number, ``None`` for ``"none"``."""
    limit = rules["drop_limit"]
    return None if limit == "none" else int(limit)


def last_round_of(rules: Mapping[str, Any]) -> int | None:
    """The ``last_round`` in force as a number, ``None`` for ``"none"`` (no last round)."""
    last = rules.get("last_round", "none")
    return None if last == "none" else int(last)


def best_at_the_end(scores: Sequence[int], seats: Sequence[int], counting: bool) -> int | None:
    """The winner when the last round has been scored: among ``seats`` (those still in
    the game) the fewest counters (``counting``) or the most lives; ``None`` on a tie
    for the best, as when the last players go out together."""
    pick = min if counting else max
    best = pick(scores[s] for s in seats)
    top = [s for s in seats if scores[s] == best]
    return top[0] if len(top) == 1 else None
