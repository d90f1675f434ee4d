"""Game records (docs/records.md): load, validate, save, and rebuild a game from one.

A record is the one file format for saves, replays, bug reports and test fixtures:
rules, seats, seed or deals, and moves. Every problem is reported as a
:class:`RecordError` whose ``kind`` is one of docs/records.md's kinds and whose message is
one line, ready for ``stammtisch replay`` to print.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from game import games, jsonio, recordscan
from game.fileio import read_regular, reason, write_atomic
from game.jsonio import is_int
from game.rules.base import Event, Game, GameError, IllegalMove, shorten

#: The record formats this reader knows (docs/records.md#record-formats), and the
#: newest. A record is written in the lowest format that says its rules: every Chase
#: record and a Rams game "as written" in format 1, other Rams games in format 3.
#: There is no format 2: the shared examples hold a format-2 record that every reader
#: must refuse (``bad_0006_bad_format``), so the new defaults took the next number.
FORMATS = (1, 3)
FORMAT = FORMATS[-1]
LEVELS = ("easy", "medium", "hard", "expert", "random", "threshold", "greedy")
#: A seat's optional ``role``: a name the player left to the game, kept as what it
#: means rather than as a word of one language -- ``you`` (the one person at the
#: screen), ``player`` (a person without a name: "Player 1"). ``name`` still holds
#: the word in the language of the game, for readers that know no roles.
ROLES = ("you", "player")


class RecordError(GameError):
    """An invalid record; ``kind`` is docs/records.md's error kind."""


class UnreadableRecord(RecordError):
    """A record file that could not be read at all (``bad_format``). Its message is the
    contract's English; ``reason`` is :func:`game.fileio.reason`'s, which a notice
    passes to ``t()`` as it is, so the player reads it in their own language."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"cannot read {self.path!r}: {reason}", "bad_format")


@dataclass
class Seat:
    name: str
    type: str = "human"
    level: str | None = None
    role: str | None = None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "type": self.type}
        if self.type == "ai":
            d["level"] = self.level or "medium"
        if self.role in ROLES:
            d["role"] = self.role
        return d


@dataclass
class Record:
    game: str
    seats: list[Seat]
    rules: dict[str, Any] = field(default_factory=dict)
    dealer: int | None = None
    seed: int | None = None
    bot_seed: int = 0
    deals: list[list[str]] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        fmt, rules = written_rules(self.game, self.rules)
        d: dict[str, Any] = {"format": fmt, "game": self.game, "rules": rules,
                             "seats": [s.as_dict() for s in self.seats]}
        if self.dealer is not None:
            d["dealer"] = self.dealer
        if self.seed is not None:
            d["seed"] = self.seed
        if self.bot_seed:
            d["bot_seed"] = self.bot_seed
        if self.deals:
            d["deals"] = [list(x) for x in self.deals]
        d["moves"] = [{"seat": s, "move": m} for s, m in self.moves]
        return d


def written_rules(game: str, rules: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The format a record of ``game`` with ``rules`` (today's terms) is written in, and
    its rules as that format says them: format 1 when it can say them (docs/records.md
    readers of today's format keep working), else the newest."""
    entry = games.GAMES.get(game)
    to_1 = entry.rules_to_format_1 if entry is not None else None
    if to_1 is None:
        return 1, dict(rules)
    try:
        old = to_1(dict(rules))
    except GameError:
        old = None              # rules the game refuses: kept as they are, newest format
    return (1, old) if old is not None else (FORMAT, dict(rules))


def _show(value: object) -> str:
    """A value from the file as JSON for a message, cut short so the message stays a
    readable line whatever the file holds."""
    return shorten(json.dumps(value))


def _bad(msg: str) -> RecordError:
    return RecordError(msg, "bad_format")


def parse(text: str | bytes) -> Record:
    """Parse and validate record text (shape, rules, cards); moves are checked by
    :func:`rebuild`. The moves are read one at a time (:mod:`game.recordscan`): a
    record of 10**6 moves costs a pointer per move, not a dict."""
    try:
        # UTF-8, strict JSON, bounded nesting: what game.jsonio accepts
        scanned = recordscan.scan(text)
    except jsonio.JSONError as exc:
        raise RecordError(f"not valid JSON: {exc}", "malformed_json") from None
    del text
    if not scanned.is_object:
        return from_dict(scanned.whole)
    data = scanned.data
    if scanned.moves is not None:
        data["moves"] = _MOVES_READ
    return _from_dict(data, scanned.moves, scanned.bad_move)


