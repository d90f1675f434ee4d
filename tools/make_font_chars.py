#!/usr/bin/env python3
"""Write the characters the window's text faces can draw into ``game/data/font_chars.json``.

Usage::

    python tools/make_font_chars.py            # writes game/data/font_chars.json
    python tools/make_font_chars.py OUT_DIR    # writes OUT_DIR/font_chars.json (tests)

A character counts when every face the window may set a name in has a glyph for it:
Lato's regular and bold cuts (``game.view.text.FACES``, from the ``font-lato``
package) and pygame's built-in font, which stands in when that package is missing
(:func:`game.view.text.font`). So a name the game keeps is drawn without boxes by
either, and the rule does not change with the install; it costs the seven symbols
Lato has and the built-in font lacks (``ˉ Ω ∏ ∞ ∫ ≈ ♩``), no letter.

The faces' character maps are read with ``pygame.freetype`` (``get_metrics`` gives
``None`` for a character without a glyph; ``pygame.font`` answers for those with
the face's empty box). The file holds compact ``[first, last]`` ranges of code
points, so :mod:`game.drawable` decides without pygame (the phone server's thread
loads no font). Needs ``font-lato``: without it the script stops with an error.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402
import pygame.freetype  # noqa: E402

from game.view import text  # noqa: E402

NAME = "font_chars.json"
#: the code points asked per call (surrogates are no characters and are skipped)
_CHUNK = 4096


def faces() -> list[tuple[str, str]]:
    """(label, file) of every face counted: Lato regular and bold, the built-in font."""
    out = []
    for bold in (False, True):
        path = text.face_path(bold)
        if path is None:
            raise SystemExit("font-lato is not installed: the faces to read are missing")
        out.append((text.FACES[bold], path))
    builtin = pygame.font.get_default_font()
    out.append((builtin, str(Path(pygame.__file__).parent / builtin)))
    return out


def covered(path: str) -> set[int]:
    """The code points ``path``'s face has a glyph for."""
    face = pygame.freetype.Font(path, 20)
    out: set[int] = set()
    for start in range(0, 0x110000, _CHUNK):
        chars = "".join(chr(c) for c in range(start, start + _CHUNK)
                        if not 0xD800 <= c <= 0xDFFF)
        out.update(ord(ch) for ch, m in zip(chars, face.get_metrics(chars), strict=True)
                   if m is not None)
    return out


def ranges(points: set[int]) -> list[list[int]]:
    """``points`` as sorted ``[first, last]`` runs."""
    out: list[list[int]] = []
    for p in sorted(points):
        if out and out[-1][1] == p - 1:
            out[-1][1] = p
        else:
            out.append([p, p])
    return out


def build() -> dict[str, object]:
    pygame.freetype.init()
    used = faces()
    common = set.intersection(*(covered(path) for _, path in used))
    return {"faces": [label for label, _ in used], "ranges": ranges(common)}


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "game" / "data"
    out.mkdir(parents=True, exist_ok=True)
    data = build()
    body = ",\n".join(json.dumps(r) for r in data["ranges"])   # type: ignore[union-attr]
    (out / NAME).write_text(f'{{"faces": {json.dumps(data["faces"])},\n"ranges": [\n{body}\n]}}\n',
                            encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
