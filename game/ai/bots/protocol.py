"""The bot protocol: JSON lines over a child process's standard input and output.

The harness writes one line per decision: the view (docs/view.md) as one JSON object.
The bot answers with one line: the move, bare (``keep``) or as a JSON string
(``"keep"``). That is the whole protocol; a bot in any language can speak it.

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


_ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def encode_view(view: Mapping[str, Any]) -> bytes:
    """One request line: the view as compact JSON (ASCII, so any byte is safe)."""
    return _ENCODER.encode(dict(view)).encode("ascii") + b"\n"


def encode_json(value: Any) -> str:
    """One value as the compact JSON :func:`encode_view` writes."""
    return _ENCODER.encode(value)


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


def decode_answer(line: bytes) -> Answer:
    """Read one answer line (without its newline). Never raises."""
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
    if isinstance(value, dict) and isinstance(value.get("error"), str):
        kind = value["error"] if value["error"] in _BOT_ERRORS else "raised"
        return Answer(error=kind, detail=shorten(str(value.get("detail", ""))))
    return Answer(error="illegal", detail=f"answered {_describe(value)}, not a move "
                                          f"({shorten(text, 60)})")


__all__ = ["MAX_ANSWER_BYTES", "READY", "Answer", "decode_answer", "encode_view", "shorten"]
