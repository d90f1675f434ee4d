"""The smallest window is one where every screen fits, and the window keeps to it:
every screen (menu, setup, settings, rules, chart, statistics, replays, unfinished
games, both tables at their decisions without and with the hint, a held reveal, the last
trick, a tip, the pause menu, the privacy screen, the end, the review and its jump to a
decision on the table, the phones' codes and the setup's row for them, the hidden and
the shown cards of the person at a phone table's screen, a game not saved
automatically, a message) is drawn at that size in
German and English, and nothing is cut off by the window or cut short to fit, nothing
lies on something else, and every button's label fits. ``tools/render_screens.py
--fit`` runs the same check at any size and saves the pictures."""

from __future__ import annotations

import warnings

import pygame
import pytest

from game import winsize
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.view import text, widgets
from tests.screen_check import problems as find_problems
from tests.screen_check import recording
from tests.screens_tour import tour


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_screen_fits_the_smallest_window(home, lang):
    seen, found = [], []
    for name, app in tour(winsize.MIN_SIZE, lang):
        with recording(app) as frame:
            app.draw()
        assert app.screen.get_size() == winsize.MIN_SIZE, name
        assert frame.texts, name                 # the screen drew something
        seen.append(name)
        found += find_problems(frame, name)
    assert len(seen) >= 49, seen
    assert not found, "\n".join(found)


def test_the_check_finds_what_is_cut_off_or_covered():
    """The check is not blind: text past the window, text on text, a button on a
    button and a label too long for its button are all named."""
    app = T.make_app(winsize.MIN_SIZE, "en")
    app.push(MenuScene(app))
    w, h = winsize.MIN_SIZE
    with recording(app) as frame:
        surf = app.screen
        text.blit(surf, "cut off at the right", 20, (w - 30, 100))
        text.blit(surf, "one line", 20, (100, 200))
        text.blit(surf, "another line", 20, (110, 203))
        a = widgets.Button("A", lambda: None, rect=pygame.Rect(300, 300, 120, 40))
        b = widgets.Button("B", lambda: None, rect=pygame.Rect(380, 310, 120, 40))
        long = widgets.Button("a label far too long for so small a button", lambda: None,
                              rect=pygame.Rect(100, 380, 90, 40))
        for btn in (a, b, long):
            btn.draw(surf, 1.0, False)
        whole = "a line shortened with an ellipsis to fit its place"
        text.blit(surf, text.ellipsize(whole, 20, 120), 20, (100, 420))
    found = "\n".join(find_problems(frame, "test"))
    assert "text cut off by the window: 'cut off at the right'" in found
    assert "text on text: 'one line'" in found
    assert "buttons on each other: 'A'" in found
    assert "button label does not fit: 'a label far too long" in found
    assert "text cut short: 'a line shortened with an ellipsis" in found


def test_the_window_keeps_to_the_smallest_size():
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    for w, h in ((320, 240), (799, 600), (1280, 449)):
        app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
        assert app.size == (max(w, winsize.MIN_SIZE[0]), max(h, winsize.MIN_SIZE[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        window = pygame.Window.from_display_module()
    assert tuple(window.minimum_size) == winsize.MIN_SIZE    # the system's own limit
    small = T.make_app((320, 240), "en")                      # --size below: raised
    assert small.size == winsize.MIN_SIZE
