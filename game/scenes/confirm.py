"""A question before something that cannot be undone (discarding an unfinished game):
a panel over the screen below with a yes and a no; no is where the focus starts, and
Esc means no."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.i18n import t
from game.scenes.base import Scene
from game.view import layers, text, widgets
from game.view.widgets import Button, FocusList


class ConfirmScene(Scene):
    name = "confirm"
    opaque = False
    modal = True

    def __init__(self, app, title: str, body: str, yes_key: str, on_yes: Callable[[], None],
                 no_key: str = "common.cancel") -> None:
        super().__init__(app)
        self.title = title
        self.body = body
        self.on_yes = on_yes
        self.list = FocusList([Button(lambda: t(yes_key), self.yes, name="yes"),
                               Button(lambda: t(no_key), self.no, name="no", hint="Esc")],
                              horizontal=True)
        self.list.focus = 1
        self.box = pygame.Rect(0, 0, 10, 10)

    def yes(self) -> None:
        self.app.play("click")
        self.app.pop()
        self.on_yes()

    def no(self) -> None:
        self.app.play("click")
        self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bw = int(min(w * 0.86, 640 * u))
        fs = max(13, int(24 * u))
        lines = text.wrap(self.body, fs, bw - int(48 * u))
        bh = int(max(28, 48 * u))
        height = int(70 * u) + len(lines) * int(fs * 1.25) + bh + int(40 * u)
        self.box = pygame.Rect(0, 0, bw, height)
        self.box.center = (w // 2, h // 2)
        widgets.layout_row(self.list.buttons, w // 2, self.box.bottom - int(20 * u) - bh // 2,
                           int(min(bw * 0.42, 240 * u)), bh, int(20 * u))

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.no()
            return True
        self.list.handle_event(ev)
        return True          # modal

    def draw(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        u = self.u
        surf.blit(layers.shade((w, h), (0, 0, 0, 150)), (0, 0))
        widgets.panel(surf, self.box, u, 245)
        ts = text.fit(self.title, int(34 * u), self.box.width - int(40 * u), True)
        text.blit(surf, self.title, ts, (self.box.centerx, self.box.top + int(18 * u)),
                  widgets.GOLD, "midtop", True)
        fs = max(13, int(24 * u))
        y = self.box.top + int(26 * u) + ts
        for line in text.wrap(self.body, fs, self.box.width - int(48 * u)):
            text.blit(surf, line, fs, (self.box.centerx, y), widgets.CREAM, "midtop")
            y += int(fs * 1.25)
        self.list.draw(surf, u)
