"""Where things are on a table, for one window size: the layout step.

Sizes come from two units. ``u`` (:func:`game.view.widgets.unit`) scales the chrome
-- bars, plates, panels, buttons, text -- with the window; the *card* (``cw`` × ``ch``,
chosen first from the room around the table) is the unit of everything on the felt:
piles, hands, tricks and the pot sit so many card widths and heights from the centre.

Each game's layout (``chase_layout.py``, ``rams_layout.py``) subclasses
:class:`TableLayout`: ``fit(size, u)`` computes a geometry once per window size (and
resizes the card art), ``resolve(anchor)`` turns a named place into pixels every
frame, so a resize in the middle of an animation keeps everything where it belongs.
Nothing is laid out while drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

Point = tuple[float, float]


@dataclass
class TableGeometry:
    """The pixels of one table layout (every game has these; games add their own)."""

    size: tuple[int, int]
    u: float
    top_h: int                     # the top bar
    area: pygame.Rect              # the table itself
    cx: float
    cy: float
    rx: float                      # the ellipse the seats sit on
    ry: float
    cw: int                        # the card unit
    ch: int
    plate: tuple[int, int]         # a seat's name plate
    big: tuple[int, int]           # a card of the viewer's hand, shown large
    seat: dict[int, Point]         # plate centres
    dealer: dict[int, Point]       # where the dealer button lies for each seat
    pot: Point
    log_panel: pygame.Rect
    menu: pygame.Rect              # the menu button
    hint: pygame.Rect              # the coach's button, right of it
    hand_panel: pygame.Rect | None = None   # a panel at the bottom left, if the game has one

    def plate_rect(self, seat: int) -> pygame.Rect:
        """``seat``'s name plate."""
        r = pygame.Rect(0, 0, *self.plate)
        x, y = self.seat[seat]
        r.center = (int(x), int(y))
        return r

    def card_rect(self, at: Point) -> pygame.Rect:
        """A card of the table's size centred at ``at``."""
        r = pygame.Rect(0, 0, self.cw, self.ch)
        r.center = (int(at[0]), int(at[1]))
        return r


def top_bar(u: float) -> int:
    return int(max(26, 46 * u))


def plate_size(w: int, u: float) -> tuple[int, int]:
    return int(min(190 * u, w * 0.17)), int(max(34, 58 * u))


def buttons_in_bar(top_h: int, u: float) -> tuple[pygame.Rect, pygame.Rect]:
    """The menu button at the left of the top bar and the coach's button beside it."""
    pad = int(10 * u)
    menu = pygame.Rect(pad, int(6 * u), int(150 * u), top_h - int(12 * u))
    hint = pygame.Rect(menu.right + int(10 * u), menu.top, int(max(70, 118 * u)),
                       menu.height)
    return menu, hint


def seat_angles(n: int, base: int) -> list[float]:
    """The angle of every seat on the ellipse; ``base`` sits at the bottom."""
    step = 2 * math.pi / n
    return [math.pi / 2 + (s - base) * step for s in range(n)]


def on_ring(cx: float, cy: float, rx: float, ry: float, ang: float, kx: float,
            ky: float) -> Point:
    return cx + rx * kx * math.cos(ang), cy + ry * ky * math.sin(ang)


def badge_height(u: float) -> int:
    """The height of the coach's risk badges (above the move buttons, above the cards)."""
    return max(15, int(26 * u))


def dealer_spot(seat: Point, centre: Point, plate: tuple[int, int], u: float) -> Point:
    """Where the dealer button lies for a seat: on a corner of its plate at its end
    along the table's edge, so never on the seat's cards (they lie towards the
    middle), and on the side away from its speech bubbles and trick pile (those face
    the middle sideways)."""
    x, y = seat
    cx, cy = centre
    w, h = plate
    dx, dy = x - cx, y - cy
    d = math.hypot(dx, dy) or 1.0
    tx, ty = -dy / d, dx / d                        # along the edge of the table
    towards = 1 if x <= cx + 1 else -1              # where bubbles and piles go
    if tx * towards > 0 or (abs(tx) < 1e-6 and ty > 0):
        tx, ty = -tx, -ty
    r = max(8, int(16 * u))
    # on the plate's corner that way: at a table of ten the plates stand so close
    # that a button beside a plate lay as near the neighbour's; on a corner it is
    # plainly the plate's. Never the top right one (a Rams declaration's badge is there):
    # the bottom right instead, as the seat's cards lie up and to the left
    sx = (1 if tx > 0 else -1) if abs(tx) > 0.25 else (1 if x > cx else -1)   # or outwards
    sy = (1 if ty > 0 else -1) if abs(ty) > 0.25 else 1
    if sx > 0 and sy < 0:
        sy = 1
    out = r * 0.6
    return x + sx * (w / 2 + out), y + sy * (h / 2 + out)


def card_height(points: list[Point], most: float, spacing: float) -> int:
    """The card height: at most ``most``, and no more than ``spacing`` times the
    smallest gap between neighbouring ``points``, so neighbours never overlap."""
    ch = most
    n = len(points)
    if n > 1:
        gap = min(math.hypot(points[i][0] - points[(i + 1) % n][0],
                             points[i][1] - points[(i + 1) % n][1]) for i in range(n))
        ch = min(ch, gap * spacing)
    return max(24, int(ch))


class TableLayout:
    """A table's layout: ``base`` is the seat at the bottom (the viewer's)."""

    def __init__(self, n: int, base: int = 0) -> None:
        self.n = n
        self.base = base
        self._geo: TableGeometry | None = None

    @property
    def geo(self) -> Any:
        if self._geo is None:
            raise RuntimeError("the table is not laid out yet")
        return self._geo

    @property
    def ready(self) -> bool:
        return self._geo is not None

    def fit(self, size: tuple[int, int], u: float, art: Any) -> TableGeometry:
        """Lay the table out for ``size``; ``art.resize`` gets the card unit."""
        geo = self.compute(size, u)
        art.resize(geo.cw, geo.ch)
        self._geo = geo
        return geo

    def compute(self, size: tuple[int, int], u: float) -> TableGeometry:  # pragma: no cover
        raise NotImplementedError

    def plate_rect(self, seat: int) -> pygame.Rect:
        return self.geo.plate_rect(seat)

    def pin(self, x: float, y: float) -> tuple:
        """An anchor at the pixels ``(x, y)`` of the window as it is now, kept as
        fractions of its size: a card pinned where it was drawn (a card leaving a hand)
        stays at the same place of the table when the window is resized before it
        moves on, instead of starting its flight from where that place used to be."""
        w, h = self.geo.size
        return ("xy", x / max(1, w), y / max(1, h))

    def resolve(self, anchor: tuple) -> Point:
        """Pixels of an anchor every game knows: a seat's ``dealer`` button place, a
        lost life's ``chip`` at a plate, the ``pot``, a pinned ``xy`` (:meth:`pin`)."""
        g = self.geo
        kind = anchor[0]
        if kind == "dealer":
            return g.dealer[anchor[1]]
        if kind == "chip":
            x, y = self.plate_rect(anchor[1]).midbottom
            return x, y - g.plate[1] * 0.25
        if kind == "pot":
            return g.pot
        if kind == "xy":                 # pinned: fractions of the window
            w, h = g.size
            return anchor[1] * w, anchor[2] * h
        return g.cx, g.cy
