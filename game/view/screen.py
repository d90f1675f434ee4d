"""The desktop the window lives on: its usable area (without task bars and docks), so a
window asked for (a saved size, ``--size``) never opens larger than the screen.

SDL knows the usable area (``SDL_GetDisplayUsableBounds``); pygame-ce does not pass
it on, so it is asked through the SDL library pygame has already loaded. Where that
does not work, the desktop size less room for a task bar stands in. Under the dummy
and offscreen drivers (tests, tools) there is no desktop, and nothing is clamped.
"""

from __future__ import annotations

import ctypes
import glob
import os
import sys
import warnings

import pygame

from game import winsize

#: room for the window's own title bar and frame
FRAME = (16, 48)
#: when only the desktop size is known: room for a task bar or a dock
TASKBAR = 56


class _Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int),
                ("h", ctypes.c_int)]


def _sdl_library() -> ctypes.CDLL | None:
    base = os.path.dirname(pygame.__file__)
    patterns = [os.path.join(base, "SDL2.dll"), os.path.join(base, ".dylibs", "libSDL2*.dylib"),
                os.path.join(os.path.dirname(base), "pygame_ce.libs", "libSDL2-2*.so*"),
                os.path.join(base, "libSDL2-2*.so*")]
    for pattern in patterns:
        for path in glob.glob(pattern):
            try:
                return ctypes.CDLL(path)
            except OSError:
                continue
    return None


def _usable_bounds(display: int = 0) -> tuple[int, int] | None:
    try:
        lib = _sdl_library()
        if lib is None:
            return None
        fn = lib.SDL_GetDisplayUsableBounds
        fn.argtypes = [ctypes.c_int, ctypes.POINTER(_Rect)]
        fn.restype = ctypes.c_int
        r = _Rect()
        if fn(display, ctypes.byref(r)) != 0 or r.w <= 0 or r.h <= 0:
            return None
        return r.w, r.h
    except (OSError, AttributeError, ValueError):
        return None


def usable_area() -> tuple[int, int] | None:
    """The usable size of the first display, or None when there is no real desktop."""
    if not pygame.display.get_init() or pygame.display.get_driver() in ("dummy", "offscreen"):
        return None
    area = _usable_bounds()
    if area is not None:
        return area
    try:
        sizes = pygame.display.get_desktop_sizes()
    except pygame.error:
        sizes = []
    if not sizes:
        return None
    w, h = sizes[0]
    return w, h - (TASKBAR if sys.platform != "darwin" else TASKBAR // 2)


def keep_minimum(size: tuple[int, int] = winsize.MIN_SIZE) -> bool:
    """Tell the window system the window's smallest size, so that dragging its edge
    stops there (SDL_SetWindowMinimumSize); False where that is not possible."""
    try:
        with warnings.catch_warnings():      # pygame-ce marks this bridge as old
            warnings.simplefilter("ignore", DeprecationWarning)
            window = pygame.Window.from_display_module()
        window.minimum_size = size
    except (AttributeError, pygame.error, TypeError, ValueError):
        return False
    return True


def fit_window(size: tuple[int, int], area: tuple[int, int] | None,
               least: tuple[int, int] = winsize.MIN_SIZE) -> tuple[int, int]:
    """``size`` made to fit the usable ``area`` together with the window's frame."""
    w, h = int(size[0]), int(size[1])
    if area is not None:
        w = min(w, area[0] - FRAME[0])
        h = min(h, area[1] - FRAME[1])
    return max(least[0], w), max(least[1], h)
