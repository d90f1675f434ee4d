"""The one JSON reader for everything the game reads from outside: records, saves,
settings, ``--rules`` arguments.

It survives any input: every failure is a :class:`JSONError` (a ``ValueError``) with a
one-line message, never a ``RecursionError`` or ``UnicodeDecodeError``. What it
accepts:

* **UTF-8 only** (docs/records.md), with or without a UTF-8 byte-order mark (editors on
  Windows add one; RFC 8259 lets a reader ignore it). UTF-16 and UTF-32 text, with or
  without a byte-order mark, is refused with a message that names the encoding.
* **Strict JSON**: ``NaN``, ``Infinity`` and ``-Infinity`` are refused. Control
  characters inside strings are tolerated, so a file cut off in the middle of a
  string is reported as what it is (an unterminated string).
* **At most** :data:`MAX_DEPTH` **levels of nesting** (RFC 8259 allows a limit). Every
  file the game writes is four levels deep; a deeper one could only make the code
  that walks the data recurse too far.

Files are read with :func:`game.fileio.read_regular`: regular files only, up to a
size cap.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from itertools import accumulate
from typing import Any

from game.fileio import read_regular

MAX_DEPTH = 64

_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_NOT_QUOTE_OR_BRACKET = bytes(c for c in range(256) if c not in b'"[]{}')
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_BOMS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
         (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))


class JSONError(ValueError):
    """Text that is not JSON this game accepts; the message is one line."""


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def depth(text: str | bytes) -> int:
    """How deeply the (valid) JSON ``text`` nests arrays and objects.

    Works on the bytes with C-speed steps, so a 40 MB record costs a fraction of a
    second: drop escapes, keep only quotes and brackets, drop adjacent quote pairs
    (an empty string, or the end of one string and the start of the next: either
    way every bracket stays inside or outside a string as it was), drop what is left
    between quotes, and take the maximum of the running count of open brackets.
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    if b"[" not in data and b"{" not in data:
        return 0
    if b"\\" in data:
        data = _ESCAPE.sub(b"", data)
    data = data.translate(None, _NOT_QUOTE_OR_BRACKET).replace(b'""', b"")
    if b'"' in data:
        data = b"".join(data.split(b'"')[::2])
    return max(accumulate(map(_STEP.__getitem__, data)), default=0)


def decode(data: bytes) -> str:
    """UTF-8 bytes (an optional UTF-8 BOM dropped) as text; :class:`JSONError` for
    anything else, naming UTF-16/UTF-32 when the bytes look like it."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            raise JSONError(f"the text is {name} (it starts with a {name} byte-order mark); "
                            "use UTF-8")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif len(data) >= 2 and (data[0] == 0 or data[1] == 0):
        # JSON text starts with an ASCII character: a zero byte beside it means
        # UTF-16 or UTF-32 without a byte-order mark
        raise JSONError("the text looks like UTF-16 or UTF-32 (zero bytes); use UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JSONError(f"the text is not UTF-8: byte 0x{data[exc.start]:02x} at "
                        f"position {exc.start} ({exc.reason})") from None


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate (JSON's ``"\\ud800"``: valid JSON, but no
    character, so no UTF-8 can hold it) as U+FFFD, the replacement character; an
    escaped surrogate pair is the character it stands for already. A name read from
    a file goes through this before the game keeps it: otherwise every later save of
    it (the autosave, the statistics, a review's output) fails to encode."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def is_int(x: object) -> bool:
    """Whether a parsed value is a JSON integer (``true`` is a bool, not 1)."""
    return isinstance(x, int) and not isinstance(x, bool)


def is_number(x: object) -> bool:
    """Whether a parsed value is a JSON number, whole or not (not a bool)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def loads(data: str | bytes) -> Any:
    """Parse JSON text (bytes are decoded by :func:`decode`); raise :class:`JSONError`."""
    raw = bytes(data) if isinstance(data, (bytes, bytearray)) else None
    text = decode(raw) if raw is not None else data
    try:
        value = json.loads(text, strict=False, parse_constant=_refuse_constant)
    except RecursionError:
        raise JSONError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, a refused constant, a 5,000-digit number
        raise JSONError(" ".join(str(exc).split())) from None
    if isinstance(value, (list, dict)) and depth(raw if raw is not None else text) > MAX_DEPTH:
        raise JSONError(f"nested deeper than {MAX_DEPTH} levels")
    return value


def load_file(path: str | os.PathLike[str], limit: int | None = None) -> Any:
    """Read and parse a JSON file: :class:`OSError` if it cannot be read (not a regular
    file, larger than ``limit`` (default :data:`game.fileio.MAX_FILE_BYTES`), no
    permission …), :class:`JSONError` if it is not
    JSON this game accepts."""
    return loads(read_regular(path, limit))


__all__ = ["MAX_DEPTH", "JSONError", "decode", "depth", "is_int", "is_number", "load_file",
           "loads", "well_formed"]
