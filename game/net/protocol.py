"""The phone channel's messages: JSON objects over one WebSocket per device.

Every message is a JSON object with a ``type``. A phone sends:

``hello {token, lang?}``
    first message: the seat's token from the join link; answered by ``welcome`` and
    the seat's current ``state`` (also after a reload or a lost connection).
``join {code}``
    a guest with the table's join code asks for the free phone seats (``seats``).
``claim {code, seat, name}``
    a guest takes a free seat under a name; answered by ``claimed {seat, token}``.
``name {name}``
    a seat opened by its link whose name is still the table's default names itself,
    once (``welcome.rename`` says it may); answered by ``named {seat, name}``.
``move {id, step, move}``
    answers the decision made after ``step`` moves with ``move``. ``id`` is the
    phone's own name for this tap: sending it again (after a lost connection) never
    plays it twice, it only repeats the answer, ``ack`` or ``refused``.
``advice {step}``
    the coach's odds for the seat's pending decision (``advice``).
``ping``
    answered by ``pong`` (the page's own check that the line is alive).

The table sends ``welcome {seat, name, rename}``, ``state {step, view, table}``
(``view`` is exactly ``game.view(seat)``, docs/view.md, but for its ``history``: the
public events of finished rounds are the same for everybody and travel once, in
``history {from, rounds}`` messages; ``view.history_len`` says how many rounds the
view's history has),
``ack {id, step, move}`` (every later ``state`` repeats the seat's last ``ack`` as
``answered``, so an answer lost with a line is never missed), ``refused {id?, code,
message, detail}``, ``advice {step, options, move}``, ``seats``, ``claimed``, ``named``,
``pong`` and ``bye {reason}`` when the table closes.

A refusal's ``code`` is one of :data:`CODES` or one of the engine's reason codes
(``game.rules.base.Refusal``); the page translates it, ``message`` is English for logs.
Nothing here does any input/output: :func:`parse` checks one incoming text. The whole
protocol, with the server's limits and a move's way to the engine: docs/phone.md.
"""

from __future__ import annotations

import json
import re
from typing import Any

from game.drawable import drawable_name

#: The largest message a phone may send (bytes of UTF-8). Larger ones are refused.
MAX_MESSAGE = 4096
#: Frames larger than this are not even read: the connection is closed with
#: WebSocket code 1009 ("message too big").
HARD_LIMIT = 64 * 1024
#: The longest name a guest may type (the table's seat names have the same limit).
MAX_NAME = 16
#: The deepest nesting of arrays and objects a message may have. Every message is a
#: flat object; the limit only keeps a deep one away from the JSON decoder, whose
#: recursion ends in ``RecursionError`` somewhere past a thousand levels.
MAX_DEPTH = 8

#: The server's own refusal codes (the engine adds its reasons for illegal moves).
CODES = {
    "malformed": "the message is not a JSON object",
    "too_deep": "the message nests too deep",
    "too_big": "the message is too big",
    "too_fast": "too many messages: slow down",
    "unknown_type": "unknown message type",
    "bad_field": "a field is missing or has a wrong value",
    "bad_token": "this link is not valid for this table",
    "bad_code": "wrong join code",
    "locked": "too many wrong join codes: wait a minute",
    "seat_taken": "this seat is taken",
    "one_seat": "this line already holds a seat",
    "name_taken": "another seat has this name",
    "name_set": "this seat's name is set already",
    "not_joined": "say hello with a seat's token first",
    "stale": "that decision is over",
    "busy": "the coach is still thinking",
}

