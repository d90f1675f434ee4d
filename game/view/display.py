"""Opening SDL's video: a real screen, or a clear refusal.

Without a screen (on Linux: neither ``DISPLAY`` nor ``WAYLAND_DISPLAY`` set, as in a
plain SSH session or a service) SDL does not fail: it falls back to its off-screen
driver, and a game started there would run invisibly until killed.
:func:`open_display` refuses that with :class:`NoScreen`, whose message is one
sentence for the player; the window commands print it and exit with status
:data:`EXIT_NO_SCREEN` at once.

A driver chosen explicitly with ``SDL_VIDEODRIVER`` is the user's choice and is kept,
even the off-screen ones: the tests and tools render without a screen on purpose
(``SDL_VIDEODRIVER=dummy``). Only a fallback nobody asked for is refused.
"""

from __future__ import annotations

import os
import sys

import pygame

#: Exit status of a window command that found no screen (as for a bad command line).
EXIT_NO_SCREEN = 2
#: SDL's drivers that draw into memory only: no window anybody can see.
OFF_SCREEN = ("offscreen", "dummy")


class NoScreen(RuntimeError):
    """No window can be shown; the message says why and what to do, in one line."""


def chosen_driver() -> str:
    """The video driver the user named in ``SDL_VIDEODRIVER`` (``""``: none)."""
    return os.environ.get("SDL_VIDEODRIVER", "").strip()


def _no_display_named() -> bool:
    """On Linux and the BSDs: neither an X11 nor a Wayland display is named, so SDL
    has nothing to open a window on (macOS and Windows always have their own)."""
    plat = sys.platform
    if not (plat.startswith("linux") or "bsd" in plat):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _hint() -> str:
    if _no_display_named():
        return ("neither DISPLAY nor WAYLAND_DISPLAY is set; start it from a desktop "
                "session")
    named = [f"{k}={os.environ[k]}" for k in ("WAYLAND_DISPLAY", "DISPLAY")
             if os.environ.get(k)]
    if named:
        return f"{' and '.join(named)} could not be opened"
    return "start it from a desktop session"


_WITHOUT_WINDOW = ("Commands that need no window still work: replay FILE --json, review, "
                   "advise, tournament, policy, host.")


def open_display() -> str:
    """Initialise SDL's video and return the driver's name; :class:`NoScreen` when it
    cannot show a window (SDL fails, or it fell back to an off-screen driver that was
    not asked for)."""
    explicit = chosen_driver()
    if not explicit and _no_display_named():
        # refused before SDL tries: its Wayland and X11 drivers would only print their
        # own errors on the way to the off-screen fallback
        raise NoScreen(f"no screen to open the window on: {_hint()}. {_WITHOUT_WINDOW}")
    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
    except pygame.error as exc:
        why = " ".join(str(exc).split()) or "SDL could not start its video"
        where = f" with SDL_VIDEODRIVER={explicit}" if explicit else f" ({_hint()})"
        raise NoScreen(f"no screen to open the window on: {why}{where}.") from None
    if not explicit and driver.lower() in OFF_SCREEN:
        pygame.display.quit()
        raise NoScreen(f"no screen to open the window on: SDL found only its "
                       f"{driver} driver ({_hint()}). {_WITHOUT_WINDOW}")
    return driver


def refuse(exc: NoScreen) -> int:
    """Say why there is no window (standard error and the log) and return the exit
    status for it."""
    import logging

    logging.getLogger("stammtisch").info("%s", exc)   # the log, if there is one
    err = sys.stderr
    if err is not None:
        try:
            print(f"stammtisch: {exc}", file=err)
            err.flush()
        except (OSError, ValueError):
            pass
    return EXIT_NO_SCREEN


__all__ = ["EXIT_NO_SCREEN", "NoScreen", "chosen_driver", "open_display", "refuse"]
