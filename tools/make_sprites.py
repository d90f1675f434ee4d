#!/usr/bin/env python3
"""Generate every image of the game into ``sprites/`` (pygame-ce only, headless).

Usage::

    python tools/make_sprites.py              # writes sprites/ at the repository root
    python tools/make_sprites.py OUT_DIR      # writes into OUT_DIR instead
    python tools/make_sprites.py OUT_DIR --subset   # a small, fixed selection (tests)

Everything is drawn here from shapes: suit symbols are curves turned into
polygons, court figures and Cuckoo illustrations are polygons, circles and
strokes, text uses pygame's built-in default font. Shapes are drawn
``SS`` times larger and smooth-scaled down once, which anti-aliases every edge.
Textures use a fixed ``random.Random(seed)``, so the output is the same bytes on
every run. See ``sprites/README.md`` for the file layout the game relies on.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import struct
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from game.cards import CUCKOO_NAMES_DE, CUCKOO_VALUES, RANKS, SUITS  # noqa: E402

# ---------------------------------------------------------------------------
# geometry and palette
# ---------------------------------------------------------------------------
CARD_W, CARD_H = 360, 504       # base resolution of every card image
RADIUS = 20                      # corner radius
SS = 4                           # supersampling factor

PAPER = (253, 252, 248)
EDGE = (150, 150, 150)
INK = (24, 24, 28)
RED = (206, 22, 38)
BLUE = (22, 82, 190)
GREEN = (14, 128, 56)
GOLD = (244, 192, 44)
GOLD_DARK = (176, 122, 20)
SKIN = (252, 216, 184)
SKIN_SHADE = (232, 176, 140)
WHITE = (255, 255, 255)

COLOUR_SETS = {
    "classic": {"S": INK, "C": INK, "H": RED, "D": RED},
    "four": {"S": INK, "C": GREEN, "H": RED, "D": BLUE},
}

Point = tuple[float, float]


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def mix(c1, c2, t: float) -> tuple[int, int, int]:
    return tuple(int(round(lerp(a, b, t))) for a, b in zip(c1[:3], c2[:3], strict=False))


def shade(c, f: float) -> tuple[int, int, int]:
    """f < 0 darkens towards black, f > 0 lightens towards white."""
    return mix(c, (0, 0, 0), -f) if f < 0 else mix(c, (255, 255, 255), f)


def qbez(p0: Point, p1: Point, p2: Point, n: int = 16) -> list[Point]:
    pts = []
    for i in range(n + 1):
        t = i / n
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        pts.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return pts


def cbez(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 20) -> list[Point]:
    pts = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
        pts.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return pts


def path(*segments) -> list[Point]:
    """Join point lists, dropping the duplicated joint points."""
    out: list[Point] = []
    for seg in segments:
        for p in seg:
            if not out or abs(out[-1][0] - p[0]) > 1e-9 or abs(out[-1][1] - p[1]) > 1e-9:
                out.append(p)
    return out


def ellipse_pts(cx: float, cy: float, rx: float, ry: float, n: int = 48,
                a0: float = 0.0, a1: float = 2 * math.pi) -> list[Point]:
    return [(cx + rx * math.cos(lerp(a0, a1, i / n)), cy + ry * math.sin(lerp(a0, a1, i / n)))
            for i in range(n + 1)]


def mirror_x(pts: list[Point], axis: float = 0.0) -> list[Point]:
    return [(2 * axis - x, y) for x, y in pts]


def rot(pts: list[Point], ang: float, cx: float = 0.0, cy: float = 0.0) -> list[Point]:
    c, s = math.cos(ang), math.sin(ang)
    return [(cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c) for x, y in pts]


# ---------------------------------------------------------------------------
# a pen that draws in base pixels onto a supersampled surface
# ---------------------------------------------------------------------------
_FONTS: dict[int, pygame.font.Font] = {}


def font(px: int) -> pygame.font.Font:
    if px not in _FONTS:
        _FONTS[px] = pygame.font.Font(None, px)
    return _FONTS[px]


CAP = 0.49  # cap height of the default font as a fraction of its size


class Pen:
    def __init__(self, surf: pygame.Surface, ss: int = SS, ox: float = 0.0, oy: float = 0.0,
                 scale: float = 1.0):
        self.surf = surf
        self.ss = ss
        self.ox, self.oy, self.k = ox, oy, scale

    def sub(self, ox: float, oy: float, scale: float = 1.0) -> Pen:
        """A pen whose origin is at (ox, oy) and whose unit is ``scale`` base pixels."""
        return Pen(self.surf, self.ss, self.ox + ox * self.k, self.oy + oy * self.k,
                   self.k * scale)

    def P(self, pts) -> list[tuple[float, float]]:
        s, k = self.ss, self.k
        return [((self.ox + x * k) * s, (self.oy + y * k) * s) for x, y in pts]

    def L(self, v: float) -> float:
        """A length in pen units, in surface pixels."""
        return v * self.k * self.ss

    def W(self, v: float) -> float:
        """A line width in base pixels (independent of the pen's unit), in surface pixels."""
        return v * self.ss

    def poly(self, pts, color, outline=None, width: float = 2.0) -> None:
        pygame.draw.polygon(self.surf, color, self.P(pts))
        if outline is not None:
            self.stroke(pts, outline, width, closed=True)

    def circle(self, c: Point, r: float, color, outline=None, width: float = 2.0) -> None:
        (x, y), = self.P([c])
        pygame.draw.circle(self.surf, color, (x, y), self.L(r))
        if outline is not None:
            pygame.draw.circle(self.surf, outline, (x, y), self.L(r) + self.W(width) / 2,
                               max(1, round(self.W(width))))

    def ellipse(self, cx, cy, rx, ry, color, outline=None, width: float = 2.0) -> None:
        self.poly(ellipse_pts(cx, cy, rx, ry, 64)[:-1], color, outline, width)

    def rect(self, x, y, w, h, color, radius: float = 0, width: float = 0) -> None:
        (x0, y0), = self.P([(x, y)])
        r = pygame.Rect(round(x0), round(y0), round(self.L(w)), round(self.L(h)))
        pygame.draw.rect(self.surf, color, r, round(self.W(width)) if width else 0,
                         border_radius=round(self.L(radius)) if radius else -1)

    def stroke(self, pts, color, width: float, closed: bool = False, caps: bool = True) -> None:
        """A thick polyline with round joins."""
        pts = list(pts)
        if closed:
            pts = pts + [pts[0]]
        sp = self.P(pts)
        w = self.W(width) / 2
        for (x0, y0), (x1, y1) in zip(sp, sp[1:], strict=False):
            dx, dy = x1 - x0, y1 - y0
            d = math.hypot(dx, dy)
            if d < 1e-6:
                continue
            nx, ny = -dy / d * w, dx / d * w
            pygame.draw.polygon(self.surf, color, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny),
                                                   (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])
        joints = sp if caps else sp[1:-1]
        if w >= 1.0:
            for x, y in joints:
                pygame.draw.circle(self.surf, color, (x, y), w)

    def text(self, s: str, cap: float, color, center: Point | None = None,
             top: Point | None = None, squeeze: float = 1.0,
             max_w: float | None = None) -> pygame.Rect:
        """Draw text whose capital letters are ``cap`` base pixels tall.

        ``center`` centres the ink box; ``top`` puts the top of the ink at the point
        (centred horizontally). ``squeeze`` narrows the glyphs; ``max_w`` caps the width.
        """
        size = max(4, int(round(self.L(cap) / CAP)))
        img = font(size).render(s, True, color)
        box = img.get_bounding_rect()
        img = img.subsurface(box).copy()
        w = img.get_width() * squeeze
        if max_w is not None and w > self.L(max_w):
            w = self.L(max_w)
        if abs(w - img.get_width()) > 0.5:
            img = pygame.transform.smoothscale(img, (max(1, round(w)), img.get_height()))
        if center is not None:
            (x, y), = self.P([center])
            dest = img.get_rect(center=(round(x), round(y)))
        else:
            (x, y), = self.P([top])
            dest = img.get_rect(midtop=(round(x), round(y)))
        self.surf.blit(img, dest)
        return dest


def new_surface(w: int, h: int, fill=(0, 0, 0, 0)) -> pygame.Surface:
    surf = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
    surf.fill(fill)
    return surf


def downsample(surf: pygame.Surface, w: int, h: int) -> pygame.Surface:
    return pygame.transform.smoothscale(surf, (w, h))


def copy_rotated(surf: pygame.Surface, x: float, y: float, w: float, h: float) -> None:
    """Copy the base-pixel box (x, y, w, h) turned by 180 degrees onto its point mirror."""
    W, H = surf.get_width() // SS, surf.get_height() // SS
    src = pygame.Rect(round(x * SS), round(y * SS), round(w * SS), round(h * SS))
    part = pygame.transform.rotate(surf.subsurface(src).copy(), 180)
    dst = pygame.Rect(round((W - x - w) * SS), round((H - y - h) * SS), src.w, src.h)
    surf.fill((0, 0, 0, 0), dst)
    surf.blit(part, dst)


# ---------------------------------------------------------------------------
# suit symbols: polygons in a unit box (height 1, centred on the origin)
# ---------------------------------------------------------------------------
def _heart_unit() -> list[Point]:
    raw = []
    for i in range(160):
        t = 2 * math.pi * i / 160
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        raw.append((x, y))
    ys = [p[1] for p in raw]
    y0, y1 = min(ys), max(ys)
    h = y1 - y0
    return [(x / h * 0.98, (y - y0) / h - 0.5) for x, y in raw]


def _stem() -> list[Point]:
    left = cbez((-0.035, 0.05), (-0.04, 0.3), (-0.12, 0.46), (-0.24, 0.5), 12)
    right = mirror_x(left)[::-1]
    return path(left, [(-0.24, 0.5), (0.24, 0.5)], right)


def _spade_unit() -> list[list[Point]]:
    heart = _heart_unit()
    body = [(x * 1.02, -y * 0.8 - 0.1) for x, y in heart]
    return [body, _stem()]


def _diamond_unit() -> list[list[Point]]:
    top, right, bottom, left = (0, -0.5), (0.37, 0), (0, 0.5), (-0.37, 0)
    k = 0.16

    def side(a, b):
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        return qbez(a, (mx * (1 - k), my * (1 - k)), b, 14)

    return [path(side(top, right), side(right, bottom), side(bottom, left), side(left, top))]


def _club_unit() -> tuple[list[list[Point]], list[tuple[Point, float]]]:
    r = 0.215
    circles = [((0.0, -0.285), r), ((-0.255, 0.045), r), ((0.255, 0.045), r)]
    core = [(0.0, -0.2), (-0.2, 0.08), (0.0, 0.18), (0.2, 0.08)]
    return [core, _stem()], circles


_HEART = [_heart_unit()]
_SPADE = _spade_unit()
_DIAMOND = _diamond_unit()
_CLUB_POLYS, _CLUB_CIRCLES = _club_unit()


def draw_suit(pen: Pen, suit: str, cx: float, cy: float, h: float, color,
              flip: bool = False, outline=None, width: float = 0.0) -> None:
    """Draw a suit symbol of height ``h`` centred at (cx, cy); ``flip`` turns it over."""
    f = -1.0 if flip else 1.0

    def tf(pts):
        return [(cx + x * h * f, cy + y * h * f) for x, y in pts]

    if suit == "H":
        polys, circles = _HEART, []
    elif suit == "S":
        polys, circles = _SPADE, []
    elif suit == "D":
        polys, circles = _DIAMOND, []
    else:
        polys, circles = _CLUB_POLYS, _CLUB_CIRCLES
    if outline is not None and width:
        for poly in polys:
            pen.stroke(tf(poly), outline, width * 2, closed=True)
        for (x, y), r in circles:
            pen.circle((cx + x * h * f, cy + y * h * f), r * h + width, outline)
    for poly in polys:
        pen.poly(tf(poly), color)
    for (x, y), r in circles:
        pen.circle((cx + x * h * f, cy + y * h * f), r * h, color)


