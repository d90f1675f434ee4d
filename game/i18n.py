"""German and English texts: ``t(key, **fmt)`` looks a key up in the active catalogue.

Catalogues are JSON files in ``game/locale`` (``de.json``, ``en.json``). A key missing
from the active language falls back to English, then to the key itself, so a missing
translation is visible but never fatal. The default language is the desktop's
(:mod:`game.syslang`): German if it speaks German, else English.

The active language is one per process (the window shows one language at a time):
the app sets it from the settings. Code that needs another language for a while (a
test, a tool rendering both) uses :func:`language`, which puts the old one back.

Code without a screen may hand over a :class:`Phrase` where a text is wanted (an OS
error's reason, ``game.fileio.reason``): it reads as its English words (in a log, in
an exception message) and :func:`t` puts it into the active language when it is a
parameter of a text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from game.syslang import system_language

LANGS = ("de", "en")
_LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_lang = "en"


class Phrase(str):
    """Words that read as themselves (English) but carry the locale ``key`` (and its
    parameters) that says them in any language.

    A plain ``str`` everywhere (equal to, and formatted as, its English words: logs and
    code without a screen are unchanged); :func:`t` translates a parameter that is a
    Phrase. A key missing from both catalogues leaves the English words. The phrase is
    lost once it is pasted into a larger string (``f"{path}: {phrase}"``): pass it on
    as it is to keep it translatable.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, text: str, key: str, **params: Any) -> Phrase:
        self = super().__new__(cls, text)
        self.key = key
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # str's own pickling would call __new__ with the text alone
        return (_rebuild, (type(self), str(self), self.key, self.params))

    def translated(self) -> str:
        """These words in the active language (the English words if it has no key)."""
        return t(self.key, **self.params) if has(self.key) else str(self)


def _rebuild(cls: type[Phrase], text: str, key: str, params: dict[str, Any]) -> Phrase:
    return cls(text, key, **params)


@cache
def catalogue(lang: str) -> dict[str, Any]:
    try:
        return json.loads((_LOCALE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def system_lang() -> str:
    """``de`` when the desktop speaks German, else ``en`` (:mod:`game.syslang`)."""
    return system_language()


def set_lang(lang: str | None) -> str:
    global _lang
    _lang = lang if lang in LANGS else system_lang()
    return _lang


def get_lang() -> str:
    return _lang


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """``with language("de"):`` texts in that language, the previous one after."""
    global _lang
    before = _lang
    try:
        yield set_lang(lang)
    finally:
        _lang = before


def has(key: str) -> bool:
    return key in catalogue(_lang) or key in catalogue("en")


def _said(value: Any) -> Any:
    """A parameter as the text says it now: a :class:`Phrase` in the active language, a
    function of no arguments asked (a word of the language kept for later, such as a
    seat's "Player 1" in the table's log, reads in the language of the moment)."""
    if isinstance(value, Phrase):
        return value.translated()
    return value() if callable(value) else value


def t(key: str, **fmt: Any) -> str:
    """The text for ``key`` in the active language, formatted with ``fmt`` (each value
    as :func:`_said` says it)."""
    text = catalogue(_lang).get(key)
    if text is None:
        text = catalogue("en").get(key, key)
    if isinstance(text, list):
        text = "\n".join(text)
    if fmt:
        fmt = {k: _said(v) for k, v in fmt.items()}
        try:
            return str(text).format(**fmt)
        except (KeyError, IndexError, ValueError):
            return str(text)
    return str(text)


def plural_key(key: str, n: int) -> str:
    """``key.one`` for exactly one and ``key.other`` for any other count, when the
    catalogue has them (German and English both make that one distinction), else
    ``key`` itself."""
    form = f"{key}.one" if n == 1 else f"{key}.other"
    return form if has(form) else key


def scored_key(key: str, counting: bool) -> str:
    """``key``, or its ``_counters`` form for a game scored in counters (Rams'
    ``scoring: counters``), where a text about lives would be wrong."""
    return key + "_counters" if counting else key


def tn(key: str, n: int, **fmt: Any) -> str:
    """The text for ``key`` in the form for the count ``n`` ("1 game", "2 games");
    ``n`` is also passed to the text as ``{n}``."""
    fmt.setdefault("n", n)
    return t(plural_key(key, n), **fmt)


def percent(share: float) -> str:
    """``share`` (0 to 1) as a whole percentage, written as the active language
    writes one: "37%" in English, "37 %" in German."""
    return t("number.percent", p=int(round(100 * float(share))))


def date(stamp: float, clock: bool = False) -> str:
    """The local date of the moment ``stamp`` (seconds since the epoch) as the active
    language writes a date: 2026-12-07 in English (07.12.2026 would read as the 12th of
    July to many), 07.12.2026 in German; with ``clock`` the time of day after it."""
    tm = time.localtime(stamp)
    day = t("number.date", d=f"{tm.tm_mday:02d}", m=f"{tm.tm_mon:02d}", y=f"{tm.tm_year:04d}")
    return f"{day} {tm.tm_hour:02d}:{tm.tm_min:02d}" if clock else day


def card_name(code: str) -> str:
    """A card's name in the active language."""
    from game.cards import card_name as _name

    try:
        return _name(code, _lang)
    except (KeyError, IndexError):
        return code
