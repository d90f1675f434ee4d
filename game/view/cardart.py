"""Card faces, backs, felt and chips: sprites from ``sprites/`` when present, else drawn
with shapes. Everything is scaled once per size and cached.

The default font has no suit glyphs, so suits are drawn as polygons and circles.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pygame

from game.assets import sprite_path
from game.cards import CUCKOO_VALUES
from game.view import text

RED = (200, 30, 40)
BLACK = (25, 25, 30)
FOUR = {"S": (25, 25, 30), "H": (200, 30, 40), "D": (20, 80, 200), "C": (20, 130, 50)}

CUCKOO_COLOURS = {
    "Fool": (170, 60, 160), "Lion": (200, 140, 30), "Mask": (90, 90, 170),
    "Bucket": (90, 130, 150), "Zero": (120, 120, 120), "Inn": (150, 90, 40),
    "Cat": (60, 60, 60), "Horse": (140, 80, 50), "Hussar": (30, 90, 160),
    "Cuckoo": (40, 140, 70),
}

INDEX_DE = {"A": "A", "T": "10", "J": "B", "Q": "D", "K": "K"}
INDEX_EN = {"A": "A", "T": "10", "J": "J", "Q": "Q", "K": "K"}

PIPS = {
    2: [(.5, .2), (.5, .8)],
    3: [(.5, .2), (.5, .5), (.5, .8)],
    4: [(.3, .2), (.7, .2), (.3, .8), (.7, .8)],
    5: [(.3, .2), (.7, .2), (.5, .5), (.3, .8), (.7, .8)],
    6: [(.3, .2), (.7, .2), (.3, .5), (.7, .5), (.3, .8), (.7, .8)],
    7: [(.3, .2), (.7, .2), (.5, .35), (.3, .5), (.7, .5), (.3, .8), (.7, .8)],
    8: [(.3, .2), (.7, .2), (.5, .35), (.3, .5), (.7, .5), (.5, .65), (.3, .8), (.7, .8)],
    9: [(.3, .2), (.7, .2), (.3, .4), (.7, .4), (.5, .5), (.3, .6), (.7, .6), (.3, .8),
        (.7, .8)],
    10: [(.3, .2), (.7, .2), (.5, .3), (.3, .4), (.7, .4), (.3, .6), (.7, .6), (.5, .7),
         (.3, .8), (.7, .8)],
}


def _asset(*parts: str) -> Path | None:
    p = Path(sprite_path(*parts))
    return p if p.is_file() else None


def _load(path: Path | None) -> pygame.Surface | None:
    if path is None:
        return None
    try:
        img = pygame.image.load(str(path))
        return img.convert_alpha() if pygame.display.get_surface() else img
    except (pygame.error, OSError, FileNotFoundError):
        return None


# ----------------------------------------------------------------- suit shapes

def draw_suit(surf: pygame.Surface, suit: str, cx: float, cy: float, s: float,
              colour, flip: bool = False) -> None:
    """A suit symbol ``s`` pixels tall centred on (cx, cy); ``flip`` turns it over."""
    k = -1 if flip else 1

    def P(dx: float, dy: float) -> tuple[float, float]:
        return (cx + dx * s, cy + k * dy * s)

    def circ(dx: float, dy: float, r: float) -> None:
        x, y = P(dx, dy)
        pygame.draw.circle(surf, colour, (round(x), round(y)), max(1, round(r * s)))

    if suit == "H":
        circ(-0.24, -0.16, 0.27)
        circ(0.24, -0.16, 0.27)
        pygame.draw.polygon(surf, colour, [P(-0.5, -0.08), P(0.5, -0.08), P(0, 0.48)])
    elif suit == "D":
        pygame.draw.polygon(surf, colour, [P(0, -0.5), P(0.38, 0), P(0, 0.5), P(-0.38, 0)])
    elif suit == "S":
        circ(-0.24, 0.1, 0.26)
        circ(0.24, 0.1, 0.26)
        pygame.draw.polygon(surf, colour, [P(-0.49, 0.04), P(0.49, 0.04), P(0, -0.5)])
        pygame.draw.polygon(surf, colour, [P(0, 0.1), P(-0.17, 0.5), P(0.17, 0.5)])
    elif suit == "C":
        circ(0, -0.24, 0.22)
        circ(-0.25, 0.06, 0.22)
        circ(0.25, 0.06, 0.22)
        circ(0, 0.0, 0.12)
        pygame.draw.polygon(surf, colour, [P(0, 0.0), P(-0.16, 0.5), P(0.16, 0.5)])


def suit_colour(suit: str, four_colour: bool):
    if four_colour:
        return FOUR[suit]
    return RED if suit in "HD" else BLACK


# ----------------------------------------------------------------- procedural cards

def _rounded(surf: pygame.Surface, rect: pygame.Rect, colour, radius: int, width: int = 0):
    pygame.draw.rect(surf, colour, rect, width, border_radius=radius)


def _blank(w: int, h: int) -> tuple[pygame.Surface, int]:
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    r = max(2, w // 9)
    _rounded(surf, surf.get_rect(), (250, 248, 240), r)
    _rounded(surf, surf.get_rect(), (120, 120, 120), r, max(1, w // 60))
    return surf, r


def draw_face(code: str, w: int, h: int, four_colour: bool = False,
              lang: str = "en") -> pygame.Surface:
    """A card face drawn with shapes, supersampled for smooth edges."""
    ss = 3 if w < 200 else 2
    W, H = w * ss, h * ss
    surf, _ = _blank(W, H)
    if code in CUCKOO_VALUES:
        _cuckoo_face(surf, code, lang)
    else:
        _french_face(surf, code, four_colour, lang)
    return pygame.transform.smoothscale(surf, (w, h))


def _french_face(surf: pygame.Surface, code: str, four_colour: bool, lang: str) -> None:
    W, H = surf.get_size()
    rank, suit = code[0], code[1]
    col = suit_colour(suit, four_colour)
    index = (INDEX_DE if lang == "de" else INDEX_EN).get(rank, rank)
    isz = int(H * 0.2)
    for flip in (False, True):
        corner = pygame.Surface((int(W * 0.3), int(H * 0.34)), pygame.SRCALPHA)
        cw = corner.get_width()
        img = text.font(isz, True).render(index, True, col)
        if img.get_width() > cw:
            img = pygame.transform.smoothscale(
                img, (cw, int(img.get_height() * cw / img.get_width())))
        corner.blit(img, img.get_rect(midtop=(cw // 2, int(H * 0.025))))
        draw_suit(corner, suit, cw / 2, H * 0.025 + img.get_height() + H * 0.06, H * 0.1, col)
        if flip:
            corner = pygame.transform.rotate(corner, 180)
            surf.blit(corner, corner.get_rect(bottomright=(W - int(W * 0.02), H - int(H * 0.01))))
        else:
            surf.blit(corner, (int(W * 0.02), int(H * 0.01)))
    if rank == "A":
        draw_suit(surf, suit, W / 2, H / 2, H * 0.36, col)
    elif rank in "JQK":
        frame = pygame.Rect(0, 0, int(W * 0.5), int(H * 0.6))
        frame.center = (W // 2, H // 2)
        _rounded(surf, frame, (245, 225, 170), W // 20)
        _rounded(surf, frame, col, W // 20, max(2, W // 40))
        letter = (INDEX_DE if lang == "de" else INDEX_EN)[rank]
        img = text.font(int(H * 0.3), True).render(letter, True, col)
        surf.blit(img, img.get_rect(center=(W // 2, int(H * 0.53))))
        if rank == "K":  # a crown
            cx, top = W / 2, frame.top + H * 0.05
            cw = W * 0.3
            pts = [(cx - cw / 2, top + H * 0.09), (cx - cw / 2, top + H * 0.01),
                   (cx - cw / 4, top + H * 0.05), (cx, top - H * 0.005),
                   (cx + cw / 4, top + H * 0.05), (cx + cw / 2, top + H * 0.01),
                   (cx + cw / 2, top + H * 0.09)]
            pygame.draw.polygon(surf, (210, 160, 30), pts)
        else:
            draw_suit(surf, suit, W / 2, frame.top + H * 0.07, H * 0.08, col)
        draw_suit(surf, suit, W / 2, frame.bottom - H * 0.07, H * 0.08, col, flip=True)
    else:
        n = 10 if rank == "T" else int(rank)
        area = pygame.Rect(int(W * 0.2), int(H * 0.1), int(W * 0.6), int(H * 0.8))
        ps = H * (0.15 if n <= 6 else 0.13)
        for fx, fy in PIPS[n]:
            draw_suit(surf, suit, area.left + fx * area.width, area.top + fy * area.height,
                      ps, col, flip=fy > 0.55)


def _cuckoo_face(surf: pygame.Surface, code: str, lang: str) -> None:
    from game.cards import CUCKOO_NAMES_DE

    W, H = surf.get_size()
    strength = CUCKOO_VALUES.index(code) + 1
    col = CUCKOO_COLOURS.get(code, (150, 60, 40) if code.isdigit() else (90, 90, 90))
    if code.isdigit():
        col = (170, 50, 40)
    name = CUCKOO_NAMES_DE.get(code, code) if lang == "de" else code
    medal = pygame.Rect(0, 0, int(W * 0.7), int(W * 0.7))
    medal.center = (W // 2, int(H * 0.45))
    pygame.draw.ellipse(surf, col, medal)
    pygame.draw.ellipse(surf, (250, 240, 210), medal.inflate(-W // 10, -W // 10))
    big = code if code.isdigit() else name[:1]
    img = text.font(int(H * 0.3), True).render(big, True, col)
    surf.blit(img, img.get_rect(center=medal.center))
    sz = text.fit(name, int(H * 0.13), int(W * 0.9), True)
    img = text.font(sz, True).render(name, True, (40, 40, 40))
    surf.blit(img, img.get_rect(center=(W // 2, int(H * 0.82))))
    idx = text.font(int(H * 0.12), True).render(str(strength), True, col)
    surf.blit(idx, (int(W * 0.07), int(H * 0.03)))
    surf.blit(pygame.transform.rotate(idx, 180),
              idx.get_rect(bottomright=(W - int(W * 0.07), H - int(H * 0.03))))


BACK_COLOURS = [((150, 25, 35), (190, 60, 60)), ((25, 45, 120), (70, 100, 180)),
                ((25, 95, 55), (70, 150, 90))]


def draw_back(index: int, w: int, h: int) -> pygame.Surface:
    ss = 2
    W, H = w * ss, h * ss
    surf, r = _blank(W, H)
    base, light = BACK_COLOURS[index % len(BACK_COLOURS)]
    inner = surf.get_rect().inflate(-W // 8, -W // 8)
    pat = pygame.Surface(inner.size, pygame.SRCALPHA)
    pat.fill(base)
    step = max(6, W // 7)
    if index % 3 == 0:
        for x in range(-inner.h, inner.w + inner.h, step):
            pygame.draw.line(pat, light, (x, 0), (x + inner.h, inner.h), max(1, W // 50))
            pygame.draw.line(pat, light, (x + inner.h, 0), (x, inner.h), max(1, W // 50))
    elif index % 3 == 1:
        for y in range(step // 2, inner.h, step):
            for x in range(step // 2, inner.w, step):
                pygame.draw.circle(pat, light, (x, y), step // 3, max(1, W // 60))
    else:
        for x in range(0, inner.w, step // 2):
            pygame.draw.line(pat, light, (x, 0), (x, inner.h), max(1, W // 70))
        pygame.draw.circle(pat, (230, 200, 120), (inner.w // 2, inner.h // 2), inner.w // 4)
        pygame.draw.circle(pat, base, (inner.w // 2, inner.h // 2), inner.w // 5)
    mask = pygame.Surface(inner.size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=max(1, r // 2))
    pat.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surf.blit(pat, inner)
    return pygame.transform.smoothscale(surf, (w, h))


# ----------------------------------------------------------------- the cache

class CardArt:
    """Faces and backs at every size asked for, scaled once and kept (the oldest go
    first when many sizes pile up); ``resize`` sets the default size.

    :meth:`prepare` scales a whole deck ahead, in a layout step, so that drawing never
    waits for a card to be scaled in the middle of an animation."""

    MAX_FACES = 900

    def __init__(self) -> None:
        self.size = (0, 0)
        self.faces: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self.backs: dict[tuple[int, int, int], pygame.Surface] = {}
        self.originals: dict[str, pygame.Surface | None] = {}

    def resize(self, w: int, h: int) -> None:
        self.size = (max(4, w), max(6, h))

    def prepare(self, codes: list[str], sizes: list[tuple[int, int]], four_colour: bool,
                lang: str, back: int) -> None:
        """Scale ``codes`` and the ``back`` design at each of ``sizes`` now."""
        for size in sizes:
            if size[0] < 1 or size[1] < 1:
                continue
            self.back(back, size)
            for code in codes:
                self.face(code, four_colour, lang, size)

    def _sprite(self, key: str, *parts: str) -> pygame.Surface | None:
        if key not in self.originals:
            self.originals[key] = _load(_asset(*parts))
        return self.originals[key]

    def face(self, code: str, four_colour: bool = False, lang: str = "en",
             size: tuple[int, int] | None = None) -> pygame.Surface:
        w, h = size or self.size
        key = (code, four_colour, lang, w, h)
        surf = self.faces.get(key)
        if surf is None:
            if code in CUCKOO_VALUES:
                orig = self._sprite("cuckoo/" + code, "cards", "cuckoo", f"{code}.png")
            else:
                style = "four" if four_colour else "classic"
                orig = None
                if lang == "de" and code[0] in "JQ":      # Bube and Dame say B and D
                    orig = self._sprite(style + "_de" + code, "cards", style + "_de",
                                        f"{code}.png")
                if orig is None:
                    orig = self._sprite(style + code, "cards", style, f"{code}.png")
            if orig is not None:
                surf = pygame.transform.smoothscale(orig, (w, h))
            else:
                surf = draw_face(code, w, h, four_colour, lang)
            self.faces[key] = surf
            if len(self.faces) > self.MAX_FACES:
                self.faces.popitem(last=False)
        else:
            self.faces.move_to_end(key)
        return surf

    def back(self, index: int, size: tuple[int, int] | None = None) -> pygame.Surface:
        w, h = size or self.size
        key = (index, w, h)
        surf = self.backs.get(key)
        if surf is None:
            orig = self._sprite(f"back{index}", "backs", f"back_{index}.png")
            surf = (pygame.transform.smoothscale(orig, (w, h)) if orig is not None
                    else draw_back(index, w, h))
            if len(self.backs) > 60:
                self.backs.clear()
            self.backs[key] = surf
        return surf


def felt_tile(colour: str) -> pygame.Surface | None:
    return _load(_asset("table", f"felt_{colour}.png"))


def sprite(*parts: str) -> pygame.Surface | None:
    return _load(_asset(*parts))


_scaled: dict[tuple, pygame.Surface | None] = {}


def scaled_sprite(size: tuple[int, int], *parts: str) -> pygame.Surface | None:
    """A sprite scaled to ``size``, cached; None when the file is missing."""
    key = (size, parts)
    if key not in _scaled:
        if len(_scaled) > 300:
            _scaled.clear()
        img = sprite(*parts)
        _scaled[key] = (pygame.transform.smoothscale(img, (max(1, size[0]), max(1, size[1])))
                        if img is not None else None)
    return _scaled[key]
