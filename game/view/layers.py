"""Drawn once, blitted every frame: translucent panels, shades, card shadows and
other chrome, cached by everything that decides their pixels.

Drawing a rounded translucent rectangle into a fresh surface costs more than blitting
it; at 3840×2160 a panel or a bar remade every frame alone used a few milliseconds.
Painters ask here instead and get the same surface back while the window size and
the look stay the same.

The cache is bounded by entries and by the bytes of its pixels (least recently used
first out; :mod:`game.view.picture_cache`).
Some surfaces are made for one moment of one game -- each Rams round's reckoning
(620×258 px at 1280×720, 0.6 MB) and each round's banner -- and a bound by count
alone (400) let a demo left running keep hundreds of megabytes of them. The bytes
are bounded by :data:`SCREENS` windows' worth (at least :data:`FLOOR`): room for
what one frame draws at any size (a shade over the whole window is one screen),
not for every round of the evening. A demo's frames make about a picture a minute
more with two windows' worth than with six, and twice as many with one
(docs/benchmarks.md#in-a-big-window); six held 190 MB at 3840×2160.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pygame

from game.view.picture_cache import PictureCache

#: the pixels kept, in windows' worth of 32-bit pixels, and at least FLOOR bytes
SCREENS = 2
FLOOR = 24 * 2**20
_cache = PictureCache(entries=400, screens=SCREENS, floor=FLOOR)


def budget() -> int:
    """The bytes of pixels the cache may hold in the window of the moment."""
    return _cache.budget()


def held() -> int:
    """The bytes of pixels the cache holds now."""
    return _cache.held()


def cached(key: Hashable, make: Callable[[], pygame.Surface]) -> pygame.Surface:
    """The surface for ``key``, made by ``make()`` the first time."""
    surf = _cache.get(key)
    if surf is None:
        surf = make()
        _cache.put(key, surf)
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
