"""A name is what the table can draw (``game.drawable``): every entry of a name keeps
only the characters the window's text faces have, so the table never shows a box
("tofu") where a phone's browser shows an emoji. The phones' entries are in
``tests/test_phone_protocol.py`` and ``tests/test_phone_page.py``; the data's match
with the faces in ``tests/test_text_face.py``."""

from __future__ import annotations

import pygame
import pytest

from game.drawable import chars, drawable, drawable_name
from game.net.protocol import MAX_NAME, clean_name
from game.scenes import testing as T
from game.turn.seats import seats_from_setup

BEER = "\U0001F37A"


@pytest.mark.parametrize(("typed", "kept"), [
    (f"Jörg {BEER}", "Jörg"),
    (f"{BEER} Anna {BEER} Lena {BEER}", "Anna Lena"),     # no doubled space left
    ("Jo\u0308rg", "Jörg"),                  # "o" and a combining diaeresis: composed
    ("Dvořák", "Dvorák"),                   # no "ř" in the face: its base letter
    ("Łukasz Müßig", "Łukasz Müßig"),
    ("A\tn\u0000n\u200ba", "Anna"),          # no control or zero-width character
    ("x\ud800y", "xy"),                      # a lone surrogate (JSON's "\ud800")
    (BEER * 3, ""),
    ("\u5f20\u4f1f", ""),                    # a script the face lacks
    ("   ", ""),
])
def test_a_name_keeps_what_the_faces_draw(typed, kept):
    assert drawable_name(typed) == kept
    assert clean_name(typed) == (kept or None)


def test_typing_keeps_its_spaces_and_the_set_has_every_letter_of_german_and_english():
    assert drawable(f"Anna {BEER} ") == "Anna  "          # trimmed when the name is taken
    assert set("abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ ") <= chars()
    assert not {BEER, "\u00a0", "\x00", "\r"} & chars()   # printable characters only


def test_a_phones_name_is_cut_after_the_emoji_are_gone():
    assert clean_name(BEER * 10 + "Maximilian Müller") == "Maximilian Mülle"[:MAX_NAME]
    assert clean_name(f"Jörg {BEER}" * 4) == "Jörg Jörg Jörg J"


def test_the_setups_name_field_ignores_an_emoji(home):
    """SDL's TEXTINPUT delivers an emoji from an emoji picker or a phone keyboard's
    companion app; the name box took it, and the table's plates, log and results drew
    it as a box. The field takes only what the table draws."""
    app = T.make_app((800, 450), "en")
    app.open("setup", game_id="chase")
    setup = app.top
    T.key(app, pygame.K_DOWN)                 # the first seat's name
    T.key(app, pygame.K_RETURN)
    assert setup.seat_form.editing is not None
    setup.setup["seats"][0]["name"] = ""
    for typed in ("Jörg", " ", BEER, "\U0001F600\u200d"):
        T.type_text(app, typed)
    T.key(app, pygame.K_RETURN)
    assert setup.setup["seats"][0]["name"] == "Jörg "
    T.frame(app)
    assert app.top is setup


def test_a_stored_setup_name_the_table_cannot_draw_becomes_the_default():
    """A name kept in the settings from before (or edited there by hand) is taken as
    the table can draw it; one of emoji alone is the seat's default name."""
    setup = {"players": 3, "seats": [{"name": f"Jörg {BEER}", "human": True},
                                     {"name": BEER, "human": False, "level": "easy"},
                                     {"name": f"  Eva  {BEER} ", "human": False,
                                      "level": "easy"}]}
    assert [s["name"] for s in seats_from_setup(setup, "en")] == ["Jörg", "Anna", "Eva"]
