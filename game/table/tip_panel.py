"""The first game's tips at the table (:mod:`game.turn.tips` says which and when):
shown one at a time over the table, each once, put away with a click or any key. A
tip keeps clear of the person's buttons and hand and of a trick on the table; of the
middle of the table (the talon, the trump: what many tips talk about) and of the
seats' plates where some place allows; where none is clear of both, it lies on the
middle rather than on a plate, in a gap between the plates if need be (a crowded table
in a small window); only where there is no such gap does it cover the least of the
plates it can find.
While a tip shows, the game waits (the turn flow does not move on), so the person
reads it before the computers act.

Tips show only to a person at the screen: never in the demo, a replay, at a table of
phones only, or while a resumed game catches up. The settings hold whether tips are
on (``tips``) and the situations already explained (``tips_seen``); switching tips on
again in the settings forgets those, so every tip shows afresh.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import pygame

from game.i18n import t
from game.rules.base import Event
from game.turn.sources import Decision
from game.turn.tips import Tip
from game.view import text, widgets

#: the steps a tip is slid along the top of the table and the bottom of the window
SLIDES = 8
#: the steps of width tried between the narrow tip over the log and the widest
WIDTHS = 8
#: the text sizes (shares of the usual) a tip tries before it lies on a plate
SCALES = (1.0, 0.9, 0.8)


def plate_drawn(g: Any, seat: int) -> pygame.Rect:
    """A seat's plate as it is drawn: with its shadow under it and, at the Rams table,
    the badge of what it declared half over its top edge."""
    r = g.plate_rect(seat)
    above = int(r.height * 0.2 + 2 * g.u)
    return pygame.Rect(r.left, r.top - above, r.width, r.height + above + max(1, int(3 * g.u)))


class Around(NamedTuple):
    """What a tip keeps clear of: all of :meth:`TipPanel.keep_clear`, the part of it
    a tip may not lie on even over the middle, and the seats' plates as drawn."""

    clear: list[pygame.Rect]
    spared: list[pygame.Rect]
    plates: list[pygame.Rect]


def covered(r: pygame.Rect, rects: list[pygame.Rect]) -> int:
    """How many pixels of ``rects`` (apart) ``r`` covers."""
    return sum(c.width * c.height for c in (r.clip(q) for q in rects))


