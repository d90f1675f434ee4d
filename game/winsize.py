"""The window's allowed sizes, in one place: the command line (``--size``), the
settings file (the size last used), the window itself (its minimum size) and the
layout tests all read them from here. No pygame, so the command line stays light.

The smallest size is the one at which every screen still fits: every button, every
line of text and every card inside the window and none on another, every button's
label whole (``tests/test_every_screen.py`` draws every screen there, in German and
English). Measured with that check: 800x450 fits; 780x450 does not (an unfinished
game's line of ten names no longer fits its button), nor does 800x400 (the Rams setup's
"Zu Chase the Ace wechseln", the statistics' chart labels). The window itself refuses
to be made smaller (:func:`game.view.screen.keep_minimum`).
"""

from __future__ import annotations

#: the smallest window (width, height) every screen fits into
MIN_SIZE: tuple[int, int] = (800, 450)
#: the largest side the window accepts (SDL's own texture limit on many drivers)
MAX_SIDE = 16384
#: the size the first window opens at
DEFAULT_SIZE: tuple[int, int] = (1280, 720)


def allowed(width: int, height: int) -> bool:
    """Whether a window of ``width`` x ``height`` pixels is allowed."""
    return MIN_SIZE[0] <= width <= MAX_SIDE and MIN_SIZE[1] <= height <= MAX_SIDE


def describe_range() -> str:
    """The allowed sizes in words, for messages: ``from 320x240 to 16384x16384``."""
    return f"from {MIN_SIZE[0]}x{MIN_SIZE[1]} to {MAX_SIDE}x{MAX_SIDE}"


def clamp(width: int, height: int) -> tuple[int, int]:
    """``width`` x ``height`` brought into the allowed range."""
    return (min(MAX_SIDE, max(MIN_SIZE[0], int(width))),
            min(MAX_SIDE, max(MIN_SIZE[1], int(height))))


__all__ = ["DEFAULT_SIZE", "MAX_SIDE", "MIN_SIZE", "allowed", "clamp", "describe_range"]