# ---------------------------------------------------------------------------
# card blank
# ---------------------------------------------------------------------------
def card_blank(paper=PAPER, edge=EDGE) -> tuple[pygame.Surface, Pen]:
    surf = new_surface(CARD_W, CARD_H, (*edge, 0))
    pen = Pen(surf)
    pen.rect(0, 0, CARD_W, CARD_H, edge, radius=RADIUS)
    pen.rect(1.6, 1.6, CARD_W - 3.2, CARD_H - 3.2, paper, radius=RADIUS - 1.6)
    return surf, pen


def finish_card(surf: pygame.Surface) -> pygame.Surface:
    return downsample(surf, CARD_W, CARD_H)


# ---------------------------------------------------------------------------
# French faces
# ---------------------------------------------------------------------------
IDX_X = 33        # centre of the corner index column
IDX_TOP = 15      # top of the rank glyph
IDX_CAP = 52      # rank glyph height
IDX_PIP = 38      # index suit symbol height
PIP_H = 74        # body pip height

COL_L, COL_C, COL_R = 102, 180, 258
ROW_T, ROW_B = 92, 412


def _rows(n: int) -> list[float]:
    return [lerp(ROW_T, ROW_B, i / (n - 1)) for i in range(n)]


def pip_layout(rank: str) -> list[tuple[float, float]]:
    r4 = _rows(4)
    r3 = _rows(3)
    mid = (ROW_T + ROW_B) / 2
    L, C, R = COL_L, COL_C, COL_R
    layouts = {
        "2": [(C, ROW_T), (C, ROW_B)],
        "3": [(C, ROW_T), (C, mid), (C, ROW_B)],
        "4": [(L, ROW_T), (R, ROW_T), (L, ROW_B), (R, ROW_B)],
        "5": [(L, ROW_T), (R, ROW_T), (C, mid), (L, ROW_B), (R, ROW_B)],
        "6": [(x, y) for y in r3 for x in (L, R)],
        "7": [(x, y) for y in r3 for x in (L, R)] + [(C, (r3[0] + r3[1]) / 2)],
        "8": [(x, y) for y in r3 for x in (L, R)]
        + [(C, (r3[0] + r3[1]) / 2), (C, (r3[1] + r3[2]) / 2)],
        "9": [(x, y) for y in r4 for x in (L, R)] + [(C, mid)],
        "10": [(x, y) for y in r4 for x in (L, R)]
        + [(C, (r4[0] + r4[1]) / 2), (C, (r4[2] + r4[3]) / 2)],
    }
    return layouts[rank]


def draw_rank_text(pen: Pen, rank: str, color, cx: float, top: float, cap: float) -> None:
    if rank == "T":
        # a condensed "10", the two digits set tight like a printed index
        w = cap * 0.5
        pen.text("1", cap, color, top=(cx - w * 0.62, top), squeeze=0.8)
        pen.text("0", cap, color, top=(cx + w * 0.45, top), squeeze=0.8)
    else:
        pen.text(rank, cap, color, top=(cx, top))


#: German indices of the court cards that differ from the English ones (Bube, Dame)
INDEX_DE = {"J": "B", "Q": "D"}


def draw_index(surf: pygame.Surface, pen: Pen, rank: str, suit: str, color,
               label: str | None = None) -> None:
    draw_rank_text(pen, label or rank, color, IDX_X, IDX_TOP, IDX_CAP)
    draw_suit(pen, suit, IDX_X, IDX_TOP + IDX_CAP + 10 + IDX_PIP / 2, IDX_PIP, color)
    box_h = IDX_TOP + IDX_CAP + 14 + IDX_PIP
    copy_rotated(surf, 4, 6, 2 * IDX_X - 4, box_h)


def draw_ace(pen: Pen, suit: str, color) -> None:
    cx, cy = CARD_W / 2, CARD_H / 2
    if suit == "S":
        # the ace of spades: a large ornamented spade, as on real decks
        pen.circle((cx, cy), 118, PAPER, outline=color, width=2.5)
        pen.circle((cx, cy), 109, PAPER, outline=mix(color, PAPER, 0.5), width=1.2)
        for k in range(24):
            a = k * math.pi / 12
            pen.circle((cx + 126 * math.cos(a), cy + 126 * math.sin(a)), 3.2, color)
        draw_suit(pen, suit, cx, cy + 4, 176, color, outline=PAPER, width=3)
        draw_suit(pen, suit, cx, cy + 4, 176, color)
        draw_suit(pen, suit, cx, cy + 2, 150, PAPER)
        draw_suit(pen, suit, cx, cy + 1, 140, color)
        pen.text("STAMMTISCH", 13, color, center=(cx, cy + 150))
    else:
        draw_suit(pen, suit, cx, cy, 150 if suit != "D" else 160, color)


def render_french(rank: str, suit: str, colours: dict, label: str | None = None
                  ) -> pygame.Surface:
    color = colours[suit]
    surf, pen = card_blank()
    if rank == "A":
        draw_ace(pen, suit, color)
    elif rank in "JQK":
        draw_court(surf, pen, rank, suit, colours)
    else:
        n = "10" if rank == "T" else rank
        for x, y in pip_layout(n):
            draw_suit(pen, suit, x, y, PIP_H, color, flip=y > CARD_H / 2 + 1)
    draw_index(surf, pen, rank, suit, color, label)
    return finish_card(surf)


# ---------------------------------------------------------------------------
# court cards: a framed, mirrored half figure
# ---------------------------------------------------------------------------
FR_X, FR_Y, FR_W, FR_H = 68, 34, 224, 436


def court_palette(suit: str, colours: dict) -> dict:
    suit_col = colours[suit]
    main = (40, 44, 62) if suit_col == INK else suit_col
    if colours is COLOUR_SETS["four"]:
        second = {"S": RED, "H": BLUE, "D": RED, "C": BLUE}[suit]
    else:
        second = BLUE if suit in "HD" else RED
    wash = (250, 243, 222) if suit_col == INK else mix(suit_col, PAPER, 0.93)
    return {"main": main, "second": second, "gold": GOLD, "line": INK, "suit": suit_col,
            "wash": wash, "code": suit}


HEAD_X, HEAD_Y = 112, 82     # centre of the court figure's face (half-frame coordinates)
NECK_Y = 124                 # where the neck meets the shoulders


def _face(pen: Pen, cx: float, cy: float, rx: float, ry: float, female: bool) -> None:
    L = INK
    pen.ellipse(cx, cy, rx, ry, SKIN, outline=L, width=2.2)
    for sx in (-1, 1):
        ex = cx + sx * rx * 0.4
        ey = cy - ry * 0.06
        pen.poly(ellipse_pts(ex, ey, rx * 0.21, ry * 0.1, 24)[:-1], WHITE)
        pen.circle((ex + sx * 0.5, ey), rx * 0.08, (40, 60, 110))
        pen.stroke(qbez((ex - rx * 0.23, ey), (ex, ey - ry * 0.17),
                        (ex + rx * 0.23, ey), 8), L, 1.6)
        pen.stroke(qbez((ex - rx * 0.22, ey - ry * 0.22), (ex, ey - ry * 0.31),
                        (ex + rx * 0.24, ey - ry * 0.2), 8), L, 1.4 if female else 2.0)
        pen.circle((cx + sx * rx * 0.52, cy + ry * 0.32), rx * 0.14, (250, 190, 170))
    pen.stroke([(cx, cy - ry * 0.02), (cx - rx * 0.09, cy + ry * 0.3),
                (cx + rx * 0.06, cy + ry * 0.33)], L, 1.6)
    mouth = (196, 40, 50) if female else (176, 64, 60)
    pen.poly(path(qbez((cx - rx * 0.22, cy + ry * 0.52), (cx, cy + ry * 0.45),
                       (cx + rx * 0.22, cy + ry * 0.52), 8),
                  qbez((cx + rx * 0.22, cy + ry * 0.52), (cx, cy + ry * 0.68),
                       (cx - rx * 0.22, cy + ry * 0.52), 8)), mouth)


def _robe(pen: Pen, pal: dict, w: float, h: float, collar: str) -> None:
    """Shoulders and chest from the neck down to the fold line y=h."""
    cx, ny = w / 2, NECK_Y
    main, second, gold, L = pal["main"], pal["second"], pal["gold"], pal["line"]
    shoulders = path([(0, h)], [(0, ny + 34)],
                     cbez((0, ny + 34), (14, ny + 12), (50, ny + 4), (cx - 20, ny), 12),
                     [(cx + 20, ny)],
                     cbez((cx + 20, ny), (w - 50, ny + 4), (w - 14, ny + 12), (w, ny + 34), 12),
                     [(w, h)])
    pen.poly(shoulders, main, outline=L, width=2.4)
    # the second colour on the chest, edged with gold
    for sx in (-1, 1):
        x0 = cx + sx * 30
        x1 = cx + sx * 84
        panel = [(x0, ny + 12), (x1, ny + 22), (x1 + sx * 6, h), (x0 + sx * 4, h)]
        pen.poly(panel, second, outline=L, width=2)
        pen.stroke([(x1, ny + 22), (x1 + sx * 6, h)], gold, 4)
        for k in range(3):
            y = lerp(ny + 40, h - 12, k / 2)
            x = lerp(x0, x1, 0.5) + sx * 2
            pen.poly([(x, y - 8), (x + 7, y), (x, y + 8), (x - 7, y)], gold, outline=L, width=1.2)
    band = [(cx - 24, ny + 6), (cx + 24, ny + 6), (cx + 30, h), (cx - 30, h)]
    pen.poly(band, gold, outline=L, width=2)
    for k in range(4):
        y = lerp(ny + 28, h - 8, k / 3)
        pen.circle((cx, y), 7, second, outline=L, width=1.4)
        pen.circle((cx, y), 2.5, WHITE)
    if collar == "ermine":
        col = path(cbez((cx - 62, ny + 10), (cx - 30, ny + 44), (cx + 30, ny + 44),
                        (cx + 62, ny + 10), 16),
                   cbez((cx + 62, ny + 10), (cx + 30, ny - 6), (cx - 30, ny - 6),
                        (cx - 62, ny + 10), 16))
        pen.poly(col, WHITE, outline=L, width=2)
        for k in range(7):
            x = lerp(cx - 44, cx + 44, k / 6)
            y = ny + 14 + 10 * math.sin(math.pi * k / 6)
            pen.poly([(x, y - 6), (x + 3, y + 4), (x - 3, y + 4)], INK)
    elif collar == "lace":
        for k in range(9):
            a = math.pi * k / 8
            pen.circle((cx - 50 * math.cos(a), ny + 6 + 16 * math.sin(a)), 9.5, WHITE,
                       outline=L, width=1.4)
    else:  # a turned-down collar
        for sx in (-1, 1):
            pen.poly([(cx, ny + 22), (cx + sx * 44, ny + 6), (cx + sx * 36, ny - 4),
                      (cx + sx * 4, ny + 4)], WHITE, outline=L, width=2)


