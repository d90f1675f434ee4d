"""The Chase the Ace table's layout: one card in front of every seat, the talon and
the discards in the middle, the pot beside them; the viewer's card large in a panel
at the bottom left, the log at the bottom right, the move buttons between them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from game.table.layout import (
    Point,
    TableGeometry,
    TableLayout,
    buttons_in_bar,
    card_height,
    dealer_spot,
    on_ring,
    plate_size,
    seat_angles,
    top_bar,
)

#: each card of a first-dealer stack lies this much less apart from the one before
STACK_SHRINK = 0.9
#: the most cards dealt before the first Jack (a 52-card deck, all four Jacks last)
BEFORE_JACK = 48


@dataclass
class ChaseGeometry(TableGeometry):
    card: dict[int, Point] = field(default_factory=dict)   # each seat's card
    talon: Point = (0.0, 0.0)
    discard: Point = (0.0, 0.0)
    #: per seat, the step of its first-dealer stack (pixels per unit of spread)
    fan: dict[int, Point] = field(default_factory=dict)


class ChaseLayout(TableLayout):
    def compute(self, size: tuple[int, int], u: float) -> ChaseGeometry:
        w, h = size
        n = self.n
        top_h = top_bar(u)
        # the bottom strip holds the move buttons, the question and two lines of what
        # the person knows about their card, below the ring of seats
        bottom_h = int(max(100, 150 * u))
        area = pygame.Rect(0, top_h, w, h - top_h - bottom_h)
        cx, cy = area.centerx, area.centery
        plate_w, plate_h = plate_size(w, u)
        rx = area.width / 2 - plate_w * 0.62
        ry = area.height / 2 - plate_h * 0.62
        angles = seat_angles(n, self.base)
        seat = {s: on_ring(cx, cy, rx, ry, a, 1.0, 1.0) for s, a in enumerate(angles)}
        card = {s: on_ring(cx, cy, rx, ry, a, 0.64, 0.58) for s, a in enumerate(angles)}
        ch = card_height([card[s] for s in range(n)], min(120 * u, area.height * 0.2), 0.85)
        cw = int(ch * 0.7)
        dealer = {s: dealer_spot(seat[s], (cx, cy), (plate_w, plate_h), u)
                  for s in range(n)}
        # the viewer's card (bottom left) and the log (bottom right), in card units
        big_h = int(ch * 1.25)
        big_w = int(big_h * 0.7)
        pad = int(10 * u)
        hand_panel = pygame.Rect(pad, 0, big_w + 2 * pad, big_h + int(34 * u))
        hand_panel.bottom = h - pad
        log_panel = pygame.Rect(0, 0, int(min(w * 0.27, 320 * u)), hand_panel.height)
        log_panel.bottomright = (w - pad, h - pad)
        menu, hint = buttons_in_bar(top_h, u)
        geo = ChaseGeometry(
            size=size, u=u, top_h=top_h, area=area, cx=cx, cy=cy, rx=rx, ry=ry, cw=cw,
            ch=ch, plate=(plate_w, plate_h), big=(big_w, big_h), seat=seat, dealer=dealer,
            pot=(cx + cw * 2.5, cy + ch * 0.1), log_panel=log_panel, menu=menu, hint=hint,
            hand_panel=hand_panel, card=card, talon=(cx - cw * 0.9, cy - ch * 0.05),
            discard=(cx + cw * 0.9, cy - ch * 0.05))
        # the lowest seats first, each stack kept off those laid before it: of two
        # seats one above the other at a side, the upper one's stack fans up as well,
        # not down into the lower one's
        taken = {s: [geo.card_rect(card[s])] for s in range(n)}
        for s in sorted(range(n), key=lambda s: (-card[s][1], card[s][0])):
            others = [r for o, pile in taken.items() if o != s for r in pile]
            geo.fan[s] = stack_fan(geo, s, others)
            taken[s] = stack_rects(geo, s, geo.fan[s])
        return geo

    def stack_spot(self, seat: int, k: int) -> Point:
        """Where the ``k``-th card (from 0) of the first-dealer search lies in front of
        ``seat``: fanned along the seat's step (:func:`stack_fan`), each card a little
        less apart than the one before: a long search stays off the plates and the
        middle, the first cards stay readable."""
        g = self.geo
        x, y = g.card[seat]
        dx, dy = g.fan[seat]
        spread = stack_spread(k)
        return x + dx * spread, y + dy * spread

    def resolve(self, anchor: tuple) -> Point:
        g = self.geo
        kind = anchor[0]
        if kind == "seat":
            return g.card[anchor[1]]
        if kind == "stack":        # first-dealer cards pile up in front of a seat
            return self.stack_spot(anchor[1], anchor[2])
        if kind == "talon":
            return g.talon
        if kind == "discard":
            return g.discard
        if kind == "peek":
            x, y = g.talon
            return x, y - g.ch * 1.1
        return super().resolve(anchor)


def stack_most(n: int) -> int:
    """The most cards one seat's first-dealer stack can hold at a table of ``n``:
    its share of the cards before the first Jack, and the Jack (the last card has the
    index returned)."""
    return -(-BEFORE_JACK // n)


def stack_spread(k: int) -> float:
    """How far the ``k``-th card of a first-dealer stack lies from the first, in steps:
    0, 1, 1.9, 2.71, ... never 10."""
    return (1 - STACK_SHRINK ** k) / (1 - STACK_SHRINK)


def stack_rects(g: ChaseGeometry, seat: int, step: Point) -> list[pygame.Rect]:
    """Every card of ``seat``'s longest first-dealer stack fanned along ``step``."""
    x, y = g.card[seat]
    dx, dy = step
    return [g.card_rect((x + dx * stack_spread(k), y + dy * stack_spread(k)))
            for k in range(stack_most(len(g.seat)) + 1)]


