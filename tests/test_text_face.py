"""The text face: Lato from the font-lato package (its own folder, not a copy), a
real bold cut, kerning, and a glyph for every character the game's texts use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.drawable import chars, drawable  # noqa: E402
from game.view import text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: characters Lato has no glyph for: an emoji, a Chinese name, Greek, a capital sharp s
OTHERS = "\U0001F37A\u5f20\u4f1f\u03a9\u1e9e"


@pytest.fixture(autouse=True)
def fonts():
    pygame.font.init()
    text.clear_cache()
    yield
    text.clear_cache()


def test_faces_come_from_the_font_package():
    import font_lato

    folder = Path(font_lato.__file__).resolve().parent
    for bold, name in ((False, "Lato-Regular.ttf"), (True, "Lato-Bold.ttf")):
        path = Path(text.face_path(bold))
        assert path.name == name and folder in path.resolve().parents
    assert (Path(text.face_path(False)).parent / text.LICENCE).is_file()


def test_bold_is_its_own_cut_not_a_smeared_regular():
    regular, bold = text.font(40), text.font(40, True)
    assert regular.name == bold.name == "Lato"
    assert (regular.style_name, bold.style_name) == ("Regular", "Bold")


def test_pairs_are_kerned():
    f = text.font(60, True)
    assert f.size("AV")[0] < f.size("A")[0] + f.size("V")[0]
    assert f.size("To")[0] < f.size("T")[0] + f.size("o")[0]


def _texts() -> set[str]:
    chars: set[str] = set()
    for lang in ("de", "en"):
        data = json.loads((ROOT / "game" / "locale" / f"{lang}.json").read_text("utf-8"))
        for v in data.values():
            chars |= set("".join(v) if isinstance(v, list) else v)
    return {c for c in chars if c.strip()}


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_of_the_texts_has_a_glyph(bold):
    f = text.font(40, bold)

    def pixels(s: str) -> bytes:
        return pygame.image.tobytes(f.render(s, True, (255, 255, 255)), "RGBA")

    missing_glyph = pixels("\ue000")          # a private-use code point: the empty box
    missing = sorted(c for c in _texts() | set("ÄÖÜäöüß") if pixels(c) == missing_glyph)
    assert not missing, f"no glyph for {missing}"


def test_without_the_package_the_built_in_font_stands_in(monkeypatch):
    monkeypatch.setattr(text, "face_folder", lambda: None)
    monkeypatch.setattr(text, "_paths", {})
    f = text.font(30, True)
    assert f.bold and f.size("Jörg")[0] > 0


def test_the_characters_names_keep_to_are_the_faces(tmp_path):
    """``game/data/font_chars.json`` (what a name keeps, :mod:`game.drawable`) is what
    ``tools/make_font_chars.py`` reads from the installed faces now: after a new
    font-lato, run the script and commit its file."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_font_chars.py"), str(tmp_path)],
                   check=True, capture_output=True)
    fresh = json.loads((tmp_path / "font_chars.json").read_text("utf-8"))
    committed = json.loads((ROOT / "game" / "data" / "font_chars.json").read_text("utf-8"))
    assert fresh == committed, "game/data/font_chars.json is stale: run tools/make_font_chars.py"


@pytest.mark.parametrize("bold", [False, True])
def test_the_window_draws_every_character_a_name_keeps_and_boxes_the_others(bold, monkeypatch):
    """The data, read another way: each of its characters is drawn by Lato and by the
    built-in font that stands in without it, not as the empty box; an emoji and a
    script Lato lacks are drawn as the box, and a name loses them."""
    def boxed(f: pygame.font.Font) -> set[str]:
        def pixels(s: str) -> bytes:
            return pygame.image.tobytes(f.render(s, True, (255, 255, 255)), "RGBA")
        box = pixels("\ue000")               # a private-use code point: the empty box
        return {c for c in chars() | set(OTHERS) if c != " " and pixels(c) == box}

    assert boxed(text.font(40, bold)) == set(OTHERS)
    assert drawable(OTHERS) == ""
    monkeypatch.setattr(text, "face_folder", lambda: None)     # the built-in font
    monkeypatch.setattr(text, "_paths", {})
    monkeypatch.setattr(text, "_fonts", {})
    assert not boxed(text.font(40, bold)) - set(OTHERS)


def test_a_stored_name_shows_without_boxes_for_what_the_face_lacks():
    """Names typed now keep only what the face draws; a name from an older record or
    another tool drew a box for each emoji ("Jörg 🍺"). It shows without them, as
    wide as the plain name; a name of nothing but such characters still shows
    something (its boxes), not an empty plate."""
    plain = text.render("Jörg", 30)
    mixed = text.render("Jörg \U0001F37A", 30)
    assert mixed.get_size() == plain.get_size()
    assert text.size_of("Jörg \U0001F37A", 30) == text.size_of("Jörg", 30)
    assert text.render("\U0001F37A\U0001F37A", 30).get_width() > 0
    assert text.settable("Anna-Lena Müller") == "Anna-Lena Müller"
    for catalogue_text in ("Esc, P: dieses Menü · F11: Vollbild", "1–9 · ‹ ›"):
        assert text.settable(catalogue_text) == catalogue_text


def test_every_text_of_the_catalogue_is_set_as_written():
    """A text the game shows is set character for character: only what a stored name
    may bring is left out. Line breaks too: a text of several lines (a hint under the
    question, a notice of several files) lost its breaks, and "Play or drop out?" ran
    into "Hint: Play" as one line."""
    import json
    from pathlib import Path

    import game

    folder = Path(game.__file__).parent / "locale"
    texts = [v for f in sorted(folder.glob("*.json"))
             for v in json.loads(f.read_text(encoding="utf-8")).values() if isinstance(v, str)]
    assert len(texts) > 500
    changed = [v for v in texts if text.settable(v) != v]
    assert not changed, changed[:5]
    joined = "Play or drop out?\nHint: Play\n\nAbove the cards: the risk"
    assert text.settable(joined) == joined
    assert text.wrap(joined, 20, 2000) == ["Play or drop out?", "Hint: Play", "",
                                           "Above the cards: the risk"]
    assert text.settable("Jörg \U0001F37A\nBen") == "Jörg\nBen"    # line by line