def _arm(pen: Pen, pal: dict, shoulder: Point, hand: Point, width: float = 26) -> None:
    """A sleeve from the shoulder to a hand in front of the chest."""
    L = pal["line"]
    sleeve = shade(pal["main"], 0.18) if sum(pal["main"]) < 200 else shade(pal["main"], -0.12)
    pen.stroke([shoulder, hand], L, width + 4)
    pen.stroke([shoulder, hand], sleeve, width)
    dx, dy = hand[0] - shoulder[0], hand[1] - shoulder[1]
    d = math.hypot(dx, dy)
    ux, uy = dx / d, dy / d
    nx, ny = -uy * width * 0.18, ux * width * 0.18
    pen.stroke([(shoulder[0] + nx, shoulder[1] + ny), (hand[0] + nx, hand[1] + ny)], pal["gold"], 2.4)
    pen.stroke([(shoulder[0] - nx, shoulder[1] - ny), (hand[0] - nx, hand[1] - ny)], pal["gold"], 2.4)
    cuff = (hand[0] - ux * 10, hand[1] - uy * 10)
    pen.stroke([(cuff[0] - ux * 4, cuff[1] - uy * 4), cuff], L, width + 4)
    pen.stroke([(cuff[0] - ux * 4, cuff[1] - uy * 4), cuff], WHITE, width + 1)


def _hand(pen: Pen, pal: dict, c: Point) -> None:
    pen.ellipse(c[0], c[1], 11, 13, SKIN, outline=pal["line"], width=1.8)
    for k in (-1, 0, 1):
        pen.stroke([(c[0] - 7, c[1] + k * 4.5), (c[0] + 6, c[1] + k * 4.5)], SKIN_SHADE, 1.1)


def _crown(pen: Pen, pal: dict, cx: float, base_y: float, w: float, h: float, points: int) -> None:
    L, gold = pal["line"], pal["gold"]
    pts = [(cx - w / 2, base_y)]
    for k in range(points * 2 + 1):
        x = lerp(cx - w / 2, cx + w / 2, k / (points * 2))
        y = base_y - h if k % 2 == 0 else base_y - h * 0.45
        pts.append((x, y))
    pts.append((cx + w / 2, base_y))
    pen.poly(pts, gold, outline=L, width=2.2)
    for k in range(0, points * 2 + 1, 2):
        x = lerp(cx - w / 2, cx + w / 2, k / (points * 2))
        pen.circle((x, base_y - h - 3), 4.5, gold, outline=L, width=1.4)
    pen.stroke([(cx - w / 2, base_y - 12), (cx + w / 2, base_y - 12)], L, 1.6)
    jewel2 = RED if pal["second"] != RED else BLUE
    for k, col in enumerate((pal["second"], jewel2, pal["second"])):
        pen.circle((cx + (k - 1) * w * 0.3, base_y - 6), 4, col, outline=L, width=1)


def draw_king(pen: Pen, pal: dict, w: float, h: float) -> None:
    L = pal["line"]
    cx, cy = HEAD_X, HEAD_Y
    bx = w - 40
    steel = (218, 222, 230)
    if pal["code"] == "C":
        # a sceptre
        pen.stroke([(bx, 34), (bx, 214)], L, 9)
        pen.stroke([(bx, 34), (bx, 214)], pal["gold"], 6)
        for y in (70, 120, 160):
            pen.ellipse(bx, y, 8, 4, pal["gold"], outline=L, width=1.4)
        pen.circle((bx, 26), 13, pal["gold"], outline=L, width=2)
        pen.circle((bx - 4, 22), 4, WHITE)
        pen.stroke([(bx, 2), (bx, 12)], L, 5)
        pen.stroke([(bx - 6, 6), (bx + 6, 6)], L, 5)
        pen.stroke([(bx, 2), (bx, 12)], pal["gold"], 2.5)
        pen.stroke([(bx - 6, 6), (bx + 6, 6)], pal["gold"], 2.5)
        _robe(pen, pal, w, h, "ermine")
    elif pal["code"] == "D":
        # a battle axe
        pen.stroke([(bx, 20), (bx, 214)], L, 8)
        pen.stroke([(bx, 20), (bx, 214)], (150, 100, 52), 5)
        head = path([(bx, 34)], qbez((bx, 34), (bx - 20, 30), (bx - 34, 16), 6),
                    qbez((bx - 34, 16), (bx - 22, 50), (bx - 34, 84), 10),
                    qbez((bx - 34, 84), (bx - 20, 70), (bx, 66), 6))
        pen.poly(head, steel, outline=L, width=2)
        pen.stroke(qbez((bx - 30, 22), (bx - 20, 50), (bx - 30, 78), 8), (170, 175, 185), 1.2)
        pen.poly([(bx - 5, 22), (bx, 4), (bx + 5, 22)], steel, outline=L, width=1.6)
        _robe(pen, pal, w, h, "ermine")
    else:
        # a sword held upright
        pen.poly([(bx - 6, 170), (bx - 6, 26), (bx, 10), (bx + 6, 26), (bx + 6, 170)], steel,
                 outline=L, width=2)
        pen.stroke([(bx, 28), (bx, 166)], (160, 165, 175), 1.4)
        _robe(pen, pal, w, h, "ermine")
        pen.poly([(bx - 26, 168), (bx + 26, 168), (bx + 26, 177), (bx - 26, 177)], pal["gold"],
                 outline=L, width=1.8)
        pen.rect(bx - 5, 177, 10, 30, (120, 70, 30))
    _arm(pen, pal, (w - 6, NECK_Y + 40), (bx - 2, 194))
    _hand(pen, pal, (bx, 192))
    hair = (120, 78, 36)
    pen.ellipse(cx, cy + 2, 44, 44, hair, outline=L, width=2)
    _face(pen, cx, cy, 34, 40, female=False)
    beard = path(cbez((cx - 34, cy + 6), (cx - 40, cy + 52), (cx - 18, cy + 70), (cx, cy + 74), 14),
                 cbez((cx, cy + 74), (cx + 18, cy + 70), (cx + 40, cy + 52), (cx + 34, cy + 6), 14),
                 cbez((cx + 34, cy + 6), (cx + 26, cy + 30), (cx + 14, cy + 36), (cx, cy + 33), 10),
                 cbez((cx, cy + 33), (cx - 14, cy + 36), (cx - 26, cy + 30), (cx - 34, cy + 6), 10))
    pen.poly(beard, hair, outline=L, width=2)
    for k in range(-2, 3):
        pen.stroke(qbez((cx + k * 9, cy + 38), (cx + k * 12, cy + 52), (cx + k * 7, cy + 66), 8),
                   shade(hair, -0.35), 1.4)
    for sx in (-1, 1):
        pen.poly(path(qbez((cx, cy + 20), (cx + sx * 14, cy + 14), (cx + sx * 28, cy + 28), 8),
                      qbez((cx + sx * 28, cy + 28), (cx + sx * 12, cy + 24), (cx, cy + 26), 8)),
                 hair, outline=L, width=1.4)
    _crown(pen, pal, cx, cy - 34, 84, 38, 3)


def draw_queen(pen: Pen, pal: dict, w: float, h: float) -> None:
    L = pal["line"]
    cx, cy = HEAD_X, HEAD_Y
    hair = (206, 150, 56)
    # long hair falling behind the shoulders
    pen.poly(path(cbez((cx - 34, cy - 30), (cx - 70, cy), (cx - 62, cy + 50), (cx - 54, cy + 66), 14),
                  [(cx + 54, cy + 66)],
                  cbez((cx + 54, cy + 66), (cx + 62, cy + 50), (cx + 70, cy), (cx + 34, cy - 30), 14)),
             hair, outline=L, width=2)
    _robe(pen, pal, w, h, "lace")
    # a flower held up on the left
    fx, fy = 36, 50
    pen.stroke(qbez((46, 196), (30, 130), (fx, fy), 14), (40, 120, 50), 4)
    pen.poly(path(qbez((34, 130), (8, 112), (14, 100), 6), qbez((14, 100), (30, 110), (34, 130), 6)),
             (70, 160, 70), outline=L, width=1.2)
    for k in range(6):
        a = k * math.pi / 3
        pen.circle((fx + 13 * math.cos(a), fy + 13 * math.sin(a)), 9, pal["second"],
                   outline=L, width=1.2)
    pen.circle((fx, fy), 8, pal["gold"], outline=L, width=1.2)
    _arm(pen, pal, (6, NECK_Y + 40), (44, 192))
    _hand(pen, pal, (46, 190))
    pen.rect(cx - 11, cy + 34, 22, 14, SKIN)
    _face(pen, cx, cy, 31, 38, female=True)
    pen.poly(path(cbez((cx - 33, cy + 2), (cx - 36, cy - 42), (cx + 36, cy - 42), (cx + 33, cy + 2), 18),
                  cbez((cx + 33, cy + 2), (cx + 22, cy - 18), (cx + 6, cy - 24), (cx, cy - 16), 10),
                  cbez((cx, cy - 16), (cx - 6, cy - 24), (cx - 22, cy - 18), (cx - 33, cy + 2), 10)),
             hair, outline=L, width=2)
    for k in range(9):
        a = math.pi * (0.12 + 0.76 * k / 8)
        pen.circle((cx + 26 * math.cos(a), cy + 46 + 10 * math.sin(a)), 3.2, WHITE, outline=L,
                   width=0.9)
    _crown(pen, pal, cx, cy - 30, 60, 28, 2)


def draw_jack(pen: Pen, pal: dict, w: float, h: float) -> None:
    L = pal["line"]
    cx, cy = HEAD_X, HEAD_Y
    bx = w - 34
    steel = (218, 222, 230)
    leaf_jack = pal["code"] in "HD"
    if leaf_jack:
        # a long-stemmed leaf held up on the left, as the red jacks carry
        lx = 36
        pen.stroke(qbez((44, 214), (28, 130), (lx, 72), 12), (60, 110, 40), 4)
        leaf = path(qbez((lx, 74), (lx - 30, 44), (lx - 2, 8), 12),
                    qbez((lx - 2, 8), (lx + 30, 40), (lx, 74), 12))
        pen.poly(leaf, (80, 160, 70), outline=L, width=1.8)
        pen.stroke(qbez((lx, 72), (lx - 6, 44), (lx - 2, 12), 8), (50, 110, 40), 1.4)
        side = path(qbez((31, 140), (6, 120), (12, 100), 8),
                    qbez((12, 100), (26, 116), (31, 140), 8))
        pen.poly(side, (80, 160, 70), outline=L, width=1.4)
    else:
        # a halberd
        pen.stroke([(bx, 24), (bx, 220)], L, 8)
        pen.stroke([(bx, 24), (bx, 220)], (150, 100, 52), 5)
        pen.poly(path(qbez((bx, 36), (bx + 30, 40), (bx + 26, 72), 8), [(bx, 64)]), steel,
                 outline=L, width=1.8)
        pen.poly([(bx, 42), (bx - 20, 52), (bx, 58)], steel, outline=L, width=1.6)
        pen.poly([(bx - 5, 28), (bx, 6), (bx + 5, 28)], steel, outline=L, width=1.6)
    _robe(pen, pal, w, h, "plain")
    if leaf_jack:
        _arm(pen, pal, (6, NECK_Y + 40), (42, 192))
        _hand(pen, pal, (44, 190))
    else:
        _arm(pen, pal, (w - 6, NECK_Y + 40), (bx - 4, 190))
        _hand(pen, pal, (bx, 188))
    hair = (150, 90, 40)
    for k in range(7):
        a = math.pi * (0.95 + 1.1 * k / 6)
        pen.circle((cx + 36 * math.cos(a), cy + 12 - 20 * math.sin(a) * -1), 12, hair,
                   outline=L, width=1.4)
    pen.rect(cx - 10, cy + 32, 20, 14, SKIN)
    _face(pen, cx, cy + 4, 31, 37, female=False)
    cap = path(cbez((cx - 46, cy - 20), (cx - 44, cy - 68), (cx + 44, cy - 72), (cx + 50, cy - 24), 18),
               qbez((cx + 50, cy - 24), (cx, cy - 40), (cx - 46, cy - 20), 12))
    pen.poly(cap, pal["second"], outline=L, width=2)
    band = path(qbez((cx - 48, cy - 20), (cx, cy - 42), (cx + 52, cy - 24), 12),
                qbez((cx + 52, cy - 24), (cx + 54, cy - 16), (cx + 50, cy - 12), 4),
                qbez((cx + 50, cy - 12), (cx, cy - 30), (cx - 48, cy - 8), 12))
    pen.poly(band, pal["gold"], outline=L, width=1.8)
    feather = path(cbez((cx + 26, cy - 36), (cx + 62, cy - 60), (cx + 50, cy - 86), (cx + 80, cy - 96), 16),
                   cbez((cx + 80, cy - 96), (cx + 64, cy - 70), (cx + 74, cy - 40), (cx + 28, cy - 30), 16))
    pen.poly(feather, pal["main"], outline=L, width=1.6)
    pen.stroke(cbez((cx + 28, cy - 33), (cx + 56, cy - 52), (cx + 60, cy - 78), (cx + 78, cy - 94), 12),
               shade(pal["main"], 0.5), 1.2)