class TipPanel:
    def __init__(self, table: Any) -> None:
        self.table = table
        self.queue: list[Tip] = []
        #: the game's tips (``chase_tips``, ``rams_tips``), named by its table scene
        self.book: Any = getattr(table, "tip_book", None)
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._fits: dict[tuple, dict[str, Any]] = {}     # fit() by width and texts
        #: the text's size as a share of the usual: smaller where only that covers no plate
        self.scale = 1.0
        self._placed: tuple[tuple, pygame.Rect, float] | None = None   # the last place

    # ------------------------------------------------------------------ when

    @property
    def settings(self) -> Any:
        return self.table.app.settings

    def active(self) -> bool:
        tb = self.table
        return (self.book is not None and bool(self.settings["tips"]) and tb.options.tips
                and not tb.demo and bool(tb.humans) and not tb.catching_up)

    def showing(self) -> bool:
        return bool(self.queue)

    def _add(self, tip: Tip | None) -> None:
        if tip is None or tip.id in self.settings["tips_seen"]:
            return
        self.settings["tips_seen"] = [*self.settings["tips_seen"], tip.id]
        self.table.app.save_settings()
        self.queue.append(tip)

    def event(self, event: Event) -> None:
        """A public event is shown at the table."""
        if event.to is not None or not self.active():
            return
        tb = self.table
        self._add(self.book.for_event(event.type, event.data, tb.game.rules, tb.viewer,
                                      tb.seat_name))

    def decision(self, decision: Decision) -> None:
        """A decision is put to the person at the screen (after the privacy screen)."""
        if not self.active() or self.table.viewer != decision.seat:
            return
        self._add(self.book.for_decision(decision.view, self.table.seat_name))

    # ------------------------------------------------------------------ input, drawing

    def handle(self, ev: pygame.event.Event) -> bool:
        """A click or a key puts the tip away (and does nothing else)."""
        if not self.queue:
            return False
        if ev.type == pygame.KEYDOWN or (ev.type == pygame.MOUSEBUTTONDOWN
                                          and ev.button in (1, 3)):
            self.queue.pop(0)
            self.table.app.play("click")
            return True
        return ev.type in (pygame.MOUSEBUTTONUP, pygame.KEYUP)

    def keep_clear(self, spare_middle: bool = False) -> list[pygame.Rect]:
        """What a tip should not cover: the middle of the table, the move buttons and
        the person's hand (its panel, in Chase the Ace). With ``spare_middle``, only
        what the person acts with and the cards lying out: not the talon and the
        trump, nor where a trick's cards go while none lies there."""
        tb = self.table
        g = tb.table_layout.geo
        middle = pygame.Rect(0, 0, int(g.cw * 2.6), int(g.ch * 1.5))
        middle.center = (int(g.cx), int(g.cy))
        rects = [b.rect for b in tb.actions.buttons]
        if not spare_middle:
            rects.append(middle)
        # where the cards of a trick (Rams) or each seat's card (Chase) lie
        spots = list(getattr(g, "trick", {}).values())      # Rams
        if spots and spare_middle and not tb.model.trick_sprites:
            spots = []                                      # no trick on the table
        elif not spots:                                     # Chase: a card at each seat
            try:
                spots = [tb.table_layout.resolve(("seat", s)) for s in range(tb.n)]
            except (KeyError, TypeError, ValueError):
                spots = []
        rects += [g.card_rect(spot) for spot in spots]
        if g.hand_panel is not None:
            rects.append(g.hand_panel)
        hand = getattr(tb.controls, "card_rects", None)
        return rects + (hand() if hand is not None else [])

    def place(self, width: int, window: pygame.Rect) -> pygame.Rect:
        """Where a tip at most ``width`` wide lies (:meth:`search`), at the usual text
        size; where that covers a plate, at the first smaller size of :data:`SCALES`
        that covers none; where none does, the first size at which a place between the
        plates covers none (:meth:`free_place`); else at the usual size. Kept while
        nothing it depends on moves, so the search runs when something does, not every
        frame."""
        g = self.table.table_layout.geo
        around = Around(self.keep_clear(), self.keep_clear(spare_middle=True),
                        [plate_drawn(g, s) for s in g.seat])
        key = (window.size, id(self.queue[0]), self.queue[0].texts(), g.size,
               *(tuple(map(tuple, rects)) for rects in around))
        if self._placed is not None and self._placed[0] == key:
            self.scale = self._placed[2]
            return self._placed[1].copy()
        first = None
        for scale in SCALES:
            self.scale = scale
            r, cover = self.search(pygame.Rect(0, 0, width, self.height_for(width)), window,
                                   around)
            first = first or (r, scale)
            if cover == 0:
                break
        else:
            r, self.scale = first
            for scale in SCALES:
                self.scale = scale
                free = self.free_place(width, window, around)
                if free is not None:
                    r = free
                    break
            else:
                self.scale = first[1]
        self._placed = (key, r.copy(), self.scale)
        return r

    def search(self, box: pygame.Rect, window: pygame.Rect,
               around: Around) -> tuple[pygame.Rect, int]:
        """At the top of the table's area; else over the log (where the table's words
        are); else at the area's bottom; else in its middle; else, narrower or as wide,
        slid along the top of the area or the bottom of the window: of these the first
        place that covers nothing of :meth:`keep_clear` and no seat's plate; else the
        first that covers no plate, lying on the talon and the trump (a trick on the
        table stays clear); else the one (clear of all) covering the least of the
        plates, else the middle. With the plate pixels it covers. ``around``: what to
        keep clear of, made once for every text size tried.
        The seat at the lower right sits just above the log: a tip over the log hid
        its plate with 6 to 10 at the table (with 8 at 1280x800, 11020 pixels of it).
        A long tip (Rams' 'Play or drop out?', 342 pixels high at 1280x720 in German)
        finds no place clear of the middle and the plates with 6 or more at the table,
        and lay on the plate at the lower right (at 1280x720, 190x37 pixels of it)."""
        g = self.table.table_layout.geo
        area, gap = g.area, max(4, int(8 * g.u))
        clear, spared, plates = around
        top = box.copy()
        top.midtop = (int(g.cx), area.top + gap)
        log = g.log_panel
        narrow = self.narrow(box.width, window)
        over_log = pygame.Rect(0, 0, narrow, self.height_for(narrow))
        over_log.bottomright = log.bottomright
        bottom = box.copy()
        bottom.midbottom = (int(g.cx), area.bottom - gap)
        middle = box.copy()
        middle.center = (int(g.cx), area.centery)

        def places() -> Iterator[pygame.Rect]:
            yield from (top, over_log, bottom, middle)
            # a wider tip is lower: the widths from the narrow one over the log to the box
            for k in range(WIDTHS + 1):
                width = narrow + k * (box.width - narrow) // WIDTHS
                size = pygame.Rect(0, 0, width, self.height_for(width))
                for i in range(SLIDES + 1):
                    x = window.left + i * (window.width - width) // SLIDES
                    yield size.move_to(left=x, top=area.top + gap)
                    yield size.move_to(left=x, bottom=window.bottom)

        # the first place that fits and covers no plate (most frames: one of the first
        # four, so the slid ones are never made), else the first of the least covering
        best, least, on_middle = middle, None, None
        for r in places():
            r.clamp_ip(window)
            if r.top < g.top_h or any(r.colliderect(c) for c in spared):
                continue
            cover = covered(r, plates)
            if any(r.colliderect(c) for c in clear):
                if cover == 0 and on_middle is None:
                    on_middle = r
                continue
            if cover == 0:
                return r, 0
            if least is None or cover < least:
                best, least = r, cover
        if on_middle is not None:
            return on_middle, 0
        return best, covered(best, plates)

    def narrow(self, width: int, window: pygame.Rect) -> int:
        """The narrowest a tip at most ``width`` wide is made: the log's width, or three
        tenths of the window's if that is wider."""
        log = self.table.table_layout.geo.log_panel
        return min(width, max(log.width, int(window.width * 0.3)))

    def free_place(self, width: int, window: pygame.Rect,
                   around: Around) -> pygame.Rect | None:
        """Where none of :meth:`search`'s places covers no plate at any text size (a
        crowded table in a small window: 7 to 10 seats at 800x450, where the tip lay
        on the plate at the lower right, just above the log; with 8 in German, 5192
        pixels of Greta's): of the tips from the narrow one to as wide as the table's
        area allows (wider than ``width`` only where none at most that wide fits: a
        wider tip is lower, its lines longer), each set against the edges of what it
        keeps clear of (a gap apart), the one nearest the table's middle that covers
        no plate and none of what the person acts with; clear of the talon and the
        trump where one is, else lying on them. None if there is none. The gaps of a
        crowded table lie between its plates, where the fixed places do not look."""
        g = self.table.table_layout.geo
        narrow = self.narrow(width, window)
        clear, spared, plates = around
        gap = max(4, int(8 * g.u))
        top = max(g.top_h, g.area.top + gap)
        centre = (int(g.cx), g.area.centery)
        keep = plates + spared
        edges = keep + clear
        best: tuple[tuple[int, int, int], pygame.Rect] | None = None
        widest = max(width, int(g.area.width * 0.86))
        for k in range(2 * WIDTHS + 1):
            w = widest - k * (widest - narrow) // (2 * WIDTHS)
            size = pygame.Rect(0, 0, w, self.height_for(w))
            xs = {window.left, window.right - w, centre[0] - w // 2}
            ys = {top, window.bottom - size.height, centre[1] - size.height // 2}
            for o in edges:
                xs.update((o.right + gap, o.left - gap - w))
                ys.update((o.bottom + gap, o.top - gap - size.height))
            xs = {x for x in xs if window.left <= x <= window.right - w}
            ys = {y for y in ys if top <= y <= window.bottom - size.height}
            for y in ys:
                for x in xs:
                    r = size.move_to(left=x, top=y)
                    if r.collidelist(keep) >= 0:
                        continue
                    cx, cy = r.center
                    rank = (int(r.collidelist(clear) >= 0), int(w > width),
                            (cx - centre[0]) ** 2 + (cy - centre[1]) ** 2)
                    if best is None or rank < best[0]:
                        best = (rank, r)
        return None if best is None else best[1]

    def fit(self, width: int) -> dict[str, Any]:
        """The tip set into a panel ``width`` pixels wide: sizes, lines and height
        (the text shrinks until the panel fits into the table's area)."""
        geo = self.table.table_layout.geo
        u = geo.u
        title, body = self.queue[0].texts()
        footer = t("tip.footer")
        # kept: each frame's lay-out tries the tip at several widths
        key = (width, title, body, footer, u, geo.area.height, self.scale)
        if key in self._fits:
            return self._fits[key]
        inner = width - int(36 * u)
        fs = max(12, int(23 * u * self.scale))
        while True:
            ts = max(12, int(fs * 1.2))
            small = max(11, int(fs * 0.8))
            lines = text.wrap(body, fs, inner)
            feet = text.wrap(footer, small, inner)
            lh, slh = int(fs * 1.25), int(small * 1.25)
            height = int(ts * 1.5) + lh * len(lines) + slh * len(feet) + int(34 * u)
            if height <= geo.area.height - 8 or fs <= 11:
                break
            fs -= 1
        if len(self._fits) > 64:
            self._fits.clear()
        self._fits[key] = {"title": title, "inner": inner, "fs": fs, "ts": ts,
                           "small": small, "lines": lines, "feet": feet, "lh": lh,
                           "slh": slh, "height": height}
        return self._fits[key]

    def height_for(self, width: int) -> int:
        return int(self.fit(width)["height"])

    def lay_out(self, window: pygame.Rect) -> pygame.Rect:
        """Where the tip shows in ``window`` (an empty rect when none does), kept in
        :attr:`rect`; the table asks before it draws, so that what the painter places
        (a speech bubble) can keep clear of the tip of this very frame."""
        if not self.queue:
            self.rect = pygame.Rect(0, 0, 0, 0)
            return self.rect
        geo = self.table.table_layout.geo
        width = int(min(geo.area.width * 0.86, 640 * geo.u, window.width - 16))
        box = self.place(width, window)
        box.height = self.height_for(box.width)
        box.clamp_ip(window)
        self.rect = box
        return box

    def draw(self, surf: pygame.Surface) -> None:
        """The tip at :attr:`rect`, where :meth:`lay_out` put it for this frame (the table
        lays it out before it draws anything)."""
        if not self.queue:
            return
        u = self.table.table_layout.geo.u
        box = self.rect
        f = self.fit(box.width)
        # opaque: the log it may lie on must not show through its text
        widgets.panel(surf, box, u, 255, border=widgets.GOLD)
        x, y = box.left + int(18 * u), box.top + int(12 * u)
        ts, fs, small = f["ts"], f["fs"], f["small"]
        text.blit(surf, text.ellipsize(f["title"], ts, f["inner"], True), ts, (x, y),
                  widgets.GOLD, "topleft", True)
        y += int(ts * 1.5)
        for line in f["lines"]:
            text.blit(surf, line, fs, (x, y), widgets.CREAM)
            y += f["lh"]
        y += int(10 * u)
        for line in f["feet"]:
            text.blit(surf, line, small, (x, y), widgets.DIM)
            y += f["slh"]
