"""The game review on screen: per player the lives lost, what the choices cost and the
rest the cards decided, with an accuracy figure; the decisions, costliest first; one
decision in detail with the cards as its seat saw them and the coach's odds of every
option; and a jump to that moment on the table (the replay, from that seat's chair).

The review itself is :mod:`game.review` (the same data ``stammtisch review --json``
prints), computed in the window's review workers (``app.reviews()``); while it is
computed the screen shows a progress bar (after half a second) and keeps drawing.

Keys: Up/Down (and Page Up/Down, Home/End, the wheel) choose a decision, Enter or T
shows it on the table, Left/Right choose whose decisions are listed, Esc goes back.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pygame

from game import games
from game.i18n import get_lang, t, tn
from game.records import Record
from game.review.compute import KEY_MIN_COST
from game.scenes.base import Scene
from game.turn.texts import SeatNames, seat_name
from game.view import review_panels as P
from game.view import text, widgets
from game.view.keys import key_buttons, key_name
from game.view.widgets import Button, FocusList

#: Seconds a review may take before the progress bar shows.
PROGRESS_AFTER = 0.5
#: The height (in units) the list and the decision keep below the players' table.
LOWER = 300


class ReviewScene(Scene):
    name = "review"

    def __init__(self, app, record: Record, key: Hashable | None = None,
                 title: str = "") -> None:
        super().__init__(app)
        self.record = record
        self.title = title
        self.job = app.reviews().start(record, key)
        self.age = 0.0
        self.seat: int | None = None          # whose decisions are listed (None: all)
        self.entries: list[dict[str, Any]] = []
        self.focus = 0
        self.scroll = 0
        self.rows: list[tuple[int, pygame.Rect]] = []
        self.player_rows: list[tuple[int, pygame.Rect]] = []
        self._built_for: Any = None
        #: the last layout knew the review (the players' table has its height)
        self._laid_out_with_review = False
        # until the first layout (a key may come first)
        self.players_rect = self.list_rect = self.detail_rect = pygame.Rect(0, 0, 0, 0)
        self.message_rect = pygame.Rect(0, 0, 0, 0)
        self.row_h, self.title_size = 30, 30
        self.list = FocusList([
            Button(lambda: t("review.show"), self.show, name="show"),
            Button(self._filter_label, lambda: self.cycle(1), name="filter",
                   hint=key_name(pygame.K_RIGHT)),
            Button(lambda: t("review.back"), self.back, name="back", hint="Esc"),
        ], horizontal=True)
        self.list.focus = 0
        self.rekey()
        self._entries()

    def rekey(self) -> None:
        """*Show on the table* keyed by a letter of its label in the language
        (``key.review.show``: T, *Table* and *Tisch*)."""
        key_buttons([b for b in self.list.buttons if b.name == "show"], "key.review.")

    # ------------------------------------------------------------------ data

    @property
    def review(self) -> dict[str, Any] | None:
        return self.job.review

    def names(self) -> list[str]:
        return [seat_name(s.as_dict(), i) for i, s in enumerate(self.record.seats)]

    def you(self) -> int | None:
        """The seat addressed as "you" (the one person of a solo game), if any."""
        seats = self.record.seats
        sn = SeatNames([s.name for s in seats],
                       [i for i, s in enumerate(seats) if s.type == "human"],
                       [s.role for s in seats])
        return next((i for i in range(len(seats)) if sn.solo(i)), None)

    def _entries(self) -> None:
        """The decisions listed: the key moments first (of the game, or of the chosen
        player), then the rest in the order they were made."""
        rv = self.review
        if rv is None:
            self.entries = []
            return
        if self._built_for == (id(rv), self.seat):
            return
        self._built_for = (id(rv), self.seat)
        by_move = {d["move"]: d for d in rv["decisions"]}
        if self.seat is None:
            first = rv["key_moments"]
            mine = rv["decisions"]
        else:
            first = rv["players"][self.seat]["key_moments"]
            mine = [d for d in rv["decisions"] if d["seat"] == self.seat]
        top = [by_move[m] for m in first]
        self.entries = top + [d for d in mine if d["move"] not in set(first)]
        self.focus = 0
        self.scroll = 0

    def current(self) -> dict[str, Any] | None:
        return self.entries[self.focus] if 0 <= self.focus < len(self.entries) else None

    def _filter_label(self) -> str:
        name = t("review.all") if self.seat is None else self.names()[self.seat]
        return t("review.filter", name=name)

    # ------------------------------------------------------------------ actions

    def cycle(self, step: int) -> None:
        """List the next player's decisions (then everybody's again)."""
        n = len(self.record.seats)
        order: list[int | None] = [None, *range(n)]
        self.seat = order[(order.index(self.seat) + step) % len(order)]
        self.app.play("click")
        self._entries()

    def choose(self, seat: int | None) -> None:
        self.seat = None if seat == self.seat else seat
        self.app.play("click")
        self._entries()

    def move_focus(self, step: int) -> None:
        if self.entries:
            self.focus = max(0, min(len(self.entries) - 1, self.focus + step))
            self._keep_visible()

    def show(self) -> None:
        """The table at this decision, with the cards as its seat saw them."""
        d = self.current()
        if d is None:
            return
        self.app.play("click")
        names = self.names()
        title = t("review.replay_title", name=names[d["seat"]], round=d["round"] + 1,
                  chosen=P.move_label(d["decision"], d["chosen"]),
                  best=P.move_label(d["decision"], d["best"] or d["chosen"]))
        self.app.open("replay", record=self.record, at=d["move"], viewer=d["seat"],
                      title=title)

    def back(self) -> None:
        self.app.play("click")
        if self.app.top is self:
            self.app.pop()

    # ------------------------------------------------------------------ frame

    def update(self, dt: float) -> None:
        self.age += dt
        self.job.poll()
        self._entries()
        # lay out again around the players' table once the review is there: the window
        # polls every review before this update, so the review may have come in
        # before this screen saw it waiting
        if self.review is not None and not self._laid_out_with_review:
            self._size = (0, 0)

    def busy(self) -> bool:
        return not self.job.finished

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        pad = int(max(8, 16 * u))
        bh = int(max(26, 44 * u))
        widgets.layout_row(self.list.buttons, w // 2, h - pad - bh // 2,
                           int(min((w - 4 * pad) / 3, 320 * u)), bh, int(14 * u))
        self.title_size = max(16, min(int(46 * u), int(h * 0.065)))
        top = pad + self.title_size + int(30 * u)
        width = int(min(w - 2 * pad, 1600 * u))
        left = (w - width) // 2
        bottom = self.list.buttons[0].rect.top - int(12 * u)
        rv = self.review
        self._laid_out_with_review = rv is not None
        want = least = int(120 * u)
        if rv is not None:
            want = P.players_height(rv, width, u)
            least = P.players_height(rv, width, u, P.row_least(u))
        # as high as the players' rows want, as long as the list and the decision below
        # keep LOWER (a hand, the options, the verdict and the others' cards), and
        # never with rows under 24u (14 pixels at 800x450). Held to 42 % of the room,
        # the rows of 10 players were 19 pixels at 1280x800 (11-pixel figures), and at
        # 800x450 they spilled over the note below them and out of their panel.
        room = bottom - top - int(10 * u)
        ph = min(want, max(least, room - int(LOWER * u)))
        self.players_rect = pygame.Rect(left, top, width, ph)
        low = self.players_rect.bottom + int(10 * u)
        gap = int(12 * u)
        lw = int(width * 0.40)
        self.list_rect = pygame.Rect(left, low, lw, bottom - low)
        self.detail_rect = pygame.Rect(left + lw + gap, low, width - lw - gap, bottom - low)
        self.row_h = max(18, int(34 * u))
        self.message_rect = pygame.Rect(0, 0, int(min(w * 0.8, 760 * u)), int(150 * u))
        self.message_rect.center = (w // 2, h // 2)

    def _visible_rows(self) -> int:
        head = int(max(14, 22 * self.u))
        return max(1, (self.list_rect.height - head - int(16 * self.u))
                   // (self.row_h + int(4 * self.u)))

    def _keep_visible(self) -> None:
        n = self._visible_rows()
        if self.focus < self.scroll:
            self.scroll = self.focus
        elif self.focus >= self.scroll + n:
            self.scroll = self.focus - n + 1

    # ------------------------------------------------------------------ input

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN:
            k = ev.key
            if k in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.back()
                return True
            steps = {pygame.K_UP: -1, pygame.K_DOWN: 1,
                     pygame.K_PAGEUP: -self._visible_rows(),
                     pygame.K_PAGEDOWN: self._visible_rows(),
                     pygame.K_HOME: -10**6, pygame.K_END: 10**6}
            if k in steps:
                self.move_focus(steps[k])
                return True
            if k in (pygame.K_LEFT, pygame.K_RIGHT):
                self.cycle(-1 if k == pygame.K_LEFT else 1)
                return True
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                if self.list.focus == 0 or self.list.buttons[self.list.focus].name == "show":
                    self.show()
                    return True
                return self.list.activate(self.list.focus)
            if k == pygame.K_TAB:
                return self.list.handle_event(ev)
        if ev.type == pygame.MOUSEWHEEL and self.entries:
            n = self._visible_rows()
            self.scroll = max(0, min(max(0, len(self.entries) - n), self.scroll - int(ev.y)))
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            for i, rect in self.rows:
                if rect.collidepoint(ev.pos):
                    if i == self.focus:
                        self.show()           # a second click on it: to the table
                    else:
                        self.focus = i
                    return True
            for s, rect in self.player_rows:
                if rect.collidepoint(ev.pos):
                    self.choose(s)
                    return True
        return self.list.handle_event(ev)

    # ------------------------------------------------------------------ drawing

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        pad = int(max(8, 16 * u))
        title = t("review.title") + (f": {self.title}" if self.title else "")
        widgets.title(surf, title, self.title_size, pad)
        self.rows, self.player_rows = [], []
        rv = self.review
        if rv is None:
            if self.job.error is not None:
                P.message_panel(surf, self.message_rect,
                                t("review.failed", error=self.job.error), u)
            elif self.age >= PROGRESS_AFTER:
                P.progress_panel(surf, self.message_rect, self.job.done, self.job.total, u)
            self.list.buttons[0].enabled = False
            self.list.draw(surf, u)
            return
        self.list.buttons[0].enabled = bool(self.entries)
        sub = t("review.sub", game=t(games.title_key(rv["game"])),
                rounds=tn("count.rounds", len(rv["rounds"])),
                decisions=tn("review.decisions", len(rv["decisions"])),
                level=t("level." + rv["level"]))
        if rv["in_play"] is not None:
            sub += "  ·  " + t("review.in_play", n=rv["in_play"]["round"] + 1)
        sfs = text.fit(sub, max(11, int(20 * u)), int(w * 0.94), False, 9)
        text.blit(surf, text.ellipsize(sub, sfs, int(w * 0.96)), sfs,
                  (w // 2, pad + self.title_size + int(4 * u)), widgets.CREAM, "midtop",
                  shadow=True)
        names = self.names()
        self.player_rows = P.players_panel(surf, self.players_rect, rv, names, u, self.seat)
        self._draw_list(surf, names)
        d = self.current()
        if d is not None:
            settings = self.app.settings
            strip = P.CardStrip(self.app.art, bool(settings["four_colour"]), get_lang())
            P.detail_panel(surf, self.detail_rect, d, rv, names, strip, u, KEY_MIN_COST,
                           self.you())
        else:
            P.message_panel(surf, self.detail_rect, t("review.none"), u)
        self.list.draw(surf, u)

    def _draw_list(self, surf: pygame.Surface, names: list[str]) -> None:
        u = self.u
        r = self.list_rect
        widgets.panel(surf, r, u, 205)
        hfs = max(11, int(18 * u))
        text.blit(surf, text.ellipsize(t("review.list"), hfs, r.width - int(20 * u), True),
                  hfs, (r.left + int(10 * u), r.top + int(8 * u)), widgets.GOLD, "topleft",
                  True)
        y = r.top + int(8 * u) + int(hfs * 1.4)
        n = self._visible_rows()
        self._keep_visible()
        for i in range(self.scroll, min(len(self.entries), self.scroll + n)):
            row = pygame.Rect(r.left + int(8 * u), y, r.width - int(22 * u), self.row_h)
            d = self.entries[i]
            P.decision_row(surf, row, d, names[d["seat"]], u, i == self.focus, KEY_MIN_COST)
            self.rows.append((i, row))
            y += self.row_h + int(4 * u)
        if len(self.entries) > n:
            track = pygame.Rect(r.right - int(10 * u), r.top + int(hfs * 1.6), max(3, int(4 * u)),
                                r.height - int(hfs * 1.6) - int(10 * u))
            bar_h = max(12, track.height * n // len(self.entries))
            track.top += (track.height - bar_h) * self.scroll // max(1, len(self.entries) - n)
            track.height = bar_h
            pygame.draw.rect(surf, widgets.GOLD, track, border_radius=2)
