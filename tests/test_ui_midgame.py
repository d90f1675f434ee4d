"""A game in progress while the player changes things around it: the language chosen
in the settings in the middle of a game, tips switched off, the window resized in the
middle of an animation. What is on the table follows at once; nothing of the game is
lost, replayed or drawn at the old size."""

from __future__ import annotations

import os
import random
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import i18n, winsize  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402
from game.view import timing  # noqa: E402
from tests.screen_check import problems, recording  # noqa: E402

#: English words a German table must not show: a seat's role, a suit
ENGLISH = re.compile(r"\b(Player|clubs|diamonds|hearts|spades)\b")


def hot_seat(game_id: str, lang: str = "en", speed: str = "normal", people: int = 2, **kw):
    """A table of four, two of them (or ``people``) at the screen ("Player 1", ...)."""
    app = T.make_app((1280, 720), lang, speed=speed, **kw)
    app.push(MenuScene(app))
    table = app.scene("table", game_id=game_id, seats=T.mixed_seats(4, people, lang), rules={},
                      seed=5, options=TableOptions(bot_seed=5))
    app.push(table)
    return app, table


def said(table) -> list[str]:
    """The speech bubbles' and the banner's words, as they are drawn now."""
    m = table.model
    out = [b.text() for b in m.bubbles]
    if m.banner is not None:
        out += [m.banner.text()] + ([m.banner.sub()] if m.banner.sub else [])
    return out


@pytest.mark.parametrize("game_id", ["chase", "rams"])
def test_bubbles_and_banners_speak_a_language_chosen_while_they_show(game_id):
    """A bubble or banner on the table when German is chosen reads German: "Swap,
    Player 1!" became "Tauschen, Player 1!", "Trump: spades" "Trumpf: spades" (the
    name and the suit were put in when it appeared)."""
    app, table = hot_seat(game_id)
    named = 0

    def check(tb) -> bool:
        nonlocal named
        english = said(tb)
        if any(ENGLISH.search(s) for s in english):
            app.set_lang("de")
            german = said(tb)
            app.set_lang("en")
            assert not any(ENGLISH.search(s) for s in german), (english, german)
            named += 1
        return named >= 3

    assert T.drive(app, check, random.Random(1), max_steps=6000), named
    i18n.set_lang("en")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_reveal_that_goes_on_by_itself_says_when_in_the_smallest_window(lang):
    """A reveal that goes on after some seconds (the settings' choice, or while
    fast-forwarding): the Rams table's note in its narrow strip at the left said
    "Leertaste, Enter oder Klick: weiter …", the countdown cut off (also at 1000x900 and
    1920x600 in German). It takes two lines now."""
    app = T.make_app(winsize.MIN_SIZE, lang, speed="fast", reveal_hold=5.0)
    app.push(MenuScene(app))
    table = app.scene("table", game_id="rams", seats=T.mixed_seats(4, 1, lang), rules={},
                      seed=3, options=TableOptions(bot_seed=3))
    app.push(table)
    assert T.drive(app, lambda tb: tb.state == "hold", random.Random(1))
    note = table.hold_note()
    assert re.search(r"\d s\)$", note), note
    with recording(app) as frame:
        app.draw()
    assert not problems(frame, "held reveal"), problems(frame, "held reveal")
    drawn = " ".join(s for s, _ in frame.texts)
    assert note.split()[-2] + " s)" in drawn and " ".join(drawn.split()).count(
        note.split(":")[0]) == 1, drawn


def test_a_message_showing_when_a_language_is_chosen_reads_in_it(home):
    """Export the record from the menu, then choose German in the settings: the
    message over the table said "Record saved to …" on the German table until its time
    was up. It reads German now, for the time it had left."""
    app, table = hot_seat("chase", speed="off", people=1)
    assert T.drive(app, lambda tb: tb.state == "human", random.Random(2))
    T.key(app, pygame.K_ESCAPE)
    T.click_button(app, app.top.list.by_name("export"))
    assert app.toast is not None and app.toast[0].startswith("Record saved to "), app.toast
    T.frame(app, 0.5)
    T.click_button(app, app.top.list.by_name("settings"))
    settings = app.top
    lang = next(r for r in settings.form.rows if r.name == "lang")
    while i18n.get_lang() != "de":
        T.click(app, lang.right.center)
    T.key(app, pygame.K_ESCAPE)              # back to the menu
    T.key(app, pygame.K_ESCAPE)              # back to the game
    assert app.top is table
    message, left = app.toast
    assert message.startswith("Aufzeichnung gespeichert unter "), message
    assert left < timing.TOAST


def test_a_game_of_several_people_is_exported_once_it_is_over(home):
    """A record holds the deal: every hand. Exported from the menu in the middle of a
    hot-seat game, it showed the one at the screen the others' cards (a record file
    is a few keystrokes from the shuffle). With two people or more the menu's export
    waits for the end and says so; alone among computers it is there at any time."""
    app, table = hot_seat("chase", speed="off")
    assert T.drive(app, lambda tb: tb.state == "human", random.Random(2))
    T.key(app, pygame.K_ESCAPE)
    button = app.top.list.by_name("export")
    assert not button.enabled and button.text() == "Export record (after the game)"
    T.click_button(app, button)
    app.top.export()
    assert app.toast is None and not list((home / "saves" / "exports").glob("*.json"))
    T.key(app, pygame.K_ESCAPE)
    assert app.top is table
    table.game.finished = True                      # the game over: exported at once
    T.key(app, pygame.K_ESCAPE)
    button = app.top.list.by_name("export")
    assert button.enabled and button.text() == "Export record"
