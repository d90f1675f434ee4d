"""The files the phone server may serve: the page, its script, texts and style, and
the generated card images. Everything else is "not found".

The page lives beside this module (``game/net/web/``, package data); its texts come
from the game's catalogues (:mod:`game.net.phone_texts`); card images come from
``sprites/`` (:mod:`game.assets`). Only names on the lists below are served, so no
path a device sends ever reaches the file system.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from game.assets import sprite_path
from game.cards import CUCKOO_VALUES, FRENCH52
from game.net import phone_texts

WEB_DIR = Path(__file__).resolve().parent / "web"

#: URL path -> (file in WEB_DIR, content type). ``/`` and the join links serve the page.
PAGE_FILES = {
    "phone.js": ("phone.js", "text/javascript; charset=utf-8"),
    "phone.css": ("phone.css", "text/css; charset=utf-8"),
}
PAGE = ("index.html", "text/html; charset=utf-8")
#: The page's texts: a script made from the catalogues, not a file.
TEXTS = ("texts.js", "text/javascript; charset=utf-8")
PNG = "image/png"

#: Card faces by set: the French faces in two or four colours, the Cuckoo values.
CARD_SETS: dict[str, frozenset[str]] = {
    "classic": frozenset(FRENCH52),
    "four": frozenset(FRENCH52),
    "cuckoo": frozenset(CUCKOO_VALUES),
}
BACKS = frozenset(f"back_{i}" for i in range(3))


@dataclass(frozen=True)
class Served:
    body: bytes
    content_type: str


_files: dict[Path, Served] = {}
_lock = threading.Lock()


def _read(path: Path, content_type: str) -> Served | None:
    """The file, read once and kept (a file that cannot be read now is tried again
    next time: it may be there, or a file descriptor free, by then)."""
    found = _files.get(path)
    if found is not None:
        return found
    try:
        found = Served(path.read_bytes(), content_type)
    except OSError:
        return None
    with _lock:
        _files[path] = found
    return found


def preload() -> int:
    """Read every file the server may serve (about 3 MB, once per process), so a
    request never opens a file: a device that holds many connections could have
    used up the descriptors by then. Returns the bytes held."""
    found = [page(), icon(), texts(), *(page_file(n) for n in PAGE_FILES),
             *(back_image(n) for n in BACKS),
             *(card_image(s, c) for s, cards in CARD_SETS.items() for c in cards)]
    return sum(len(f.body) for f in found if f is not None)


def page() -> Served | None:
    name, kind = PAGE
    return _read(WEB_DIR / name, kind)


def page_file(name: str) -> Served | None:
    """``phone.js``, ``texts.js`` or ``phone.css``; ``None`` for any other name."""
    if name == TEXTS[0]:
        return texts()
    found = PAGE_FILES.get(name)
    return _read(WEB_DIR / found[0], found[1]) if found else None


@cache
def texts() -> Served:
    """The page's texts in every language (``texts.js``)."""
    return Served(phone_texts.script(), TEXTS[1])


def card_image(card_set: str, name: str) -> Served | None:
    """A card face (``classic``/``four``/``cuckoo`` and a card code) or ``None``."""
    if name not in CARD_SETS.get(card_set, ()):
        return None
    return _read(Path(sprite_path("cards", card_set, f"{name}.png")), PNG)


def back_image(name: str) -> Served | None:
    if name not in BACKS:
        return None
    return _read(Path(sprite_path("backs", f"{name}.png")), PNG)


def icon() -> Served | None:
    return _read(Path(sprite_path("icon", "icon_256.png")), PNG)


def page_size() -> int:
    """Bytes of the page, its script and its style (card images not counted)."""
    return sum(len(s.body) for s in (page(), texts(), *(page_file(n) for n in PAGE_FILES))
               if s)