def draw_court(surf: pygame.Surface, pen: Pen, rank: str, suit: str, colours: dict) -> None:
    pal = court_palette(suit, colours)
    half_h = FR_H / 2
    surf.set_clip(pygame.Rect(FR_X * SS, FR_Y * SS, FR_W * SS, round(half_h * SS)))
    half = pen.sub(FR_X, FR_Y)
    half.rect(0, 0, FR_W, half_h, pal["wash"])
    {"K": draw_king, "Q": draw_queen, "J": draw_jack}[rank](half, pal, FR_W, half_h)
    # the small frame pip sits on the side away from the figure's flower or leaf
    item_left = rank == "Q" or (rank == "J" and suit in "HD")
    draw_suit(half, suit, FR_W - 22 if item_left else 22, 26, 30, pal["suit"],
              outline=pal["wash"], width=3)
    surf.set_clip(None)
    copy_rotated(surf, FR_X, FR_Y, FR_W, half_h)
    # frame and fold line
    pen.stroke([(FR_X, FR_Y), (FR_X + FR_W, FR_Y), (FR_X + FR_W, FR_Y + FR_H),
                (FR_X, FR_Y + FR_H)], pal["suit"], 3, closed=True, caps=False)
    pen.stroke([(FR_X, FR_Y + half_h), (FR_X + FR_W, FR_Y + half_h)], pal["suit"], 3)
    pen.stroke([(FR_X - 6, FR_Y - 6), (FR_X + FR_W + 6, FR_Y - 6),
                (FR_X + FR_W + 6, FR_Y + FR_H + 6), (FR_X - 6, FR_Y + FR_H + 6)],
               mix(pal["suit"], PAPER, 0.55), 1.2, closed=True, caps=False)


# ---------------------------------------------------------------------------
# the Cuckoo deck
# ---------------------------------------------------------------------------
CK_PAPER = (250, 244, 226)
CK_FRAME = (36, 84, 96)
CK_INK = (44, 30, 24)
CK_NUMBER = (168, 36, 34)

CK_MEDALLION = {
    "Fool": (255, 224, 140), "Lion": (255, 206, 150), "Mask": (214, 196, 236),
    "Bucket": (176, 214, 240), "Zero": (226, 226, 220), "Inn": (196, 228, 180),
    "Cat": (250, 200, 206), "Horse": (230, 212, 170), "Hussar": (240, 186, 176),
    "Cuckoo": (186, 222, 238),
}
NUMBER_MEDALLION = (248, 226, 168)


def draw_fool(p: Pen) -> None:
    L = CK_INK
    # ruff collar
    ruff = []
    for k in range(25):
        a = math.pi * k / 24
        r = 0.62 if k % 2 == 0 else 0.5
        ruff.append((r * math.cos(a) * 1.1, 0.58 + r * math.sin(a) * 0.45))
    pen_poly = p.poly
    pen_poly([(-0.68, 0.58)] + ruff[::-1] + [(0.68, 0.58)], WHITE, outline=L, width=2)
    p.circle((0, 0.32), 0.4, SKIN, outline=L, width=2)
    for sx in (-1, 1):
        p.poly(path(qbez((sx * 0.22, 0.26), (sx * 0.13, 0.17), (sx * 0.05, 0.26), 6),
                    qbez((sx * 0.05, 0.26), (sx * 0.13, 0.22), (sx * 0.22, 0.26), 6)), L)
        p.circle((sx * 0.27, 0.42), 0.07, (250, 160, 160))
    p.circle((0, 0.38), 0.07, (220, 50, 50), outline=L, width=1.2)
    p.stroke(qbez((-0.18, 0.5), (0, 0.64), (0.18, 0.5), 10), L, 2.2)
    # the three-pointed hat
    colours = [(214, 40, 48), (40, 150, 70), (250, 196, 30)]
    tips = [(-0.95, -0.28), (0.0, -0.98), (0.95, -0.28)]
    bases = [((-0.5, 0.04), (-0.12, 0.0)), ((-0.22, 0.0), (0.22, 0.0)),
             ((0.12, 0.0), (0.5, 0.04))]
    ctrls = [((-0.62, -0.7), (-0.5, -0.3)), ((-0.4, -0.6), (0.4, -0.6)),
             ((0.5, -0.3), (0.62, -0.7))]
    for col, tip, (b0, b1), (c0, c1) in zip(colours, tips, bases, ctrls, strict=False):
        shape_pts = path(qbez(b0, c0, tip, 14), qbez(tip, c1, b1, 14))
        p.poly(shape_pts, col, outline=L, width=2)
    band = path(qbez((-0.52, 0.1), (0, -0.08), (0.52, 0.1), 16),
                qbez((0.52, 0.1), (0.54, 0.0), (0.5, -0.04), 4),
                qbez((0.5, -0.04), (0, -0.2), (-0.5, -0.04), 16))
    p.poly(band, GOLD, outline=L, width=2)
    for tip in tips:
        p.circle((tip[0], tip[1] + 0.02), 0.1, GOLD, outline=L, width=1.6)
        p.stroke([(tip[0] - 0.05, tip[1] + 0.05), (tip[0] + 0.05, tip[1] + 0.05)], L, 1.4)


def draw_lion(p: Pen) -> None:
    L = CK_INK
    mane = []
    for k in range(36):
        a = 2 * math.pi * k / 36
        r = 0.98 if k % 2 == 0 else 0.8
        mane.append((r * math.cos(a), 0.05 + r * math.sin(a)))
    p.poly(mane, (176, 92, 30), outline=L, width=2)
    inner = []
    for k in range(28):
        a = 2 * math.pi * k / 28 + 0.1
        r = 0.8 if k % 2 == 0 else 0.66
        inner.append((r * math.cos(a), 0.05 + r * math.sin(a)))
    p.poly(inner, (222, 140, 48))
    for sx in (-1, 1):
        p.circle((sx * 0.4, -0.4), 0.14, (236, 184, 90), outline=L, width=2)
        p.circle((sx * 0.4, -0.4), 0.07, (190, 120, 70))
    p.ellipse(0, 0.08, 0.52, 0.56, (240, 192, 96), outline=L, width=2)
    for sx in (-1, 1):
        p.poly(path(qbez((sx * 0.32, -0.06), (sx * 0.2, -0.2), (sx * 0.08, -0.06), 8),
                    qbez((sx * 0.08, -0.06), (sx * 0.2, 0.0), (sx * 0.32, -0.06), 8)), WHITE,
               outline=L, width=1.6)
        p.circle((sx * 0.19, -0.08), 0.045, (90, 60, 20))
        p.stroke([(sx * 0.34, -0.16), (sx * 0.1, -0.18)], L, 2)
        p.circle((sx * 0.13, 0.3), 0.15, (252, 236, 200))
        for k in range(3):
            p.circle((sx * (0.09 + 0.05 * k), 0.28 + 0.04 * (k % 2)), 0.015, L)
        p.stroke([(sx * 0.26, 0.3 + 0.04 * 0), (sx * 0.56, 0.24)], L, 1.2)
        p.stroke([(sx * 0.26, 0.35), (sx * 0.58, 0.38)], L, 1.2)
    p.stroke([(0, 0.2), (0, 0.38)], L, 2)
    p.poly([(-0.11, 0.14), (0.11, 0.14), (0, 0.25)], (90, 50, 40), outline=L, width=1.4)
    p.poly(path(qbez((-0.12, 0.44), (0, 0.5), (0.12, 0.44), 8),
                qbez((0.12, 0.44), (0, 0.58), (-0.12, 0.44), 8)), (200, 80, 80), outline=L,
           width=1.4)


def draw_mask(p: Pen) -> None:
    L = CK_INK
    purple, gold = (110, 48, 150), GOLD
    # plumes
    for k, col in enumerate(((214, 40, 48), (250, 196, 30), (40, 150, 120))):
        a = -0.95 - 0.33 * k + 0.2
        tip = (-0.45 + 0.9 * math.cos(a), -0.18 + 0.9 * math.sin(a))
        base = (-0.45, -0.15)
        nx, ny = -math.sin(a) * 0.16, math.cos(a) * 0.16
        mid = ((base[0] + tip[0]) / 2, (base[1] + tip[1]) / 2)
        feather = path(qbez(base, (mid[0] + nx, mid[1] + ny), tip, 12),
                       qbez(tip, (mid[0] - nx, mid[1] - ny), base, 12))
        p.poly(feather, col, outline=L, width=1.6)
        p.stroke([base, tip], shade(col, 0.5), 1.2)
    # stick
    p.stroke([(0.62, 0.2), (0.88, 0.96)], (120, 80, 40), 6)
    p.stroke([(0.62, 0.2), (0.88, 0.96)], L, 1)
    half = path(cbez((0, -0.2), (-0.3, -0.36), (-0.7, -0.36), (-0.94, -0.2), 16),
                cbez((-0.94, -0.2), (-0.92, 0.16), (-0.7, 0.4), (-0.42, 0.36), 16),
                cbez((-0.42, 0.36), (-0.2, 0.33), (-0.12, 0.14), (0, 0.14), 10))
    shape_pts = path(half, mirror_x(half)[::-1])
    p.poly(shape_pts, purple, outline=L, width=2.4)
    # gold trim and ornaments
    p.stroke(path(cbez((0, -0.12), (-0.3, -0.28), (-0.66, -0.28), (-0.86, -0.16), 14))
             , gold, 3)
    p.stroke(mirror_x(cbez((0, -0.12), (-0.3, -0.28), (-0.66, -0.28), (-0.86, -0.16), 14)),
             gold, 3)
    for sx in (-1, 1):
        eye = path(qbez((sx * 0.14, 0.02), (sx * 0.38, -0.22), (sx * 0.62, 0.02), 12),
                   qbez((sx * 0.62, 0.02), (sx * 0.38, 0.16), (sx * 0.14, 0.02), 12))
        p.poly(eye, gold)
        eye2 = [(x * 0.82 + sx * 0.38 * 0.18, y * 0.7) for x, y in eye]
        p.poly(eye2, (30, 16, 40))
        for k in range(3):
            p.circle((sx * (0.3 + 0.16 * k), 0.26 + 0.02 * k), 0.03, gold)
    p.circle((0, -0.16), 0.07, (214, 40, 48), outline=gold, width=2)


