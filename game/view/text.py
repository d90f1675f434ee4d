"""Text in the game's face, cached by (text, size, colour, bold).

The face is Lato (SIL Open Font License 1.1) in its regular and bold cuts, from the
``font-lato`` package, found through that package's own data folder: a hinted text
face with every German letter and kerning, so "Jörg Müßig" and "left" read right at
every size (pygame's built-in font drew bold umlauts like macrons and spaced letters
after "l"). Suit symbols are never text: they are drawn as shapes
(:func:`game.view.cardart.draw_suit`).

Sizes are nominal: a face is opened at ``FACE_SCALE`` of the size asked for, so its
capitals stand as tall as the built-in font's at that size, and layouts tuned in
those sizes keep their proportions -- but never below ``MIN_PX`` pixels, so a small
window still has readable text (layouts measure with the same fonts). Without the package (a broken install) the
built-in font stands in, and the game still runs.

Players' names keep to the characters these faces and the built-in font all draw
(:mod:`game.drawable`), so a name never shows as boxes, whichever face draws it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pygame

from game import jsonio
from game.drawable import drawable, drawable_name
from game.view.picture_cache import PictureCache

FACES = {False: "Lato-Regular.ttf", True: "Lato-Bold.ttf"}
LICENCE = "OFL.txt"
FACE_SCALE = 0.7
#: no text is set smaller than this many pixels, however small the window
MIN_PX = 11

log = logging.getLogger("stammtisch.text")

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
#: set texts kept: at most 1,500, and two windows' worth of pixels (at least 16 MB):
#: a frame sets a few dozen, so this is many frames' worth at any window size, while
#: the texts made for one moment (a round's score line, a name in a banner) cannot
#: fill the memory of an evening's demo at 3840x2160
_cache = PictureCache(entries=1500, screens=2, floor=16 * 2**20)
_paths: dict[bool, str | None] = {}


def face_folder() -> Path | None:
    """The font package's folder of font files (None when it is not installed)."""
    try:
        import font_lato  # type: ignore[import-untyped]
    except ImportError:
        return None
    folder = Path(getattr(font_lato, "font_directory", "") or
                  Path(font_lato.__file__).resolve().parent / "files")
    return folder if folder.is_dir() else None


def face_path(bold: bool = False) -> str | None:
    """The file of the regular or bold face, or None (the built-in font stands in)."""
    if bold not in _paths:
        folder = face_folder()
        path = folder / FACES[bold] if folder is not None else None
        _paths[bold] = str(path) if path is not None and path.is_file() else None
        if _paths[bold] is None:
            log.warning("font-lato is missing; text uses pygame's built-in font")
    return _paths[bold]


def font(size: int, bold: bool = False) -> pygame.font.Font:
    size = max(8, int(size))
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        path = face_path(bold)
        if path is not None:
            try:
                f = pygame.font.Font(path, max(MIN_PX, round(size * FACE_SCALE)))
            except (OSError, pygame.error):
                f = None
        if f is None:
            f = pygame.font.Font(None, size)
            f.bold = bold
        _fonts[key] = f
    return f


def settable(text: str) -> str:
    """``text`` as the font can set it. Names and messages come from files a player
    may have edited (records, saves, statistics), and the font refuses three things
    in them: a NUL character (``ValueError``), a lone surrogate such as JSON's
    ``"\\ud800"`` (``UnicodeEncodeError``), and -- in :func:`render` -- a text whose
    every character has no width (``pygame.error``). The first two become U+FFFD, the
    replacement character; a surrogate pair becomes the character it stands for.

    A name from before the entries kept names drawable (:mod:`game.drawable`), or
    from another tool, may hold what the face has no glyph for: "Jörg 🍺" is set as
    "Jörg" rather than with a box. A text with nothing drawable keeps its boxes: a
    name of boxes is still somebody."""
    text = jsonio.well_formed(text)
    text = text.replace("\x00", "\ufffd") if "\x00" in text else text
    if drawable(text) == text:
        return text
    if "\n" in text:                 # a text of lines (a hint, a notice): line by line
        return "\n".join(settable(line) for line in text.split("\n"))
    kept = drawable_name(text)       # its spaces tidied where something was left out
    return kept or text


