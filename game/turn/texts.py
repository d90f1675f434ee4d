"""How a table names its seats in sentences, and its log lines. No pygame.

The one person at the screen (a solo game) is addressed in the second person: "You
keep", "swaps with you"; with several people, or none, every seat goes by its name,
at most :data:`SHOWN_NAME` characters of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game import i18n
from game.i18n import card_name, t

#: The most characters of a seat's name the screens show. The game itself writes at
#: most 16 (the setup's name box, a guest's phone, the settings); a record or a save
#: edited by hand may hold any number, and the table wrapped and measured a name of
#: 200,000 characters whole, in its log on every frame.
SHOWN_NAME = 32


def shown_name(name: str) -> str:
    """``name`` as the screens show it: longer than :data:`SHOWN_NAME` characters, cut
    with an ellipsis before anything measures or wraps it (the record keeps it whole)."""
    return name if len(name) <= SHOWN_NAME else name[:SHOWN_NAME - 1] + "…"


def role_name(role: str | None, seat: int) -> str | None:
    """The word for a seat's role (``game.records.ROLES``) in the current language."""
    if role == "you":
        return t("table.you_name")
    if role == "player":
        return t("setup.player_n", n=seat + 1)
    return None


def seat_name(seat: dict[str, Any], index: int) -> str:
    """How a seat is called, from a table seat or a record's seat dict: its role's
    word in the current language (also for games saved before roles were kept),
    else its name."""
    from game.store import role_of

    name = str(seat.get("name", "?"))
    role = seat.get("role") or role_of(
        name, bool(seat.get("human")) or seat.get("type") == "human", index)
    return role_name(role, index) or shown_name(name)


class SeatNames:
    """The names of a table's seats. ``roles`` (optional, per seat) name a seat by
    what it is (``you``, ``player``) in the current language; the seat whose role is
    ``you``, or the one person at the screen, is addressed in the second person."""

    def __init__(self, names: Sequence[str], humans: Sequence[int],
                 roles: Sequence[str | None] | None = None) -> None:
        self.names = list(names)
        self.humans = list(humans)
        self.roles = list(roles or [None] * len(self.names))

    def name(self, seat: int) -> str:
        return role_name(self.roles[seat], seat) or shown_name(self.names[seat])

    def solo(self, seat: int) -> bool:
        """``seat`` is addressed as "you": the only person at the screen, or the seat
        whose role is ``you`` (a solo game watched again)."""
        if len(self.humans) == 1:
            return seat == self.humans[0]
        return not self.humans and self.roles[seat] == "you"

    def obj(self, seat: int, case: str = "dat") -> str:
        """A seat named as the object of a sentence ("mit dir", "blockt dich")."""
        return t("table.you_" + case) if self.solo(seat) else self.name(seat)

    def listing(self, seats: Sequence[int]) -> str:
        return ", ".join(self.name(s) for s in seats)

    def log_key(self, key: str, seat: int | None) -> str:
        """``key``, or its second-person form when ``seat`` is the solo person."""
        if seat is not None and self.solo(seat) and i18n.has(key + "_you"):
            return key + "_you"
        return key


def log_text(key: str, fmt: dict[str, Any]) -> str:
    """A log line in the current language (card codes named as cards). A value may be
    a function of no arguments, which ``t`` asks now: a word of the language (a seat's
    "Player 1", "you", a suit's name) is kept that way, so that the log reads in a
    language chosen in the middle of a game."""
    f = dict(fmt)
    if f.get("card"):
        f["card"] = card_name(f["card"])
    return t(key, **f)


def winner_text(winner: Any, names: SeatNames) -> tuple[str, str]:
    """The banner key and the names for a game's ``winner``."""
    if isinstance(winner, int) and not isinstance(winner, bool):
        return "banner.winner", names.name(winner)
    if isinstance(winner, list) and winner:
        return "banner.shared", names.listing(winner)
    return "banner.nobody", ""
