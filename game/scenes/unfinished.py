"""Continue: every unfinished game (game.shelf), the one played last first. Each can
be resumed, or discarded after a question; with two or more, all of them can be
discarded at once (after a question naming how many). Nothing is thrown away by
itself.

The focus goes as on the other menu screens: arrows and Tab through every button,
each game's row and its Discard, then Discard all and Back."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pygame

from game import fileio, games, i18n, shelf, store
from game.i18n import t
from game.scenes.base import Scene
from game.turn.texts import seat_name
from game.view import text, widgets
from game.view.widgets import Button, FocusList


def table_kind(u: shelf.Unfinished) -> str:
    """What kind of table the game was played at: ``phones`` (the session names phone
    seats), ``solo`` (one person at the screen), ``hotseat`` (several), or
    ``computers``."""
    phones = u.session.get("phones")
    if isinstance(phones, list) and phones:
        return "phones"
    people = sum(1 for s in u.record.seats if s.type == "human")
    return "computers" if people == 0 else "solo" if people == 1 else "hotseat"


def describe(u: shelf.Unfinished) -> str:
    """One line for an unfinished game: which, at what kind of table, how far, who,
    when."""
    names = ", ".join(seat_name(s.as_dict(), i) for i, s in enumerate(u.record.seats))
    when = i18n.date(u.saved_at, clock=True)
    rnd = max(0, int(u.summary.get("round", 0) or 0)) + 1
    return t("unfinished.row", game=t(games.title_key(u.record.game)),
             kind=t("unfinished.kind." + table_kind(u)), round=rnd, names=names, date=when)


class UnfinishedScene(Scene):
    name = "unfinished"

    def __init__(self, app) -> None:
        super().__init__(app)
        self.entries: list[shelf.Unfinished] = []
        self.list = FocusList()
        self.back_button = Button(lambda: t("common.back"), self.back, name="back",
                                  hint="Esc")
        self.discard_all_button = Button(lambda: t("unfinished.discard_all"),
                                         self.ask_discard_all, name="discard_all")
        self.first = 0            # the first row shown
        self.rows = 1             # rows that fit
        self.area = pygame.Rect(0, 0, 10, 10)
        self.reload()

    def reload(self) -> None:
        self.entries = shelf.unfinished()
        buttons = []
        for i, e in enumerate(self.entries):
            buttons.append(Button(lambda e=e: describe(e), lambda e=e: self.resume_game(e),
                                  name=f"resume_{i}"))
            buttons.append(Button(lambda: t("unfinished.discard"),
                                  lambda e=e: self.ask_discard(e), name=f"discard_{i}"))
        self.list.set(buttons + self._bottom_buttons())
        self._size = (0, 0)

    def resume_game(self, entry: shelf.Unfinished) -> None:
        self.app.play("click")
        try:
            saved = shelf.take(entry)
            table = self.app.scene("continue", record=saved.record, saved=saved.session)
        except store.InUse:               # another window keeps the saved games
            self.app.notify(partial(t, "store.save.in_use"))
            return
        except shelf.InTheWay as exc:     # the file there is kept: said so, not resumed
            self.app.notify(partial(t, "unfinished.in_the_way", file=Path(exc.filename).name))
            self.reload()
            return
        except (OSError, ValueError, KeyError) as exc:   # a save that does not resume: told
            self.app.notify(partial(t, "store.resume_failed", error=fileio.explain(exc)))
            self.reload()
            return
        self.app.replace(table)

    def ask_discard(self, entry: shelf.Unfinished) -> None:
        self.app.play("click")

        def discard() -> None:
            row, col = self.focused_row(), self.list.focus % 2   # the line or its Discard
            self._discard(entry)
            self.reload()
            if not self.entries:
                self.app.pop()
            elif row is not None:
                # the focus stays in its place: the next game's (the new last one's)
                # line or Discard, not back on the first game of the list
                self.list.focus = 2 * min(row, len(self.entries) - 1) + col

        self.app.open("confirm", title=t("unfinished.discard_title"),
                      body=t("unfinished.discard_body", game=describe(entry)),
                      yes_key="unfinished.discard", on_yes=discard)

    def ask_discard_all(self) -> None:
        if len(self.entries) < 2:
            return
        self.app.play("click")
        entries = list(self.entries)

        def discard() -> None:
            for e in entries:
                self._discard(e)
            self.reload()
            if not self.entries:
                self.app.pop()

        self.app.open("confirm", title=t("unfinished.discard_all_title", n=len(entries)),
                      body=t("unfinished.discard_all_body"),
                      yes_key="unfinished.discard_all", on_yes=discard)

    def _discard(self, entry: shelf.Unfinished) -> None:
        """Throw one game away; a file that cannot be removed is told, not a crash."""
        try:
            shelf.discard(entry)
        except store.InUse:
            self.app.notify(partial(t, "store.save.in_use"))
        except OSError as exc:
            self.app.notify(partial(t, "unfinished.discard_failed", game=describe(entry),
                                    error=fileio.reason(exc)))

    def _bottom_buttons(self) -> list[Button]:
        """Back, and Discard all when there is more than one game."""
        if len(self.entries) >= 2:
            return [self.discard_all_button, self.back_button]
        return [self.back_button]

    def focused_row(self) -> int | None:
        """The game whose row or Discard has the focus (None: Discard all or Back)."""
        row = self.list.focus // 2
        return row if row < len(self.entries) else None

    def back(self) -> None:
        self.app.play("click")
        self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        u = self.u
        bh = int(max(28, 46 * u))
        bottom = self._bottom_buttons()
        gap = int(8 * u)
        bw = int(min((w * 0.9 - gap * (len(bottom) - 1)) / len(bottom), 260 * u))
        left = w // 2 - (bw * len(bottom) + gap * (len(bottom) - 1)) // 2
        for k, b in enumerate(bottom):
            b.rect = pygame.Rect(left + k * (bw + gap), 0, bw, bh)
            b.rect.bottom = h - int(16 * u)
        top = int(90 * u)
        self.area = pygame.Rect(0, top, int(min(w * 0.92, 1100 * u)),
                                self.back_button.rect.top - int(24 * u) - top)
        self.area.centerx = w // 2
        gap = int(8 * u)
        self.rows = max(1, (self.area.height + gap) // (bh + gap))
        focus_row = self.focused_row()
        if focus_row is not None:    # on Discard all or Back the rows stay where they are
            self.first = max(min(self.first, focus_row), focus_row - self.rows + 1)
        # Discard is as wide as its word needs, so the row's line keeps the rest
        label = text.size_of(t("unfinished.discard"), bh // 2, True)[0]
        dw = int(min(self.area.width * 0.24, 220 * u,
                     max(120 * u, label + 2 * int(bh * 0.3) + 24 * u)))
        for i, b in enumerate(self.list.buttons[:2 * len(self.entries)]):
            row = i // 2
            if not self.first <= row < self.first + self.rows:
                b.rect = pygame.Rect(0, 0, 0, 0)
                continue
            y = self.area.top + (row - self.first) * (bh + gap)
            if i % 2 == 0:
                b.rect = pygame.Rect(self.area.left, y, self.area.width - dw - gap, bh)
            else:
                b.rect = pygame.Rect(self.area.right - dw, y, dw, bh)

    def handle_event(self, ev: pygame.event.Event) -> bool:
        if ev.type == pygame.KEYDOWN and ev.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.back()
            return True
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_DELETE:
            if ev.mod & pygame.KMOD_SHIFT:
                self.ask_discard_all()
            elif (row := self.focused_row()) is not None:   # the focused game's line or Discard
                self.ask_discard(self.entries[row])
            return True
        used = self.list.handle_event(ev)
        if ev.type == pygame.KEYDOWN:
            self._size = (0, 0)      # keep the focused row in view
        return used

    def draw(self, surf: pygame.Surface) -> None:
        surf.blit(self.app.background(), (0, 0))
        w, h = surf.get_size()
        u = self.u
        title = t("unfinished.title")
        widgets.title(surf, title, int(52 * u), int(16 * u))
        for i, b in enumerate(self.list.buttons):   # the rows, Discard all, Back
            if b.rect.width:
                b.draw(surf, u, i == self.list.focus, i == self.list.hover)
        hidden = len(self.entries) - self.rows
        if hidden > 0:
            more = t("unfinished.more", n=hidden)
            text.blit(surf, more, max(11, int(18 * u)),
                      (w // 2, self.back_button.rect.top - int(6 * u)), widgets.DIM,
                      "midbottom")
