"""The first game's tips: the first time a situation comes up at the table, a short
text says what happens and why (your first decision, a King that blocks, the dealer's
draw, the lowest card losing; in Rams the trump, playing or dropping out, the drop
limit, leading and following suit, the lone player, the trick taken, the reckoning).
No pygame. Each game's situations are in its own module (``chase_tips``,
``rams_tips``: ``TIP_IDS``, ``for_decision(view, names)``, ``for_event(kind, data,
rules, viewer, names)``), named by the game's table scene (``tip_book``);
:mod:`game.table.tip_panel` shows the tips.

A tip is made only from what the seat at the screen may know: a decision's tip from
that seat's own view (its hand, the trick on the table, the rules), an event's tip
from the public event alone (a King shown in a block is shown to everybody). So a
tip never says anything about a hidden card.

Each tip has an ``id`` (the situation); the table remembers the ids already shown.

A tip keeps keys, not finished sentences: its title and body are text keys, and a fact
that is a word of the language (a card's or a suit's name, a seat's "Player 1") is kept
as a function of no arguments, asked when the tip is drawn. So a tip open or waiting
while another language is chosen in the settings reads in that language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.i18n import t


@dataclass(frozen=True)
class Tip:
    """One tip: its situation ``id``, the text keys of its title and of its body's
    sentences, and the facts they name (a value may be a function of no arguments,
    which ``t`` asks when :meth:`texts` is called)."""

    id: str
    title: str
    body: tuple[str, ...]
    fmt: dict[str, Any] = field(default_factory=dict)

    def texts(self) -> tuple[str, str]:
        """The title and the body in the current language."""
        return t(self.title, **self.fmt), " ".join(t(k, **self.fmt) for k in self.body)


Names = Callable[[int], str]

__all__ = ["Names", "Tip"]
