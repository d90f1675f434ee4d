"""The Rams table's controls: buttons for declaring (play / drop) and for passing on
the trump card, and the viewer's hand for cards -- click one, or move the focus with
the arrow keys and press Enter, or press its number. A card the engine refuses is not
played: the table knocks and shows the engine's reason (:mod:`game.turn.rams_texts`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from game.i18n import t
from game.rules.base import Refusal
from game.table.model import RamsModel
from game.table.rams_layout import RamsGeometry, RamsLayout
from game.turn.sources import Decision
from game.view import widgets
from game.view.keys import key_buttons, move_key
from game.view.sprites import HandCard
from game.view.widgets import Button, FocusList


class RamsControls:
    def __init__(self, model: RamsModel, layout: RamsLayout,
                 play: Callable[[str], Refusal | None], knock: Callable[[], Any]) -> None:
        self.model = model
        self.layout_ = layout
        self.play = play                      # the table's human move
        self.knock = knock
        self.actions = FocusList(horizontal=True)
        self.decision: Decision | None = None
        self.hover = -1          # index into the bottom hand under the mouse
        self.focus = 0           # keyboard focus in the bottom hand
        #: the engine's reason for every card of the hand it would refuse now
        self.refusals: dict[str, Refusal] = {}
        #: the person looks at the last trick (L, or a click on a trick pile)
        self.show_last = False
        self.last_key, self.last_letter = move_key("last", "key.rams.")

    # ------------------------------------------------------------------ a decision

    def offer(self, decision: Decision, why: Callable[[str], Refusal | None]) -> None:
        """Controls for ``decision``; ``why(move)`` is the engine's reason to refuse."""
        self.decision = decision
        p = decision.pending
        buttons = []
        if p.decision == "declare":
            buttons = [self._button(m, f"rams.move.{m}") for m in ("play", "drop", "general")
                       if m in p.legal]
        elif p.decision == "take":
            buttons = [self._button("pass_trump", "rams.move.pass_trump")]
        elif p.decision == "trick" and self.model.last_trick is not None:
            # no move buttons while a card is chosen: the last trick is offered there,
            # where the person looks (it also answers L and a click on a pile)
            buttons = [Button(lambda: t("rams.last_button"), self.toggle_last,
                              hotkey=self.last_key, name="last", hint=self.last_letter)]
        self.actions.set(buttons)
        lst = self.hand()
        self.refusals = {}
        if self.card_choice():
            for sp in lst:
                m = self.card_move(sp)
                if m is not None and m not in p.legal:
                    r = why(m)
                    if r is not None:
                        self.refusals[m] = r
        legal = [i for i, sp in enumerate(lst) if self.card_move(sp) in p.legal]
        self.focus = legal[0] if legal else 0
        self.hover = -1

    def suggest(self, move: str) -> None:
        """The hint's suggestion gets the keyboard focus (a card, or a button): Enter
        plays it."""
        for i, sp in enumerate(self.hand()):
            if self.card_choice() and self.card_move(sp) == move:
                self.focus, self.hover = i, -1
                return
        for i, b in enumerate(self.actions.buttons):
            if b.name == move:
                self.actions.focus, self.actions.hover = i, -1

    def pile_rects(self) -> list[pygame.Rect]:
        """Where the trick piles lie (a click on one shows the last trick)."""
        g = self.layout_.geo
        out = []
        for s, n in self.model.tricks.items():
            if n > 0:
                x, y = self.layout_.resolve(("pile", s))
                r = pygame.Rect(0, 0, int(g.cw * 0.7), int(g.ch * 0.7))
                r.center = (int(x), int(y))
                out.append(r)
        return out

    def toggle_last(self) -> None:
        """Show the last trick, or hide it again."""
        self.show_last = self.model.last_trick is not None and not self.show_last

    def last_trick_event(self, ev: pygame.event.Event) -> bool:
        """L or a click on a trick pile shows the last trick, and again hides it."""
        if self.model.last_trick is None:
            self.show_last = False
            return False
        if ev.type == pygame.KEYDOWN and self.last_key is not None \
                and ev.key == self.last_key:
            button = self.actions.by_name("last")     # the key presses it where it shows
            (button.action if button is not None else self.toggle_last)()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 \
                and any(r.collidepoint(ev.pos) for r in self.pile_rects()):
            self.toggle_last()
            return True
        return False

    def clear(self) -> None:
        self.show_last = False
        self.decision = None
        self.refusals = {}
        self.hover = -1
        self.actions.set([])

    def rekey(self) -> None:
        """The buttons' keys in the current language (a language chosen in the settings
        while a decision waits: Play P becomes Spielen S)."""
        self.last_key, self.last_letter = move_key("last", "key.rams.")
        key_buttons(self.actions.buttons, "key.rams.")

    def _button(self, move_name: str, key: str) -> Button:
        hk, letter = move_key(move_name, "key.rams.")
        return Button(lambda k=key: t(k), lambda m=move_name: self.play(m), hotkey=hk,
                      name=move_name, hint=letter)

    def hand(self) -> list[HandCard]:
        return self.model.hands.get(self.layout_.base, [])

    def card_move(self, sp: HandCard) -> str | None:
        d = self.decision
        if d is None or sp.card is None:
            return None
        return ("take:" + sp.card) if d.pending.decision == "take" else sp.card

    def card_choice(self) -> bool:
        """The decision is made with a card of the bottom hand."""
        d = self.decision
        return d is not None and d.pending.decision in ("trick", "take") and \
            d.seat == self.layout_.base

    def focused(self) -> int:
        return self.hover if self.hover >= 0 else self.focus

    # ------------------------------------------------------------------ hit tests

    def card_rects(self) -> list[pygame.Rect]:
        """Rects of the bottom hand's cards at rest (hit tests; later cards on top)."""
        g = self.layout_.geo
        bw, bh = g.big
        out = []
        for sp in self.hand():
            x, y = sp.pos(self.layout_.resolve, g.ch)
            out.append(pygame.Rect(int(x - bw / 2), int(y - bh / 2), bw, bh))
        return out

    def card_at(self, pos: tuple[int, int]) -> int:
        for i, r in reversed(list(enumerate(self.card_rects()))):
            if r.collidepoint(pos):
                return i
        return -1

    def play_index(self, i: int) -> bool:
        """Play the ``i``-th card of the bottom hand; a refused card gets the focus."""
        lst = self.hand()
        if not (0 <= i < len(lst)) or self.decision is None:
            return False
        m = self.card_move(lst[i])
        if m is None or self.play(m) is not None:
            self.focus = i
            self.knock()
        return True

    # ------------------------------------------------------------------ layout & input

    def layout(self, g: RamsGeometry, hint_visible: bool, badge_h: int) -> None:
        """The buttons stacked at the bottom of the left part of the strip (with room
        for the coach's badges while the hint shows)."""
        u = g.u
        ar = g.actions
        bh = int(max(28, 44 * u))
        gap = int(8 * u)
        if hint_visible:
            gap += badge_h * 3 // 4 + int(3 * u)
        n = len(self.actions.buttons)
        top = ar.bottom - n * bh - (n - 1) * gap
        widgets.layout_column(self.actions.buttons, ar.centerx, top, ar.width, bh, gap)

    def handle(self, ev: pygame.event.Event) -> bool:
        cards = self.card_choice()
        lst = self.hand()
        if ev.type == pygame.MOUSEMOTION:
            self.hover = self.card_at(ev.pos) if cards else -1
            if self.hover >= 0:
                self.focus = self.hover
            self.actions.handle_event(ev)
            return False
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1 and cards:
            i = self.card_at(ev.pos)
            if i >= 0:
                return self.play_index(i)
        if ev.type == pygame.KEYDOWN and cards and lst:
            if ev.key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.focus = (self.focus + (1 if ev.key == pygame.K_RIGHT else -1)) % len(lst)
                self.hover = -1
                return True
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                return self.play_index(self.focus)
            if pygame.K_1 <= ev.key <= pygame.K_9:
                return self.play_index(ev.key - pygame.K_1)
        return self.actions.handle_event(ev)
