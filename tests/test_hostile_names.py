"""Names and dates from the player's files reach the screen without stopping it.

A record, an autosave, the settings or the statistics may hold any text as a name
(a NUL character, a lone surrogate such as JSON's ``"\\ud800"``, only zero-width
characters, a million characters) and any number as a time. The font refuses the
first three outright and took quadratic time over the fourth; ``time.localtime``
refuses times out of its range. Found by fuzzing the files the window reads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from game import notices, records
from game.scenes import testing as T
from game.view import text

EXAMPLES = Path(__file__).parent / "examples"
ODD_NAMES = ["a\x00b", "\ud800x", "\u200b", "\u202e"]


@pytest.fixture()
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    notices.reset()
    yield tmp_path
    pygame.quit()


def record_named(name: str) -> records.Record:
    doc = json.loads((EXAMPLES / "0006_chase_3p_complete.json").read_text())
    doc["seats"][1]["name"] = name
    return records.from_dict(doc)


@pytest.mark.parametrize("name", ODD_NAMES, ids=["nul", "surrogate", "zero-width", "rlo"])
def test_a_record_with_an_odd_name_replays_in_the_window(home, name):
    """The record is valid (docs/records.md asks only for a non-empty name); its replay and
    its review draw the name instead of raising from the font."""
    record = record_named(name)
    app = T.make_app()
    app.open("replay", "reset", record=record, title="odd")
    for _ in range(30):
        T.frame(app, 0.2)
    app.open("review", "reset", record=record, title="odd")
    T.frame(app)


@pytest.mark.parametrize("name", ODD_NAMES, ids=["nul", "surrogate", "zero-width", "rlo"])
def test_every_text_function_takes_any_string(home, name):
    T.make_app()                 # pygame and the game's fonts
    assert text.render(name, 20).get_height() > 0
    assert text.size_of(name, 20)[1] > 0
    assert text.fit(name, 20, 100) <= 20
    assert text.ellipsize(name * 50, 20, 60)
    assert text.wrap(name * 50, 20, 60)


class CountingFont:
    """A font that counts the characters it is asked to measure."""

    def __init__(self, font: pygame.font.Font) -> None:
        self.font = font
        self.measured = 0

    def size(self, s: str) -> tuple[int, int]:
        self.measured += len(s)
        return self.font.size(s)


def test_a_very_long_name_is_cut_in_a_few_measurements(home, monkeypatch):
    """Ellipsizing or wrapping a long name measured it once per character dropped
    (a 200,000-character name in a record held the replay for minutes; here 5,000
    characters, some 12 million measured before); now a binary search over at most
    as many characters as the width has pixels."""
    T.make_app()
    counting = CountingFont(text.font(20))
    monkeypatch.setattr(text, "font", lambda size, bold=False: counting)
    name = "x" * 5_000
    shown = text.ellipsize(name, 20, 200)
    assert shown.endswith("…") and len(shown) < 100
    assert counting.measured < 20 * 201
    counting.measured = 0
    assert text.fit(name, 20, 200) == 10
    assert counting.measured == 0
    counting.measured = 0
    lines = text.wrap("y" * 5_000, 20, 200)
    assert "".join(lines) == "y" * 5_000
    assert counting.measured < len(lines) * 20 * 201