#: stands for a ``moves`` array already read (see :func:`parse`)
_MOVES_READ: list[Any] = []


def _bad_move(i: int) -> RecordError:
    return _bad(f"moves[{i}] must be an object with an integer 'seat' and a text 'move'")


def from_dict(data: object) -> Record:
    """A record from parsed JSON data (checked as :func:`parse` checks text)."""
    return _from_dict(data, None, None)


def _from_dict(data: object, read: list[tuple[int, str]] | None,
               bad_move: int | None) -> Record:
    """The record in ``data``, its fields checked in a fixed order (the first fault
    is the one reported). ``read``: the moves :func:`parse`
    has already read one by one (``bad_move``: the index of the first it could not)."""
    if not isinstance(data, dict):
        raise _bad("a record must be a JSON object")
    fmt, game = _format_and_game(data)
    seats = _seats(data.get("seats"))
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise _bad(f"field 'rules' must be an object, got {_show(rules)}")
    from_1 = games.GAMES[game].rules_from_format_1
    if fmt == 1 and from_1 is not None:
        try:
            rules = from_1(rules)      # today's terms: format 1's defaults made explicit
        except GameError as exc:
            raise RecordError(exc.message, exc.kind) from None
    dealer = data.get("dealer")
    if dealer is not None and (not is_int(dealer) or not 0 <= dealer < len(seats)):
        raise _bad(f"field 'dealer' must be a seat number from 0 to {len(seats) - 1}, "
                   f"got {_show(dealer)}")
    seed = data.get("seed")
    if seed is not None and not is_int(seed):
        raise _bad(f"field 'seed' must be an integer, got {_show(seed)}")
    if seed is None and dealer is None:
        raise _bad("a record needs a 'seed' or a 'dealer'")
    bot_seed = data.get("bot_seed", 0)
    if not is_int(bot_seed):
        raise _bad(f"field 'bot_seed' must be an integer, got {_show(bot_seed)}")
    deals = data.get("deals", [])
    if not isinstance(deals, list) or not all(isinstance(d, list) for d in deals):
        raise _bad("field 'deals' must be a list of lists of card codes")
    record = Record(game=game, seats=seats, rules=rules, dealer=dealer, seed=seed,
                    bot_seed=bot_seed, deals=deals, moves=_moves(data, read, bad_move))
    _check_rules_and_deals(record)
    return record


def _format_and_game(data: dict[str, Any]) -> tuple[int, str]:
    """The record's ``format`` (one this reader knows) and ``game`` (a registered id)."""
    if "format" not in data:
        raise _bad("missing field 'format'")
    fmt = data["format"]
    if not is_int(fmt):
        raise _bad(f"field 'format' must be an integer, got {_show(fmt)}")
    if fmt not in FORMATS:
        raise _bad(f"record format {fmt} is not supported (this reader knows formats "
                   f"{' and '.join(map(str, FORMATS))})")
    game = data.get("game")
    if game is None:
        raise _bad("missing field 'game'")
    if not isinstance(game, str) or game not in games.GAMES:
        raise _bad(f"field 'game' must be one of {', '.join(games.GAME_IDS)}, "
                   f"got {_show(game)}")
    return fmt, game


def _moves(data: dict[str, Any], read: list[tuple[int, str]] | None,
           bad_move: int | None) -> list[tuple[int, str]]:
    """The ``moves`` as (seat, move) pairs: their shape only, :func:`rebuild` plays them."""
    if "moves" not in data:
        raise _bad("missing field 'moves'")
    moves = data["moves"]
    if not isinstance(moves, list):
        raise _bad("field 'moves' must be a list")
    if read is not None:
        if bad_move is not None:
            raise _bad_move(bad_move)
        parsed_moves = read
    else:
        parsed_moves = []
        for i, m in enumerate(moves):
            if (not isinstance(m, dict) or not is_int(m.get("seat"))
                    or not isinstance(m.get("move"), str)):
                raise _bad_move(i)
            parsed_moves.append((m["seat"], m["move"]))
    return parsed_moves


