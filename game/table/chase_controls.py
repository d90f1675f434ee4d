"""The Chase the Ace table's controls: a button (with its key) for every legal move of
the decision, in a row between the card panel and the log. They only pass moves on;
the engine decides what is legal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from game.i18n import t
from game.table.chase_layout import ChaseGeometry
from game.turn.chase_texts import ordered_moves
from game.turn.sources import Decision
from game.view import widgets
from game.view.keys import key_buttons, move_key
from game.view.widgets import Button, FocusList


class ChaseControls:
    def __init__(self, play: Callable[[str], Any]) -> None:
        self.play = play                      # the table's human move
        self.actions = FocusList(horizontal=True)
        self.decision: Decision | None = None
        #: what the person deciding knows about their card (chase_texts.card_story),
        #: told anew at every frame: in the language of the moment
        self._story: Callable[[], list[str]] = list

    @property
    def story(self) -> list[str]:
        return self._story()

    def offer(self, decision: Decision, story: Callable[[], list[str]] | None = None
              ) -> None:
        self.decision = decision
        self._story = story or list
        p = decision.pending
        buttons = []
        for m in ordered_moves(p):
            key, hint = move_key(m)
            buttons.append(Button(lambda m=m, d=p.decision: t(f"move.{d}.{m}"),
                                  lambda m=m: self.play(m), hotkey=key, name=m, hint=hint))
        self.actions.set(buttons)

    def rekey(self) -> None:
        """The move buttons' keys in the current language (a language chosen in the
        settings while a decision waits: Keep K becomes Behalten B)."""
        key_buttons(self.actions.buttons)

    def suggest(self, move: str) -> None:
        """The hint's suggestion gets the keyboard focus: Enter plays it."""
        for i, b in enumerate(self.actions.buttons):
            if b.name == move:
                self.actions.focus = i
                self.actions.hover = -1

    def clear(self) -> None:
        self.decision = None
        self._story = list
        self.actions.set([])

    def layout(self, g: ChaseGeometry, hint_visible: bool, badge_h: int) -> None:
        """The buttons in a row between the card panel and the log."""
        u = g.u
        hp, lp = g.hand_panel, g.log_panel
        assert hp is not None
        space = lp.left - hp.right - int(20 * u)
        n = max(1, len(self.actions.buttons))
        bw = int(min(260 * u, (space - (n - 1) * 12 * u) / n))
        bh = int(max(28, 50 * u))
        widgets.layout_row(self.actions.buttons, (hp.right + lp.left) // 2,
                           g.size[1] - int(10 * u) - bh // 2, bw, bh, int(12 * u))

    def handle(self, ev: pygame.event.Event) -> bool:
        return self.actions.handle_event(ev)
