"""Every button that a key other than a letter presses shows that key: on every screen
of the screens' tour (``tests/screens_tour.py``, walked by ``tests/test_every_screen.py``
with this file's ``check_screen``), in both languages, for Esc, Space, F5, Delete and →
(the keys other than letters the screens bind to what a button does), if
pressing the key does what one of the screen's shown buttons does, that button shows
the key's name (``Esc``, ``F5``, ``Space``, German ``Leer``, ``>``:
``game.view.keys.key_name``) in its badge.

How "does what a button does" is seen, on the one screen the tour holds (the tour is
one walk through the game; a fresh copy of each screen for each key and button would
mean walking it again for each):

- the app's ways of changing screens (``open``, ``push``, ``pop``, ``replace``,
  ``reset``, ``quit``, ``set_lang``, ``toggle_fullscreen``) are recorded instead of
  done, with their arguments (a screen by its class, a game's record by its values);
- the attributes of the screens on the stack and of the game's objects they hold (the
  table's controls) are copied before and put back after, and those set anew are
  recorded with their new values (Space on a replay sets ``playing``; *Discard* on a
  question changes the list under it);
- that record is taken for the key (pressed and let go through ``app.handle``) and
  for a click on each shown button (through ``app.handle`` too: the replay's *Menu*
  goes back, where the table's goes to the pause). A key does what a button does when
  the click's record holds all of the key's and no more than a move of the focus
  (the setup's part of the screen). What goes to disk is not put back (*Discard*
  deletes a save the rest of the tour does not need).

A key that presses whatever button has the focus (Space and Enter in a list, Delete
on the unfinished games) is no button's key: its record is taken again with the focus
on each other button, and where the record changes, the key is left out. Esc that
does what no button does (closes an overlay) asks nothing. A button may show instead
another key of its own that does the same: a letter of its label (test_key_letters.py;
the end screen's *Main menu* M), Enter, an arrow for a label (the chart's ›). Backspace
and Ctrl+Enter, second ways to Esc and F5, are not shown (a badge names one key)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pygame

from game.scenes.base import Scene
from game.view import widgets
from game.view.keys import key_name
from tests.test_key_letters import _focus_lists, shown_buttons

KEYS = (pygame.K_ESCAPE, pygame.K_SPACE, pygame.K_F5, pygame.K_DELETE, pygame.K_RIGHT)
#: buttons labelled with an arrow, which names their key
ARROW_LABELS = {"‹": pygame.K_LEFT, "›": pygame.K_RIGHT}
NAVIGATION = ("open", "push", "pop", "replace", "reset", "quit", "set_lang",
              "toggle_fullscreen")


def _plain(v: Any, deep: bool = True) -> Any:
    """A value to compare: a number, text or None as it is, containers inside out, a
    screen or a function by its class, another object (a game's record) by its class
    and its own values (two records of two games differ)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return tuple(_plain(x, deep) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((str(k), _plain(x, deep)) for k, x in v.items()))
    if deep and not isinstance(v, Scene) and not callable(v) and hasattr(v, "__dict__"):
        return type(v).__name__, _plain(vars(v), deep=False)
    return type(v).__name__


def _parts(app) -> dict[str, Any]:
    """The screens on the stack and the game's objects each holds, one level down
    (the table's controls, which hold whether the last trick shows), by a name for
    the record; the screens below count (*Discard* on a question changes the list
    under it)."""
    out: dict[str, Any] = {}
    for i, scene in enumerate(app.stack):
        out[f"{i}:"] = scene
        for k, v in vars(scene).items():
            if k != "app" and hasattr(v, "__dict__") and \
                    type(v).__module__.startswith("game.") and \
                    not isinstance(v, Scene) and not callable(v):
                out[f"{i}:{k}."] = v
    return out


#: Where the pointer and the focus are: a click moves them, no key needs to.
POINTER = {"focus", "hover"}
FOCUS = {"zone", "active"}


@contextmanager
def _recording(app) -> Iterator[list[Any]]:
    """Record what happens inside the ``with`` instead of letting it change screens;
    the attributes of the screen and of its parts are put back after."""
    done: list[Any] = []
    parts = _parts(app)
    before = {name: dict(vars(o)) for name, o in parts.items()}

    built: list[Scene] = []      # screens made to be shown, which never are

    def stand_in(name: str) -> Callable[..., None]:
        def record(*a: Any, **kw: Any) -> None:
            built.extend(x for x in a if isinstance(x, Scene))
            done.append((name, _plain(a), _plain(kw)))
        return record

    for name in NAVIGATION:
        setattr(app, name, stand_in(name))
    try:
        yield done
    finally:
        for name in NAVIGATION:
            delattr(app, name)
        for scene in built:     # a table made by the setup's Start: its phones' server
            if scene not in app.stack:
                scene.exit()
        for part, o in parts.items():
            was, now = before[part], dict(vars(o))
            for k in sorted(now):
                if isinstance(o, widgets.FocusList) and k in POINTER:
                    continue
                if k not in was or now[k] is not was[k] and _plain(now[k]) != _plain(was[k]):
                    done.append(("set", part + k, _plain(now[k])))
            o.__dict__.clear()
            o.__dict__.update(was)


def _of_key(app, key: int) -> tuple[Any, ...]:
    with _recording(app) as done:
        try:
            for kind in (pygame.KEYDOWN, pygame.KEYUP):
                app.handle(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))
        except Exception as exc:       # what a stand-in left undone (a screen not built)
            done.append(("raised", type(exc).__name__))
    return tuple(done)


