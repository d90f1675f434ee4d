"""The felt background (sprite tile or procedural) with a vignette, cached per size."""

from __future__ import annotations

import random

import pygame

from game.view import cardart

FELT = {"green": (28, 96, 58), "blue": (26, 70, 110), "red": (118, 34, 40)}

_tiles: dict[str, pygame.Surface] = {}
_cache: dict[tuple, pygame.Surface] = {}


def _tile(colour: str) -> pygame.Surface:
    tile = _tiles.get(colour)
    if tile is None:
        tile = cardart.felt_tile(colour)
        if tile is None:
            base = FELT.get(colour, FELT["green"])
            rng = random.Random(7)
            small = pygame.Surface((64, 64))
            for y in range(64):
                for x in range(64):
                    d = rng.randint(-7, 7)
                    small.set_at((x, y), tuple(max(0, min(255, c + d)) for c in base))
            tile = pygame.transform.smoothscale(small, (256, 256))
        _tiles[colour] = tile
    return tile


def _vignette(size: tuple[int, int]) -> pygame.Surface:
    w, h = 48, 27
    v = pygame.Surface((w, h), pygame.SRCALPHA)
    for y in range(h):
        for x in range(w):
            dx = (x - w / 2) / (w / 2)
            dy = (y - h / 2) / (h / 2)
            d = min(1.0, (dx * dx + dy * dy) ** 0.5 / 1.25)
            v.set_at((x, y), (0, 0, 0, int(170 * d ** 2.2)))
    return pygame.transform.smoothscale(v, size)


def felt(size: tuple[int, int], colour: str = "green") -> pygame.Surface:
    key = (size, colour)
    surf = _cache.get(key)
    if surf is None:
        if len(_cache) > 6:
            _cache.clear()
        surf = pygame.Surface(size).convert() if pygame.display.get_surface() else \
            pygame.Surface(size)
        tile = _tile(colour)
        tw, th = tile.get_size()
        for y in range(0, size[1], th):
            for x in range(0, size[0], tw):
                surf.blit(tile, (x, y))
        surf.blit(_vignette(size), (0, 0))
        _cache[key] = surf
    return surf


def clear() -> None:
    _cache.clear()
    _tiles.clear()
