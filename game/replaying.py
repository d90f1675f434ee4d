"""Rebuilding a long record without holding every state: ``replay --json`` and
``advise`` (RECORD.md, BOTS.md).

An engine keeps, for the game's whole length, its moves (for the record), a result
entry per round (for its summary) and each round's public events (for the views'
``history``). Over 10**6 moves that is more than a gigabyte. The commands need far
less: ``replay --json`` prints each round's entry once and never needs it again, and
``advise`` needs only the last view. So :func:`rebuild_light` gives the engine
stand-ins for those lists (it only ever appends to them and asks their length):

* :class:`Spool` counts what is appended and hands each item to a function (the
  round entries go straight into the output, as JSON text in a temporary file);
* :class:`SharedHistory` keeps the history, but each event that equals one kept
  before is kept as that same object (events are never changed once made; the views
  copy them), so a long game of repeated rounds costs a pointer per event.

The engine and its rules are untouched; the output is byte for byte what
``json.dumps(game.summary(), indent=1)`` gives (the tests compare them).
"""

from __future__ import annotations

import json
import json.encoder
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, Any

from game import records
from game.records import Record, RecordError
from game.rules.base import GameError, IllegalMove

#: Bytes of round entries kept in memory before they go to a temporary file.
SPOOL_BYTES = 8 * 1024 * 1024


class Spool:
    """Stands in for a list the engine only appends to: counts, forwards, keeps
    nothing."""

    __slots__ = ("count", "sink")

    def __init__(self, sink: Callable[[Any], object] | None = None) -> None:
        self.count = 0
        self.sink = sink

    def append(self, item: Any) -> None:
        self.count += 1
        if self.sink is not None:
            self.sink(item)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        return iter(())


class SharedHistory(list):  # type: ignore[type-arg]
    """The history of a game, each equal event kept once (see the module's doc)."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: dict[tuple[Any, ...], dict[str, Any]] = {}

    def append(self, events: list[dict[str, Any]]) -> None:  # type: ignore[override]
        seen = self._seen
        shared = []
        for event in events:
            try:
                key = tuple(event.items())
                shared.append(seen.setdefault(key, event))
            except TypeError:          # a value that is a list or a dict: kept as is
                shared.append(event)
        super().append(shared)


def rebuild_light(record: Record, on_round: Callable[[dict[str, Any]], object] | None = None,
                  history: bool = False) -> Any:
    """:func:`game.records.rebuild` without keeping the moves or the round entries
    (each entry goes to ``on_round`` as it is made), and keeping the history only if
    ``history`` (shared, see :class:`SharedHistory`). Errors are the same
    :class:`~game.records.RecordError`\\ s."""
    game = records.new_engine(record)
    game.emit_events = False            # nobody watches; views and results are the same
    game.moves = Spool()
    game.rounds = Spool(on_round)
    game.history = SharedHistory() if history else Spool()
    try:
        game.start()
    except GameError as exc:
        raise RecordError(exc.message, exc.kind) from None
    apply = game.apply
    for i, (seat, move) in enumerate(record.moves):
        try:
            apply(seat, move)
        except IllegalMove as exc:
            kind = "illegal_move" if exc.kind == "game_over" else exc.kind
            raise RecordError(f"move {i}: {exc.message}", kind) from None
        except GameError as exc:
            raise RecordError(f"move {i}: {exc.message}", exc.kind) from None
    return game


_encode_str = json.encoder.encode_basestring_ascii   # type: ignore[attr-defined]


def indented(value: Any, level: int = 0) -> str:
    """``json.dumps(value, indent=1)`` as it reads at ``level`` spaces of indentation
    inside a larger document (its first line not indented). The same text, several
    times faster for the round entries' plain shapes: strings, integers, booleans and
    null in lists and objects with text keys; anything else is left to ``json``."""
    kind = type(value)
    if kind is str:
        return _encode_str(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is dict:
        if not value:
            return "{}"
        pad = "\n" + " " * (level + 1)
        parts = []
        for k, v in value.items():
            if type(k) is not str:
                return _fallback(value, level)
            parts.append(pad + _encode_str(k) + ": " + indented(v, level + 1))
        return "{" + ",".join(parts) + "\n" + " " * level + "}"
    if kind is list:
        if not value:
            return "[]"
        pad = "\n" + " " * (level + 1)
        return "[" + ",".join(pad + indented(v, level + 1) for v in value) + "\n" \
            + " " * level + "]"
    return _fallback(value, level)


def _fallback(value: Any, level: int) -> str:
    return json.dumps(value, indent=1).replace("\n", "\n" + " " * level)


class _Rounds:
    """The round entries as the JSON text ``json.dumps(..., indent=1)`` writes for
    them inside the summary, in memory up to :data:`SPOOL_BYTES`, then in a file."""

    def __init__(self) -> None:
        self.file: IO[str] = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            max_size=SPOOL_BYTES, mode="w+", encoding="utf-8")
        self.count = 0

    def add(self, entry: dict[str, Any]) -> None:
        text = indented(entry, 2)
        self.file.write(("[\n  " if self.count == 0 else ",\n  ") + text)
        self.count += 1

    def write_to(self, out: IO[str]) -> None:
        if self.count == 0:
            out.write("[]")
            return
        self.file.seek(0)
        while True:
            chunk = self.file.read(1 << 16)
            if not chunk:
                break
            out.write(chunk)
        out.write("\n ]")

    def close(self) -> None:
        self.file.close()


#: a placeholder the summary's rounds are written in place of
_MARK = "\x00rounds\x00"


def replay_json(record: Record, out: IO[str]) -> None:
    """Rebuild ``record`` and write its summary to ``out`` exactly as
    ``json.dumps(game.summary(), indent=1)`` and a newline would, holding no round
    entry (a :class:`~game.records.RecordError` writes nothing)."""
    rounds = _Rounds()
    try:
        game = rebuild_light(record, rounds.add)
        game.rounds = []                    # the summary's own entries: none held
        summary = game.summary()
        summary["rounds"] = _MARK
        head, tail = json.dumps(summary, indent=1).split(json.dumps(_MARK), 1)
        out.write(head)
        rounds.write_to(out)
        out.write(tail + "\n")
    finally:
        rounds.close()


def shallow_view(game: Any, seat: int) -> dict[str, Any]:
    """``game.view(seat)`` with the event lists' dicts shared with the engine (the same
    values; for the project's own coach, which never changes a view)."""
    view = game.search_view(seat)
    return {key: view[key] for key in view}


__all__ = ["SharedHistory", "Spool", "rebuild_light", "replay_json", "shallow_view"]
