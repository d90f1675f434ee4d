"""Seats between a table and a record: the table's dicts, the record's :class:`Seat`,
the roles of old saves, and what the statistics read from seats (opponents' level,
whether a person won)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game.records import Record, Seat


def seats_to_record(seats: Iterable[dict[str, Any]]) -> list[Seat]:
    """Table seats (``name``, ``human``, ``level``, ``role``) as record seats."""
    return [Seat(s["name"], "human" if s.get("human") else "ai",
                 None if s.get("human") else s.get("level", "medium"), s.get("role"))
            for s in seats]


def role_of(name: str, human: bool, seat: int) -> str | None:
    """The role of a seat saved before roles were kept: a person named with the
    game's own word for "you" or "Player N" in any language."""
    from game.settings import DEFAULT_NAMES

    if not human:
        return None
    if name in {names[0] for names in DEFAULT_NAMES.values()}:
        return "you"
    if name in (f"Player {seat + 1}", f"Spieler {seat + 1}"):
        return "player"
    return None


def seats_from_record(record: Record) -> list[dict[str, Any]]:
    """Record seats as table seats (the inverse of :func:`seats_to_record`)."""
    out = []
    for i, s in enumerate(record.seats):
        human = s.type == "human"
        seat = {"name": s.name, "human": human, "level": s.level or "medium"}
        role = s.role or role_of(s.name, human, i)
        if role:
            seat["role"] = role
        out.append(seat)
    return out


def phone_seats(seats: Iterable[dict[str, Any]]) -> list[int]:
    """The seats played from a phone (kept in the autosave's session data: a record's
    seats know only humans and computers)."""
    return [i for i, s in enumerate(seats) if s.get("phone") and s.get("human")]


def table_seats(record: Record, session: dict[str, Any]) -> list[dict[str, Any]]:
    """The table seats of a saved game: the record's, with the phone seats its session
    data names (a resumed phone game opens its phone seats again, with new links)."""
    seats = seats_from_record(record)
    phones = session.get("phones")
    if isinstance(phones, list):
        for i in phones:
            if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(seats) \
                    and seats[i]["human"]:
                seats[i]["phone"] = True
    return seats


def human_seats(seats: Iterable[Any]) -> list[int]:
    out = []
    for i, s in enumerate(seats):
        human = s.get("human") if isinstance(s, dict) else getattr(s, "type", "") == "human"
        if human:
            out.append(i)
    return out


def opponent_level(seats: list[Seat]) -> str:
    """The computer players' level if they share one, ``mixed`` if not, ``none`` for a
    table of humans only."""
    levels = {s.level or "medium" for s in seats if s.type == "ai"}
    if not levels:
        return "none"
    return levels.pop() if len(levels) == 1 else "mixed"


def human_won(winner: Any, seats: list[Seat]) -> bool:
    humans = set(human_seats(seats))
    if isinstance(winner, int) and not isinstance(winner, bool):
        return winner in humans
    if isinstance(winner, list):
        return any(w in humans for w in winner)
    return False

