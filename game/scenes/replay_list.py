"""The list of games to watch: the last finished games (statistics database) and the
record files in ``saves_dir()/exports`` and ``saves_dir()``; a file dropped on the
window opens too. Watching is the replay viewer (``app.open("replay", ...)``); each
row's *Review* button opens the game review; the focused row's shows its key, a letter
of its label in the language (``key.replays.review``: R *Review*, German A *Analyse*,
as on the results screen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game import games, i18n, notices, paths, store
from game.i18n import t
from game.scenes.base import Scene
from game.scenes.files import read_record, stored_record, watch_file
from game.turn.texts import seat_name
from game.view import text, widgets
from game.view.keys import key_buttons
from game.view.widgets import Button, FocusList


def _names(seats: list[dict[str, Any]]) -> str:
    return ", ".join(seat_name(s, i) for i, s in enumerate(seats))


def _winner_names(row: store.GameRow) -> str:
    w = row.winner
    ws = [w] if isinstance(w, int) else list(w or [])
    names = [seat_name(row.seats[i], i) for i in ws if 0 <= i < len(row.seats)]
    return t("replay.won", names=", ".join(names)) if names else t("replay.nobody")


class ReplayListScene(Scene):
    name = "replays"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.list = FocusList()
        self.scroll = 0
        self.visible = 0
        self.headings: dict[int, str] = {}
        self.heading_pos: list[tuple[str, int]] = []
        self.area = pygame.Rect(0, 0, 0, 0)
        self.row_h, self.gap = 30, 4
        self.back_button = Button(lambda: t("replay.back"), self.back, name="back",
                                  hint="Esc")
        #: the games' rows (the focus list holds them, then Back)
        self.rows: list[Button] = []
        #: per row: its review button's place (empty when hidden), and how it opens
        self.review_rects: list[pygame.Rect] = []
        self.reviews: list[Any] = []
        #: the focused row's review button (the others are drawn without a key)
        self.review_button = Button(lambda: t("review.button"), self.review_focused,
                                    name="review")
        self.rekey()
        self.reload()

    def rekey(self) -> None:
        """The review button's letter in the language."""
        key_buttons([self.review_button], "key.replays.")

    def review_focused(self) -> None:
        """The game review of the focused row's game (none on Back)."""
        if self.list.focus < len(self.reviews):
            self.reviews[self.list.focus]()

    def reload(self) -> None:
        try:
            rows = store.recent_games(40)
        except store.STATS_ERRORS as exc:   # the files are still listed; the player is told
            rows = []
            notices.post(f"stats.unavailable.{store.stats_error_kind(exc)}",
                         once="replays-stats", reason=store.stats_reason(exc))
        files = store.record_files()[:40]
        buttons: list[Button] = []
        reviews: list[Any] = []
        self.headings = {}
        if rows:
            self.headings[0] = t("replay.recent")
        for r in rows:
            date = i18n.date(r.finished, clock=True)

            def label(r=r, date=date) -> str:
                return (t("replay.row", date=date, game=t(games.title_key(r.game)),
                          names=_names(r.seats)) + "  —  " + _winner_names(r))

            buttons.append(Button(label, lambda i=r.id: self.watch_db(i),
                                  name=f"game_{r.id}"))
            reviews.append(lambda r=r: self.review_db(r.id, r.game_id))
        if files:
            self.headings[len(buttons)] = t("replay.files")
        for p in files:
            buttons.append(Button(p.name, lambda p=p: self.watch_file(p),
                                  name="file_" + p.name))
            reviews.append(lambda p=p: self.review_file(p))
        self.rows = buttons
        self.list.set(buttons + [self.back_button])     # Back last, as on the menu screens
        self.reviews = reviews
        self.review_rects = [pygame.Rect(0, 0, 0, 0) for _ in buttons]
        self._size = (0, 0)

    def watch_db(self, row_id: int) -> None:
        self.app.play("click")
        record = stored_record(self.app, row_id)
        if record is not None:
            self.app.open("replay", record=record)

    def watch_file(self, path: Path) -> None:
        self.app.play("click")
        watch_file(self.app, path)

    def review_db(self, row_id: int, game_id: str) -> None:
        """The game review of a finished game (its figures join the statistics)."""
        self.app.play("click")
        record = stored_record(self.app, row_id)
        if record is not None:
            self.app.open("review", record=record, key=game_id)

    def review_file(self, path: Path) -> None:
        self.app.play("click")
        record = read_record(self.app, path)
        if record is not None:
            self.app.open("review", record=record, title=path.name)

    def back(self) -> None:
        self.app.play("click")
        self.app.pop()

    def resume(self) -> None:
        super().resume()

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        self.title_h = int(80 * u)
        bh = int(max(26, 42 * u))
        self.back_button.rect = pygame.Rect(0, 0, int(min(w * 0.5, 260 * u)), bh)
        self.back_button.rect.midbottom = (w // 2, h - int(16 * u))
        self.area = pygame.Rect(0, self.title_h, int(min(w * 0.9, 1000 * u)), 0)
        self.area.centerx = w // 2
        self.area.height = self.back_button.rect.top - int(50 * u) - self.title_h
        self.row_h = bh
        self.gap = int(6 * u)
        self._place()

    def _place(self) -> None:
        u = self.u
        buttons = self.rows
        y = self.area.top
        self.heading_pos: list[tuple[str, int]] = []
        self.visible = 0
        for i, b in enumerate(buttons):
            if i < len(self.review_rects):
                self.review_rects[i] = pygame.Rect(0, 0, 0, 0)
            if i < self.scroll:
                b.rect = pygame.Rect(0, 0, 0, 0)
                continue
            hy = 0
            if i in self.headings:
                hy = int(self.row_h * 0.9)
            if y + hy + self.row_h > self.area.bottom:
                b.rect = pygame.Rect(0, 0, 0, 0)
                continue
            if hy:
                self.heading_pos.append((self.headings[i], y + hy - int(6 * u)))
                y += hy
            rw = int(min(self.area.width * 0.22, 170 * u))
            b.rect = pygame.Rect(self.area.left, y, self.area.width - rw - self.gap, self.row_h)
            if i < len(self.review_rects):
                self.review_rects[i] = pygame.Rect(b.rect.right + self.gap, y, rw, self.row_h)
            y += self.row_h + self.gap
            self.visible += 1

    def _keep_focus_visible(self) -> None:
        f = self.list.focus
        if f >= len(self.rows):      # on Back the rows stay where they are
            self._place()
            return
        if f < self.scroll:
            self.scroll = f
        while f >= self.scroll + max(1, self.visible) and self.scroll < f:
            self.scroll += 1
            self._place()
        self._place()

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.DROPFILE:
            watch_file(self.app, ev.file)
            return True
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            for i, rect in enumerate(self.review_rects):
                if rect.width and rect.collidepoint(ev.pos):
                    self.list.focus = i
                    self.reviews[i]()
                    return True
        if self.review_button.hotkey is not None and ev.type == pygame.KEYDOWN and \
                ev.key == self.review_button.hotkey and self.list.focus < len(self.reviews):
            self.review_button.action()
            return True
        if ev.type == pygame.MOUSEWHEEL:
            n = len(self.rows)
            self.scroll = max(0, min(max(0, n - 1), self.scroll - int(ev.y)))
            self._place()
            return True
        used = self.list.handle_event(ev)
        if ev.type == pygame.KEYDOWN:
            self._keep_focus_visible()
        return used

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("replay.title")
        widgets.title(surf, title, int(56 * u), int(16 * u))
        for label, y in self.heading_pos:
            text.blit(surf, label, max(12, int(24 * u)), (self.area.left + int(4 * u), y),
                      widgets.GOLD, "bottomleft", True)
        if not self.rows:
            box = self.area.inflate(0, -self.area.height // 2)
            widgets.panel(surf, box, u, 200)
            text.blit(surf, t("replay.none"), text.fit(t("replay.none"), int(26 * u),
                                                        box.width - int(30 * u)),
                      box.center, widgets.CREAM, "center")
        for i, b in enumerate(self.rows):
            if b.rect.width:
                b.draw(surf, u, i == self.list.focus, i == self.list.hover)
                rect = self.review_rects[i] if i < len(self.review_rects) else None
                if rect is not None and rect.width:
                    review = self.review_button if i == self.list.focus else Button(
                        lambda: t("review.button"), lambda: None)
                    review.rect = rect
                    review.draw(surf, u, False)
        n = len(self.rows)
        if n > self.visible > 0:
            track = pygame.Rect(self.area.right + int(6 * u), self.area.top, max(3, int(5 * u)),
                                self.area.height)
            bar_h = max(16, track.height * self.visible // n)
            track.top += (track.height - bar_h) * self.scroll // max(1, n - self.visible)
            track.height = bar_h
            pygame.draw.rect(surf, widgets.GOLD, track, border_radius=3)
        hint = t("replay.drop", path=str(paths.saves_dir(create=False) / store.EXPORTS))
        hs = max(11, int(17 * u))
        lines = text.wrap(hint, hs, int(w * 0.9))
        y0 = self.back_button.rect.top - int(8 * u) - len(lines) * int(hs * 1.1)
        for i, line in enumerate(lines):
            text.blit(surf, line, hs, (w // 2, y0 + i * int(hs * 1.1)), widgets.DIM, "midtop")
        back = len(self.rows)
        self.back_button.draw(surf, u, self.list.focus == back, self.list.hover == back)
