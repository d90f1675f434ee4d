"""After a game: the winner, the order everyone went out in, play again or menu."""

from __future__ import annotations

import pygame

from game.i18n import t
from game.scenes.base import Scene
from game.scenes.files import export_table
from game.table.texts import winner_text
from game.view import text, widgets
from game.view.widgets import Button, FocusList


class ResultsScene(Scene):
    name = "results"

    def __init__(self, app, table) -> None:
        super().__init__(app)
        self.table = table
        g = table.game
        m = table.model
        self.winner = g.winner
        winners = [g.winner] if isinstance(g.winner, int) else list(g.winner or [])
        rest = [s for s in reversed(m.out_order) if s not in winners]
        others = [s for s in range(table.n) if s not in winners and s not in rest]
        self.ranking = [(1, s) for s in winners]
        place = len(winners) + 1
        for s in others + rest:
            self.ranking.append((place, s))
            place += 1
        self.rounds = m.rounds_played
        self.list = FocusList([
            Button(lambda: t("results.again"), self.again, name="again", hotkey=pygame.K_n),
            Button(lambda: t("store.export"), self.export, name="export", hotkey=pygame.K_e),
            Button(lambda: t("results.menu"), self.menu, name="menu", hotkey=pygame.K_m),
        ])

    def export(self) -> None:
        self.app.play("click")
        export_table(self.app, self.table)

    def again(self) -> None:
        """The same seats and rules again, a new deal."""
        self.app.play("click")
        tb = self.table
        self.app.pop()   # results
        self.app.open("table", how="replace", game_id=tb.game_id, seats=tb.seats,
                      rules=tb.rules_given, seed=None, demo=tb.demo)

    def menu(self) -> None:
        self.app.play("click")
        self.app.open("menu", how="reset")

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh = int(max(28, 52 * u))
        widgets.layout_row(self.list.buttons, w // 2, h - int(24 * u) - bh // 2,
                           int(min(w * 0.3, 300 * u)), bh, int(20 * u))

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.menu()
            return True
        return self.list.handle_event(ev)

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        tb = self.table
        key, names = winner_text(self.winner, tb.names)
        title = t(key, names=names)
        ts = text.fit(title, int(60 * u), int(w * 0.9), True)
        text.blit(surf, title, ts, (w // 2, int(24 * u)), widgets.GOLD, "midtop", True,
                  shadow=True)
        sub = t("results.sub", rounds=self.rounds)
        if tb.game.rules.get("stake", 0) > 0:
            sub += "  ·  " + t("table.pot", pot=tb.model.pot)
        text.blit(surf, sub, text.fit(sub, int(24 * u), int(w * 0.9)),
                  (w // 2, int(24 * u) + ts + int(6 * u)), widgets.CREAM, "midtop")
        top = int(24 * u) + ts + int(50 * u)
        bottom = self.list.buttons[0].rect.top - int(16 * u)
        n = len(self.ranking)
        row_h = max(14, min(int(42 * u), (bottom - top) // max(1, n)))
        panel = pygame.Rect(0, 0, int(min(w * 0.8, 620 * u)), row_h * n + int(20 * u))
        panel.midtop = (w // 2, top)
        widgets.panel(surf, panel, u, 200)
        fs = max(10, int(row_h * 0.6))
        for i, (place, s) in enumerate(self.ranking):
            y = panel.top + int(10 * u) + i * row_h + row_h // 2
            col = widgets.GOLD if place == 1 else widgets.CREAM
            text.blit(surf, f"{place}.", fs, (panel.left + int(20 * u), y), col, "midleft", True)
            who = tb.seat_name(s)
            kind = t("setup.human") if s in tb.humans else t("level." + tb.seats[s]["level"])
            text.blit(surf, text.ellipsize(who, fs, int(panel.width * 0.36), True), fs,
                      (panel.left + int(70 * u), y), col, "midleft", True)
            text.blit(surf, kind, int(fs * 0.85), (panel.right - int(20 * u), y), widgets.DIM,
                      "midright")
            lives = tb.game.lives[s]
            if s in tb.model.out_round:
                info = t("results.out_in", n=tb.model.out_round[s])
            elif lives == 1:
                info = t("results.life_left")
            elif lives > 1:
                info = t("results.lives_left", n=lives)
            else:
                info = ""
            if info:
                text.blit(surf, info, int(fs * 0.85), (panel.left + int(panel.width * 0.5), y),
                          widgets.CREAM if place == 1 else (200, 192, 175), "midleft")
        self.list.draw(surf, u)