def stack_fan(g: ChaseGeometry, seat: int, others: list[pygame.Rect]) -> Point:
    """The step of ``seat``'s first-dealer stack: towards the middle of the table
    (right and down for a seat at the top left), so that the stack stays off the
    plates. Where that would reach the talon or the discards (with 5 or 7 players a
    seat at the top sits close above them) or another seat's stack (``others``: two
    seats one above the other at a side fanned into each other with 6 to 10 players),
    the stack fans sideways only, else across and steeply away from the middle up or
    down, else the other way, else straight down or up (a seat at a side between two
    others), else less far: the first step that keeps every card of the longest search
    off the middle, off the other stacks, off every plate the first card is not on,
    and inside the window."""
    x, y = g.card[seat]
    right = 1 if x <= g.cx else -1
    down = 1 if y < g.cy else -1
    sx, sy = g.cw * 0.18, g.ch * 0.05

    rect = g.card_rect
    # the middle (the talon's stack of five and the discards) and the other stacks,
    # with a little air
    air = max(2, g.cw // 10)
    keep_off = [r.inflate(air, air) for r in [rect(g.talon), rect(g.discard), *others]]
    plates = [g.plate_rect(s) for s in g.seat]
    window = pygame.Rect((0, 0), g.size)
    first = rect((x, y))
    allowed = [p for p in plates if p.colliderect(first)]

    def clear(dx: float, dy: float) -> bool:
        return all(window.contains(r) and r.collidelist(keep_off) < 0
                   and not any(p.colliderect(r) for p in plates if p not in allowed)
                   for r in stack_rects(g, seat, (dx, dy))[1:])

    steps = [(right * sx, down * sy), (right * sx, 0.0), (right * sx, -2 * down * sy),
             (-right * sx, 0.0), (0.0, 2 * sy), (0.0, -2 * sy)]
    steps += [(right * sx * f, 0.0) for f in (0.75, 0.5, 0.25)]
    return next((st for st in steps if clear(*st)), (0.0, 0.0))
