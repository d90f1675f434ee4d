"""F11 switches full screen once per press, however long the key is held.

Changing the window's mode takes its focus away and gives it back; SDL answers the loss
with a KEYUP of every key held and the return with a KEYDOWN of every key still held.
Toggled on F11's KEYDOWN, a press held a moment longer than the change switched back
and forth (under an X server with synthetic keys, as ``xdotool key --window`` sends
them, without end: the window stayed black)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402

from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402


def _f11(kind: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=pygame.K_F11, mod=0, unicode="", scancode=0)


def _counting(app) -> list[bool]:
    """Records every change of mode (the full screen flag after it)."""
    toggles: list[bool] = []
    real = app.toggle_fullscreen

    def toggle() -> None:
        real()
        toggles.append(app.fullscreen)

    app.toggle_fullscreen = toggle
    return toggles


def _hold_f11(app, toggles: list[bool], replays: int = 3) -> None:
    """A person presses F11 and holds it while the window changes mode: after each
    change SDL sends what it sends for a lost and regained focus; then the key is let
    go."""
    seen = len(toggles)
    app.handle(_f11(pygame.KEYDOWN))
    for _ in range(replays):
        if len(toggles) == seen:      # no change of mode: no focus lost, nothing replayed
            break
        seen = len(toggles)
        app.handle(_f11(pygame.KEYUP))
        app.handle(pygame.event.Event(pygame.WINDOWFOCUSLOST))
        app.handle(pygame.event.Event(pygame.WINDOWFOCUSGAINED))
        app.handle(_f11(pygame.KEYDOWN))
    app.handle(_f11(pygame.KEYUP))


def test_f11_held_through_the_change_of_mode_switches_once(home):
    app = T.make_app((800, 450), "en")
    app.push(MenuScene(app))
    toggles = _counting(app)
    _hold_f11(app, toggles)
    assert toggles == [True]
    assert app.fullscreen
    _hold_f11(app, toggles)
    assert toggles == [True, False]
    assert not app.fullscreen
    assert app.screen.get_size() == (800, 450)


def test_a_tap_of_f11_switches_and_a_lone_release_does_not(home):
    app = T.make_app((800, 450), "de")
    app.push(MenuScene(app))
    toggles = _counting(app)
    app.handle(_f11(pygame.KEYDOWN))
    app.handle(_f11(pygame.KEYUP))
    assert toggles == [True]
    # a KEYUP without its KEYDOWN (the key went down while another window had the
    # focus) changes nothing
    app.handle(_f11(pygame.KEYUP))
    assert toggles == [True]
    T.key(app, pygame.K_F11)
    assert toggles == [True, False]
