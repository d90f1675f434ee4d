"""A cache of pictures bounded by entries and by the bytes of their pixels.

The window keeps two such caches: the drawn layers (:mod:`game.view.layers`) and the
set texts (:mod:`game.view.text`). A bound by count alone does not bound memory: a
picture's bytes grow with the window (a text at 3840×2160 holds nine times the
pixels of the same text at 1280×720), and a demo left running for an evening meets
pictures made for one moment (each round's reckoning, each score line) without end.
So each cache keeps at most ``entries`` pictures and at most ``screens`` windows'
worth of 32-bit pixels (never less than ``floor`` bytes), letting the least recently
used go first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator

import pygame


def pixel_bytes(surf: pygame.Surface) -> int:
    """The bytes a surface's pixels take."""
    return surf.get_pitch() * surf.get_height()


class PictureCache:
    """Surfaces by key, least recently used out first once a bound is passed."""

    def __init__(self, entries: int, screens: float, floor: int) -> None:
        self.entries = entries
        self.screens = screens
        self.floor = floor
        self._pictures: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        self._held = 0

    def budget(self) -> int:
        """The bytes of pixels the cache may hold in the window of the moment."""
        screen = pygame.display.get_surface()
        w, h = screen.get_size() if screen is not None else (0, 0)
        return max(self.floor, int(self.screens * w * h * 4))

    def held(self) -> int:
        """The bytes of pixels the cache holds now."""
        return self._held

    def get(self, key: Hashable) -> pygame.Surface | None:
        """The picture for ``key`` (now the most recently used), or None."""
        surf = self._pictures.get(key)
        if surf is not None:
            self._pictures.move_to_end(key)
        return surf

    def put(self, key: Hashable, surf: pygame.Surface) -> None:
        """Keep ``surf`` for ``key``; the oldest pictures go while a bound is passed
        (the newest always stays: it is about to be drawn)."""
        old = self._pictures.pop(key, None)
        if old is not None:
            self._held -= pixel_bytes(old)
        self._pictures[key] = surf
        self._held += pixel_bytes(surf)
        limit = self.budget()
        while len(self._pictures) > 1 and (len(self._pictures) > self.entries
                                           or self._held > limit):
            _, gone = self._pictures.popitem(last=False)
            self._held -= pixel_bytes(gone)

    def clear(self) -> None:
        self._pictures.clear()
        self._held = 0

    def keys(self) -> Iterator[Hashable]:
        return iter(list(self._pictures))

    def pictures(self) -> list[pygame.Surface]:
        return list(self._pictures.values())

    def __len__(self) -> int:
        return len(self._pictures)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._pictures
