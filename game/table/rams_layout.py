"""The Rams table's layout: every seat's hand fanned in front of its plate (the
viewer's large along the bottom strip), the trick in the middle with the stock and
the turned trump card; the move buttons and prompt at the bottom left, the log at the
bottom right."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from game.table.layout import (
    Point,
    TableGeometry,
    TableLayout,
    badge_height,
    buttons_in_bar,
    card_height,
    dealer_spot,
    on_ring,
    plate_size,
    seat_angles,
    top_bar,
)
from game.table.model import RamsModel


@dataclass
class RamsGeometry(TableGeometry):
    fan: dict[int, Point] = field(default_factory=dict)       # each other seat's hand
    trick: dict[int, Point] = field(default_factory=dict)     # each seat's card in a trick
    dirs: dict[int, Point] = field(default_factory=dict)      # (cos, sin) of each seat
    stock: Point = (0.0, 0.0)
    #: the right end of the stock's label, left of the stock: below it, the viewer's
    #: card in a trick covered it at every size
    stock_label: Point = (0.0, 0.0)
    trump: Point = (0.0, 0.0)
    strip: pygame.Rect = field(default_factory=pygame.Rect)   # the bottom strip
    actions: pygame.Rect = field(default_factory=pygame.Rect)
    hand: pygame.Rect = field(default_factory=pygame.Rect)    # the viewer's hand


class RamsLayout(TableLayout):
    def __init__(self, n: int, base: int, model: RamsModel) -> None:
        super().__init__(n, base)
        self.model = model

    def compute(self, size: tuple[int, int], u: float) -> RamsGeometry:
        w, h = size
        n = self.n
        top_h = top_bar(u)
        pad = int(10 * u)
        big_h = int(max(56, min(150 * u, h * 0.19)))
        big_w = int(big_h * 0.7)
        # the whole hand fits: a focused card lifts by 12 %, the fan bends by 10 %
        strip_h = int(big_h * 1.26) + int(14 * u)
        area = pygame.Rect(0, top_h, w, h - top_h - strip_h - pad)
        cx, cy = area.centerx, area.centery
        plate_w, plate_h = plate_size(w, u)
        rx = area.width / 2 - plate_w * 0.62
        ry = area.height / 2 - plate_h * 0.62
        angles = seat_angles(n, self.base)
        seat = {s: on_ring(cx, cy, rx, ry, a, 1.0, 1.0) for s, a in enumerate(angles)}
        fan = {s: on_ring(cx, cy, rx, ry, a, 0.72, 0.72) for s, a in enumerate(angles)}
        trick = {s: on_ring(cx, cy, rx, ry, a, 0.36, 0.44) for s, a in enumerate(angles)}
        dealer = {s: dealer_spot(seat[s], (cx, cy), (plate_w, plate_h), u)
                  for s in range(n)}
        dirs = {s: (math.cos(a), math.sin(a)) for s, a in enumerate(angles)}
        ch = card_height([trick[s] for s in range(n)], min(100 * u, area.height * 0.19), 1.1)
        cw = int(ch * 0.7)
        left_w = int(min(w * 0.25, 300 * u))
        log_w = int(min(w * 0.26, 330 * u))
        strip = pygame.Rect(0, h - strip_h - pad, w, strip_h)
        # the viewer's plate stands clear of the coach's badges above a lifted card
        # (hand_slot: a card's top lies at least 1 % of its height below the strip)
        badge_top = strip.top + int(big_h * 0.01) - badge_height(u) - int(3 * u)
        x, y = seat[self.base]
        over = y + plate_h / 2 - (badge_top - max(2, int(3 * u)))
        if over > 0:
            seat[self.base] = (x, y - over)
            dealer[self.base] = dealer_spot(seat[self.base], (cx, cy), (plate_w, plate_h), u)
        actions = pygame.Rect(pad, strip.top, left_w, strip_h)
        log = pygame.Rect(w - pad - log_w, strip.top, log_w, strip_h)
        hand = pygame.Rect(actions.right + pad, strip.top,
                           log.left - actions.right - 2 * pad, strip_h)
        menu, hint = buttons_in_bar(top_h, u)
        return RamsGeometry(
            size=size, u=u, top_h=top_h, area=area, cx=cx, cy=cy, rx=rx, ry=ry, cw=cw,
            ch=ch, plate=(plate_w, plate_h), big=(big_w, big_h), seat=seat, dealer=dealer,
            pot=(cx, cy), log_panel=log, menu=menu, hint=hint, fan=fan, trick=trick,
            dirs=dirs, stock=(cx - cw * 0.35, cy), trump=(cx + cw * 0.5, cy + ch * 0.04),
            stock_label=(cx - cw * 0.85 - 3 * max(1, cw // 40) - 4 * u, cy),
            strip=strip, actions=actions, hand=hand)

    def hand_slot(self, seat: int, i: int, n: int) -> Point:
        """Where the ``i``-th of ``n`` cards of ``seat``'s hand lies."""
        g = self.geo
        k = i - (n - 1) / 2
        if seat == self.base:
            bw, bh = g.big
            hr = g.hand
            gap = min(bw * 0.86, (hr.width - bw) / max(1, n - 1)) if n > 1 else 0
            bend = abs(k) ** 2 * bh * 0.025
            y = hr.top + bh * 0.13 + bh / 2 + min(bend, bh * 0.1)
            return hr.centerx + k * gap, y
        x, y = g.fan[seat]
        c, si = g.dirs[seat]
        step = g.cw * 0.62 * 0.3
        # fanned along the tangent of the table's edge
        return x - si * k * step, y + c * k * step * 0.35 + abs(k) * g.ch * 0.02

    def resolve(self, anchor: tuple) -> Point:
        g = self.geo
        kind = anchor[0]
        if kind == "hand":
            seat, uid = anchor[1], anchor[2]
            lst = self.model.hands.get(seat, [])
            for i, sp in enumerate(lst):
                if sp.uid == uid:
                    return self.hand_slot(seat, i, len(lst))
            return self.hand_slot(seat, 0, 1)
        if kind == "folded":
            x, y = (g.fan[anchor[1]] if anchor[1] != self.base else
                    self.hand_slot(anchor[1], 0, 1))
            return x + anchor[2] * 2, y - anchor[2] * 2
        if kind == "trick":
            return g.trick[anchor[1]]
        if kind == "pile":         # beside the plate, on the side facing the middle
            r = self.plate_rect(anchor[1])
            dx = g.cw * 0.42
            if r.centerx > g.cx + 1:
                return r.left - dx, r.centery
            return r.right + dx, r.centery
        if kind == "stock":
            return g.stock
        if kind == "trump":
            return g.trump
        return super().resolve(anchor)