def draw_bucket(p: Pen) -> None:
    L = CK_INK
    wood, dark = (190, 128, 64), (120, 74, 30)
    # handle
    p.stroke(cbez((-0.62, -0.26), (-0.6, -1.05), (0.6, -1.05), (0.62, -0.26), 24), (110, 110, 120), 6)
    p.stroke(cbez((-0.62, -0.26), (-0.6, -1.05), (0.6, -1.05), (0.62, -0.26), 24), L, 1.2)
    top, bot = -0.3, 0.78
    body = path([(-0.62, top)], ellipse_pts(0, bot, 0.46, 0.12, 24, math.pi, 0), [(0.62, top)])
    p.poly(body, wood, outline=L, width=2.4)
    for k in range(1, 6):
        t = k / 6
        x0 = lerp(-0.62, 0.62, t)
        x1 = lerp(-0.46, 0.46, t)
        yb = bot + 0.12 * math.sqrt(max(0.0, 1 - (x1 / 0.46) ** 2))
        p.stroke([(x0, top + 0.1), (x1, yb)], dark, 1.6)
    for y in (-0.05, 0.52):
        t = (y - top) / (bot - top)
        w = lerp(0.62, 0.46, t)
        band = path(ellipse_pts(0, y, w, 0.12, 24, 0, math.pi),
                    ellipse_pts(0, y + 0.1, w - 0.015, 0.12, 24, math.pi, 0))
        p.poly(band, (150, 150, 160), outline=L, width=1.6)
        for sx in (-1, 1):
            p.circle((sx * w * 0.6, y + 0.15), 0.025, L)
    p.ellipse(0, top, 0.62, 0.14, (120, 74, 30), outline=L, width=2.4)
    p.ellipse(0, top + 0.02, 0.54, 0.1, (70, 140, 210))
    p.ellipse(-0.15, top + 0.0, 0.16, 0.03, (170, 210, 245))
    for sx in (-1, 1):
        p.circle((sx * 0.62, -0.26), 0.05, (110, 110, 120), outline=L, width=1.2)
    # splashes
    for x, y, r in ((0.78, -0.5, 0.06), (0.88, -0.3, 0.04), (-0.82, -0.44, 0.05)):
        drop = path(qbez((x, y - r * 2.2), (x + r, y - r * 0.4), (x + r, y), 6),
                    ellipse_pts(x, y, r, r, 12, 0, math.pi),
                    qbez((x - r, y), (x - r, y - r * 0.4), (x, y - r * 2.2), 6))
        p.poly(drop, (70, 140, 210), outline=L, width=1.2)


def draw_big_number(p: Pen, text: str, cap: float) -> None:
    p.text(text, cap, GOLD_DARK, center=(0.035, 0.035), squeeze=0.92)
    p.text(text, cap, CK_NUMBER, center=(0, 0), squeeze=0.92)


def draw_zero(p: Pen) -> None:
    for k in range(12):
        a = 2 * math.pi * k / 12
        p.circle((0.78 * math.cos(a), 0.78 * math.sin(a)), 0.06, CK_FRAME)
    draw_big_number(p, "0", 1.1)


def draw_inn(p: Pen) -> None:
    L = CK_INK
    wall, beam = (246, 236, 210), (104, 62, 30)
    # smoke
    for x, y, r in ((0.44, -0.88, 0.07), (0.52, -0.98, 0.09), (0.64, -1.02, 0.1)):
        p.circle((x, y), r, (200, 200, 205), outline=(150, 150, 160), width=1.2)
    p.poly([(0.32, -0.56), (0.32, -0.84), (0.5, -0.84), (0.5, -0.38)], (170, 70, 50), outline=L,
           width=2)
    p.poly([(-0.62, -0.05), (0.62, -0.05), (0.62, 0.8), (-0.62, 0.8)], wall, outline=L, width=2)
    # half-timbering
    for x in (-0.62, -0.24, 0.24, 0.62):
        p.stroke([(x, -0.05), (x, 0.8)], beam, 5)
    p.stroke([(-0.62, 0.34), (0.62, 0.34)], beam, 5)
    p.stroke([(-0.62, 0.8), (-0.24, 0.34)], beam, 4)
    p.stroke([(0.62, 0.8), (0.24, 0.34)], beam, 4)
    p.poly([(-0.8, -0.02), (0, -0.72), (0.8, -0.02)], (186, 60, 44), outline=L, width=2.4)
    for k in range(1, 4):
        y = lerp(-0.72, -0.02, k / 4)
        x = 0.8 * k / 4
        p.stroke([(-x, y), (x, y)], shade((186, 60, 44), -0.3), 1.4)
    p.circle((0, -0.3), 0.1, (250, 220, 110), outline=L, width=1.6)
    # windows
    for x in (-0.43, 0.43):
        p.rect(x - 0.12, 0.04, 0.24, 0.22, (255, 214, 90))
        p.poly([(x - 0.12, 0.04), (x + 0.12, 0.04), (x + 0.12, 0.26), (x - 0.12, 0.26)],
               (255, 214, 90), outline=L, width=1.8)
        p.stroke([(x, 0.04), (x, 0.26)], L, 1.4)
        p.stroke([(x - 0.12, 0.15), (x + 0.12, 0.15)], L, 1.4)
    # door
    door = path([(-0.14, 0.8)], ellipse_pts(0, 0.5, 0.14, 0.14, 16, math.pi, 2 * math.pi),
                [(0.14, 0.8)])
    p.poly(door, (130, 78, 36), outline=L, width=2)
    p.circle((0.07, 0.64), 0.02, GOLD)
    # hanging sign with a beer mug
    p.stroke([(-0.62, 0.42), (-0.96, 0.42)], L, 3)
    for x in (-0.92, -0.68):
        p.stroke([(x, 0.42), (x, 0.5)], L, 1.4)
    p.rect(-0.98, 0.5, 0.36, 0.3, (150, 100, 50))
    p.poly([(-0.98, 0.5), (-0.62, 0.5), (-0.62, 0.8), (-0.98, 0.8)], (150, 100, 50), outline=L,
           width=1.6)
    p.rect(-0.88, 0.58, 0.13, 0.17, GOLD)
    p.ellipse(-0.815, 0.58, 0.08, 0.04, WHITE)
    p.stroke(ellipse_pts(-0.74, 0.665, 0.04, 0.05, 10, -math.pi / 2, math.pi / 2), GOLD, 2)


def draw_cat(p: Pen) -> None:
    L = CK_INK
    fur, light = (72, 74, 88), (236, 236, 240)
    # tail
    p.stroke(cbez((0.3, 0.8), (0.95, 0.85), (0.95, 0.2), (0.7, -0.05), 20), fur, 16)
    body = path(cbez((-0.1, -0.2), (-0.6, 0.0), (-0.62, 0.86), (-0.3, 0.88), 20),
                [(0.3, 0.88)],
                cbez((0.3, 0.88), (0.62, 0.86), (0.6, 0.0), (0.1, -0.2), 20))
    p.poly(body, fur, outline=L, width=2)
    p.poly(path(cbez((0, -0.05), (-0.2, 0.1), (-0.2, 0.5), (0, 0.62), 12),
                cbez((0, 0.62), (0.2, 0.5), (0.2, 0.1), (0, -0.05), 12)), light)
    for sx in (-1, 1):
        p.ellipse(sx * 0.16, 0.84, 0.12, 0.06, light, outline=L, width=1.4)
    # head with ears
    for sx in (-1, 1):
        p.poly([(sx * 0.12, -0.58), (sx * 0.42, -0.86), (sx * 0.4, -0.42)], fur, outline=L,
               width=2)
        p.poly([(sx * 0.2, -0.58), (sx * 0.38, -0.76), (sx * 0.36, -0.5)], (240, 160, 170))
    p.ellipse(0, -0.36, 0.42, 0.34, fur, outline=L, width=2)
    p.ellipse(0, -0.22, 0.2, 0.14, light)
    for sx in (-1, 1):
        eye = path(qbez((sx * 0.06, -0.42), (sx * 0.17, -0.56), (sx * 0.28, -0.42), 8),
                   qbez((sx * 0.28, -0.42), (sx * 0.17, -0.3), (sx * 0.06, -0.42), 8))
        p.poly(eye, (130, 210, 70), outline=L, width=1.2)
        p.ellipse(sx * 0.17, -0.42, 0.02, 0.07, L)
        for k in (-1, 0, 1):
            p.stroke([(sx * 0.14, -0.22 + 0.03 * k), (sx * 0.56, -0.26 + 0.08 * k)], light, 1.1)
    p.poly([(-0.05, -0.3), (0.05, -0.3), (0, -0.25)], (240, 140, 160), outline=L, width=1)
    p.stroke(path(qbez((-0.1, -0.18), (-0.05, -0.15), (0, -0.2), 6),
                  qbez((0, -0.2), (0.05, -0.15), (0.1, -0.18), 6)), L, 1.4)


def draw_horse(p: Pen) -> None:
    L = CK_INK
    coat, mane = (150, 92, 48), (60, 36, 22)
    head = path([(0.16, -0.9)], [(0.3, -0.62)],
                cbez((0.3, -0.62), (0.6, -0.52), (0.78, 0.1), (0.84, 0.92), 16),
                [(0.1, 0.92)],
                cbez((0.1, 0.92), (0.08, 0.55), (0.0, 0.38), (-0.12, 0.3), 12),
                cbez((-0.12, 0.3), (-0.3, 0.42), (-0.5, 0.46), (-0.64, 0.38), 12),
                cbez((-0.64, 0.38), (-0.86, 0.3), (-0.8, 0.08), (-0.66, 0.02), 12),
                cbez((-0.66, 0.02), (-0.4, -0.3), (-0.18, -0.5), (0.02, -0.62), 14),
                [(0.16, -0.9)])
    p.poly(head, coat, outline=L, width=2.4)
    mane_shape = path([(0.22, -0.72)], cbez((0.22, -0.72), (0.56, -0.62), (0.76, -0.1), (0.82, 0.9), 16),
                      [(0.94, 0.9)], cbez((0.94, 0.9), (1.0, 0.2), (0.8, -0.6), (0.22, -0.72), 16))
    p.poly(mane_shape, mane, outline=L, width=1.6)
    for k in range(6):
        t = (k + 0.5) / 6
        x, y = lerp(0.5, 0.92, t), lerp(-0.55, 0.8, t)
        p.stroke(qbez((x - 0.06, y - 0.08), (x + 0.1, y), (x + 0.04, y + 0.12), 6),
                 shade(mane, 0.3), 1.4)
    # forelock and ear
    p.poly([(0.16, -0.9), (0.3, -0.62), (0.1, -0.66)], shade(coat, -0.2), outline=L, width=2)
    p.poly(path(qbez((0.12, -0.66), (-0.1, -0.6), (-0.14, -0.44), 8), [(0.04, -0.54)]), mane,
           outline=L, width=1.4)
    # a white blaze running down the face, just inside its front edge
    def edge(t: float, off: float) -> Point:
        return (-0.66 + 0.68 * t + 0.69 * off, 0.02 - 0.64 * t + 0.73 * off)

    ts = [0.12 + 0.8 * k / 16 for k in range(17)]
    blaze = [edge(t, 0.05) for t in ts] + [edge(t, 0.1 + 0.1 * t) for t in ts[::-1]]
    p.poly(blaze, (246, 240, 230))
    p.circle((0.1, -0.3), 0.07, WHITE, outline=L, width=1.6)
    p.circle((0.08, -0.3), 0.045, (40, 24, 16))
    p.ellipse(-0.64, 0.2, 0.06, 0.04, (50, 30, 20))
    p.stroke(qbez((-0.76, 0.34), (-0.62, 0.38), (-0.5, 0.34), 6), L, 1.4)
    # bridle: cheek strap, noseband and the ring that joins them
    red = (196, 36, 40)
    p.stroke([(0.16, -0.6), (-0.14, 0.2)], red, 4)
    p.stroke([(-0.49, -0.15), (-0.4, 0.43)], red, 4)
    p.stroke([(-0.14, 0.2), (-0.44, 0.14)], red, 4)
    p.circle((-0.14, 0.2), 0.04, GOLD, outline=L, width=1.2)


