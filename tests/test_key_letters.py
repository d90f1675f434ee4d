"""Every button's key is a letter of its label, in both languages: on every screen of
the game (the screens' tour, ``tests/screens_tour.py``, walked by
``tests/test_every_screen.py`` with this file's ``check_screen``), each button the
screen on top shows with a letter for its key has that letter in its label (*Tipp* is
not pressed with H), no two of its buttons share a letter, and pressing the letter
presses that button (nothing on the screen takes the key first)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pygame
import pytest

from game import i18n
from game.i18n import t
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.view import widgets
from game.view.keys import move_key
from game.view.phones import AwayPrompt


def letter_of(button: widgets.Button) -> str | None:
    """The letter a button shows for its key, or None (no key, or a key such as Esc,
    F2 or Enter)."""
    hint = button.hint
    return hint if len(hint) == 1 and hint.isalpha() else None


def modal(app) -> bool:
    """A table under something that takes every key first (a tip, the phones' codes,
    the question about an away phone): only what is drawn over the table counts."""
    top = app.top
    tips = getattr(top, "tips", None)
    return bool(tips is not None and tips.showing()) or bool(
        getattr(top, "show_phones", False) or getattr(top, "away_seat", None) is not None)


@contextmanager
def drawing_of_top(app) -> Iterator[list[tuple[str, Any, pygame.Rect]]]:
    """What the screen on top draws (``app.draw()`` inside the ``with``), in order:
    ("button", button, rect) and ("panel", None, rect)."""
    seen: list[tuple[str, Any, pygame.Rect]] = []
    top = app.top
    inside = [False]
    real_top, real_draw, real_panel = top.draw, widgets.Button.draw, widgets.panel

    def top_draw(surf):
        inside[0] = True
        try:
            real_top(surf)
        finally:
            inside[0] = False

    def spy_draw(self, surf, *a, **kw):
        real_draw(self, surf, *a, **kw)
        if inside[0] and surf is app.screen:
            seen.append(("button", self, self.rect.copy()))

    def spy_panel(surf, rect, *a, **kw):
        real_panel(surf, rect, *a, **kw)
        if inside[0] and surf is app.screen:
            seen.append(("panel", None, pygame.Rect(rect)))

    top.draw = top_draw
    widgets.Button.draw, widgets.panel = spy_draw, spy_panel
    try:
        yield seen
    finally:
        del top.draw
        widgets.Button.draw, widgets.panel = real_draw, real_panel


def shown_buttons(app) -> list[widgets.Button]:
    """The buttons the screen on top shows: drawn, and not under a panel drawn later
    (a tip, a dialog); under a modal overlay, only those drawn after it."""
    with drawing_of_top(app) as seen:
        app.draw()
    last_panel = max((i for i, (kind, _, _) in enumerate(seen) if kind == "panel"),
                     default=-1)
    out = []
    for i, (kind, b, rect) in enumerate(seen):
        if kind != "button" or not rect.width:
            continue
        if modal(app) and i < last_panel:
            continue
        if any(k == "panel" and r.colliderect(rect) for k, _, r in seen[i + 1:]):
            continue
        if b not in out:
            out.append(b)
    return out


def press(app, letter: str) -> None:
    """Press ``letter`` as a person who has not been tapping keys for a while: the end
    screen ignores a letter in the rhythm of the table's keys (game.scenes.results),
    and this check asks which button a deliberate press reaches."""
    app.confirm_rest = math.inf
    if app.top.name == "results":
        app.top.age = max(app.top.age, 60.0)
    code = pygame.key.key_code(letter.lower())
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        app.handle(pygame.event.Event(kind, key=code, mod=0, unicode=letter.lower(),
                                      scancode=0))


def check_screen(app, where: str) -> tuple[list[str], int]:
    """What is wrong with the keys of the screen on top; and how many keyed buttons
    it shows."""
    out: list[str] = []
    keyed = [(b, letter_of(b)) for b in shown_buttons(app)]
    keyed = [(b, k) for b, k in keyed if k is not None]
    for b, k in keyed:
        if k.casefold() not in b.text().casefold():
            out.append(f"{where}: {b.name or b.text()!r} shows {k}, not a letter of "
                       f"{b.text()!r}")
    letters = [k.upper() for _, k in keyed]
    for k in sorted({k for k in letters if letters.count(k) > 1}):
        names = [b.name or b.text() for b, kk in keyed if kk.upper() == k]
        out.append(f"{where}: {k} on more than one button: {names}")
    for b, k in keyed:
        pressed: list[bool] = []
        real = b.action
        focus = {id(fl): (fl, fl.focus) for fl in _focus_lists(app.top)}
        b.action = lambda pressed=pressed: pressed.append(True)
        try:
            press(app, k)
        finally:
            b.action = real
            for fl, f in focus.values():
                fl.focus = f
        if not pressed:
            out.append(f"{where}: {k} does not press {b.name or b.text()!r}")
    return out, len(keyed)


def _focus_lists(scene) -> list[widgets.FocusList]:
    """The scene's focus lists (its own and its table controls'): a press moves their
    focus, which the tour's next steps must not see."""
    found = []
    for holder in (scene, getattr(scene, "controls", None), getattr(scene, "table", None)):
        for v in vars(holder).values() if holder is not None else ():
            if isinstance(v, widgets.FocusList):
                found.append(v)
    return found


