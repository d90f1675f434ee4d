"""Helpers to drive the window without a person: the UI tests, the monkey test and
``tools/render_screens.py`` use them. Set ``SDL_VIDEODRIVER=dummy`` (and
``STAMMTISCH_HOME``) before importing pygame.

Everything goes through the same paths as real input: synthetic pygame events handed
to ``App.handle``, whose positions come from the event itself.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

import pygame

from game.settings import Settings


def make_app(size: tuple[int, int] = (1280, 720), lang: str = "en", speed: str = "off",
             think: float = 0.0, settings: Settings | None = None,
             reveal_hold: float | None = 0.0, tips: bool = False, **opts: Any):
    """A window for tests: animations ``speed``, computers' ``think`` pause, reveals
    that go on by themselves (``reveal_hold=0``) unless a test asks for a hold, and no
    first-game tips unless asked (``tips=True``)."""
    from game.app import App

    ns = argparse.Namespace(demo=False, game=None, seed=None, quit_after=None,
                            frame_stats=False, smoke_test=False, lang=lang, size=size,
                            players=None)
    for k, v in opts.items():
        setattr(ns, k, v)
    st = settings or Settings(path=None)
    if settings is None:
        st.path = None
    st["anim_speed"] = speed
    st["think_pause"] = think
    st["reveal_hold"] = reveal_hold
    if settings is None:
        st["tips"] = tips        # the first game's tips stop the game until read
    app = App(ns, st)
    app.ai_sync = True
    return app


def mixed_seats(n: int = 5, humans: int = 1, lang: str = "en") -> list[Any]:
    """Seats for ``n`` players: the first ``humans`` human, the rest computers of every
    level in turn (easy, medium, hard, expert)."""
    from game.settings import default_setup
    from game.turn.seats import seats_from_setup

    setup = default_setup()
    setup["players"] = n
    for i in range(10):
        setup["seats"][i]["human"] = i < humans
        setup["seats"][i]["level"] = ("easy", "medium", "hard", "expert")[i % 4]
    return seats_from_setup(setup, lang)


def frame(app, dt: float = 1 / 60) -> None:
    app.update(dt)
    app.draw()


def pump(app, seconds: float, dt: float = 1 / 30, draw: bool = True) -> None:
    n = max(1, int(seconds / dt))
    for _ in range(n):
        app.update(dt)
        if draw:
            app.draw()


def click(app, pos: tuple[int, int], button: int = 1) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def key(app, k: int, mod: int = 0, unicode: str = "") -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode,
                                  scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=unicode, scancode=0))


def type_text(app, s: str) -> None:
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text=s))


def click_button(app, button) -> None:
    app.draw()   # make sure the layout is current
    click(app, button.rect.center)


def table_of(app):
    from game.scenes.table import TableScene

    for s in reversed(app.stack):
        if isinstance(s, TableScene):
            return s
    return None


def play_game(app, choose: Callable[[Any], str] | None = None, max_steps: int = 20000,
              use_keys: bool = False, rng: random.Random | None = None) -> bool:
    """Play the table on top of ``app`` to the end: humans decide with ``choose``
    (default: random legal move) by clicking the buttons (or pressing their keys);
    privacy screens are confirmed, first-game tips put away. Returns True when the results scene appears."""
    rng = rng or random.Random(0)
    for _ in range(max_steps):
        top = app.top
        if top is None:
            return False
        if top.name == "results":
            return True
        if top.name == "handoff":
            if use_keys:
                key(app, pygame.K_RETURN)
            else:
                click_button(app, top.list.buttons[0])
            continue
        table = table_of(app)
        if table is None:
            return False
        if top is table and table.tips.showing():       # a first-game tip: read it
            key(app, pygame.K_SPACE)
            continue
        if top is table and table.state == "hold":
            key(app, pygame.K_RETURN if use_keys else pygame.K_SPACE)
            continue
        if top is table and table.state == "human" and table.actions.buttons:
            p = table.pending
            move = choose(p) if choose else rng.choice(list(p.legal))
            btn = table.actions.by_name(move)
            assert btn is not None, (move, [b.name for b in table.actions.buttons])
            if use_keys:
                key(app, btn.hotkey)
            else:
                click_button(app, btn)
            continue
        app.update(0.05)
    return False


def drive(app, until: Callable[[Any], bool], rng: random.Random | None = None,
          max_steps: int = 50000, choose: Callable[[Any], str] | None = None) -> bool:
    """Run the table on top of ``app`` (humans move at random or by ``choose``,
    privacy screens are confirmed) until ``until(table)`` is true; False if the game
    ended or the step budget ran out first."""
    rng = rng or random.Random(0)
    for _ in range(max_steps):
        table = table_of(app)
        if table is None:
            return False
        if until(table):
            return True
        top = app.top
        if top is not None and top.name == "handoff":
            top.ready()
            continue
        if top is not table:
            return False
        if table.tips.showing():             # a first-game tip: read and put away
            key(app, pygame.K_SPACE)
            continue
        if table.state == "hold":            # the person has seen the reveal
            table.flow.release()
            continue
        if table.state == "human" and table.pending is not None:
            p = table.pending
            table.human_move(choose(p) if choose else rng.choice(list(p.legal)))
            continue
        if table.state in ("over", "done"):
            return False
        app.update(0.05)
    return False


def play_to_results(app, table, rng: random.Random, max_steps: int = 100_000) -> bool:
    """Play ``table`` until the results screen opens (humans move at random by ``rng``,
    privacy screens are confirmed, reveals released); whether it did within
    ``max_steps`` steps."""
    for _ in range(max_steps):
        if app.top.name == "results":
            return True
        if app.top.name == "handoff":
            app.top.ready()
        elif table.state == "hold":
            table.flow.release()
        elif table.state == "human":
            table.human_move(rng.choice(list(table.pending.legal)))
        else:
            app.update(0.05)
    return False


def next_event_is(kind: str, pred: Callable[[Any], bool] | None = None):
    """A ``stop_before`` predicate and the matching ``until`` for :func:`drive`."""

    def stop(ev) -> bool:
        return ev.type == kind and (pred is None or pred(ev))

    def until(table) -> bool:
        return bool(table.queue) and stop(table.queue[0]) and not table.anim.busy

    return stop, until
