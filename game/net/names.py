"""The phone seats' names as the server knows them (no I/O; the server's thread owns it).

The table sends its list of names (:meth:`NameBook.set_all`); a guest who claims a seat,
or a seat opened by its link whose name is still the table's default, gives one
(:meth:`NameBook.give`). The table hears of such a name only a moment later, so a name
given here outlives the table's older list: no second phone can take it meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterable

from game.net.access import same_name
from game.net.protocol import Refused


class NameBook:
    """``renamable``: the seats that may still choose their name, once each."""

    def __init__(self, renamable: Iterable[int] = ()) -> None:
        self.names: list[str] = []
        self.renamable = set(renamable)
        #: names given here (a guest's, a seat's own): the table's list may lag
        self.given: dict[int, str] = {}
        #: the seats still called by the table's default: that name by language
        self.local: dict[int, dict[str, str]] = {}

    def of(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else ""

    def entry(self, seat: int) -> dict[str, object]:
        """``seat`` in the guests' list of free seats: its name, and its default name
        in every language while it has one (``local``: a page says its language's)."""
        return {"seat": seat, "name": self.of(seat), "local": dict(self.local.get(seat, {}))}

    def check(self, seat: int, name: str) -> None:
        """``name`` must not look like another seat's (computers' included)."""
        if any(same_name(name, other) for s, other in enumerate(self.names) if s != seat):
            raise Refused("name_taken", detail={"name": name})

    def rename(self, seat: int | None, name: str) -> None:
        """A seat opened by its link names itself: once, and only while its name is the
        table's default (a name given at the table or by a guest stays). ``seat`` is
        the line's (``None``: it has not said hello)."""
        if seat is None:
            raise Refused("not_joined")
        if seat not in self.renamable:
            raise Refused("name_set", detail={"seat": seat})
        self.check(seat, name)
        self.give(seat, name)

    def give(self, seat: int, name: str) -> None:
        """``seat`` is called ``name`` from now on and cannot choose again."""
        self.renamable.discard(seat)
        self.given[seat] = name
        self.local.pop(seat, None)
        while len(self.names) <= seat:
            self.names.append("")
        self.names[seat] = name

    def set_all(self, names: list[str],
                defaults: dict[int, dict[str, str]] | None = None) -> None:
        """The table's list (``defaults``: its default names by language, by seat); a
        name given here that it has not heard of yet stays."""
        for seat, name in self.given.items():
            if seat < len(names):
                names[seat] = name
        self.names = names
        self.local = {s: d for s, d in (defaults or {}).items() if s not in self.given}
