"""The rules of each game, in the active language, scrollable; a button goes on to
the next game's rules, another opens the game's strategy chart where its registry
entry names one. Each shows its key, a letter of its label in the language
(``key.rules.game``, ``key.rules.chart``: R *Rams rules* and C *Strategy chart*, in
German R *Regeln: Rams* and T *Strategie-Tabelle*).

The text lives in the catalogues (each entry's ``rules_text_key``): lines starting
with ``# `` are headings, ``- `` bullets, anything else a paragraph.
"""

from __future__ import annotations

from typing import Any

import pygame

from game import games
from game.i18n import t
from game.scenes.base import Scene
from game.view import text, widgets
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList


class RulesScene(Scene):
    name = "rules"

    def __init__(self, app, game: str = games.DEFAULT_GAME,
                 rules: dict[str, Any] | None = None) -> None:
        super().__init__(app)
        self.entry = games.GAMES.get(game) or games.entry(games.DEFAULT_GAME)
        #: the rules of the table this screen was opened from: they come first
        self.table_rules = rules if isinstance(rules, dict) else None
        self.table_game = self.entry.id
        self.scroll = 0
        self.lines: list[tuple[str, int, bool, int]] = []   # text, size, bold, indent
        self.total = 0
        self.view = pygame.Rect(0, 0, 10, 10)
        self.list = FocusList()
        self.keyed: list[Button] = []      # the buttons with a letter (all but Back)
        self._buttons()

    @property
    def game(self) -> str:
        return self.entry.id

    def _buttons(self) -> None:
        """Switch to the next game's rules; the game's strategy chart, if it has one."""
        other = games.entry(games.other(self.game))
        buttons = [Button(lambda: t(other.rules_button_key), self.switch, name="game")]
        if self.entry.chart_scene is not None:
            buttons.append(Button(lambda: t("rules.chart"), self.chart, name="chart"))
        self.keyed = list(buttons)
        buttons.append(Button(lambda: t("common.back"), self.back, name="back", hint="Esc"))
        self.list.set(buttons)
        self.list.focus = len(buttons) - 1
        self.rekey()

    def rekey(self) -> None:
        """The keys of the buttons but Back (Esc goes back), in the language."""
        key_buttons(self.keyed, "key.rules.")

    def switch(self) -> None:
        """The other game's rules; the focus stays on this button (Enter again goes back
        to the first game's rules, as a click there would, instead of leaving)."""
        self.app.play("click")
        self.entry = games.entry(games.other(self.game))
        self._buttons()
        self.list.focus = 0
        self.scroll = 0
        self._size = (0, 0)

    def back(self) -> None:
        self.app.play("click")
        self.app.pop()

    def chart(self) -> None:
        """The game's strategy chart (its registry entry names the scene)."""
        if self.entry.chart_scene is None:
            return
        self.app.play("click")
        self.app.open(self.entry.chart_scene)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh = int(max(28, 48 * u))
        n = len(self.list.buttons)
        widgets.layout_row(self.list.buttons, w // 2, h - int(14 * u) - bh // 2,
                           int(min((w * 0.94 - (n - 1) * 16 * u) / n, 300 * u)), bh,
                           int(16 * u))
        title_h = int(70 * u)
        self.view = pygame.Rect(0, 0, int(min(w * 0.9, 980 * u)),
                                h - title_h - bh - int(44 * u))
        self.view.midtop = (w // 2, title_h + int(10 * u))
        body = max(12, int(22 * u))
        head = max(14, int(30 * u))
        inner = self.view.width - int(40 * u)
        self.lines = []
        body_text = t(self.entry.rules_text_key) + "\n" + t("rules.phones")   # issue 17
        if self.table_rules is not None and self.entry.id == self.table_game:
            summary = self.entry.rules_summary(self.table_rules)
            if summary:
                body_text = ("# " + t("rules.this_table") + "\n" + summary + "\n\n"
                             + body_text)
        for raw in body_text.split("\n"):
            if raw.startswith("# "):
                self.lines.append(("", body // 2, False, 0))
                for ln in text.wrap(raw[2:], head, inner, True):
                    self.lines.append((ln, head, True, 0))
            elif raw.startswith("- "):
                ind = int(26 * u)
                for i, ln in enumerate(text.wrap(raw[2:], body, inner - ind)):
                    self.lines.append((("• " if i == 0 else "") + ln, body, False,
                                       0 if i == 0 else ind))
            elif raw.strip():
                for ln in text.wrap(raw, body, inner):
                    self.lines.append((ln, body, False, 0))
            else:
                self.lines.append(("", body // 2, False, 0))
        self.total = sum(int(s * 1.2) for _, s, _, _ in self.lines) + int(20 * u)
        self._clamp()

    def _clamp(self) -> None:
        self.scroll = max(0, min(self.scroll, self.total - self.view.height))

    def handle_event(self, ev: pygame.event.Event) -> bool:
        step = int(40 * self.u)
        if ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.back()
                return True
            moves = {pygame.K_DOWN: step, pygame.K_UP: -step,
                     pygame.K_PAGEDOWN: self.view.height - step,
                     pygame.K_PAGEUP: -(self.view.height - step),
                     pygame.K_HOME: -10**7, pygame.K_END: 10**7}
            if ev.key in moves:
                self.scroll += moves[ev.key]
                self._clamp()
                return True
        if ev.type == pygame.MOUSEWHEEL:
            self.scroll -= ev.y * step
            self._clamp()
            return True
        return self.list.handle_event(ev)

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t(self.entry.rules_title_key)
        widgets.title(surf, title, int(48 * u), int(14 * u))
        widgets.panel(surf, self.view.inflate(int(16 * u), int(12 * u)), u, 215)
        clip = surf.get_clip()
        surf.set_clip(self.view)
        y = self.view.top + int(10 * u) - self.scroll
        for line, size, bold, ind in self.lines:
            lh = int(size * 1.2)
            if y + lh >= self.view.top and y <= self.view.bottom and line:
                text.blit(surf, line, size, (self.view.left + int(20 * u) + ind, y),
                          widgets.GOLD if bold else widgets.CREAM, bold=bold)
            y += lh
        surf.set_clip(clip)
        if self.total > self.view.height:
            frac = self.view.height / self.total
            bar_h = max(20, int(self.view.height * frac))
            by = self.view.top + int((self.view.height - bar_h) * self.scroll /
                                     max(1, self.total - self.view.height))
            pygame.draw.rect(surf, widgets.GOLD, (self.view.right + int(2 * u), by,
                                                  max(3, int(5 * u)), bar_h), border_radius=3)
        self.list.draw(surf, u)