def render(text: str, size: int, colour=(255, 255, 255), bold: bool = False) -> pygame.Surface:
    size = max(8, int(size))
    key = (text, size, tuple(colour), bold)
    surf = _cache.get(key)
    if surf is not None:
        return surf
    f = font(size, bold)
    shown = settable(text)
    if shown and f.size(shown)[0] == 0:     # only zero-width characters: nothing to see
        shown = ""
    surf = f.render(shown, True, colour)
    _cache.put(key, surf)
    return surf


def size_of(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    return font(size, bold).size(settable(text))


def fit(text: str, size: int, max_w: int, bold: bool = False, min_size: int = 10) -> int:
    """The largest size <= ``size`` at which ``text`` fits into ``max_w`` pixels."""
    s = int(size)
    if len(text) > max_w + 1:       # cannot fit at any size (see _longest_fit)
        return min(s, min_size)
    text = settable(text)
    while s > min_size and font(s, bold).size(text)[0] > max_w:
        s -= 1
    return s


def _longest_fit(f: pygame.font.Font, text: str, max_w: int, tail: str = "") -> int:
    """The most leading characters of ``text`` that fit into ``max_w`` pixels with
    ``tail`` after them (0 if none does): a binary search over at most ``max_w`` + 1
    characters, so a name of a million characters costs what one of a thousand does
    (no character the font sets is narrower than a pixel but the zero-width ones, and
    a text cut there is still shown with its ellipsis)."""
    max_w = int(max_w)              # a width computed in floats: whole pixels
    lo, hi = 0, min(len(text), max(0, max_w) + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid] + tail)[0] <= max_w:
            lo = mid
        else:
            hi = mid - 1
    return lo


def ellipsize(text: str, size: int, max_w: int, bold: bool = False) -> str:
    f = font(size, bold)
    text = settable(text)
    if len(text) <= max_w + 1 and f.size(text)[0] <= max_w:
        return text
    return text[:_longest_fit(f, text, max_w, "…")] + "…"


def wrap(text: str, size: int, max_w: int, bold: bool = False) -> list[str]:
    """Break ``text`` into lines no wider than ``max_w`` (words longer are cut)."""
    f = font(size, bold)
    text = settable(text)
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        line = ""
        for w in words:
            cand = w if not line else line + " " + w
            if f.size(cand)[0] <= max_w:
                line = cand
                continue
            if line:
                lines.append(line)
            while len(w) > 1 and (len(w) > max_w + 1 or f.size(w)[0] > max_w):
                k = max(1, _longest_fit(f, w, max_w))
                lines.append(w[:k])
                w = w[k:]
            line = w
        lines.append(line)
    return lines


def clamp(lines: list[str], size: int, max_w: int, room: int,
          bold: bool = False) -> list[str]:
    """At most ``room`` of ``lines``; what does not fit is joined into the last line and
    ellipsized, so a text is shown shortened with a sign, never cut off silently."""
    room = max(1, room)
    if len(lines) <= room:
        return lines
    return lines[:room - 1] + [ellipsize(" ".join(lines[room - 1:]), size, max_w, bold)]


def blit(surf: pygame.Surface, text: str, size: int, pos: tuple[float, float],
         colour=(255, 255, 255), anchor: str = "topleft", bold: bool = False,
         shadow: bool = False) -> pygame.Rect:
    img = render(text, size, colour, bold)
    rect = img.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    if shadow:
        sh = render(text, size, (0, 0, 0), bold)
        off = max(1, int(size) // 18)
        surf.blit(sh, rect.move(off, off))
    surf.blit(img, rect)
    return rect


def clear_cache() -> None:
    """Forget fonts and rendered text (needed after ``pygame.quit()``)."""
    _cache.clear()
    _fonts.clear()
