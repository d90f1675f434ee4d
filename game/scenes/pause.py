"""The pause overlay over a table: resume, settings, rules, main menu, quit."""

from __future__ import annotations

import pygame

from game.i18n import t
from game.scenes.base import Scene
from game.scenes.files import export_table
from game.view import text, widgets
from game.view.widgets import Button, FocusList


class PauseScene(Scene):
    opaque = False
    modal = True
    name = "pause"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.list = FocusList([
            Button(lambda: t("pause.resume"), self.resume_game, name="resume"),
            Button(lambda: t("menu.settings"), self.settings, name="settings"),
            Button(lambda: t("menu.rules"), self.rules, name="rules"),
            Button(lambda: t("store.export"), self.export, name="export"),
            Button(lambda: t("pause.menu"), self.menu, name="menu"),
            Button(lambda: t("menu.quit"), self.app.quit, name="quit"),
        ])

    def resume_game(self) -> None:
        self.app.play("click")
        self.app.pop()

    def export(self) -> None:
        """Write the game under this overlay as a record file (game.store)."""
        self.app.play("click")
        for below in reversed(self.app.stack[:-1]):   # the table (maybe under a handoff)
            if hasattr(below, "game"):
                export_table(self.app, below)
                return

    def settings(self) -> None:
        self.app.open("settings")

    def rules(self) -> None:
        below = next((s for s in reversed(self.app.stack[:-1]) if hasattr(s, "game_id")), None)
        game = getattr(below, "game", None)
        self.app.open("rules", game_id=below.game_id if below is not None else None,
                      rules=getattr(game, "rules", None))

    def menu(self) -> None:
        self.app.play("click")
        self.app.open("menu", how="reset")

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh, gap = int(max(28, 50 * u)), int(10 * u)
        n = len(self.list.buttons)
        top = h // 2 - (n * (bh + gap)) // 2 + int(20 * u)
        widgets.layout_column(self.list.buttons, w // 2, top, int(min(w * 0.8, 380 * u)), bh,
                              gap)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_p):
            self.resume_game()
            return True
        self.list.handle_event(ev)
        return True

    def draw(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        u = self.u
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surf.blit(shade, (0, 0))
        b = self.list.buttons
        box = b[0].rect.unionall([x.rect for x in b]).inflate(int(60 * u), int(60 * u))
        box.top -= int(50 * u)
        box.height += int(50 * u) - int(20 * u)
        widgets.panel(surf, box, u)
        text.blit(surf, t("pause.title"), int(40 * u), (w // 2, box.top + int(20 * u)),
                  widgets.GOLD, "midtop", True)
        self.list.draw(surf, u)
