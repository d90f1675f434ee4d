"""Text with the bundled default font, cached by (text, size, colour, bold)."""

from __future__ import annotations

from collections import OrderedDict

import pygame

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_cache: OrderedDict[tuple, pygame.Surface] = OrderedDict()
_CACHE_MAX = 1500


def font(size: int, bold: bool = False) -> pygame.font.Font:
    size = max(8, int(size))
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        f = pygame.font.Font(None, size)
        f.bold = bold
        _fonts[key] = f
    return f


def render(text: str, size: int, colour=(255, 255, 255), bold: bool = False) -> pygame.Surface:
    size = max(8, int(size))
    key = (text, size, tuple(colour), bold)
    surf = _cache.get(key)
    if surf is not None:
        _cache.move_to_end(key)
        return surf
    surf = font(size, bold).render(text, True, colour)
    _cache[key] = surf
    if len(_cache) > _CACHE_MAX:
        _cache.popitem(last=False)
    return surf


def size_of(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    return font(size, bold).size(text)


def fit(text: str, size: int, max_w: int, bold: bool = False, min_size: int = 10) -> int:
    """The largest size <= ``size`` at which ``text`` fits into ``max_w`` pixels."""
    s = int(size)
    while s > min_size and font(s, bold).size(text)[0] > max_w:
        s -= 1
    return s


def ellipsize(text: str, size: int, max_w: int, bold: bool = False) -> str:
    f = font(size, bold)
    if f.size(text)[0] <= max_w:
        return text
    while text and f.size(text + "…")[0] > max_w:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, max_w: int, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``max_w`` (words longer are cut)."""
    f = font(size, bold)
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        line = ""
        for w in words:
            cand = w if not line else line + " " + w
            if f.size(cand)[0] <= max_w:
                line = cand
                continue
            if line:
                lines.append(line)
            while f.size(w)[0] > max_w and len(w) > 1:
                k = len(w)
                while k > 1 and f.size(w[:k])[0] > max_w:
                    k -= 1
                lines.append(w[:k])
                w = w[k:]
            line = w
        lines.append(line)
    return lines


def blit(surf: pygame.Surface, text: str, size: int, pos: tuple[float, float],
         colour=(255, 255, 255), anchor: str = "topleft", bold: bool = False,
         shadow: bool = False) -> pygame.Rect:
    img = render(text, size, colour, bold)
    rect = img.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    if shadow:
        sh = render(text, size, (0, 0, 0), bold)
        off = max(1, int(size) // 18)
        surf.blit(sh, rect.move(off, off))
    surf.blit(img, rect)
    return rect


def clear_cache() -> None:
    """Forget fonts and rendered text (needed after ``pygame.quit()``)."""
    _cache.clear()
    _fonts.clear()