def draw_hussar(p: Pen) -> None:
    L = CK_INK
    red, navy = (200, 36, 42), (30, 46, 100)
    # dolman jacket with braid
    body = path([(-0.92, 1.0)],
                cbez((-0.92, 1.0), (-0.9, 0.56), (-0.6, 0.42), (-0.18, 0.36), 14),
                [(0.18, 0.36)],
                cbez((0.18, 0.36), (0.6, 0.42), (0.9, 0.56), (0.92, 1.0), 14))
    p.poly(body, navy, outline=L, width=2)
    for k in range(5):
        y = 0.5 + 0.1 * k
        p.stroke([(-0.3 + 0.02 * k, y), (0.3 - 0.02 * k, y)], GOLD, 3)
        for sx in (-1, 1):
            p.circle((sx * (0.32 - 0.02 * k), y), 0.03, GOLD)
    # fur-trimmed pelisse over the left shoulder
    pel = path([(-0.92, 1.0)], cbez((-0.92, 1.0), (-0.9, 0.6), (-0.7, 0.44), (-0.4, 0.4), 12),
               [(-0.44, 1.0)])
    p.poly(pel, red, outline=L, width=2)
    p.stroke(cbez((-0.94, 0.98), (-0.92, 0.6), (-0.7, 0.42), (-0.38, 0.38), 12), (240, 236, 226), 7)
    p.poly([(-0.16, 0.32), (0.16, 0.32), (0.14, 0.44), (-0.14, 0.44)], red, outline=L, width=1.6)
    # face and moustache
    p.ellipse(0, 0.08, 0.25, 0.3, SKIN, outline=L, width=2)
    for sx in (-1, 1):
        p.circle((sx * 0.1, 0.02), 0.03, L)
        p.stroke([(sx * 0.16, -0.05), (sx * 0.04, -0.06)], L, 1.6)
        must = path(qbez((0, 0.16), (sx * 0.16, 0.08), (sx * 0.34, 0.12), 8),
                    qbez((sx * 0.34, 0.12), (sx * 0.38, 0.04), (sx * 0.3, 0.04), 4),
                    qbez((sx * 0.3, 0.04), (sx * 0.32, 0.1), (sx * 0.26, 0.12), 4),
                    qbez((sx * 0.26, 0.12), (sx * 0.12, 0.2), (0, 0.2), 8))
        p.poly(must, (70, 40, 20), outline=L, width=1.2)
    p.stroke([(0, -0.02), (-0.03, 0.1), (0.02, 0.11)], L, 1.4)
    # tall busby with gold cords
    hat = [(-0.26, -0.14), (-0.3, -0.74), (0.3, -0.74), (0.26, -0.14)]
    p.poly(hat, (40, 30, 30), outline=L, width=2)
    p.rect(-0.3, -0.78, 0.6, 0.08, red)
    p.poly([(-0.3, -0.78), (0.3, -0.78), (0.3, -0.7), (-0.3, -0.7)], red, outline=L, width=1.6)
    p.stroke(qbez((-0.26, -0.3), (0, -0.18), (0.26, -0.3), 10), GOLD, 3)
    p.stroke(qbez((-0.28, -0.5), (0, -0.36), (0.28, -0.5), 10), GOLD, 3)
    p.rect(-0.27, -0.18, 0.54, 0.06, GOLD)
    # the plume
    plume = path(cbez((0.14, -0.72), (0.0, -1.0), (0.28, -1.14), (0.5, -1.08), 14),
                 cbez((0.5, -1.08), (0.3, -0.98), (0.3, -0.86), (0.22, -0.72), 14))
    p.poly(plume, WHITE, outline=L, width=1.6)
    p.stroke(cbez((0.18, -0.74), (0.1, -0.96), (0.3, -1.06), (0.46, -1.06), 10), (210, 60, 60), 2)
    p.circle((0.18, -0.72), 0.05, GOLD, outline=L, width=1.2)
    # sabre hilt at the right
    p.stroke(qbez((0.6, 1.0), (0.74, 0.7), (0.7, 0.52), 10), (200, 205, 215), 6)
    p.stroke(qbez((0.6, 1.0), (0.74, 0.7), (0.7, 0.52), 10), L, 1)
    p.stroke(ellipse_pts(0.66, 0.48, 0.08, 0.08, 12, math.pi, 2.2 * math.pi), GOLD, 3)


def draw_cuckoo(p: Pen) -> None:
    L = CK_INK
    wood, dark = (150, 94, 46), (96, 56, 24)
    # weights on chains
    for x in (-0.3, 0.3):
        p.stroke([(x, 0.5), (x, 0.74)], (120, 120, 130), 1.6)
        cone = path([(x - 0.07, 0.8)], [(x + 0.07, 0.8)], [(x, 1.02)])
        p.poly(cone, (120, 70, 30), outline=L, width=1.4)
    p.stroke([(0, 0.5), (0, 0.88)], GOLD_DARK, 2)
    p.circle((0, 0.9), 0.08, GOLD, outline=L, width=1.4)
    # house
    p.poly([(-0.56, -0.3), (0.56, -0.3), (0.56, 0.52), (-0.56, 0.52)], wood, outline=L, width=2)
    p.poly([(-0.56, -0.3), (0, -0.72), (0.56, -0.3)], wood, outline=L, width=2)
    # carved leaves crowning the gable
    for k in range(5):
        a = math.pi * (1.1 + 0.8 * k / 4)
        leaf = rot(ellipse_pts(0, 0, 0.13, 0.05, 16)[:-1], a)
        lx, ly = 0.14 * math.cos(a), -0.8 + 0.14 * math.sin(a)
        p.poly([(lx + x, ly + y) for x, y in leaf], (60, 120, 50), outline=L, width=1.2)
    p.circle((0, -0.82), 0.05, (200, 60, 50), outline=L, width=1.2)
    roof_l = [(-0.8, -0.18), (0, -0.78), (0.06, -0.72), (-0.74, -0.12)]
    p.poly(roof_l, dark, outline=L, width=2)
    p.poly(mirror_x(roof_l), dark, outline=L, width=2)
    # the bird's door and the bird
    p.poly([(-0.16, -0.58), (0.16, -0.58), (0.16, -0.32), (-0.16, -0.32)], (40, 24, 16))
    p.stroke([(-0.16, -0.32), (-0.16, -0.58), (0.16, -0.58), (0.16, -0.32)], L, 1.6, caps=False)
    p.poly([(0.16, -0.58), (0.3, -0.54), (0.3, -0.3), (0.16, -0.32)], (176, 116, 60), outline=L,
           width=1.4)
    bird = (110, 120, 150)
    p.ellipse(-0.04, -0.38, 0.2, 0.11, bird, outline=L, width=1.6)
    p.poly([(0.1, -0.42), (0.34, -0.5), (0.14, -0.34)], bird, outline=L, width=1.4)
    p.circle((-0.22, -0.5), 0.1, bird, outline=L, width=1.6)
    p.poly([(-0.3, -0.54), (-0.46, -0.49), (-0.3, -0.46)], (250, 160, 40), outline=L, width=1.2)
    p.circle((-0.22, -0.53), 0.025, L)
    p.poly([(-0.1, -0.42), (0.08, -0.4), (-0.02, -0.32)], shade(bird, 0.3))
    # the clock face
    p.circle((0, 0.1), 0.34, (248, 244, 230), outline=L, width=2.4)
    for k in range(12):
        a = 2 * math.pi * k / 12
        r0, r1 = (0.24, 0.3) if k % 3 else (0.2, 0.3)
        p.stroke([(r0 * math.cos(a), 0.1 + r0 * math.sin(a)),
                  (r1 * math.cos(a), 0.1 + r1 * math.sin(a))], L, 2 if k % 3 == 0 else 1.2)
    p.stroke([(0, 0.1), (0.13, 0.0)], L, 3)
    p.stroke([(0, 0.1), (-0.02, -0.14)], L, 2)
    p.circle((0, 0.1), 0.03, GOLD_DARK)


CUCKOO_ART = {
    "Fool": draw_fool, "Lion": draw_lion, "Mask": draw_mask, "Bucket": draw_bucket,
    "Zero": draw_zero, "Inn": draw_inn, "Cat": draw_cat, "Horse": draw_horse,
    "Hussar": draw_hussar, "Cuckoo": draw_cuckoo,
}


def render_cuckoo(value: str) -> pygame.Surface:
    surf, pen = card_blank(paper=CK_PAPER)
    cx = CARD_W / 2
    # frame
    pen.rect(12, 12, CARD_W - 24, CARD_H - 24, CK_FRAME, radius=12)
    pen.rect(18, 18, CARD_W - 36, CARD_H - 36, CK_PAPER, radius=8)
    pen.rect(22, 22, CARD_W - 44, CARD_H - 44, CK_FRAME, radius=6, width=1.2)
    # name bands
    band_h = 54
    for y in (26, CARD_H - 26 - band_h):
        pen.rect(26, y, CARD_W - 52, band_h, CK_FRAME, radius=6)
    de = CUCKOO_NAMES_DE.get(value, value)
    pen.text(de, 28, (252, 240, 200), center=(cx, 26 + band_h / 2), max_w=CARD_W - 90)
    pen.text(value, 28, (252, 240, 200), center=(cx, CARD_H - 26 - band_h / 2),
             max_w=CARD_W - 90)
    # the medallion with the picture
    cy = CARD_H / 2
    is_number = value not in CUCKOO_ART
    med = NUMBER_MEDALLION if is_number else CK_MEDALLION[value]
    pen.ellipse(cx, cy, 146, 164, shade(med, 0.45), outline=CK_FRAME, width=3)
    pen.ellipse(cx, cy, 132, 150, med, outline=shade(CK_FRAME, 0.4), width=1.5)
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        pen.circle((cx + 160 * math.cos(a) * 0.96, cy + 176 * math.sin(a) * 0.92), 6, CK_FRAME)
    art = pen.sub(cx, cy, 118.0)
    if is_number:
        draw_big_number(art, value, 1.5 if len(value) == 1 else 1.3)
        # corner numerals for a fanned hand
        for (x, y) in ((44, 104), (CARD_W - 44, 104)):
            pen.text(value, 24, CK_NUMBER, center=(x, y))
        for (x, y) in ((44, CARD_H - 104), (CARD_W - 44, CARD_H - 104)):
            pen.text(value, 24, CK_NUMBER, center=(x, y))
    else:
        CUCKOO_ART[value](art)
    return finish_card(surf)


# ---------------------------------------------------------------------------
# backs
# ---------------------------------------------------------------------------
def _back_base(field) -> tuple[pygame.Surface, Pen, pygame.Rect]:
    surf, pen = card_blank()
    inset = 16
    pen.rect(inset, inset, CARD_W - 2 * inset, CARD_H - 2 * inset, field, radius=10)
    inner = pygame.Rect(inset * SS, inset * SS, (CARD_W - 2 * inset) * SS, (CARD_H - 2 * inset) * SS)
    return surf, pen, inner


