"""A seat's speech bubble ("Keep", "Drops out"): where it goes beside the seat's plate,
and how it looks. The painter draws it; this holds its geometry and its picture."""

from __future__ import annotations

import pygame

from game.view import text

PAPER = (252, 248, 236)
INK = (35, 30, 25)
EDGE = (60, 50, 40)


def place(plate: pygame.Rect, middle_x: float, size: tuple[int, int], window: pygame.Rect,
          tip: pygame.Rect | None, u: float) -> tuple[pygame.Rect, str | None]:
    """Where a bubble of ``size`` for the seat at ``plate`` goes, and the side its tail
    points from (``left``: towards a plate on its left, ``right``, None: no tail).

    Beside the plate, on the side facing the middle of the table (``middle_x``). A
    first game's tip (``tip``, None when none shows) is drawn over the table, so a
    bubble it would cover (the person would miss what the seat said) goes to the
    plate's other side, else below or above the plate, else just below or above the
    tip: the first place that leaves the tip and the plate clear (pushed into the
    window, the other side of a plate at the window's edge may not)."""
    gap = int(10 * u)
    box = pygame.Rect((0, 0), size)
    facing = "left" if plate.centerx <= middle_x + 1 else "right"

    def beside(side: str) -> tuple[pygame.Rect, str | None]:
        r = box.copy()
        r.centery = plate.centery
        if side == "left":          # the plate on the bubble's left
            r.left = plate.right + gap
        else:
            r.right = plate.left - gap
        return r, side

    def at(**where: tuple[int, int]) -> tuple[pygame.Rect, str | None]:
        return box.copy().move_to(**where), None

    places = [beside(facing)]
    if tip is not None and tip.width > 0:
        x = min(max(plate.centerx, tip.left + box.width // 2), tip.right - box.width // 2)
        places += [beside("right" if facing == "left" else "left"),
                   at(midtop=(plate.centerx, plate.bottom + gap // 2)),
                   at(midbottom=(plate.centerx, plate.top - gap // 2)),
                   at(midtop=(x, tip.bottom + gap // 2)),
                   at(midbottom=(x, tip.top - gap // 2))]
    for r, _ in places:
        r.clamp_ip(window)
    for r, tail in places:
        if tip is None or not (r.colliderect(tip) or r.colliderect(plate)):
            return r, tail
    return places[0]


def picture(msg: str, size: int, box: pygame.Rect, k: int, tail: str | None,
            u: float) -> pygame.Surface:
    """The bubble for ``box``, ``k`` pixels wider on each side for its tail."""
    layer = pygame.Surface((box.width + 2 * k, box.height), pygame.SRCALPHA)
    inner = pygame.Rect(k, 0, box.width, box.height)
    pygame.draw.rect(layer, PAPER, inner, border_radius=max(4, int(10 * u)))
    pygame.draw.rect(layer, EDGE, inner, max(1, int(2 * u)), border_radius=max(4, int(10 * u)))
    my = inner.centery
    if tail == "left":
        pygame.draw.polygon(layer, PAPER, [(k + 2, my - k), (k + 2, my + k), (0, my)])
    elif tail == "right":
        pygame.draw.polygon(layer, PAPER, [(inner.right - 2, my - k), (inner.right - 2, my + k),
                                           (inner.right + k, my)])
    fs = text.fit(msg, size, box.width - int(16 * u), True, 10)
    img = text.render(text.ellipsize(msg, fs, box.width - int(16 * u), True), fs, INK, True)
    layer.blit(img, img.get_rect(center=inner.center))
    return layer
