"""The strategy chart of Chase the Ace: how often the ``hard`` computer swaps (the
dealer: draws) with each card rank at each seat, for a table of 2–10 players
(``game.ai.policy.strategy_chart``). Rows are the seats in turn order (left of the
dealer first, the dealer last), columns the ranks Ace … King; each cell is coloured
from keep (green) to swap (red) and shows the percentage. A second view shows the
same after the right neighbour swapped with that seat.

Keys: Left/Right change the table size, the letter on the view's button switches the
view (``key.chart.view``: S *Show*, German Z *Zeigen*), Esc goes back.
"""

from __future__ import annotations

from typing import Any

import pygame

from game import i18n
from game.i18n import percent, t
from game.scenes.base import Scene
from game.view import cardart, text, widgets
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList

RANKS = "A23456789TJQK"          # rank 1 … 13 of the chart
KEEP = (46, 140, 72)
MID = (214, 180, 60)
SWAP = (196, 58, 48)
EMPTY = (52, 56, 52)


def cell_colour(p: float) -> tuple[int, int, int]:
    """Keep (green) → undecided (amber) → swap (red)."""
    p = max(0.0, min(1.0, float(p)))
    a, b, k = (KEEP, MID, p * 2) if p < 0.5 else (MID, SWAP, p * 2 - 1)
    return tuple(int(a[i] + (b[i] - a[i]) * k) for i in range(3))  # type: ignore[return-value]


def rank_index(rank: int) -> str:
    code = RANKS[rank - 1]
    table = cardart.INDEX_DE if i18n.get_lang() == "de" else cardart.INDEX_EN
    return table.get(code, code)


