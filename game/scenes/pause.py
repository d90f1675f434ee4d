"""The pause overlay over a table: resume, settings, rules, main menu, quit; beside
them, where a player looks for them, the keys of the table. In a decided game the
way out leads to its results (the button says so)."""

from __future__ import annotations

from typing import Any

import pygame

from game.i18n import t
from game.scenes.base import Scene
from game.scenes.files import export_table
from game.view import layers, text, widgets
from game.view.keys import move_key
from game.view.widgets import Button, FocusList


class PauseScene(Scene):
    opaque = False
    modal = True
    name = "pause"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.list = FocusList([
            Button(lambda: t("pause.resume"), self.resume_game, name="resume", hint="Esc"),
            Button(lambda: t("menu.settings"), self.settings, name="settings"),
            Button(lambda: t("menu.rules"), self.rules, name="rules"),
            Button(self._export_label, self.export, name="export"),
            Button(self._menu_label, self.menu, name="menu"),
            Button(lambda: t("menu.quit"), self.app.quit, name="quit"),
        ])
        self.keys_rect: pygame.Rect | None = None
        self.keys_size = 12

    def key_lines(self) -> list[str]:
        """The keys of the table below, in the language of the moment (F or V
        fast-forwards): the last trick only at a table that shows one (Rams), the phones'
        keys only where phones play. At a table where nobody plays (the demo) only the
        keys that do something there: this menu, full screen, Rams' last trick -- no
        move, hint, reveal or fast-forward."""
        table = self._table()
        watching = table is not None and not getattr(table, "humans", True)
        lines = [] if watching else t("pause.keys.list", fast=move_key("fast")[1] or "F",
                                      hint=move_key("hint")[1] or "H").split("\n")
        lines.append(t("pause.keys.menu"))
        if getattr(table, "shows_last_trick", False):
            lines += [] if watching else t("pause.keys.rams").split("\n")
            lines.append(t("pause.keys.last", last=move_key("last", "key.rams.")[1] or "L"))
        if getattr(table, "phones", None) is not None:
            lines += t("pause.keys.phones", peek=move_key("peek")[1] or "C").split("\n")
        return lines

    def _table(self) -> Any:
        """The table under this menu (maybe under a privacy screen), or None."""
        return next((s for s in reversed(self.app.stack[:-1]) if hasattr(s, "game_id")),
                    None)

    def resume_game(self) -> None:
        self.app.play("click")
        self.app.pop()

    def may_export(self) -> bool:
        """A record holds the deal, and with it every hand. While two people or more
        play (at the screen or on phones), the game is exported once it is over:
        exported in the middle, it would show the one at the screen the others'
        cards. Alone among computers, or once the game is over, any time."""
        table = self._table()
        game = getattr(table, "game", None)
        if table is None or game is None or game.finished:
            return True
        room = getattr(table, "phones", None)
        people = len(getattr(table, "humans", ())) + len(getattr(room, "phones", ()))
        return people < 2

    def _export_label(self) -> str:
        return t("store.export" if self.may_export() else "pause.export_later")

    def export(self) -> None:
        """Write the game under this overlay as a record file (game.store)."""
        if not self.may_export():
            return
        self.app.play("click")
        for below in reversed(self.app.stack[:-1]):   # the table (maybe under a handoff)
            if hasattr(below, "game"):
                export_table(self.app, below)
                return

    def settings(self) -> None:
        self.app.open("settings")

    def rules(self) -> None:
        below = self._table()
        game = getattr(below, "game", None)
        self.app.open("rules", game_id=below.game_id if below is not None else None,
                      rules=getattr(game, "rules", None))

    def _decided(self) -> Any:
        """The table under this menu when its game is decided (docs/playing.md#the-menu):
        leaving goes to its results, not straight to the main menu."""
        table = self._table()
        decided = getattr(table, "decided", None)
        return table if decided is not None and decided() else None

    def _menu_label(self) -> str:
        return t("pause.results" if self._decided() is not None else "pause.menu")

    def menu(self) -> None:
        """Leave the game: for the main menu, or, when the game is decided, for its
        results (from which the main menu is a key away): the game was recorded, and
        a player who left before the end screen never saw how it ended."""
        self.app.play("click")
        table = self._decided()
        if table is None:
            self.app.open("menu", how="reset")
            return
        while self.app.top is not table:      # this menu, and a privacy screen under it
            self.app.pop()
        table.conclude()

    def layout(self, size: tuple[int, int]) -> None:
        self.list.buttons[3].enabled = self.may_export()
        w, h = size
        u = self.u
        bh, gap = int(max(28, 50 * u)), int(10 * u)
        n = len(self.list.buttons)
        top = h // 2 - (n * (bh + gap)) // 2 + int(20 * u)
        bw = int(min(w * 0.8, 380 * u))
        # the keys beside the menu when the window has room for both
        fs = max(11, int(19 * u))
        lines = [t("pause.keys"), *self.key_lines()]
        kw = max(text.size_of(x, fs, True)[0] for x in lines) + int(40 * u)
        kh = int(fs * 1.3) * len(lines) + int(30 * u)
        box_w = bw + int(60 * u)
        gap_x = int(24 * u)
        if box_w + gap_x + kw <= w * 0.96 and kh <= h * 0.9:
            left = (w - (box_w + gap_x + kw)) // 2
            cx = left + box_w // 2
            self.keys_rect = pygame.Rect(left + box_w + gap_x, 0, kw, kh)
            self.keys_rect.centery = h // 2
            self.keys_size = fs
        else:
            cx = w // 2
            self.keys_rect = None
        widgets.layout_column(self.list.buttons, cx, top, bw, bh, gap)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_p):
            self.resume_game()
            return True
        self.list.handle_event(ev)
        return True

    def draw(self, surf: pygame.Surface) -> None:
        w, h = surf.get_size()
        u = self.u
        surf.blit(layers.shade((w, h), (0, 0, 0, 150)), (0, 0))
        b = self.list.buttons
        box = b[0].rect.unionall([x.rect for x in b]).inflate(int(60 * u), int(60 * u))
        box.top -= int(50 * u)
        box.height += int(50 * u) - int(20 * u)
        widgets.panel(surf, box, u)
        text.blit(surf, t("pause.title"), int(40 * u), (box.centerx, box.top + int(20 * u)),
                  widgets.GOLD, "midtop", True)
        self.list.draw(surf, u)
        if self.keys_rect is not None:
            r = self.keys_rect
            widgets.panel(surf, r, u)
            fs = self.keys_size
            lh = int(fs * 1.3)
            x, y = r.left + int(20 * u), r.top + int(15 * u)
            text.blit(surf, t("pause.keys"), fs, (x, y), widgets.GOLD, "topleft", True)
            for i, line in enumerate(self.key_lines()):
                text.blit(surf, line, fs, (x, y + (i + 1) * lh), widgets.CREAM)
