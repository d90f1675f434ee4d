"""The smallest window is one where every screen fits, and the window keeps to it:
every screen (menu, setup, settings, rules, chart, statistics, replays, unfinished
games, both tables at their decisions without and with the hint, a held reveal, the last
trick, a tip, the pause menu, the privacy screen, the end, the review and its jump to a
decision on the table, the phones' codes and the setup's row for them, the hidden and
the shown cards of the person at a phone table's screen, a game not saved
automatically, a message) is drawn at that size in
German and English, and nothing is cut off by the window or cut short to fit, nothing
lies on something else, and every button's label fits (the walk through every screen
is ``tests/test_every_screen.py``; this file holds the window's size and the charts). ``tools/render_screens.py --fit`` runs the same
check at any size and saves the pictures."""

from __future__ import annotations

import random
import warnings

import pygame
import pytest

from game import winsize
from game.i18n import t
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.view import text, widgets
from tests.screen_check import problems as find_problems
from tests.screen_check import recording


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


def _chart_series(n: int, rounds: int, start: int, top: int) -> list[list[int]]:
    """Every seat's count after each round: the first seat climbs to ``top``, the
    others lose one now and then and several stay level (their lines run side by side,
    spread apart)."""
    rows = [[start] * n]
    for i in range(1, rounds + 1):
        row = list(rows[-1])
        row[0] = start + (top - start) * i // rounds
        for s in range(1, n):
            if (i + s) % 4 == 0 and row[s] > 0:
                row[s] -= 1
        rows.append(row)
    return rows


def _chart_drawn(chart, surf_size, args, kw) -> tuple[pygame.Surface, list]:
    """The chart drawn twice on black: its lines and dots alone (no text), and the
    texts it writes, each with its box."""
    blit = text.blit
    ink = pygame.Surface(surf_size)
    shown: list[tuple[str, pygame.Rect]] = []

    def spy(surf, s, *a, **k) -> pygame.Rect:
        shown.append((s, blit(surf, s, *a, **k)))
        return shown[-1][1]

    try:
        text.blit = lambda *a, **k: pygame.Rect(0, 0, 0, 0)
        chart(ink, *args, **kw)
        text.blit = spy
        chart(pygame.Surface(surf_size), *args, **kw)
    finally:
        text.blit = blit
    return ink, shown


def _results_chart_calls(monkeypatch, size, lang) -> tuple[object, list]:
    """A game played to its end screen, whose chart (``results.lives_chart``) is
    recorded instead of drawn: the app, and the calls each ``app.draw()`` adds."""
    from game.scenes import results

    app = T.make_app(size, lang)
    app.push(MenuScene(app))
    tb = app.open("table", game_id="chase", seats=T.mixed_seats(5, 1, lang),
                  rules={"lives": 1}, seed=3)
    assert T.play_to_results(app, tb, random.Random(1))
    calls: list = []
    monkeypatch.setattr(results, "lives_chart", lambda *a, **kw: calls.append((a, kw)))
    return app, calls


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [winsize.MIN_SIZE, (1920, 1080)])
def test_the_results_chart_keeps_its_numbers_and_names_off_the_lines(home, monkeypatch,
                                                                      lang, size):
    """The results screen's chart of ten seats over many rounds, a few lives (Chase the
    Ace) and Rams' counters: no number or the axis's name lies on another, on a line or
    a dot, or outside the chart. The round axis's name stood above the plot's top
    right, where the top lines ran through it; the dots of the last rounds lay on the
    round numbers (800x450, ten seats), and 24 round numbers stood touching."""
    from game.view import charts

    app, calls = _results_chart_calls(monkeypatch, size, lang)
    for series in (_chart_series(10, 23, 3, 3), _chart_series(10, 30, 20, 96)):
        app.top.story.lives = series
        calls.clear()
        app.draw()
        (surf, *args), kw = calls[0]
        rect = args[0]
        ink, shown = _chart_drawn(charts.lives_chart, surf.get_size(), args, kw)
        assert t("stats.round_axis") in [s for s, _ in shown]
        background = (0, ink.map_rgb((90, 84, 70)))         # black, the grid
        for s, r in shown:
            assert rect.contains(r), (s, r, rect)
            on = [(x, y) for x in range(r.left, r.right) for y in range(r.top, r.bottom)
                  if ink.get_at_mapped((x, y)) not in background]
            assert not on, (s, r, on[:3])
            assert not any(r.colliderect(r2) for s2, r2 in shown if (s2, r2) != (s, r)), \
                (s, r, shown)


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [winsize.MIN_SIZE, (1920, 1080)])
def test_the_results_chart_always_numbers_the_last_round(home, monkeypatch, lang, size):
    """Games of 1 to 120 rounds on the results screen's chart: the round axis numbers
    the last round, and no round number touches the next. Every fifth or tenth round
    was numbered from 0, so a game of 23 rounds ended its axis at 20."""
    from game.view import charts

    app, calls = _results_chart_calls(monkeypatch, size, lang)
    app.draw()
    (surf, rect, _series, *rest), kw = calls[0]
    blit = text.blit
    numbers: list[tuple[int, pygame.Rect]] = []

    def spy(surf, s, size, pos, colour, anchor="topleft", *a, **k) -> pygame.Rect:
        box = blit(surf, s, size, pos, colour, anchor, *a, **k)
        if anchor == "midtop" and s.isdigit():         # under the plot: a round
            numbers.append((int(s), box))
        return box

    monkeypatch.setattr(charts.text, "blit", spy)
    for rounds in range(1, 121):
        numbers.clear()
        charts.lives_chart(pygame.Surface(surf.get_size()), rect,
                           _chart_series(10, rounds, 5, 5), *rest, **kw)
        shown = sorted(numbers)
        assert shown[-1][0] == rounds, (rounds, shown)
        assert shown[0][0] == 0, (rounds, shown)
        for (a, ra), (b, rb) in zip(shown, shown[1:]):
            assert ra.right < rb.left, (rounds, a, b, ra, rb)
        assert all(rect.contains(r) for _, r in shown), (rounds, shown, rect)
