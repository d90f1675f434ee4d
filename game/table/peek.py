"""The cards of the person at the screen while others may be watching it.

At a table with phone seats the others hold their cards on their phones, but they
look at the big screen too (and gather round it to scan the join codes). There the
person at the screen keeps their cards face down until they ask to see them:

* hold the peek key (``key.peek``: C, German K): the cards show while it is held;
* or click their face-down cards (or, while choosing a card, press a card key): the
  cards show until that person has made their move, or until they press the peek
  key or click their card again.

Nothing private shows while something covers the table (the join codes, the question
about an away phone, the pause menu): the cards are hidden again then and stay hidden
until asked for anew. Without phones (one person alone with computers, or hot-seat
with its privacy screen) nothing changes: :attr:`PeekGuard.guarded` is false.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from game.i18n import t
from game.view.keys import move_key

#: Keys that choose a card (Rams): with the cards hidden they show them first.
CARD_KEYS = frozenset({pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE, pygame.K_LEFT,
                       pygame.K_RIGHT, *range(pygame.K_1, pygame.K_9 + 1)})


class PeekGuard:
    """Whether the private cards of the person at the screen may show now."""

    def __init__(self, guarded: bool) -> None:
        self.guarded = guarded
        self.held = False            # the peek key is down
        self.shown = False           # asked for by a click, until the move or a hide
        self.key, self.letter = move_key("peek")

    def showing(self, covered: bool) -> bool:
        """The cards may show: nobody else watches (not guarded), or the person asks
        and nothing covers the table."""
        return not self.guarded or (not covered and (self.held or self.shown))

    def hide(self) -> None:
        """Hidden again (a move made, the table covered): shown only when asked anew."""
        self.held = self.shown = False

    def note(self) -> str:
        """How to see the hidden cards, or how to hide them again."""
        if self.shown:
            return t("table.peek.hide", letter=self.letter)
        return t("table.peek.show", letter=self.letter)

    def handle(self, ev: pygame.event.Event, on_hand: Callable[[tuple[int, int]], bool],
               picks_cards: bool) -> bool:
        """The peek key, a click on the person's own cards, a card key while they are
        hidden. True when the event was the guard's."""
        if not self.guarded:
            return False
        if ev.type == pygame.KEYDOWN and self.key is not None and ev.key == self.key:
            if self.shown:
                self.shown = False
            else:
                self.held = True
            return True
        if ev.type == pygame.KEYUP and self.key is not None and ev.key == self.key:
            self.held = False
            return True
        visible = self.held or self.shown
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and on_hand(ev.pos):
            if not visible:
                self.shown = True          # the click shows; it plays nothing
                return True
            if not picks_cards:
                self.shown = False         # a second click hides (no card to choose)
                self.held = False
                return True
            return False
        if ev.type == pygame.KEYDOWN and picks_cards and not visible and ev.key in CARD_KEYS:
            self.shown = True              # see the cards before choosing one
            return True
        return False


class PrivateHand:
    """Mixed into the table scene (:class:`game.scenes.table.TableScene`): whose
    private cards show now. It reads the scene's ``flow``, ``peek``, ``app``,
    ``animator``, ``show_phones`` and ``away_seat``."""

    flow: Any
    peek: Any
    app: Any
    animator: Any
    show_phones: bool
    away_seat: int | None
    _showing: bool

    @property
    def viewer(self) -> int | None:
        """Whose private cards show now: the flow's viewer (after the privacy screen),
        while nobody else may be looking or they asked to see them (game.table.peek)."""
        return self.flow.viewer if self._private_shows() else None

    def _private_shows(self) -> bool:
        covered = self.show_phones or self.away_seat is not None or self.app.top is not self
        if covered:
            self.peek.hide()       # covered: the cards show again only when asked anew
        return self.peek.showing(covered)

    def _sync_privacy(self) -> None:
        """Turn the cards over at once when showing them began or ended."""
        showing = self._private_shows()
        if showing != self._showing:
            self._showing = showing
            self.animator.refresh_faces(animated=False)

    def hidden_hand(self) -> int | None:
        """The seat whose cards lie face down until its person asks (else None)."""
        v = self.flow.viewer
        return v if self.peek.guarded and v is not None and self.viewer is None else None

    def peek_note(self) -> str:
        """How the person at the screen sees their hidden cards (or hides them)."""
        if not self.peek.guarded or self.flow.viewer is None or self.app.top is not self \
                or self.show_phones or self.away_seat is not None:
            return ""
        return self.peek.note() if (self.peek.shown or not self.peek.held) else ""

    def hand_hit(self, pos: tuple[int, int]) -> bool:  # pragma: no cover - every game
        """``pos`` is on the cards of the person at the screen."""
        raise NotImplementedError

    def picks_cards(self) -> bool:
        """The person's decision is made with a card of their hand."""
        return False