def _of_button(app, button: widgets.Button) -> tuple[Any, ...]:
    x, y = button.rect.center
    with _recording(app) as done:
        try:
            app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(0, 0),
                                          buttons=(0, 0, 0)))
            for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
                app.handle(pygame.event.Event(kind, pos=(x, y), button=1))
        except Exception as exc:
            done.append(("raised", type(exc).__name__))
    return tuple(done)


def _same(by_key: tuple[Any, ...], by_click: tuple[Any, ...]) -> bool:
    """Whether a key did what a click did: all of it, and the click no more besides
    than move where the focus is (the setup's part of the screen, ``zone``, and its
    forms' ``active``)."""
    return all(x in by_click for x in by_key) and all(
        x in by_key or x[0] == "set" and x[1].rsplit(".", 1)[-1].split(":")[-1] in FOCUS
        for x in by_click)


def _follows_focus(app, key: int, done: tuple[Any, ...]) -> bool:
    """Whether the key does something else with the focus on another button."""
    lists = [fl for fl in _focus_lists(app.top) if len(fl.buttons) > 1]
    if not lists:      # one button, focused: Space and Enter press it, as in every list
        return key in widgets.ACTIVATE and any(fl.buttons for fl in _focus_lists(app.top))
    kept = [(fl, fl.focus) for fl in lists]
    try:
        for fl, f in kept:
            for i in range(len(fl.buttons)):
                fl.focus = i
                if _of_key(app, key) != done:
                    return True
            fl.focus = f
        return False
    finally:
        for fl, f in kept:
            fl.focus = f


def _own_key(app, button: widgets.Button, done: tuple[Any, ...]) -> bool:
    """Whether the button shows another key that does the same (its letter: the
    results' *Menu* M, Rams' *Last trick* L; the phones' codes' Enter; an arrow for its
    label, the chart's ›): a badge names one key."""
    hint = button.hint
    if button.text() in ARROW_LABELS:    # the chart's ‹ and ›: the label is the key
        return _of_key(app, ARROW_LABELS[button.text()]) == done
    if len(hint) == 1 and hint.isalpha():
        key = pygame.key.key_code(hint.lower())
    else:
        key = {key_name(k): k for k in (pygame.K_RETURN, pygame.K_F2)}.get(hint, -1)
    return key != -1 and _of_key(app, key) == done


def check_screen(app, where: str) -> tuple[list[str], list[str]]:
    """What is wrong on the screen on top; and the buttons found pressed by a key."""
    wrong: list[str] = []
    found: list[str] = []
    buttons = [b for b in shown_buttons(app) if b.enabled]
    for key in KEYS:
        done = _of_key(app, key)
        if not done or _follows_focus(app, key, done):
            continue
        name = key_name(key)
        for b in buttons:
            if not _same(done, _of_button(app, b)):
                continue
            found.append(f"{where}: {name} {b.name or b.text()}")
            if b.hint != name and not _own_key(app, b, done):
                wrong.append(f"{where}: {name} does what {b.name or b.text()!r} does, "
                             f"which shows {b.hint!r}")
    return wrong, found


