"""The bot protocol: JSON lines over a child process's standard input and output
(``docs/bots.md`` describes it for bot authors).

The harness writes one line per decision: the view (BOTS.md) as one JSON object,
with one key more in front, ``ask``: the number of the question (1, 2, … for each
bot, never reused). The bot answers with one line: the move, bare (``keep``) or as a
JSON string (``"keep"``), or *numbered*: ``{"ask": 17, "move": "keep"}``. That is the
whole protocol; a bot in any language can speak it.

Numbered answers let a bot write other lines on its standard output without them
ever being taken for an answer: once a bot has written a numbered line (for example
``{"ask": 0}`` first thing, a question never asked), only the numbered line with the
number of the question being asked answers it; every other line is dropped and
counted (``stray_lines``). A bot that answers bare keeps working as before: its
first line after a question is its answer.

A bot may also answer a JSON object ``{"error": KIND, "detail": TEXT}`` to say it
failed; the Python runner does that when ``choose`` raises (``raised``), returns
something that is not a string (``illegal``) or cannot be loaded (``load_failed``),
and it writes the line ``{"ready": true}`` once the bot file is loaded.

Everything here is pure: encoding a view, and reading an answer line into a move or
an :class:`Answer` that says what is wrong with it. Nothing a line holds can make
these functions raise anything but the documented errors.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Bytes an answer line may have (a move is a few characters; an error report from
#: the runner a few hundred). A longer line forfeits the decision.
MAX_ANSWER_BYTES = 4096
#: Characters of a bot's own words (an error, its standard error) kept in an incident.
DETAIL_CHARS = 300
READY = b'{"ready": true}'


def shorten(text: str, limit: int = DETAIL_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    one = " ".join(str(text).split())
    return one if len(one) <= limit else one[: limit - 1] + "…"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on instead of showing
    (control characters such as ESC, format characters such as a right-to-left
    override, lone surrogates) written as an escape (``\\x1b``, ``\\u202e``): a bot's
    words can be shown on standard error without reaching the terminal raw."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        elif ch in "\t\n\r":
            out.append(" ")
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return "".join(out)


_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def encode_view(view: Mapping[str, Any]) -> bytes:
    """One request line: the view as compact JSON (ASCII, so any byte is safe)."""
    return _ENCODER.encode(dict(view)).encode("ascii") + b"\n"


def encode_json(value: Any) -> str:
    """One value as the compact JSON :func:`encode_view` writes."""
    return _ENCODER.encode(value)


def with_ask(line: bytes, ask: int) -> bytes:
    """A request line (from :func:`encode_view`) with the question's number in front:
    ``{"ask":17,...}``."""
    return b'{"ask":%d,' % ask + line[1:] if line[1:2] != b"}" else b'{"ask":%d}\n' % ask


def encode_view_with(view: Mapping[str, Any], encoded: Mapping[str, str]) -> bytes:
    """:func:`encode_view`, with the values of some keys given already encoded (the
    same object, except that those keys come last)."""
    rest = {k: view[k] for k in view if k not in encoded}
    tail = "".join(f',"{k}":{v}' for k, v in encoded.items())
    return (_ENCODER.encode(rest)[:-1] + tail + "}\n").encode("ascii")


@dataclass(frozen=True)
class Answer:
    """What a bot answered: a ``move`` (a plain ``str``), or an ``error`` kind with
    ``detail`` (``raised``, ``illegal``, ``bad_answer``, ``load_failed``)."""

    move: str | None = None
    error: str | None = None
    detail: str = ""
    #: the question's number a numbered answer gives (None: a bare answer)
    ask: int | None = None


_BOT_ERRORS = ("raised", "illegal", "load_failed")


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


#: A numbered move as the Python runner writes it (read without the JSON parser: a
#: fast bot's round trip is tens of microseconds)
_PLAIN_NUMBERED = re.compile(rb'\{"ask": ?(\d{1,18}), ?"move": ?"([A-Za-z0-9:_]*)"\}')


def decode_answer(line: bytes) -> Answer:
    """Read one answer line (without its newline). Never raises."""
    plain = _PLAIN_NUMBERED.fullmatch(line)
    if plain is not None:
        return Answer(move=plain.group(2).decode("ascii"), ask=int(plain.group(1)))
    text = line.decode("utf-8", "replace").strip()
    if not text:
        return Answer(error="bad_answer", detail="an empty line")
    if text[0] not in '"{[-0123456789tfn':
        return Answer(move=text)                      # a bare move such as keep
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return Answer(move=text)                      # not JSON: take it as a bare move
    if isinstance(value, str):
        return Answer(move=str(value))
    if isinstance(value, dict) and "ask" in value:
        return _numbered(value, text)
    if isinstance(value, dict) and isinstance(value.get("error"), str):
        kind = value["error"] if value["error"] in _BOT_ERRORS else "raised"
        return Answer(error=kind, detail=shorten(str(value.get("detail", ""))))
    return Answer(error="illegal", detail=f"answered {_describe(value)}, not a move "
                                          f"({shorten(text, 60)})")


def _numbered(value: dict[str, Any], text: str) -> Answer:
    """A line ``{"ask": N, ...}``: the move (or the error) it gives for question N.
    A number that is not a whole number from 0 up makes the line unnumbered."""
    ask = value["ask"]
    if not isinstance(ask, int) or isinstance(ask, bool) or ask < 0:
        return Answer(error="bad_answer", detail=f"'ask' must be a question's number "
                                                 f"({shorten(text, 60)})")
    move = value.get("move")
    if isinstance(move, str):
        return Answer(move=str(move), ask=ask)
    if isinstance(value.get("error"), str):
        kind = value["error"] if value["error"] in _BOT_ERRORS else "raised"
        return Answer(error=kind, detail=shorten(str(value.get("detail", ""))), ask=ask)
    if "move" in value:
        return Answer(error="illegal", detail=f"answered {_describe(move)}, not a move "
                                              f"({shorten(text, 60)})", ask=ask)
    return Answer(error="bad_answer", detail=f"a numbered line without a move "
                                             f"({shorten(text, 60)})", ask=ask)


__all__ = ["MAX_ANSWER_BYTES", "READY", "Answer", "decode_answer", "encode_view", "printable",
           "shorten", "with_ask"]
