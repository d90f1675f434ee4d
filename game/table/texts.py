"""How a table names its seats in sentences, and its log lines. No pygame.

The one person at the screen (a solo game) is addressed in the second person: "You
keep", "swaps with you"; with several people, or none, every seat goes by its name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game import i18n
from game.i18n import card_name, t


class SeatNames:
    def __init__(self, names: Sequence[str], humans: Sequence[int]) -> None:
        self.names = list(names)
        self.humans = list(humans)

    def name(self, seat: int) -> str:
        return self.names[seat]

    def solo(self, seat: int) -> bool:
        """``seat`` is the only person at the screen."""
        return len(self.humans) == 1 and seat == self.humans[0]

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
    """A log line in the current language (card codes named as cards)."""
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
