"""Seeded fuzz cases for the record readers (``replay --json``, ``advise --json``).

Every case starts from one of the shared example records (``tests/examples``) and
damages it one way: flipped bytes, a cut, a deleted key, a value of the wrong type at
any key, huge numbers, deep nesting, another text encoding, a very long but valid
record, random bytes, or a special file in the record's place (a FIFO, a device, a
folder, a symlink loop, a file over the size cap). The same seed gives the same
cases on every machine.

:func:`run_case` runs one command on one case inside this process and checks the
contract of docs/records.md: exit status 0 (and one JSON object on standard output) or 2
(nothing on standard output, one line on standard error that starts with a known
kind). ``tests/test_fuzz.py`` runs a few hundred cases; ``tools/bench_fuzz.py`` runs
10,000 and counts tracebacks, hangs and other exits.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "examples"

#: Error kinds the commands may print (docs/records.md, and ``no_decision`` of ``advise``).
KINDS = ("malformed_json", "bad_format", "unknown_rules_key", "bad_value", "bad_card",
         "wrong_seat", "illegal_move", "missing_deal", "no_decision")

#: Values put in place of any value of a record.
ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 7, 1.5, -0.0, 1e308, -1e308, 2**31, 2**63, 2**64,
    -(2**63), 10**30, "", "x", "AS", "10H", "take:10H", "take:", "Cuckoo", "keep", "play",
    "\u0000", "\ud800", "é" * 3, "x" * 5000, [], {}, [None], [[]], {"a": 1}, ["AS"] * 3,
    [{"seat": 0, "move": "keep"}], {"seat": 0, "move": "keep"},
]


@dataclass
class Case:
    """One fuzz input: ``data`` to write to a file, or a ``special`` file kind."""

    name: str
    data: bytes | None = None
    special: str | None = None


def examples() -> list[tuple[str, bytes]]:
    return [(p.stem, p.read_bytes()) for p in sorted(EXAMPLES.glob("*.json"))
            if not p.name.endswith(".expected.json") and p.name != "manifest.json"]


# ----------------------------------------------------------------- mutations


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path (keys and indices) to a value inside ``value``, the root included."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        # long lists: a few indices are enough
        idx = range(len(value)) if len(value) <= 8 else sorted(
            {0, 1, len(value) // 2, len(value) - 2, len(value) - 1})
        for i in idx:
            yield from _paths(value[i], prefix + (i,))


def _set(root: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = root
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = value
    return root


def _pick_path(rng: random.Random, doc: Any, non_root: bool = True) -> tuple:
    paths = list(_paths(doc))
    if non_root and len(paths) > 1:
        paths = paths[1:]
    return rng.choice(paths)


def _dump(doc: Any, rng: random.Random) -> bytes:
    indent = rng.choice([None, None, 1, 2])
    return json.dumps(doc, indent=indent, ensure_ascii=rng.random() < 0.5).encode(
        "utf-8", "surrogatepass")


def _deep(rng: random.Random) -> str:
    depth = rng.choice([20, 63, 64, 65, 100, 500, 999, 1000, 5000, 100_000])
    if rng.random() < 0.5:
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


def mutate(rng: random.Random, name: str, raw: bytes) -> Case:
    """One damaged copy of the example ``raw``."""
    doc = json.loads(raw) if not name.startswith("bad_0005") and not name.startswith(
        "bad_0012") else None
    ops = ["flip", "cut", "insert", "garbage", "encoding", "long"]
    if doc is not None:
        ops += ["delete", "type", "type", "type", "huge", "deep", "deep_text", "moves",
                "splice", "dup_key", "prefix", "prefix", "rules", "rules", "rules"]
    op = rng.choice(ops)
    label = f"{name}:{op}"
    if op == "flip":
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] = rng.randrange(256) if rng.random() < 0.5 else data[i] ^ (1 << rng.randrange(8))
        return Case(label, bytes(data))
    if op == "cut":
        return Case(label, raw[: rng.randrange(len(raw))])
    if op == "insert":
        i = rng.randrange(len(raw) + 1)
        bit = rng.choice([b"[", b"{", b"]", b"}", b",", b'"', b"\\", b"\x00", b"\xff",
                          b"NaN", b"Infinity", b"-", b"1e999", b"\xef\xbb\xbf"])
        return Case(label, raw[:i] + bit * rng.randint(1, 3) + raw[i:])
    if op == "garbage":
        return Case(label, rng.randbytes(rng.randrange(1, 400)))
    if op == "encoding":
        text = raw.decode("utf-8")
        enc = rng.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
                          "utf-8-sig", "latin-1"])
        return Case(f"{label}-{enc}", text.encode(enc, "replace"))
    if op == "long":
        # whitespace and a long name: valid JSON, large file
        pad = b" " * rng.choice([10, 1000, 100_000])
        return Case(label, pad + raw + pad)
    assert doc is not None
    if op == "delete":
        path = _pick_path(rng, doc)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        del parent[path[-1]]
        return Case(label, _dump(doc, rng))
    if op == "type":
        path = _pick_path(rng, doc)
        value = rng.choice(ODD_VALUES)
        return Case(f"{label}@{'/'.join(map(str, path))}", _dump(_set(doc, path, value), rng))
    if op == "huge":
        path = _pick_path(rng, doc)
        digits = rng.choice([19, 20, 40, 300, 4300, 4301, 10_000])
        text = _dump(_set(doc, path, "__HUGE__"), rng).decode()
        sign = "-" if rng.random() < 0.3 else ""
        number = sign + "9" * digits if rng.random() < 0.7 else f"{sign}1e{digits}"
        return Case(label, text.replace('"__HUGE__"', number).encode())
    if op in ("deep", "deep_text"):
        path = _pick_path(rng, doc, non_root=op == "deep")
        text = _dump(_set(doc, path, "__DEEP__"), rng).decode()
        return Case(label, text.replace('"__DEEP__"', _deep(rng)).encode())
    if op == "moves":
        moves = doc.get("moves") if isinstance(doc, dict) else None
        if isinstance(moves, list) and moves:
            how = rng.choice(["repeat", "shuffle", "drop", "seat", "move"])
            if how == "repeat":
                doc["moves"] = moves * rng.choice([2, 50])
            elif how == "shuffle":
                rng.shuffle(moves)
            elif how == "drop":
                del moves[rng.randrange(len(moves))]
            elif how == "seat":
                rng.choice(moves)["seat"] = rng.choice([-1, 0, 1, 99, 2**70])
            else:
                rng.choice(moves)["move"] = rng.choice(
                    ["take:10H", "take:ZZ", "take:keep", "take:", "10H", "ZZ", "", "KEEP",
                     "keep ", "AS", "Cuckoo", "x" * 100_000])
        return Case(f"{label}", _dump(doc, rng))
    if op == "prefix" and isinstance(doc, dict) and isinstance(doc.get("moves"), list):
        # a valid record that stops at another decision: the coach gets to work
        doc["moves"] = doc["moves"][: rng.randrange(len(doc["moves"]) + 1)]
        return Case(label, _dump(doc, rng))
    if op == "rules" and isinstance(doc, dict) and doc.get("game") in ("chase", "rams"):
        # a rules variant (valid values mostly), the moves cut at a random point
        spec = _rules_spec(doc["game"])
        rules = doc.get("rules") if isinstance(doc.get("rules"), dict) else {}
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(sorted(spec))
            choices = _choices(spec[key])
            rules[key] = rng.choice(choices) if rng.random() < 0.9 else rng.choice(ODD_VALUES)
        doc["rules"] = rules
        if isinstance(doc.get("moves"), list):
            doc["moves"] = doc["moves"][: rng.randrange(len(doc["moves"]) + 1)]
        return Case(f"{label}:{json.dumps(rules, sort_keys=True)}", _dump(doc, rng))
    if op == "splice":
        other_name, other_raw = rng.choice(examples())
        try:
            other = json.loads(other_raw)
        except ValueError:
            other = {}
        if isinstance(other, dict) and isinstance(doc, dict) and other:
            key = rng.choice(list(other))
            doc[key] = other[key]
        return Case(f"{label}+{other_name}", _dump(doc, rng))
    # dup_key: a key twice in the text (the last one counts)
    text = _dump(doc, rng).decode()
    return Case(label, text.replace('"game":', '"game": "poker", "game":', 1).encode())


def _rules_spec(game: str) -> dict[str, Any]:
    if game == "rams":
        from game.rules.rams import RAMS_RULES

        return RAMS_RULES
    from game.rules.chase import CHASE_RULES

    return CHASE_RULES


def _choices(key: Any) -> list[Any]:
    if key.boolean:
        return [True, False]
    out = list(key.choices or ())
    if key.int_range is not None:
        lo, hi = key.int_range
        out += sorted({lo, min(hi, lo + 1), min(hi, lo + 4)})
    return out or [key.default]


SPECIALS = ("fifo", "dev_zero", "dev_null", "folder", "symlink_loop", "missing",
            "sparse_huge", "empty")


def cases(seed: int, n: int, specials: bool = True) -> Iterator[Case]:
    """``n`` cases from ``seed``: mostly mutated examples, and (with ``specials``)
    every special file once among the first cases."""
    rng = random.Random(seed)
    pool = examples()
    made = 0
    if specials:
        for kind in SPECIALS:
            if made >= n:
                return
            yield Case(f"special:{kind}", special=kind)
            made += 1
    while made < n:
        name, raw = rng.choice(pool)
        yield mutate(rng, name, raw)
        made += 1


# ----------------------------------------------------------------- files


def materialize(case: Case, folder: Path) -> Path:
    """Put the case on disk in ``folder``; returns the path to give the command."""
    path = folder / "case.json"
    for p in (path, folder / "loop_a", folder / "loop_b"):
        if p.is_symlink() or p.is_file():
            p.unlink()
        elif p.is_dir():
            p.rmdir()
        elif p.exists():   # a FIFO left by an earlier case
            p.unlink()
    if case.data is not None:
        path.write_bytes(case.data)
        return path
    kind = case.special
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        return Path("/dev/zero")
    elif kind == "dev_null":
        return Path("/dev/null")
    elif kind == "folder":
        path.mkdir()
    elif kind == "symlink_loop":
        os.symlink(folder / "loop_b", folder / "loop_a")
        os.symlink(folder / "loop_a", folder / "loop_b")
        os.symlink(folder / "loop_a", path)
    elif kind == "sparse_huge":
        with open(path, "wb") as fh:
            fh.truncate(4 * 1024**3)      # 4 GB of nothing, no disk used
    elif kind == "empty":
        path.write_bytes(b"")
    # "missing": no file at all
    return path


def cleanup(folder: Path) -> None:
    for p in folder.iterdir():
        if p.is_dir() and not p.is_symlink():
            p.rmdir()
        else:
            p.unlink()


# ----------------------------------------------------------------- running


@dataclass
class Outcome:
    code: int | None
    out: str
    err: str
    traceback: str | None = None

    def problem(self) -> str | None:
        """What breaks the contract, or None."""
        if self.traceback is not None:
            return "traceback"
        if self.code not in (0, 2):
            return f"exit {self.code}"
        if self.code == 2:
            line = self.err.strip()
            if self.out:
                return "exit 2 with output"
            if "\n" in line or not any(line.startswith(k + ": ") for k in KINDS):
                return f"bad error line {line[:120]!r}"
            return None
        try:
            json.loads(self.out)
        except ValueError:
            return "exit 0 without a JSON object"
        return None


def run_case(command: str, path: Path, extra: tuple[str, ...] = ()) -> Outcome:
    """Run ``stammtisch COMMAND PATH --json`` in this process."""
    from game.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([command, str(path), "--json", *extra])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:  # noqa: BLE001 - that is what we count
        return Outcome(None, out.getvalue(), err.getvalue(), traceback.format_exc())
    return Outcome(code, out.getvalue(), err.getvalue())