def _back_frame(pen: Pen, line) -> None:
    pen.rect(16, 16, CARD_W - 32, CARD_H - 32, line, radius=10, width=2.2)
    pen.rect(24, 24, CARD_W - 48, CARD_H - 48, line, radius=7, width=1.2)


def _clip_rounded(surf: pygame.Surface, inner: pygame.Rect, layer: pygame.Surface) -> None:
    """Blit ``layer`` onto ``surf`` only inside the rounded inner field."""
    mask = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), inner, border_radius=10 * SS)
    layer.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surf.blit(layer, (0, 0))


def render_back_lattice() -> pygame.Surface:
    field, line, light = (160, 22, 34), (236, 196, 190), (212, 82, 86)
    surf, pen, inner = _back_base(field)
    layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    lp = Pen(layer)
    step = 26
    cx, cy = CARD_W / 2, CARD_H / 2
    for k in range(-30, 31):
        o = k * step
        lp.stroke([(cx + o - 400, cy - 400), (cx + o + 400, cy + 400)], light, 3.2, caps=False)
        lp.stroke([(cx + o + 400, cy - 400), (cx + o - 400, cy + 400)], light, 3.2, caps=False)
    for i in range(-20, 21):
        for j in range(-20, 21):
            x, y = cx + i * step, cy + j * step
            if 0 < x < CARD_W and 0 < y < CARD_H:
                lp.poly([(x, y - 5), (x + 5, y), (x, y + 5), (x - 5, y)], line)
            x2, y2 = x + step / 2, y + step / 2
            if 0 < x2 < CARD_W and 0 < y2 < CARD_H:
                lp.circle((x2, y2), 2.2, shade(field, -0.25))
    _clip_rounded(surf, inner, layer)
    # central oval medallion
    pen.ellipse(cx, cy, 66, 90, field, outline=line, width=3)
    pen.ellipse(cx, cy, 56, 80, field, outline=light, width=1.5)
    for k, suit in enumerate("SHCD"):
        a = k * math.pi / 2 - math.pi / 2
        draw_suit(pen, suit, cx + 34 * math.cos(a), cy + 48 * math.sin(a), 30, line,
                  flip=k == 2)
    pen.circle((cx, cy), 8, line)
    _back_frame(pen, line)
    return finish_card(surf)


def _rosette(pen: Pen, cx, cy, r, petal, centre, n=8) -> None:
    for k in range(n):
        a = 2 * math.pi * k / n
        px, py = cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a)
        pts = rot(ellipse_pts(0, 0, r * 0.5, r * 0.22, 24)[:-1], a)
        pen.poly([(px + x, py + y) for x, y in pts], petal)
    pen.circle((cx, cy), r * 0.22, centre)


def render_back_rosette() -> pygame.Surface:
    field, light, pale = (22, 52, 128), (86, 128, 212), (226, 236, 252)
    surf, pen, inner = _back_base(field)
    layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    lp = Pen(layer)
    cx, cy = CARD_W / 2, CARD_H / 2
    step = 44
    for j in range(-7, 8):
        for i in range(-5, 6):
            x = cx + i * step + (step / 2 if j % 2 else 0)
            y = cy + j * step * 0.866
            _rosette(lp, x, y, 19, light, pale)
    _clip_rounded(surf, inner, layer)
    # the big central rosette
    pen.circle((cx, cy), 96, field, outline=pale, width=3)
    for k in range(16):
        a = 2 * math.pi * k / 16
        pts = rot(ellipse_pts(0, 0, 40, 12, 24)[:-1], a)
        px, py = cx + 50 * math.cos(a), cy + 50 * math.sin(a)
        pen.poly([(px + x, py + y) for x, y in pts], light if k % 2 else pale)
    pen.circle((cx, cy), 27, field, outline=pale, width=2.5)
    _rosette(pen, cx, cy, 22, pale, light, 8)
    _back_frame(pen, pale)
    return finish_card(surf)


def render_back_checks() -> pygame.Surface:
    field, dark, pale = (22, 116, 64), (8, 70, 36), (226, 244, 230)
    surf, pen, inner = _back_base(field)
    layer = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    stripe = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    sp = Pen(stripe)
    step = 32
    cx, cy = CARD_W / 2, CARD_H / 2
    for k in range(-10, 11):
        x = cx + k * step - step / 4
        sp.rect(x, 0, step / 2, CARD_H, (*dark, 110))
    layer.blit(stripe, (0, 0))
    stripe.fill((0, 0, 0, 0))
    for k in range(-10, 11):
        y = cy + k * step - step / 4
        sp.rect(0, y, CARD_W, step / 2, (*dark, 110))
    layer.blit(stripe, (0, 0))
    lp = Pen(layer)
    for k in range(-10, 11):
        x = cx + k * step + step / 2
        lp.rect(x - 0.8, 0, 1.6, CARD_H, (*pale, 150))
        y = cy + k * step + step / 2
        lp.rect(0, y - 0.8, CARD_W, 1.6, (*pale, 150))
    _clip_rounded(surf, inner, layer)
    # a club-and-spade cartouche in the middle
    pen.rect(cx - 62, cy - 62, 124, 124, field, radius=14)
    pen.rect(cx - 62, cy - 62, 124, 124, pale, radius=14, width=3)
    pen.rect(cx - 54, cy - 54, 108, 108, pale, radius=10, width=1.2)
    draw_suit(pen, "C", cx - 22, cy - 20, 34, pale)
    draw_suit(pen, "S", cx + 22, cy - 20, 34, pale)
    draw_suit(pen, "H", cx - 22, cy + 20, 34, pale, flip=True)
    draw_suit(pen, "D", cx + 22, cy + 20, 34, pale, flip=True)
    _back_frame(pen, pale)
    return finish_card(surf)


BACKS = [render_back_lattice, render_back_rosette, render_back_checks]


# ---------------------------------------------------------------------------
# table felt: tileable value noise plus fibres
# ---------------------------------------------------------------------------
FELT_SIZE = 256
FELTS = {"green": (28, 98, 58), "blue": (28, 66, 112), "red": (112, 30, 40)}


def _tile_noise(rng: random.Random, size: int, cells: int) -> list[float]:
    grid = [[rng.random() for _ in range(cells)] for _ in range(cells)]
    out = [0.0] * (size * size)
    step = size / cells
    for y in range(size):
        gy = y / step
        j0 = int(gy) % cells
        j1 = (j0 + 1) % cells
        ty = gy - int(gy)
        ty = ty * ty * (3 - 2 * ty)
        row0, row1 = grid[j0], grid[j1]
        for x in range(size):
            gx = x / step
            i0 = int(gx) % cells
            i1 = (i0 + 1) % cells
            tx = gx - int(gx)
            tx = tx * tx * (3 - 2 * tx)
            a = row0[i0] + (row0[i1] - row0[i0]) * tx
            b = row1[i0] + (row1[i1] - row1[i0]) * tx
            out[y * size + x] = a + (b - a) * ty
    return out


def felt_field(seed: int = 7) -> list[float]:
    """A tileable texture in -1 … 1: soft clouds, fine grain and fibres."""
    rng = random.Random(seed)
    n = FELT_SIZE
    field = [0.0] * (n * n)
    for cells, amp in ((4, 0.35), (8, 0.25), (32, 0.2), (64, 0.15), (128, 0.12)):
        layer = _tile_noise(rng, n, cells)
        for i, v in enumerate(layer):
            field[i] += (v - 0.5) * 2 * amp
    for i in range(n * n):
        field[i] += rng.uniform(-0.18, 0.18)
    # fibres: short, slightly curved strokes, wrapped around the tile edges
    for _ in range(900):
        x, y = rng.uniform(0, n), rng.uniform(0, n)
        ang = rng.uniform(0, math.pi)
        length = rng.uniform(4, 14)
        val = rng.choice((-1, 1)) * rng.uniform(0.12, 0.3)
        bend = rng.uniform(-0.15, 0.15)
        steps = int(length * 2)
        for s in range(steps):
            a = ang + bend * s / steps
            px = int(x + math.cos(a) * s * 0.5) % n
            py = int(y + math.sin(a) * s * 0.5) % n
            field[py * n + px] += val
    return field


def render_felt(base, field: list[float]) -> pygame.Surface:
    n = FELT_SIZE
    surf = pygame.Surface((n, n))
    buf = bytearray(n * n * 3)
    amp = 16.0
    for i, v in enumerate(field):
        d = v * amp
        for c in range(3):
            buf[i * 3 + c] = max(0, min(255, int(round(base[c] + d * (0.7 + 0.3 * c / 2)))))
    img = pygame.image.frombuffer(bytes(buf), (n, n), "RGB")
    surf.blit(img, (0, 0))
    return surf


# ---------------------------------------------------------------------------
# chips, dealer button, pot, badge
# ---------------------------------------------------------------------------
CHIP_SIZE = 128
CHIPS = {"red": (196, 30, 42), "blue": (30, 74, 176), "green": (20, 132, 64),
         "black": (36, 36, 42), "white": (236, 234, 226), "yellow": (236, 180, 30)}


def render_chip(colour) -> pygame.Surface:
    n = CHIP_SIZE
    surf = new_surface(n, n, (*colour, 0))
    p = Pen(surf)
    c = (n / 2, n / 2)
    R = n / 2 - 3
    accent = (250, 248, 240) if sum(colour) < 600 else (196, 30, 42)
    p.circle((c[0] + 1.5, c[1] + 2.5), R, (0, 0, 0, 70))
    p.circle(c, R, shade(colour, -0.3))
    p.circle(c, R - 2, colour)
    for k in range(8):
        a0 = 2 * math.pi * k / 8 - 0.16
        a1 = a0 + 0.32
        seg = path(ellipse_pts(c[0], c[1], R - 2, R - 2, 8, a0, a1),
                   ellipse_pts(c[0], c[1], R * 0.72, R * 0.72, 8, a1, a0))
        p.poly(seg, accent)
    p.circle(c, R * 0.66, shade(colour, -0.2))
    p.circle(c, R * 0.62, shade(colour, 0.12))
    for k in range(24):
        a = 2 * math.pi * k / 24
        p.circle((c[0] + R * 0.56 * math.cos(a), c[1] + R * 0.56 * math.sin(a)), 1.3, accent)
    p.circle(c, R * 0.44, shade(colour, 0.08))
    draw_suit(p, "H", c[0], c[1] + 1, R * 0.42, accent)
    # a soft highlight on the upper left
    glow = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    gp = Pen(glow)
    gp.ellipse(c[0] - R * 0.25, c[1] - R * 0.35, R * 0.55, R * 0.3, (255, 255, 255, 40))
    surf.blit(glow, (0, 0))
    return downsample(surf, n, n)


def render_dealer_button() -> pygame.Surface:
    n = 128
    surf = new_surface(n, n, (240, 236, 222, 0))
    p = Pen(surf)
    c = (n / 2, n / 2)
    R = n / 2 - 3
    p.circle((c[0] + 1.5, c[1] + 2.5), R, (0, 0, 0, 80))
    p.circle(c, R, (196, 190, 172))
    p.circle(c, R - 3, (246, 242, 230))
    p.circle(c, R * 0.82, (246, 242, 230), outline=(40, 40, 46), width=3)
    for k in range(16):
        a = 2 * math.pi * k / 16
        p.circle((c[0] + R * 0.9 * math.cos(a), c[1] + R * 0.9 * math.sin(a)), 2, (40, 40, 46))
    p.text("D", 62, (30, 30, 36), center=(c[0] + 1, c[1]))
    return downsample(surf, n, n)


