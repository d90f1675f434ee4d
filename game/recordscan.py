"""Reading a record's JSON text without holding a million move objects.

A record of 10**6 moves is some 50 MB of JSON; parsed the ordinary way it becomes
10**6 dicts (about 300 MB) before a single move is checked. :func:`scan` walks the
text instead: every top-level value but ``moves`` is parsed as usual (they are
small), and each element of ``moves`` is parsed, checked (an object with an integer
``seat`` and a text ``move``) and dropped at once, leaving only a ``(seat, move)``
pair -- the same tuple object for every repetition of the same pair, so the list of
moves costs one pointer per move.

It accepts exactly what :func:`game.jsonio.loads` accepts and refuses with exactly
its messages: the text is decoded by :func:`game.jsonio.decode`, values are parsed
by the same decoder settings, and whenever the walk meets anything it does not
expect (a syntax error, nesting too deep for the parser) it hands the whole text to
:func:`game.jsonio.loads`, whose error (or value) is then the answer. Nesting deeper
than :data:`game.jsonio.MAX_DEPTH` is refused after the walk, as there.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from game import jsonio

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder(strict=False, parse_constant=jsonio._refuse_constant)
_raw_decode = _DECODER.raw_decode


#: One move written the plain way (two keys in this order, a JSON integer, a string
#: without escapes or control characters) and the comma or bracket after it: read
#: by one regular expression. Anything else goes through the JSON decoder.
_PLAIN_MOVE = re.compile(
    r'\{[ \t\n\r]*"seat"[ \t\n\r]*:[ \t\n\r]*(-?(?:0|[1-9][0-9]{0,17}))[ \t\n\r]*,'
    r'[ \t\n\r]*"move"[ \t\n\r]*:[ \t\n\r]*"([^"\\\x00-\x1f]*)"[ \t\n\r]*\}'
    r'[ \t\n\r]*([,\]])[ \t\n\r]*')


class _Unexpected(Exception):
    """The walk met something it leaves to :func:`game.jsonio.loads`."""


@dataclass
class Scanned:
    """A record's top level: every key but ``moves`` with its value (``data``);
    ``moves`` (when it is an array) as ``(seat, move)`` pairs of the valid elements up
    to the first element that is not a move (``bad_move``: its index), or ``None``
    when the text holds no such array (then ``data`` has ``moves`` as it is, if at
    all). ``whole`` is the parsed value when the text is not a JSON object."""

    data: dict[str, Any] = field(default_factory=dict)
    moves: list[tuple[int, str]] | None = None
    bad_move: int | None = None
    whole: Any = None
    is_object: bool = True


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()  # type: ignore[union-attr]


def _depth(value: Any, text: str, start: int, end: int) -> int:
    """Nesting of one parsed value (0 for a scalar), from its text when it nests."""
    if isinstance(value, dict):
        if not any(isinstance(v, (dict, list)) for v in value.values()):
            return 1
    elif isinstance(value, list):
        if not any(isinstance(v, (dict, list)) for v in value):
            return 1
    else:
        return 0
    return jsonio.depth(text[start:end])


def _value(text: str, i: int) -> tuple[Any, int]:
    try:
        return _raw_decode(text, i)
    except (ValueError, RecursionError):
        raise _Unexpected from None


def _moves(text: str, i: int, out: Scanned) -> tuple[int, int]:
    """Walk the array at ``text[i] == "["``; returns where it ends and its depth."""
    pairs: dict[tuple[int, str], tuple[int, str]] = {}
    moves: list[tuple[int, str]] = []
    bad: int | None = None
    deepest = 1
    i = _skip(text, i + 1)
    if text.startswith("]", i):
        out.moves, out.bad_move = moves, None
        return i + 1, deepest
    index = 0
    fast = _PLAIN_MOVE.match
    while True:
        plain = fast(text, i) if bad is None else None
        if plain is not None:         # {"seat": 2, "move": "keep"}, then , or ]
            seat_text, move, sep = plain.groups()
            pair = (int(seat_text), move)
            moves.append(pairs.setdefault(pair, pair))
            index += 1
            i = plain.end()
            if sep == ",":
                continue
            out.moves, out.bad_move = moves, bad
            return i, max(deepest, 2)
        start = i
        value, i = _value(text, i)
        if bad is None:
            seat = value.get("seat") if type(value) is dict else None
            move = value.get("move") if seat is not None else None
            if type(seat) is int and isinstance(move, str):
                pair = (seat, move)
                moves.append(pairs.setdefault(pair, pair))
            else:
                bad = index
        if type(value) in (dict, list):
            deepest = max(deepest, 1 + _depth(value, text, start, i))
        index += 1
        i = _skip(text, i)
        if text.startswith(",", i):
            i = _skip(text, i + 1)
            continue
        if text.startswith("]", i):
            out.moves, out.bad_move = moves, bad
            return i + 1, deepest
        raise _Unexpected


def _walk(text: str) -> Scanned:
    out = Scanned()
    i = _skip(text, 0)
    if not text.startswith("{", i):
        raise _Unexpected
    i = _skip(text, i + 1)
    deepest = 1
    if text.startswith("}", i):
        i += 1
    else:
        while True:
            if not text.startswith('"', i):
                raise _Unexpected
            key, i = _value(text, i)
            i = _skip(text, i)
            if not text.startswith(":", i):
                raise _Unexpected
            i = _skip(text, i + 1)
            if key == "moves" and text.startswith("[", i):
                i, depth = _moves(text, i, out)
                out.data.pop("moves", None)
            else:
                start = i
                value, i = _value(text, i)
                depth = _depth(value, text, start, i)
                out.data[key] = value
                if key == "moves":                 # the last one counts, as in a dict
                    out.moves, out.bad_move = None, None
            deepest = max(deepest, 1 + depth)
            i = _skip(text, i)
            if text.startswith(",", i):
                i = _skip(text, i + 1)
                continue
            if text.startswith("}", i):
                i += 1
                break
            raise _Unexpected
    if _skip(text, i) != len(text):
        raise _Unexpected
    if deepest > jsonio.MAX_DEPTH:
        raise jsonio.JSONError(f"nested deeper than {jsonio.MAX_DEPTH} levels")
    return out


def scan(data: str | bytes) -> Scanned:
    """Walk a record's JSON text (bytes are decoded as :func:`game.jsonio.loads`
    decodes them); :class:`game.jsonio.JSONError` for anything it refuses."""
    text = jsonio.decode(bytes(data)) if isinstance(data, (bytes, bytearray)) else data
    del data
    try:
        return _walk(text)
    except _Unexpected:
        pass
    value = jsonio.loads(text)          # raises the error the ordinary reader gives
    if isinstance(value, dict):         # (not expected: the walk refused valid text)
        moves = value.get("moves")
        out = Scanned(data={k: v for k, v in value.items() if k != "moves"})
        if isinstance(moves, list):
            out.moves, out.bad_move = [], None
            for index, m in enumerate(moves):
                if (isinstance(m, dict) and type(m.get("seat")) is int
                        and isinstance(m.get("move"), str)):
                    out.moves.append((m["seat"], m["move"]))
                else:
                    out.bad_move = index
                    break
        elif "moves" in value:
            out.data["moves"] = moves
        return out
    return Scanned(whole=value, is_object=False)


__all__ = ["Scanned", "scan"]
