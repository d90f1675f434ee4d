"""Which of the game's languages the person's desktop speaks, for the settings'
"system language".

The environment (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``) wins where it
names a language: a terminal's choice. A program started from the Windows Start menu
or the macOS Finder has none of these, and Python's locale there names, at best, the
region whose number formats are used, not the desktop's language (on macOS just
``UTF-8``). So Windows is asked for the user's display language and macOS's global
preferences for the first preferred language; only then Python's locale. Anything
that cannot be read is skipped, and the answer is English when nothing names German.
"""

from __future__ import annotations

import locale
import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

ENV_KEYS = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
#: Where macOS keeps the user's preferred languages (``AppleLanguages``).
MAC_PREFS = Path("~/Library/Preferences/.GlobalPreferences.plist")
#: Larger than any real preferences file; a bigger one is not read.
MAC_PREFS_LIMIT = 4 << 20
#: The primary language of a Windows LANGID (its low ten bits) that is German.
WINDOWS_GERMAN = 0x07


def language_of(names: Iterable[str]) -> str:
    """``de`` if the first name that names a language is German, else ``en``. The C and
    POSIX locales name none."""
    for name in names:
        name = name.strip().lower()
        if not name or name in ("c", "posix") or name.startswith("c."):
            continue
        return "de" if name.startswith(("de", "german")) else "en"
    return "en"


def system_language() -> str:
    """The game's language for this desktop: ``de`` or ``en``."""
    return language_of(_names())


def _names() -> Iterable[str]:
    """The places that may name the desktop's language, most telling first (each
    asked only when the ones before it named none)."""
    for key in ENV_KEYS:
        yield os.environ.get(key, "")
    if sys.platform == "win32":
        yield windows_language()
    elif sys.platform == "darwin":
        yield mac_language()
    try:
        yield locale.getlocale()[0] or ""
    except (ValueError, TypeError):
        pass


def windows_language(langid: int | None = None) -> str:
    """The Windows user's display language as a locale name (``de_DE``), or ``""``.
    ``langid`` stands in for ``GetUserDefaultUILanguage`` (tests)."""
    if langid is None:
        try:
            import ctypes

            langid = int(ctypes.windll.kernel32.GetUserDefaultUILanguage())  # type: ignore[attr-defined]
        except (AttributeError, OSError, ValueError):
            return ""
    name = locale.windows_locale.get(langid, "")
    if not name and langid & 0x3FF == WINDOWS_GERMAN:
        name = "de"                      # a German variant Python's table does not list
    return name


def mac_language(prefs: Path | None = None) -> str:
    """The first of the macOS user's preferred languages (``de-DE``), or ``""``."""
    import plistlib  # macOS only: not on every start elsewhere
    from xml.parsers.expat import ExpatError

    path = (prefs or MAC_PREFS).expanduser()
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAC_PREFS_LIMIT:
            return ""                     # a FIFO would block, a huge file would stall
        with open(path, "rb") as f:
            data = plistlib.loads(f.read(MAC_PREFS_LIMIT))
    except (OSError, ValueError, ExpatError, RecursionError):
        return ""
    langs = data.get("AppleLanguages") if isinstance(data, dict) else None
    if isinstance(langs, list) and langs and isinstance(langs[0], str):
        return langs[0]
    return ""
