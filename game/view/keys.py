"""The keys of the buttons, in the language: a button's letter comes from the
catalogue (the table's moves ``key.<move>``, Rams ``key.rams.<move>``; another
screen's buttons ``key.<screen>.<button>``), a letter of its label in each language,
so German players press B for "Behalten" where English players press K for "Keep".
Used by the table and by the other screens alike."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pygame

from game.i18n import t


def move_key(move: str, prefix: str = "key.") -> tuple[int | None, str]:
    """The key of a move in the current language (its letter comes from the
    catalogue: K keep in English, B behalten in German) and the letter shown."""
    letter = t(prefix + move)
    if len(letter) != 1:
        return None, ""
    try:
        return pygame.key.key_code(letter.lower()), letter.upper()
    except ValueError:
        return None, ""


def key_buttons(buttons: Iterable[Any], prefix: str = "key.") -> None:
    """Give each button the key its name has in the current language (``prefix`` and
    the name in the catalogue), shown on the button; called again after a language
    change, so the letters follow it."""
    for b in buttons:
        b.hotkey, b.hint = move_key(b.name, prefix)


#: The names of the keys other than letters that buttons show, the same in both
#: languages; Space is named by the catalogue (``key.name.space``: German "Leer", as
#: a German key cap is named in short, like Entf and Strg).
KEY_NAMES = {pygame.K_ESCAPE: "Esc", pygame.K_F2: "F2", pygame.K_F5: "F5",
             pygame.K_RETURN: "Enter", pygame.K_RIGHT: ">"}


def key_name(key: int) -> str:
    """The name a button's badge shows for ``key`` in the current language."""
    if key == pygame.K_SPACE:
        return t("key.name.space")
    return KEY_NAMES.get(key) or pygame.key.name(key).capitalize()
