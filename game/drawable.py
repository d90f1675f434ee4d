"""A name is what the table can draw: the characters of the window's text faces.

Names come from a phone's keyboard, a guest's join, the setup's name boxes and
``stammtisch host --names``; a phone's browser draws any character, but the window's
face (Lato, :mod:`game.view.text`) has no glyph for an emoji or most scripts, so the
table showed "Jörg 🍺" with a box for the 🍺 while the phones showed the mug. Every
entry keeps only what the faces draw (:func:`drawable_name`), so the table and the
phones say the same.

The characters are ``data/font_chars.json``, written by ``tools/make_font_chars.py``
from the faces themselves (Lato's regular and bold cuts and pygame's built-in font,
which stands in without the font package: the characters all three draw), and
checked against them by ``tests/test_text_face.py``. Reading it needs no pygame, so
the phone server's thread decides too.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "font_chars.json"

_SPACES = re.compile(" {2,}")


@cache
def chars() -> frozenset[str]:
    """The printable characters every text face draws."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    return frozenset(c for first, last in data["ranges"]
                     for c in map(chr, range(first, last + 1)) if c.isprintable())


def drawable(text: str) -> str:
    """``text`` with only characters the faces draw. It is composed first (a phone may
    send "ö" as "o" and a combining diaeresis); a letter the faces lack becomes its
    base letter where they have that ("ř": "r"); anything else (an emoji, another
    script, a control character) is dropped. Spaces stay as they are, for typing."""
    have = chars()
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in have:
            out.append(ch)
        else:
            out.extend(c for c in unicodedata.normalize("NFD", ch) if c in have)
    return "".join(out)


def drawable_name(text: str) -> str:
    """A player's name as the table can draw it: :func:`drawable`, each run of spaces
    one space, trimmed ("" when nothing is left: the entries refuse that as empty)."""
    return _SPACES.sub(" ", drawable(text)).strip()
