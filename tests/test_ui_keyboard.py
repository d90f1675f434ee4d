"""The window by keyboard alone: every button reached and pressed, every screen left,
the focus ring on what Enter presses (README: "arrows and Enter move through every
menu, Esc goes back")."""

from __future__ import annotations

import pygame
import pytest

from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.turn.options import TableOptions


def _app(lang: str = "en", size: tuple[int, int] = (800, 450), **kw):
    app = T.make_app(size, lang, **kw)
    app.push(MenuScene(app))
    T.frame(app)
    return app


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("zone", [0, 1])
def test_the_setup_switches_the_game_by_its_letter_from_the_players_and_the_rules(
        home, lang, zone):
    """The letter shown on *Switch to …* (S, German W for *wechseln*) switches from
    every part of the screen; it did only once Tab had reached the buttons (in the
    players and the rules, nothing)."""
    app = _app(lang)
    app.open("setup", game_id="chase")
    button = app.top.buttons.by_name("game")
    assert button.hint == {"en": "S", "de": "W"}[lang]
    for _ in range(zone):
        T.key(app, pygame.K_TAB)
    assert app.top.zone == zone
    T.key(app, pygame.key.key_code(button.hint.lower()))
    assert app.top.name == "setup" and app.top.game_id == "rams"


def test_the_switch_letter_types_into_a_name_being_edited(home):
    app = _app()
    app.open("setup", game_id="chase")
    setup = app.top
    T.key(app, pygame.K_DOWN)                 # the first seat's name
    T.key(app, pygame.K_RETURN)
    assert setup.seat_form.editing is not None
    T.key(app, pygame.K_s)
    T.type_text(app, "s")
    assert app.top is setup and setup.game_id == "chase"
    assert setup.setup["seats"][0]["name"].endswith("s")


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 450), (1920, 1080)])
def test_the_arrows_reach_back_on_the_settings(home, lang, size):
    """Down from the last row goes to *Back* (its ring shows, Enter leaves), on to the
    first row; Up the other way round. The rows went round among themselves: Back was
    reached by Tab only, which the screen never says."""
    app = _app(lang, size)
    T.click_button(app, app.top.list.by_name("settings"))
    s = app.top
    rows = len(s.form.focusable())
    drawn: list[bool] = []
    real = s.buttons.draw
    s.buttons.draw = lambda surf, u, show_focus=True: (drawn.append(show_focus),
                                                       real(surf, u, show_focus))
    for _ in range(rows - 1):
        T.key(app, pygame.K_DOWN)
    assert s.zone == 0 and s.form.focus == rows - 1
    T.key(app, pygame.K_DOWN)
    T.frame(app)
    assert s.zone == 1 and not s.form.active and drawn[-1]
    T.key(app, pygame.K_DOWN)
    assert s.zone == 0 and s.form.focus == 0
    T.key(app, pygame.K_UP)
    assert s.zone == 1
    T.key(app, pygame.K_UP)
    assert s.zone == 0 and s.form.focus == rows - 1
    T.key(app, pygame.K_UP)
    assert s.zone == 0 and s.form.focus == rows - 2      # inside the rows as before
    T.key(app, pygame.K_LEFT)                           # still changes the row's value
    for _ in range(2):
        T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_RETURN)
    assert app.top.name == "menu"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_enter_on_the_other_games_rules_stays_on_that_button(home, lang):
    """*Rams rules* pressed by Enter keeps the focus there (Enter again: back to the
    first game's); it went to *Back*, so a second Enter left the screen."""
    app = _app(lang)
    app.open("rules", game_id="chase")
    rules = app.top
    T.key(app, pygame.K_LEFT)
    T.key(app, pygame.K_LEFT)
    assert rules.list.buttons[rules.list.focus].name == "game"
    T.key(app, pygame.K_RETURN)
    assert rules.game == "rams" and rules.list.buttons[rules.list.focus].name == "game"
    T.key(app, pygame.K_RETURN)
    assert app.top is rules and rules.game == "chase"
    T.key(app, pygame.K_ESCAPE)
    assert app.top.name == "menu"


def _away_table(app):
    seats = [{"name": "P0", "human": True, "phone": True, "level": "medium"},
             {"name": "P1", "human": False, "phone": False, "level": "medium"},
             {"name": "P2", "human": False, "phone": False, "level": "medium"}]
    table = app.open("table", game_id="chase", seats=seats, seed=2,
                     options=TableOptions(phone_bind="127.0.0.1"))
    table.phones.link.away_after = 0.0            # nobody ever connects
    T.key(app, pygame.K_RETURN)                   # close the join panel
    assert not table.show_phones
    return table


def _until_away(app, table) -> None:
    for _ in range(2000):
        T.frame(app)
        if table.away_seat is not None:
            return
    raise AssertionError("no phone went away")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_away_phone_question_answers_the_arrows_enter_and_esc(home, lang):
    """The question about an away phone: its focus ring on *Wait*, Enter presses it,
    the arrows reach the other answer, Esc waits. Enter, the arrows and Esc did
    nothing (only W and C), and the ring under it sat on a move Enter did not press."""
    app = _app(lang)
    table = _away_table(app)
    try:
        _until_away(app, table)
        prompt = table.away_prompt
        assert prompt.list.buttons[prompt.list.focus].name == "phone_wait"
        T.key(app, pygame.K_RETURN)
        assert table.away_seat is None and not table.phones.sources[0].standing_in
        _until_away(app, table)
        T.key(app, pygame.K_ESCAPE)
        assert table.away_seat is None and app.top is table
        _until_away(app, table)
        T.key(app, pygame.K_RIGHT)
        assert prompt.list.buttons[prompt.list.focus].name == "phone_stand_in"
        T.key(app, pygame.K_RETURN)
        assert table.phones.sources[0].standing_in
    finally:
        table.exit()


