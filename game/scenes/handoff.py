"""The privacy screen of hot-seat play: it hides the table completely until the next
human confirms they are the one at the screen.

At a table with phones too (``peek``) the person's cards stay face down after it
until they ask to see them (game.table.peek): the screen says so, and its button
promises their turn, not their cards."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.i18n import t
from game.scenes.base import Scene
from game.view import text, widgets
from game.view.keys import key_name, move_key
from game.view.widgets import Button, FocusList


class HandoffScene(Scene):
    opaque = True       # nothing of the table (and no private card) shows through
    name = "handoff"

    def __init__(self, app, player: str | Callable[[], str], on_ready: Callable[[], None],
                 on_menu: Callable[[], None] | None = None,
                 button_key: str = "handoff.button", peek: bool = False) -> None:
        super().__init__(app)
        # a name in the current language: asked anew at every frame, so that a
        # language chosen in the settings behind this screen ("Player 1" becomes
        # "Spieler 1") shows at once
        self._player = player
        self.on_ready = on_ready
        self.on_menu = on_menu
        self.peek = peek
        if peek:
            button_key = "handoff.button_peek"
        self.list = FocusList([Button(lambda: t(button_key, name=self.player), self.ready,
                                      name="ready", hint=key_name(pygame.K_RETURN))])

    @property
    def player(self) -> str:
        return self._player() if callable(self._player) else self._player

    def ready(self) -> None:
        self.app.play("click")
        self.app.pop()
        self.on_ready()

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        widgets.layout_column(self.list.buttons, w // 2, int(h * 0.58),
                              int(min(w * 0.86, 560 * u)), int(max(30, 60 * u)), 0)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE and self.on_menu:
            self.on_menu()
            return True
        if self.list.handle_event(ev):
            return True
        return True   # modal: nothing reaches the table

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("handoff.title", name=self.player)
        ts = text.fit(title, int(64 * u), int(w * 0.9), True)
        text.blit(surf, title, ts, (w // 2, int(h * 0.32)), widgets.GOLD, "center", True,
                  shadow=True)
        sub = t("handoff.sub_peek", letter=move_key("peek")[1]) if self.peek \
            else t("handoff.sub", name=self.player)
        for i, line in enumerate(text.wrap(sub, int(26 * u), int(w * 0.8))):
            text.blit(surf, line, int(26 * u), (w // 2, int(h * 0.42) + i * int(30 * u)),
                      widgets.CREAM, "center", shadow=True)
        self.list.draw(surf, u)