_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
_MOVE = re.compile(r"[A-Za-z0-9:_]{1,16}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: JSON strings (with their escapes): skipped when counting the nesting.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class Refused(Exception):
    """A message the server or the engine refuses: ``code``, English ``message``,
    ``detail`` (facts for the page's text) and the move ``id`` it answers, if any."""

    def __init__(self, code: str, message: str | None = None,
                 detail: dict[str, Any] | None = None, id: str | None = None) -> None:
        super().__init__(message or CODES.get(code, code))
        self.code = code
        self.detail = dict(detail or {})
        self.id = id

    @property
    def message(self) -> str:
        return str(self.args[0])

    def as_message(self) -> dict[str, Any]:
        return refused(self.code, self.message, self.detail, self.id)


def refused(code: str, message: str | None = None, detail: dict[str, Any] | None = None,
            id: str | None = None) -> dict[str, Any]:
    """The ``refused`` message (``id`` only when it answers a move)."""
    out: dict[str, Any] = {"type": "refused", "code": code,
                           "message": message or CODES.get(code, code),
                           "detail": dict(detail or {})}
    if id is not None:
        out["id"] = id
    return out


def _text(msg: dict[str, Any], key: str, pattern: re.Pattern[str], what: str) -> str:
    value = msg.get(key)
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise Refused("bad_field", f"{key!r} must be {what}", {"field": key},
                      id=_id_of(msg))
    return value


def _step(msg: dict[str, Any]) -> int:
    value = msg.get("step")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**9:
        raise Refused("bad_field", "'step' must be a whole number of moves",
                      {"field": "step"}, id=_id_of(msg))
    return value


def _id_of(msg: dict[str, Any]) -> str | None:
    value = msg.get("id")
    return value if isinstance(value, str) and _ID.fullmatch(value) else None


def clean_name(value: object) -> str | None:
    """A player's name (a guest's, or one a seat gives itself) as the table can draw
    it (:func:`game.drawable.drawable_name`: an emoji or a control character is
    dropped, spaces are single and trimmed), at most :data:`MAX_NAME` characters;
    ``None`` if nothing is left."""
    if not isinstance(value, str):
        return None
    name = drawable_name(value)[:MAX_NAME].strip()
    return name or None


def parse(text: str | bytes) -> dict[str, Any]:
    """One incoming message, checked: a dict with ``type`` and only that type's fields
    (their values checked); raises :class:`Refused` otherwise."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "replace"))
    if size > MAX_MESSAGE:
        raise Refused("too_big", f"messages may have at most {MAX_MESSAGE} bytes, "
                      f"this one has {size}", {"limit": MAX_MESSAGE})
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("malformed") from None
    if depth(text) > MAX_DEPTH:
        raise Refused("too_deep", f"messages may nest at most {MAX_DEPTH} levels",
                      {"limit": MAX_DEPTH})
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("malformed") from None
    if not isinstance(msg, dict):
        raise Refused("malformed")
    kind = msg.get("type")
    if kind == "hello":
        lang = msg.get("lang")
        return {"type": "hello", "token": _text(msg, "token", _TOKEN, "a seat token"),
                "lang": lang if lang in ("de", "en") else None}
    if kind == "join":
        return {"type": "join", "code": _text(msg, "code", _TOKEN, "the join code")}
    if kind == "claim":
        seat = msg.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 64:
            raise Refused("bad_field", "'seat' must be a seat number", {"field": "seat"})
        name = clean_name(msg.get("name"))
        if name is None:
            raise Refused("bad_field", "'name' must be a name", {"field": "name"})
        return {"type": "claim", "code": _text(msg, "code", _TOKEN, "the join code"),
                "seat": seat, "name": name}
    if kind == "name":
        name = clean_name(msg.get("name"))
        if name is None:
            raise Refused("bad_field", "'name' must be a name", {"field": "name"})
        return {"type": "name", "name": name}
    if kind == "move":
        return {"type": "move", "id": _text(msg, "id", _ID, "the move's id"),
                "step": _step(msg), "move": _text(msg, "move", _MOVE, "a move")}
    if kind == "advice":
        return {"type": "advice", "step": _step(msg)}
    if kind == "ping":
        return {"type": "ping"}
    raise Refused("unknown_type", f"unknown message type {str(kind)[:20]!r}")


def depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text (strings skipped; text that is
    not JSON gets some number, and the decoder refuses it afterwards)."""
    deepest = level = 0
    for ch in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
        elif ch in "]}":
            level -= 1
    return deepest


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