def test_a_new_away_question_starts_on_wait(home):
    app = _app()
    table = _away_table(app)
    try:
        _until_away(app, table)
        T.key(app, pygame.K_RIGHT)
        T.key(app, pygame.K_LEFT)
        T.key(app, pygame.K_RIGHT)
        table.away_prompt.list.buttons[0].action()     # answered by the mouse: Wait
        _until_away(app, table)
        prompt = table.away_prompt
        assert prompt.list.buttons[prompt.list.focus].name == "phone_wait"
    finally:
        table.exit()


@pytest.mark.parametrize("game_id", ["chase", "rams"])
def test_no_move_shows_the_focus_under_a_tip(home, game_id):
    """A first-game tip takes the next key (to put it away): the move buttons' ring
    does not show under it (Enter would not press that button), and shows again when
    the tip is gone."""
    app = _app(tips=True)
    table = app.open("table", game_id=game_id, seats=T.mixed_seats(4, 1), seed=2,
                     options=TableOptions(bot_seed=2))
    shown: list[bool] = []
    real = table.actions.draw
    table.actions.draw = lambda surf, u, show_focus=True: (
        shown.append(show_focus), real(surf, u, show_focus))
    for _ in range(4000):
        if table.state == "human" and table.actions.buttons and table.tips.showing():
            break
        if table.state == "human" and not table.tips.showing():
            table.human_move(table.pending.legal[0])
        elif table.tips.showing():
            T.key(app, pygame.K_SPACE)
        else:
            T.frame(app)
    assert table.tips.showing() and table.actions.buttons
    T.frame(app)
    assert shown[-1] is False
    while table.tips.showing():
        T.key(app, pygame.K_SPACE)          # put away
    T.frame(app)
    assert shown[-1] is True


def test_no_move_shows_the_focus_under_the_phones_panel(home):
    """The phones' panel (F2) takes every key: no move's ring shows under it."""
    app = _app()
    table = _away_table(app)
    try:
        table.phones.link.away_after = 10 ** 6
        T.key(app, pygame.K_F2)
        assert table.show_phones and not table.painter.move_focus_shown()
        T.key(app, pygame.K_ESCAPE)
        assert not table.show_phones and table.painter.move_focus_shown()
    finally:
        table.exit()


def test_after_a_discard_the_focus_stays_in_its_place(home):
    """Discarding a game by keyboard (Delete, then *Discard*) leaves the focus on the
    next game's Discard (the new last one's, after the last game): it went back to the
    first game's line, so clearing up the middle of a long list meant walking down to
    it again after every game."""
    from tests.test_endings import unfinished_list

    app = _app()
    lst = unfinished_list(app, (3, 4, 5))
    third = lst.entries[2]

    def focused() -> str:
        return lst.list.buttons[lst.list.focus].name

    def discard_focused() -> None:
        T.key(app, pygame.K_DELETE)
        assert app.top.name == "confirm"
        T.key(app, pygame.K_LEFT)                 # from Cancel to Discard
        T.key(app, pygame.K_RETURN)
        assert app.top is lst

    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_RIGHT)                    # the second game's Discard
    assert focused() == "discard_1"
    discard_focused()
    assert len(lst.entries) == 2 and focused() == "discard_1"
    assert lst.entries[1].path == third.path
    discard_focused()                             # the last game: the one above it
    assert len(lst.entries) == 1 and focused() == "discard_0"


def _words_start(letter: str, label: str) -> bool:
    import re

    return any(w.startswith(letter) for w in re.findall(r"\w+", label.upper()))


@pytest.mark.parametrize("lang,letter", [("en", "C"), ("de", "W")])
def test_the_main_menu_shows_continue_s_letter_of_the_language_and_q_quits_nothing(
        home, lang, letter):
    """*Continue* shows its key, a letter of its label (C Continue, W Weiterspielen),
    and that key opens the unfinished games; it had a hidden English C. *Quit* shows
    Esc and no letter closes the window at once (a hidden Q did)."""
    import random

    app = _app(lang, (1280, 720))
    app.open("table", game_id="chase", seats=T.mixed_seats(4, 1, lang), rules={}, seed=1)
    assert T.drive(app, lambda tb: len(tb.game.moves) >= 6, random.Random(1))
    app.open("menu", how="reset")
    menu = app.top
    T.frame(app)
    cont, quit_ = menu.list.by_name("continue"), menu.list.by_name("quit")
    assert cont.hint == letter and _words_start(letter, cont.text()), (lang, cont.text())
    assert quit_.hint == "Esc" and quit_.hotkey is None
    keys = [b.hotkey for b in menu.list.buttons if b.hotkey is not None]
    assert keys == [pygame.key.key_code(letter.lower())]
    T.key(app, pygame.K_q)
    assert app.running and app.top is menu
    T.key(app, pygame.key.key_code(letter.lower()))
    assert app.top.name == "unfinished"


def test_the_main_menu_letter_follows_a_language_change(home):
    """English C, then German chosen: the button shows W and W works, C does nothing."""
    import random

    app = _app("en", (1280, 720))
    app.open("table", game_id="chase", seats=T.mixed_seats(4, 1, "en"), rules={}, seed=1)
    assert T.drive(app, lambda tb: len(tb.game.moves) >= 6, random.Random(1))
    app.open("menu", how="reset")
    menu = app.top
    T.frame(app)
    assert menu.list.by_name("continue").hint == "C"
    app.set_lang("de")
    T.frame(app)
    assert menu.list.by_name("continue").hint == "W"
    T.key(app, pygame.K_c)
    assert app.top is menu
    T.key(app, pygame.K_w)
    assert app.top.name == "unfinished"