def _coin_stack(p: Pen, x: float, y: float, count: int, r: float, tilt: float = 0.38) -> None:
    gold, dark, light = (236, 184, 48), (170, 114, 18), (255, 226, 120)
    h = r * 0.16
    for k in range(count):
        yy = y - k * h
        p.ellipse(x, yy + h * 0.6, r, r * tilt, dark)
        p.rect(x - r, yy, 2 * r, h * 0.6, dark)
        p.ellipse(x, yy, r, r * tilt, gold)
        if k == count - 1:
            p.ellipse(x, yy, r * 0.78, r * tilt * 0.78, light)
            p.ellipse(x, yy, r * 0.6, r * tilt * 0.6, gold)
        else:
            p.stroke(ellipse_pts(x, yy + h * 0.3, r, r * tilt, 24, 0.1, math.pi - 0.1), shade(dark, -0.2), 0.8)


def render_pot() -> pygame.Surface:
    w, h = 192, 144
    surf = new_surface(w, h, (236, 184, 48, 0))
    p = Pen(surf)
    p.ellipse(w / 2, h - 24, 84, 18, (0, 0, 0, 60))
    stacks = ((58, 104, 9), (134, 106, 7), (96, 114, 13), (34, 124, 4), (158, 126, 5),
              (114, 134, 3), (70, 134, 2))
    for x, y, n in sorted(stacks, key=lambda st: st[1]):
        _coin_stack(p, x, y, n, 25)
    return downsample(surf, w, h)


def render_block_badge() -> pygame.Surface:
    n = 128
    surf = new_surface(n, n, (180, 30, 40, 0))
    p = Pen(surf)
    c = n / 2
    octa = [(c + 58 * math.cos(math.pi / 8 + k * math.pi / 4),
             c + 58 * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]
    p.poly([(x + 1.5, y + 2.5) for x, y in octa], (0, 0, 0, 70))
    p.poly(octa, WHITE)
    p.poly([(c + (x - c) * 0.9, c + (y - c) * 0.9) for x, y in octa], (186, 28, 40))
    pal = {"line": INK, "gold": GOLD, "second": BLUE}
    _crown(Pen(surf, SS, 0, 0, 1.0).sub(0, 0), pal, c, c + 24, 70, 46, 3)
    return downsample(surf, n, n)


# ---------------------------------------------------------------------------
# the app icon
# ---------------------------------------------------------------------------
def _rounded_mask(size: int, radius: int) -> pygame.Surface:
    mask = pygame.Surface((size, size), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    return mask


def _shadow(card: pygame.Surface, blur: int) -> pygame.Surface:
    """A soft drop shadow of ``card``: its alpha, darkened and blurred by down/up scaling."""
    w, h = card.get_size()
    sh = pygame.Surface((w + 4 * blur, h + 4 * blur), pygame.SRCALPHA)
    dark = card.copy()
    dark.fill((0, 0, 0, 255), special_flags=pygame.BLEND_RGBA_MIN)
    dark.fill((0, 0, 0, 120), special_flags=pygame.BLEND_RGBA_MIN)
    sh.blit(dark, (2 * blur, 2 * blur))
    small = pygame.transform.smoothscale(sh, (max(1, sh.get_width() // blur),
                                              max(1, sh.get_height() // blur)))
    return pygame.transform.smoothscale(small, sh.get_size())


def _icon_background(s: int) -> pygame.Surface:
    """A rounded square of felt with a soft light, the base of every icon size."""
    surf = pygame.Surface((s, s), pygame.SRCALPHA)
    bg = pygame.Surface((s, s), pygame.SRCALPHA)
    base, light = (16, 72, 40), (46, 140, 80)
    for k in range(64, 0, -1):
        t = k / 64
        pygame.draw.circle(bg, (*mix(light, base, t), 255), (s * 0.45, s * 0.4), s * 0.78 * t)
    radius = int(s * 0.2)
    bg.blit(_rounded_mask(s, radius), (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surf.blit(bg, (0, 0))
    ring = pygame.Surface((s, s), pygame.SRCALPHA)
    pygame.draw.rect(ring, (255, 255, 255, 50), ring.get_rect().inflate(-s * 0.03, -s * 0.03),
                     width=max(1, s // 128), border_radius=int(radius * 0.92))
    surf.blit(ring, (0, 0))
    return surf


def render_icon_simple(size: int = 256) -> pygame.Surface:
    """The icon for tiny sizes (16-48 px): one bold card with a big spade."""
    surf = _icon_background(size)
    card = new_surface(size, size)
    p = Pen(card)
    w, h = size * 0.56, size * 0.76
    x0, y0 = (size - w) / 2, (size - h) / 2
    p.rect(x0 + size * 0.02, y0 + size * 0.03, w, h, (0, 0, 0, 90), radius=size * 0.07)
    p.rect(x0, y0, w, h, PAPER, radius=size * 0.07)
    draw_suit(p, "S", size / 2, size / 2, size * 0.46, INK)
    surf.blit(downsample(card, size, size), (0, 0))
    return surf


def render_icon(cards: dict[str, pygame.Surface], size: int = 512) -> pygame.Surface:
    s = size
    surf = _icon_background(s)
    ch = s * 0.66
    for code, ang, dx, dy in (("KH", 14, 0.09, 0.02), ("AS", -10, -0.08, 0.0)):
        img = cards[code]
        scale = ch / img.get_height()
        turned = pygame.transform.rotozoom(img, ang, scale)
        sh = _shadow(turned, max(2, s // 64))
        cx, cy = s / 2 + dx * s, s / 2 + dy * s
        surf.blit(sh, sh.get_rect(center=(cx + s * 0.012, cy + s * 0.02)))
        surf.blit(turned, turned.get_rect(center=(cx, cy)))
    # a red chip in the corner
    chip = pygame.transform.smoothscale(render_chip(CHIPS["red"]), (int(s * 0.26), int(s * 0.26)))
    surf.blit(chip, chip.get_rect(center=(s * 0.76, s * 0.77)))
    return surf


def ico_bytes(images: list[pygame.Surface], pngs: list[bytes]) -> bytes:
    """A Windows .ico container with PNG-compressed entries."""
    header = struct.pack("<HHH", 0, 1, len(images))
    entries = b""
    offset = 6 + 16 * len(images)
    for img, data in zip(images, pngs, strict=False):
        w, h = img.get_size()
        entries += struct.pack("<BBBBHHII", w % 256, h % 256, 0, 0, 1, 32, len(data), offset)
        offset += len(data)
    return header + entries + b"".join(pngs)


def icns_bytes(entries: list[tuple[bytes, bytes]]) -> bytes:
    """A macOS .icns container; ``entries`` are (four-char type, PNG data)."""
    body = b"".join(t + struct.pack(">I", len(d) + 8) + d for t, d in entries)
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def png_bytes(surf: pygame.Surface, tmp: Path) -> bytes:
    pygame.image.save(surf, str(tmp))
    data = tmp.read_bytes()
    tmp.unlink()
    return data


def scaled(surf: pygame.Surface, size: int) -> pygame.Surface:
    """Downscale in halving steps for clean small icons."""
    img = surf
    while img.get_width() // 2 >= size:
        img = pygame.transform.smoothscale(img, (img.get_width() // 2, img.get_height() // 2))
    if img.get_width() != size:
        img = pygame.transform.smoothscale(img, (size, size))
    return img


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------
def french_codes() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


SUBSET = {
    "classic": ["AS", "TH", "7C", "KD", "QS", "JH"],
    "four": ["AD", "9C"],
    "cuckoo": ["Fool", "Cuckoo", "10"],
    "backs": [0],
    "felts": ["green"],
    "misc": ["chip_red", "dealer_button"],
    "icon": True,
}


def save(surf: pygame.Surface, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surf, str(path))


def generate(out: Path, subset: bool = False, verbose: bool = False) -> list[Path]:
    pygame.font.init()
    written: list[Path] = []

    def put(surf: pygame.Surface, *parts: str) -> None:
        path = out.joinpath(*parts)
        save(surf, path)
        written.append(path)
        if verbose:
            print(path)

    keep: dict[str, pygame.Surface] = {}
    for set_name, colours in COLOUR_SETS.items():
        codes = SUBSET[set_name] if subset else french_codes()
        for code in codes:
            img = render_french(code[0], code[1], colours)
            put(img, "cards", set_name, f"{code}.png")
            if set_name == "classic" and code in ("AS", "KH"):
                keep[code] = img
        # German decks: the Jack and Queen say B (Bube) and D (Dame)
        for code in codes:
            if code[0] in INDEX_DE:
                put(render_french(code[0], code[1], colours, INDEX_DE[code[0]]),
                    "cards", f"{set_name}_de", f"{code}.png")
    for value in (SUBSET["cuckoo"] if subset else dict.fromkeys(CUCKOO_VALUES)):
        put(render_cuckoo(value), "cards", "cuckoo", f"{value}.png")
    for i, make in enumerate(BACKS):
        if subset and i not in SUBSET["backs"]:
            continue
        put(make(), "backs", f"back_{i}.png")
    field = felt_field()
    for name, base in FELTS.items():
        if subset and name not in SUBSET["felts"]:
            continue
        put(render_felt(base, field), "table", f"felt_{name}.png")
    for name, colour in CHIPS.items():
        if subset and f"chip_{name}" not in SUBSET["misc"]:
            continue
        put(render_chip(colour), "chips", f"chip_{name}.png")
    put(render_dealer_button(), "dealer_button.png")
    if not subset:
        put(render_pot(), "pot.png")
        put(render_block_badge(), "block_badge.png")
    # icon
    for code in ("AS", "KH"):
        if code not in keep:
            keep[code] = render_french(code[0], code[1], COLOUR_SETS["classic"])
    icon = render_icon(keep, 512)
    put(icon, "icon", "icon_512.png")
    icon256 = scaled(icon, 256)
    put(icon256, "icon", "icon_256.png")
    tmp = out / "icon" / ".tmp.png"
    ico_sizes = [16, 24, 32, 48, 64, 128, 256]
    simple = render_icon_simple(256)
    ico_imgs = [scaled(simple if n <= 32 else icon, n) for n in ico_sizes]
    ico_png = [png_bytes(img, tmp) for img in ico_imgs]
    ico_path = out / "icon" / "stammtisch.ico"
    ico_path.write_bytes(ico_bytes(ico_imgs, ico_png))
    written.append(ico_path)
    by_size = dict(zip(ico_sizes, ico_png, strict=False))
    by_size[512] = png_bytes(icon, tmp)
    icns = [(b"icp4", by_size[16]), (b"icp5", by_size[32]), (b"icp6", by_size[64]),
            (b"ic07", by_size[128]), (b"ic08", by_size[256]), (b"ic09", by_size[512]),
            (b"ic11", by_size[32]), (b"ic12", by_size[64]), (b"ic13", by_size[256]),
            (b"ic14", by_size[512])]
    icns_path = out / "icon" / "stammtisch.icns"
    icns_path.write_bytes(icns_bytes(icns))
    written.append(icns_path)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out_dir", nargs="?", default=str(ROOT / "sprites"),
                    help="output folder (default: sprites/ at the repository root)")
    ap.add_argument("--subset", action="store_true",
                    help="generate only a small fixed selection (used by the tests)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    written = generate(Path(args.out_dir), subset=args.subset, verbose=args.verbose)
    total = sum(p.stat().st_size for p in written)
    print(f"{len(written)} files, {total / 1e6:.2f} MB in {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
