"""How an engine refuses: its errors (all :class:`ValueError`, so a caller that reads a
file or a message can tell bad data from a bug), the :class:`Refusal` a UI shows, and
the move words an error message needs to say what was asked.

Nothing here knows pixels or pygame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class GameError(ValueError):
    """Base of every error the engines and records raise; ``kind`` is docs/records.md's kind."""

    kind = "error"

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind

    @property
    def message(self) -> str:
        return str(self.args[0])


class RulesError(GameError):
    """An unknown rules key (``unknown_rules_key``) or a bad value (``bad_value``)."""


class TooFewCards(RulesError):
    """The deck cannot deal ``hand_size`` cards to every seat and turn up a trump card
    (``bad_value``); the figures let a screen say so in the player's language."""

    def __init__(self, deck: str, cards: int, seats: int, hand_size: int) -> None:
        self.deck, self.cards, self.seats, self.hand_size = deck, cards, seats, hand_size
        self.need = hand_size * seats + 1
        super().__init__(f"rules key 'hand_size': {hand_size} cards for each of {seats} seats "
                         f"and a trump card need {self.need} cards, the {deck} deck has "
                         f"{cards}", "bad_value")


class IllegalMove(GameError):
    """A move refused by the engine; the state is unchanged.

    ``kind`` is ``illegal_move``, ``wrong_seat``, ``bad_card`` or ``game_over``
    (which records report as ``illegal_move``).
    """

    def __init__(self, message: str, kind: str, seat: int, move: object,
                 legal: Sequence[str]) -> None:
        super().__init__(message, kind)
        self.seat = seat
        self.move = move
        self.legal = list(legal)
        #: the engine's reason code for the UI (see :meth:`EngineViews.why_illegal`)
        self.reason: Refusal | None = None


class Refusal(NamedTuple):
    """Why the engine would refuse a move: a reason ``code`` the UI translates and the
    facts its message names (``detail``, e.g. ``{"suit": "H"}``).

    Codes: ``game_over``, ``not_your_turn`` (detail ``seat``: whose turn it is),
    ``bad_card`` (not a card of the deck in use), ``not_offered`` (not a move of this
    decision), and per game, e.g. Rams' ``not_in_hand``, ``follow_suit`` (``suit``),
    ``must_trump`` (``suit``), ``must_beat`` (``card``: the card heading the trick),
    ``must_play`` (``limit``: the drop limit).
    """

    code: str
    detail: dict[str, Any]


class MissingDeal(GameError):
    """A round has to be dealt but the game has neither a recorded deal nor a seed."""

    kind = "missing_deal"


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (marked with …), so that a message quoting
    something from outside (a move, a value from a file) stays one readable line."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def move_error(seat: int, move: object, legal: Sequence[str], to_move: int | None,
               finished: bool, deck: frozenset[str] | None = None) -> IllegalMove:
    """Build the error for a refused move, checking faults in docs/records.md's order."""
    legal_s = ", ".join(sorted(legal))
    shown = shorten(repr(move))
    if finished:
        return IllegalMove(f"seat {seat} played {shown} but the game is already over",
                           "game_over", seat, move, legal)
    if to_move is not None and seat != to_move:
        return IllegalMove(
            f"seat {seat} played {shown} but it is seat {to_move}'s turn "
            f"(legal moves: {legal_s})", "wrong_seat", seat, move, legal)
    if deck is not None and isinstance(move, str):
        card = card_in_move(move)
        if card is not None and card not in deck:
            return IllegalMove(
                f"seat {seat} played {shown}, {'which' if card == move else 'whose card'} "
                f"is not a card code of this game's deck (legal moves: {legal_s})",
                "bad_card", seat, move, legal)
    return IllegalMove(
        f"seat {seat} played {shown}, which is not legal now (legal moves: {legal_s})",
        "illegal_move", seat, move, legal)


_MOVE_WORDS = frozenset({"keep", "swap", "draw", "accept", "refuse", "play", "drop",
                         "general", "pass_trump"})
TAKE = "take:"


def looks_like_card(move: str) -> bool:
    """True for a move meant as a card (anything that is not a move word or ``take:``)."""
    return move not in _MOVE_WORDS and not move.startswith(TAKE)


def card_in_move(move: str) -> str | None:
    """The card code a move names, if it names one: the move itself when it is meant as
    a card, the part after ``take:`` for a Rams trump exchange (``take:10H`` names
    ``10H``), else ``None`` (a move word, or ``take:`` followed by a move word)."""
    if move.startswith(TAKE):
        inner = move[len(TAKE):]
        return inner if looks_like_card(inner) else None
    return move if looks_like_card(move) else None
