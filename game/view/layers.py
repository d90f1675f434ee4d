"""Drawn once, blitted every frame: translucent panels, shades, card shadows and
other chrome, cached by everything that decides their pixels.

Drawing a rounded translucent rectangle into a fresh surface costs more than blitting
it; at 3840×2160 a panel or a bar remade every frame alone used a few milliseconds.
Painters ask here instead and get the same surface back while the window size and
the look stay the same. The caches are small and bounded (oldest first out).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

import pygame

_cache: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
_MAX = 400


def cached(key: Hashable, make: Callable[[], pygame.Surface]) -> pygame.Surface:
    """The surface for ``key``, made by ``make()`` the first time."""
    surf = _cache.get(key)
    if surf is None:
        surf = make()
        _cache[key] = surf
        if len(_cache) > _MAX:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return surf


def rounded(size: tuple[int, int], colour: tuple[int, ...], radius: int,
            border: tuple[int, int, int] | None = None, width: int = 0) -> pygame.Surface:
    """A rounded rectangle (``colour`` may carry alpha) with an optional border."""
    def make() -> pygame.Surface:
        s = pygame.Surface((max(1, size[0]), max(1, size[1])), pygame.SRCALPHA)
        pygame.draw.rect(s, colour, s.get_rect(), border_radius=radius)
        if border is not None and width > 0:
            pygame.draw.rect(s, border, s.get_rect(), width, border_radius=radius)
        return s

    return cached(("rounded", size, colour, radius, border, width), make)


def shade(size: tuple[int, int], rgba: tuple[int, int, int, int]) -> pygame.Surface:
    """A plain translucent rectangle (a bar's or a screen's shade)."""
    def make() -> pygame.Surface:
        s = pygame.Surface((max(1, size[0]), max(1, size[1])), pygame.SRCALPHA)
        s.fill(rgba)
        return s

    return cached(("shade", size, rgba), make)


def clear() -> None:
    _cache.clear()
