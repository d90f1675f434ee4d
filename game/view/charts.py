"""A line chart of lives over the rounds of a game (the end-of-game screen; the
statistics screen draws its lines with :func:`step_line` too).

Lives drop at a round, not between rounds: each line runs flat through a round and
falls straight down where lives were lost, so both screens draw steps."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from game.view import text, widgets


def step_line(series: Sequence[Sequence[int]], seat: int,
              point: Callable[[int, int], tuple[float, float]]) -> list[tuple[float, float]]:
    """The points of one seat's line: ``point(i, lives)`` after round ``i``; a loss
    shows as a vertical drop at its round (a step), never as a slope."""
    pts: list[tuple[float, float]] = []
    for i, row in enumerate(series):
        if i > 0:
            pts.append(point(i, series[i - 1][seat]))
        pts.append(point(i, row[seat]))
    return pts


def value_step(top: int, height: int, font_px: int) -> int:
    """Every how many units the value axis gets a label: 1, 2, 5, 10, … so that labels
    stand at least a line and a half apart (Rams' counters reach 30 and more)."""
    for step in (1, 2, 5, 10, 20, 50, 100):
        if height * step / max(1, top) >= 1.5 * font_px:
            return step
    return 100


def round_step(steps: int, width: float, label_w: int) -> int:
    """Every how many rounds the round axis gets a number: 1, 2, 5, 10, … so that at
    most about a dozen stand there and each has twice its width (23 rounds at 800x450
    put 24 numbers 16 pixels apart, "22" and "23" touching)."""
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if step * 12 >= steps and width * step / max(1, steps) >= 2 * label_w:
            return step
    return 1000


def round_ticks(steps: int, width: float, label_w: Callable[[int], int], gap: int) -> list[int]:
    """The rounds the round axis numbers on a plot ``width`` pixels wide: every
    :func:`round_step` rounds from 0, and always the last round (a game of 23 rounds
    numbered 0, 5, … 20 and never said how long it ran). When the last round's number
    would come nearer than ``gap`` to the regular one before it, that one gives way.
    ``label_w(i)`` is the width of round ``i``'s number."""
    every = round_step(steps, width, label_w(steps))
    ticks = list(range(0, steps + 1, every))
    if ticks[-1] != steps:
        prev = ticks[-1]
        room = width * (steps - prev) / max(1, steps)
        if room < (label_w(prev) + label_w(steps)) / 2 + gap:
            ticks.pop()
        ticks.append(steps)
    return ticks


def lives_chart(surf: pygame.Surface, rect: pygame.Rect, series: Sequence[Sequence[int]],
                colours: Sequence[tuple[int, int, int]], u: float, axis_label: str,
                highlight: Sequence[int] = ()) -> None:
    """``series[i]`` is every seat's lives after round ``i`` (``series[0]``: the start);
    one line per seat in ``colours``; a dot where a seat's count changed (lives lost, or
    Rams' counters shed or added). Seats in
    ``highlight`` are drawn thicker (the winners).

    The lines stray from the plot: seats with equal counts are spread apart, the
    winners' lines are thick and the dots round. The numbers of both axes and the
    round axis's name (under the round numbers) keep clear of all of that: above the
    name the plot was the name's neighbour, and at 800x450 with ten seats the top
    lines ran through it and the dots of the last round through the round numbers."""
    if len(series) < 1 or rect.width < 40 or rect.height < 30:
        return
    n_seats = len(series[0])
    top = max(1, max(max(row) for row in series))
    fs = max(10, int(15 * u))
    line_h = text.size_of("0123456789", fs)[1]
    # how far a line or a dot reaches past the value it stands for
    dot = max(3, int(5 * u))
    spread = max(1.0, 2.0 * u)
    reach = int((n_seats - 1) / 2 * spread + max(dot, max(2, int(4 * u)) / 2)) + 1
    gap = max(2, int(4 * u))
    steps = max(1, len(series) - 1)
    last_w = text.size_of(str(steps), fs)[0]
    left_w = text.size_of(str(top), fs)[0]
    left = rect.left + max(int(34 * u), left_w + int(8 * u) + gap)
    right = rect.right - max(int(12 * u), last_w // 2 + gap, reach + gap)
    top_y = rect.top + max(line_h // 2, reach) + gap
    # under the plot: the reach of the lines, the round numbers, the axis's name
    bottom = rect.bottom - gap - 2 * line_h - gap - reach
    plot = pygame.Rect(left, top_y, max(10, right - left), max(10, bottom - top_y))
    grid = (90, 84, 70)
    for k in range(0, top + 1, value_step(top, plot.height, fs)):
        y = plot.bottom - plot.height * k / top
        pygame.draw.line(surf, grid, (plot.left, int(y)), (plot.right, int(y)), 1)
        text.blit(surf, str(k), fs, (plot.left - int(8 * u), int(y)), widgets.DIM, "midright")
    digit = text.size_of("0", fs)[0]
    for i in round_ticks(steps, plot.width, lambda k: text.size_of(str(k), fs)[0], digit):
        x = plot.left + plot.width * i / steps
        text.blit(surf, str(i), fs, (int(x), plot.bottom + reach), widgets.DIM, "midtop")
    text.blit(surf, axis_label, fs, (plot.centerx, plot.bottom + reach + line_h + gap),
              widgets.DIM, "midtop")

    def point(i: int, lives: int, seat: int) -> tuple[int, int]:
        # seats with equal lives are spread a little so every line stays visible
        off = (seat - (n_seats - 1) / 2) * spread
        return (int(plot.left + plot.width * i / steps),
                int(plot.bottom - plot.height * lives / top + off))

    for seat in range(n_seats):
        pts = step_line(series, seat, lambda i, lives, seat=seat: point(i, lives, seat))
        width = max(2, int((4 if seat in highlight else 2) * u))
        col = colours[seat % len(colours)]
        if len(pts) > 1:
            pygame.draw.lines(surf, col, False, pts, width)
        for i in range(1, len(series)):
            if series[i][seat] != series[i - 1][seat]:
                pygame.draw.circle(surf, col, point(i, series[i][seat], seat), dot)