class ChartScene(Scene):
    name = "chart"

    def __init__(self, app, players: int | None = None, after: bool = False) -> None:
        super().__init__(app)
        if players is None:
            setup = app.settings["setup"]
            try:
                players = int(setup.get("players", 5) if isinstance(setup, dict) else 5)
            except (TypeError, ValueError):     # a hand-edited settings file
                players = 5
        self.players = max(2, min(10, int(players)))
        self.after = bool(after)
        self.chart: dict[str, Any] = {}
        self.view_button = Button(
            lambda: t("chart.show.plain" if self.after else "chart.show.after"),
            self.toggle, name="view")
        self.list = FocusList([
            Button("‹", lambda: self.change(-1), name="fewer"),
            Button("›", lambda: self.change(1), name="more"),
            self.view_button,
            Button(lambda: t("common.back"), self.back, name="back", hint="Esc")])
        self.list.focus = 3
        self.rekey()
        self.grid = pygame.Rect(0, 0, 10, 10)
        self.players_box = pygame.Rect(0, 0, 10, 10)
        self._load()

    def rekey(self) -> None:
        """The view's button keyed by a letter of its label in the language."""
        key_buttons([self.view_button], "key.chart.")

    # ------------------------------------------------------------------ state

    def _load(self) -> None:
        from game.ai.policy import strategy_chart

        self.chart = strategy_chart(self.players)

    def change(self, step: int) -> None:
        n = max(2, min(10, self.players + step))
        if n != self.players:
            self.app.play("click")
            self.players = n
            self._load()
            self._size = (0, 0)

    def toggle(self) -> None:
        self.app.play("click")
        self.after = not self.after

    def back(self) -> None:
        self.app.play("click")
        self.app.pop()

    def values(self, row: dict[str, Any]) -> dict[int, float]:
        """One row's numbers in the current view (empty: no data for this seat). A
        row of zeros only is no data either: with the lowest card, an Ace, every seat
        swaps (draws) in every solved table."""
        vals = row["after_swap"] if self.after else row["p_swap"]
        out = {int(k): float(v) for k, v in vals.items()}
        return out if any(v > 0 for v in out.values()) else {}

    def row_label(self, row: dict[str, Any]) -> str:
        n = row["pos"] + 1
        if row["dealer"]:
            return t("chart.pos.dealer", n=n)
        if row["pos"] == 0:
            return t("chart.pos.first")
        return t("chart.pos", n=n)

    # ------------------------------------------------------------------ layout

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh = int(max(28, 46 * u))
        gap = int(12 * u)
        y = h - int(14 * u) - bh // 2
        arrow = int(max(40, 64 * u))
        self.players_box = pygame.Rect(0, 0, int(max(90, 150 * u)), bh)
        wide = int(min(w * 0.3, 300 * u))
        back = int(min(w * 0.2, 200 * u))
        total = 2 * arrow + self.players_box.width + wide + back + 5 * gap
        x = w // 2 - total // 2
        fewer, more, view, back_b = self.list.buttons
        fewer.rect = pygame.Rect(x, 0, arrow, bh)
        self.players_box.left = fewer.rect.right + gap
        more.rect = pygame.Rect(self.players_box.right + gap, 0, arrow, bh)
        view.rect = pygame.Rect(more.rect.right + 2 * gap, 0, wide, bh)
        back_b.rect = pygame.Rect(view.rect.right + 2 * gap, 0, back, bh)
        for r in (fewer.rect, more.rect, view.rect, back_b.rect, self.players_box):
            r.centery = y
        self.grid = pygame.Rect(0, 0, int(min(w * 0.94, 1500 * u)), h)
        self.grid.centerx = w // 2

    # ------------------------------------------------------------------ input

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.back()
                return True
            if ev.key in (pygame.K_LEFT, pygame.K_MINUS, pygame.K_KP_MINUS):
                self.change(-1)
                return True
            if ev.key in (pygame.K_RIGHT, pygame.K_PLUS, pygame.K_KP_PLUS):
                self.change(1)
                return True
            if pygame.K_2 <= ev.key <= pygame.K_9:
                self.change(ev.key - pygame.K_0 - self.players)
                return True
            if ev.key == pygame.K_0:
                self.change(10 - self.players)
                return True
        if ev.type == pygame.MOUSEWHEEL:
            self.change(1 if ev.y > 0 else -1)
            return True
        return self.list.handle_event(ev)

    # ------------------------------------------------------------------ drawing

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("chart.title")
        ts = widgets.title(surf, title, int(44 * u), int(12 * u))
        head = t("chart.view.after" if self.after else "chart.view.plain")
        hs = text.fit(head, int(28 * u), int(w * 0.9), True)
        text.blit(surf, head, hs, (w // 2, int(12 * u) + int(ts * 1.05)), widgets.CREAM,
                  "midtop", True, shadow=True)
        sub = t("chart.sub.after" if self.after else "chart.sub.plain")
        ss = max(11, int(19 * u))
        lines = text.wrap(sub, ss, int(w * 0.9))
        while len(lines) > 2 and ss > 10:
            ss -= 1
            lines = text.wrap(sub, ss, int(w * 0.9))
        y = int(12 * u) + int(ts * 1.05) + int(hs * 1.1)
        for i, line in enumerate(lines[:2]):
            text.blit(surf, line, ss, (w // 2, y + i * int(ss * 1.1)), widgets.DIM, "midtop")
        top = y + len(lines[:2]) * int(ss * 1.1) + int(14 * u)
        legend_h = int(62 * u)
        room = pygame.Rect(self.grid.left, top, self.grid.width,
                           max(40, self.players_box.top - int(12 * u) - top - legend_h))
        used = self._draw_grid(surf, room)
        self._draw_legend(surf, min(used, room.bottom) + int(22 * u))
        self.list.draw(surf, u)
        pb = self.players_box
        pygame.draw.rect(surf, (40, 52, 46), pb, border_radius=max(3, int(6 * u)))
        pygame.draw.rect(surf, widgets.GOLD, pb, 1, border_radius=max(3, int(6 * u)))
        label = t("chart.players", n=self.players)
        fs = text.fit(label, int(pb.height * 0.5), pb.width - int(10 * u), True)
        text.blit(surf, label, fs, pb.center, widgets.GOLD, "center", True)

    def _draw_grid(self, surf: pygame.Surface, area: pygame.Rect) -> int:
        """The grid, vertically centred in ``area``; returns its bottom."""
        u = self.u
        rows = self.chart.get("positions", [])
        n = max(1, len(rows))
        labels = [self.row_label(r) for r in rows]
        label_fs = max(11, int(20 * u))
        label_w = max(text.size_of(s, label_fs, True)[0] for s in labels) + int(16 * u)
        label_w = min(label_w, int(area.width * 0.26))
        cols = 13
        head_h = int(min(area.height * 0.16, 56 * u))
        cell_w = (area.width - label_w) // cols
        cell_h = min(int(58 * u), (area.height - head_h) // n)
        gw = label_w + cell_w * cols
        x0 = area.centerx - gw // 2
        y0 = area.top + max(0, (area.height - head_h - cell_h * n) // 2)
        widgets.panel(surf, pygame.Rect(x0 - int(10 * u), y0 - int(8 * u), gw + int(20 * u),
                                        head_h + cell_h * n + int(16 * u)), u, 200)
        # the column heads: little cards with the rank's index
        ch = int(head_h * 0.86)
        cw = min(int(ch * 0.7), cell_w - int(6 * u))
        ch = min(ch, int(cw / 0.7))
        for c in range(cols):
            rank = c + 1
            cx = x0 + label_w + c * cell_w + cell_w // 2
            card = pygame.Rect(0, 0, cw, ch)
            card.midbottom = (cx, y0 + head_h - int(4 * u))
            pygame.draw.rect(surf, (10, 14, 12), card.move(max(1, int(2 * u)),
                                                           max(1, int(2 * u))),
                             border_radius=max(2, cw // 8))
            pygame.draw.rect(surf, (250, 246, 234), card, border_radius=max(2, cw // 8))
            pygame.draw.rect(surf, (120, 110, 90), card, 1, border_radius=max(2, cw // 8))
            idx = rank_index(rank)
            fs = text.fit(idx, int(ch * 0.46), cw - 4, True, 8)
            text.blit(surf, idx, fs, (card.centerx, card.top + int(ch * 0.06)), (30, 30, 30),
                      "midtop", True)
            cardart.draw_suit(surf, "S", card.centerx, card.bottom - ch * 0.27, ch * 0.3,
                              (30, 30, 30))
        text.blit(surf, t("chart.seat"), max(10, int(label_fs * 0.85)),
                  (x0 + int(6 * u), y0 + head_h - int(6 * u)), widgets.DIM, "bottomleft")
        cell_fs = text.fit(percent(1.0), max(10, int(min(cell_h * 0.42, 19 * u))),
                           cell_w - int(6 * u), True, 8)
        for i, row in enumerate(rows):
            y = y0 + head_h + i * cell_h
            lab = text.ellipsize(labels[i], label_fs, label_w - int(10 * u), True)
            lfs = text.fit(lab, label_fs, label_w - int(10 * u), True, 9)
            text.blit(surf, lab, lfs, (x0 + int(6 * u), y + cell_h // 2),
                      widgets.GOLD if row["dealer"] else widgets.CREAM, "midleft", True)
            vals = self.values(row)
            inset = max(2, int(3 * u))
            if not vals:        # one grey band with the reason
                band = pygame.Rect(x0 + label_w, y, cell_w * cols, cell_h).inflate(-inset,
                                                                                  -inset)
                pygame.draw.rect(surf, EMPTY, band, border_radius=max(2, int(4 * u)))
                msg = t("chart.none") if self.after and row["pos"] == 0 else t("chart.nodata")
                fs = text.fit(msg, cell_fs, band.width - int(12 * u), True, 8)
                text.blit(surf, msg, fs, band.center, widgets.DIM, "center", True)
                continue
            for c in range(cols):
                cell = pygame.Rect(x0 + label_w + c * cell_w, y, cell_w, cell_h).inflate(
                    -inset, -inset)
                p = vals.get(c + 1)
                if p is None:
                    pygame.draw.rect(surf, EMPTY, cell, border_radius=max(2, int(4 * u)))
                    continue
                col = cell_colour(p)
                pygame.draw.rect(surf, col, cell, border_radius=max(2, int(4 * u)))
                ink = (20, 20, 16) if 0.3 < p < 0.8 else (250, 246, 234)
                text.blit(surf, percent(p), cell_fs, cell.center, ink, "center", True)
        return y0 + head_h + cell_h * n + int(8 * u)

    def _draw_legend(self, surf: pygame.Surface, y: int) -> None:
        w, _ = surf.get_size()
        u = self.u
        bar_w = int(min(w * 0.36, 420 * u))
        bar_h = max(8, int(14 * u))
        bar = pygame.Rect(0, y, bar_w, bar_h)
        bar.centerx = w // 2
        for i in range(bar_w):
            pygame.draw.line(surf, cell_colour(i / max(1, bar_w - 1)),
                             (bar.left + i, bar.top), (bar.left + i, bar.bottom - 1))
        pygame.draw.rect(surf, (20, 20, 16), bar, 1)
        fs = max(11, int(19 * u))
        keep = t("chart.keep") + "  " + percent(0)
        swap = percent(1) + "  " + t("chart.swap")
        text.blit(surf, keep, fs, (bar.left - int(10 * u), bar.centery), widgets.CREAM,
                  "midright", True)
        text.blit(surf, swap, fs, (bar.right + int(10 * u), bar.centery), widgets.CREAM,
                  "midleft", True)
        note = t("chart.note", letter=self.view_button.hint)
        ns = text.fit(note, max(10, int(17 * u)), int(w * 0.94))
        text.blit(surf, note, ns, (w // 2, bar.bottom + int(8 * u)), widgets.DIM, "midtop")