# ----------------------------------------------------------------- beyond the tour

#: The table's buttons that are no move, with their labels: the hint, and
#: fast-forward in its place while nobody at the screen decides.
TABLE_KEYS = {"hint": "coach.button", "fast": "table.fast_forward"}


def _moves(prefix: str) -> dict[str, list[str]]:
    """Decision -> its moves, from the catalogue's move labels (``move.<d>.<m>``)."""
    out: dict[str, list[str]] = {}
    for key in i18n.catalogue("en"):
        if key.startswith(prefix) and key.count(".") == prefix.count(".") + 1:
            d, m = key[len(prefix):].split(".")
            out.setdefault(d, []).append(m)
    return out


@pytest.fixture
def keyboard():
    """pygame's key names (``pygame.key.key_code``) need pygame started."""
    pygame.init()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_decision_at_the_table_has_letters_of_its_labels(keyboard, lang):
    """The decisions the tour does not reach too (Chase's Queen and swap again, Rams'
    trump card): each move's letter is in its label, and no letter of a decision's
    buttons is the hint's, fast-forward's, the peek key's, Rams' last trick's or P
    (the menu, where it is no move)."""
    i18n.set_lang(lang)
    try:
        others = {k: move_key(k)[1] for k in ("hint", "fast", "peek")}
        for k, label in TABLE_KEYS.items():
            assert others[k].casefold() in t(label).casefold(), (k, others[k], t(label))
        chase = {d: [(m, move_key(m)[1], t(f"move.{d}.{m}")) for m in moves]
                 for d, moves in _moves("move.").items()}
        rams_others = {**others, "last": move_key("last", "key.rams.")[1]}
        assert rams_others["last"].casefold() in t("rams.last_button").casefold()
        rams = {"declare": [(m, move_key(m, "key.rams.")[1], t(f"rams.move.{m}"))
                            for m in ("play", "drop", "general")],
                "take": [("pass_trump", move_key("pass_trump", "key.rams.")[1],
                          t("rams.move.pass_trump"))]}
        assert {"turn", "dealer", "queen", "domino"} <= set(chase)
        for table, extra in ((chase, others), (rams, rams_others)):
            assert len(set(extra.values())) == len(extra), extra
            for d, buttons in table.items():
                letters = [k for _, k, _ in buttons]
                assert len(set(letters)) == len(letters), (d, buttons)
                for m, k, label in buttons:
                    assert len(k) == 1 and k.casefold() in label.casefold(), (d, m, k, label)
                    assert k not in extra.values(), (d, m, k, extra)
                    assert k != "P" or table is rams, (d, m)    # P opens the menu
    finally:
        i18n.set_lang("en")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_away_phone_question_has_letters_of_its_labels(keyboard, lang):
    i18n.set_lang(lang)
    try:
        asked: list[str] = []
        prompt = AwayPrompt(lambda: asked.append("wait"), lambda: asked.append("stand_in"),
                            "medium")
        letters = [b.hint for b in prompt.buttons]
        assert len(set(letters)) == 2
        for b in prompt.buttons:
            assert len(b.hint) == 1 and b.hint.casefold() in b.text().casefold(), b.text()
            code = pygame.key.key_code(b.hint.lower())
            assert prompt.handle(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0,
                                                    unicode=b.hint.lower(), scancode=0))
        assert asked == ["wait", "stand_in"]
    finally:
        i18n.set_lang("en")


def test_a_screens_letters_follow_a_language_change(home):
    """The rules screen in English, then German chosen: its buttons show R and T
    (*Regeln: Rams*, *Strategie-Tabelle*), and T opens the chart where C did before."""
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    app.open("rules", game_id="chase")
    rules = app.top
    T.frame(app)
    assert [b.hint for b in rules.keyed] == ["R", "C"]
    app.set_lang("de")
    T.frame(app)
    assert [b.hint for b in rules.keyed] == ["R", "T"]
    T.key(app, pygame.K_c)
    assert app.top is rules
    T.key(app, pygame.K_t)
    assert app.top.name == "chart"
