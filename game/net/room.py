"""A table's phone seats in one object: the server, the link, and their wiring to the
table's news. The window's table and ``stammtisch host`` both use it.

A seat is a phone seat when its setup dict has ``"phone": True`` (records keep it as
a human seat: a person decided). A phone seat with ``"open_name": True`` still has
the table's default name: the phone that opens it by its link may choose its own,
once (docs/phone.md#seats-and-names). :meth:`PhoneRoom.sources` are the seats' move
sources for the turn flow; the room hears the table's "game started" and "move
applied" news (:mod:`game.turn.hooks`) and sends every phone its state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from game import i18n
from game.net.access import SeatAccess
from game.net.link import AWAY_AFTER, PhoneLink
from game.net.seat import PhoneSource
from game.net.server import PhoneServer
from game.turn import hooks as H
from game.turn.hooks import Hooks
from game.turn.texts import role_name, shown_name


def phone_seats(seats: Sequence[dict[str, Any]]) -> list[int]:
    return [i for i, s in enumerate(seats) if s.get("phone")]


def open_names(seats: Sequence[dict[str, Any]]) -> list[int]:
    """Phone seats whose name is the table's default (``open_name``)."""
    return [i for i, s in enumerate(seats) if s.get("phone") and s.get("open_name")]


def defaults(seats: Sequence[dict[str, Any]]) -> dict[int, dict[str, str]]:
    """The seats whose name is the table's default, that name in every language: a
    role's ("Player 1", ``game.records.ROLES``), or the one ``stammtisch host`` gives
    (``"default"``: "Phone 2", "Medium 3"). A page shows it in its own language, as
    the window shows a role in the window's; the table's ``names`` hold one language's."""
    out: dict[int, dict[str, str]] = {}
    for i, s in enumerate(seats):
        if isinstance(s.get("default"), dict):
            out[i] = {str(k): str(v) for k, v in s["default"].items()}
            continue
        words = {}
        for lang in i18n.LANGS:
            with i18n.language(lang):
                word = role_name(s.get("role"), i)
            if word is not None:
                words[lang] = word
        if words:
            out[i] = words
    return out


@dataclass(frozen=True)
class SeatLink:
    """What the table shows for one phone seat."""

    seat: int
    name: str
    url: str | None     # the QR code's content; None: a device has taken the seat
    short: str          # the same, to type: without ``http://``
    connected: bool
    standing_in: bool
    by_guest: bool = False      # taken by a guest with the join code, not by its link


class PhoneRoom:
    """The phone seats of ``game`` (``seats``: the table's seat dicts). ``saving()``
    says whether the game is autosaved (:class:`~game.net.link.PhoneLink`)."""

    def __init__(self, game: Any, seats: Sequence[dict[str, Any]], hooks: Hooks, *,
                 bind: str | None = None, port: int = 0,
                 wake: Callable[[], None] | None = None, away_after: float = AWAY_AFTER,
                 on_name: Callable[[int, str], None] | None = None,
                 server_options: dict[str, Any] | None = None,
                 saving: Callable[[], bool] | None = None) -> None:
        self.phones = phone_seats(seats)
        self.server = PhoneServer(SeatAccess.new(self.phones), bind=bind, port=port,
                                  wake=wake, renamable=open_names(seats),
                                  **(server_options or {}))
        self.link = PhoneLink(game, self.phones, [str(s["name"]) for s in seats], self.server,
                              away_after=away_after, on_name=on_name, defaults=defaults(seats),
                              saving=saving)
        self._off = self._listen(hooks)
        self.closed = False

    def _listen(self, hooks: Hooks) -> list[Callable[[], None]]:
        return [hooks.subscribe(H.GAME_STARTED, lambda news: self.link.publish(True)),
                hooks.subscribe(H.MOVE_APPLIED,
                                lambda news: self.link.applied(news.seat, news.move))]

    def hand_over(self) -> PhoneRoom:
        """This table's game is over and the next game at the same seats (*Play again*)
        takes the room (:meth:`take`): the room stops hearing this table, and the
        server, its lines, the seats' links and names stay."""
        for off in self._off:
            off()
        self._off = []
        self.link.close()
        return self

    def take(self, game: Any, seats: Sequence[dict[str, Any]], hooks: Hooks, *,
             on_name: Callable[[int, str], None] | None = None,
             saving: Callable[[], bool] | None = None) -> PhoneRoom:
        """The next game of a room handed over (:meth:`hand_over`), at the same phone
        seats: the phones still connected get its state as their next one, and the
        last game's rounds are dropped from every phone's history."""
        if phone_seats(seats) != self.phones:
            raise ValueError("the next game has other phone seats")
        old = self.link
        self.link = PhoneLink(game, self.phones, [str(s["name"]) for s in seats], self.server,
                              clock=old.clock, away_after=old.away_after,
                              coach_level=old.coach_level, coach_samples=old.coach_samples,
                              on_name=on_name, defaults=defaults(seats), saving=saving)
        for seat in self.server.connected() & set(self.phones):
            self.link.connected.add(seat)
            self.link.away_since.pop(seat, None)
        self.server.send_history(0, [])
        self._off = self._listen(hooks)
        return self

    @property
    def sources(self) -> dict[int, PhoneSource]:
        return self.link.sources

    def start(self) -> PhoneRoom:
        """Start listening; raises ``OSError`` when the server cannot."""
        self.server.start()
        return self

    def pump(self) -> int:
        return self.link.pump()

    def seat_links(self) -> list[SeatLink]:
        on = self.link.connected
        out = []
        for s in self.phones:
            url = self.server.link(s)
            short = url.split("://", 1)[1] if url else ""
            out.append(SeatLink(s, shown_name(self.link.names[s]), url, short, s in on,
                                self.sources[s].standing_in, self.server.by_guest(s)))
        return out

    def renew(self, seat: int) -> None:
        """A new link for ``seat``, whose phone is lost (the join panel's button): the
        device that held it is let go, and the panel shows the new code."""
        self.server.renew(seat)

    @property
    def join_url(self) -> str:
        return self.server.join_link()

    @property
    def base(self) -> str:
        return self.server.base_url.split("://", 1)[1]

    @property
    def code(self) -> str:
        return self.server.access.code

    def all_connected(self) -> bool:
        return set(self.phones) <= self.link.connected

    def close(self) -> None:
        """The table closes: sources forget, the coach stops, the server says bye."""
        if self.closed:
            return
        self.closed = True
        for off in self._off:
            off()
        self.link.close()
        self.server.stop()