def _seats(raw: object) -> list[Seat]:
    if not isinstance(raw, list):
        raise _bad("field 'seats' must be a list of seats")
    seats = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise _bad(f"seats[{i}] must be an object")
        name, kind, level = s.get("name"), s.get("type"), s.get("level")
        if not isinstance(name, str) or not name.strip():
            raise _bad(f"seats[{i}] needs a non-empty 'name'")
        if kind not in ("human", "ai"):
            raise _bad(f"seats[{i}]: 'type' must be human or ai, got {_show(kind)}")
        if kind == "ai" and level is not None and level not in LEVELS:
            raise _bad(f"seats[{i}]: unknown level {_show(level)} "
                       f"(expected one of {', '.join(LEVELS)})")
        role = s.get("role")
        name = jsonio.well_formed(name)     # a lone surrogate could never be saved again
        seats.append(Seat(name, kind, level if kind == "ai" else None,
                          role if role in ROLES else None))
    return seats


def _check_rules_and_deals(record: Record) -> None:
    try:
        probe = games.new_game(record.game, record.rules, len(record.seats), seed=0,
                               dealer=record.dealer)
    except GameError as exc:
        raise RecordError(exc.message, exc.kind) from None
    deck: tuple[str, ...] = probe.deck
    deck_set = frozenset(deck)
    limit = Counter(deck)
    for i, deal in enumerate(record.deals):
        for j, code in enumerate(deal):
            if not isinstance(code, str) or code not in deck_set:
                raise RecordError(
                    f"deals[{i}][{j}]: {_show(code)} is not a card code of this "
                    "game's deck", "bad_card")
        for code, count in Counter(deal).items():
            if count > limit[code]:
                raise _bad(f"deals[{i}] holds {code} {count} times; the deck has "
                           f"{limit[code]}")


def load(path: str | os.PathLike[str]) -> Record:
    """Read a record file; a missing or unreadable file (also a FIFO, a device, a
    folder, or a file over :data:`game.fileio.MAX_FILE_BYTES`) is a ``bad_format``
    error."""
    try:
        raw = read_regular(path)
    except OSError as exc:
        raise UnreadableRecord(path, reason(exc)) from None
    except ValueError as exc:   # a path with a NUL byte in it
        raise UnreadableRecord(path, str(exc)) from None
    return parse(raw)


def dumps(record: Record) -> str:
    return json.dumps(record.as_dict(), ensure_ascii=False)


def save(record: Record, path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed."""
    write_atomic(path, dumps(record))


def new_engine(record: Record) -> Game:
    return games.new_game(record.game, record.rules, len(record.seats), seed=record.seed,
                          dealer=record.dealer, deals=record.deals or None,
                          bot_seed=record.bot_seed)


def rebuild(record: Record, events: list[Event] | None = None) -> Game:
    """Replay ``record`` move by move; raise :class:`RecordError` at the first fault.

    If ``events`` is given, every event of the game is appended to it in order.
    """
    game = new_engine(record)
    try:
        out = game.start()
    except GameError as exc:
        raise RecordError(exc.message, exc.kind) from None
    if events is not None:
        events.extend(out)
    for i, (seat, move) in enumerate(record.moves):
        try:
            out = game.apply(seat, move)
        except IllegalMove as exc:
            kind = "illegal_move" if exc.kind == "game_over" else exc.kind
            raise RecordError(f"move {i}: {exc.message}", kind) from None
        except GameError as exc:
            raise RecordError(f"move {i}: {exc.message}", exc.kind) from None
        if events is not None:
            events.extend(out)
    return game


def record_of(game: Game, seats: list[Seat], *, seed: int | None = None,
              dealer: int | None = None, deals: list[list[str]] | None = None,
              bot_seed: int = 0) -> Record:
    """The record of a game played so far (its moves come from the engine)."""
    return Record(game=game.game_id, seats=list(seats), rules=dict(game.rules),
                  dealer=dealer, seed=seed, bot_seed=bot_seed, deals=list(deals or []),
                  moves=list(game.moves))  # type: ignore[attr-defined]
