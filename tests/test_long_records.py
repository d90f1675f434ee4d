"""Long records are read and replayed without holding every state (game.recordscan,
game.replaying), and nothing else changes: the same records, the same refusals with
the same messages, byte for byte the same ``replay --json`` output, the same advice.
The memory itself is measured by ``tools/bench_long_record.py`` (10**6 moves)."""

from __future__ import annotations

import io
import json
import random
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import jsonio, records, recordscan, replaying
from game.games import new_game
from game.records import RecordError, Seat

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "examples"
sys.path.insert(0, str(ROOT / "tools"))

import fuzz_records as fz  # noqa: E402


def old_parse(text: bytes) -> records.Record:
    """The reader before: the whole text parsed, then checked."""
    try:
        data = jsonio.loads(text)
    except jsonio.JSONError as exc:
        raise RecordError(f"not valid JSON: {exc}", "malformed_json") from None
    return records.from_dict(data)


def outcome(read, text: bytes):  # noqa: ANN001
    try:
        return ("ok", read(text).as_dict())
    except RecordError as exc:
        return (exc.kind, exc.message)


def example_records() -> list[Path]:
    return [p for p in sorted(EXAMPLES.glob("*.json"))
            if not p.name.endswith(".expected.json") and p.name != "manifest.json"]


def test_the_reader_agrees_with_the_whole_text_parser_on_damaged_records():
    """Fuzzed records (flipped bytes, cuts, wrong types, deep nesting, encodings):
    the same record, or the same error kind and message."""
    seen = set()
    for case in fz.cases(seed=7, n=1500, specials=False):
        got, want = outcome(records.parse, case.data), outcome(old_parse, case.data)
        assert got == want, case.name
        seen.add(got[0])
    assert {"ok", "malformed_json", "bad_format"} <= seen, seen


@pytest.mark.parametrize("text", [
    b'{"moves": [], "moves": 3}', b'{"moves": 3, "moves": []}',
    b'{"format": 1, "moves": [{"seat": 0, "move": "keep"},]}',
    b'{"format": 1, "moves": [{"move": "keep", "seat": 0}, {"seat": true, "move": "x"}]}',
    b'{"format": 1, "moves": [{"seat": 0, "move": "k\\u00e9"}, {"seat": 1.0, "move": "x"}]}',
    b'{"moves": [' + b"[" * 70 + b"]" * 70 + b"]}",
    b'{"moves": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}",
    b'{"moves": [{"seat": 0, "move": "keep"}]} x', b"[1, 2]", b'"text"', b"{}",
    b'\xef\xbb\xbf{"format": 1}', b'{"format": NaN}', b' {"moves" : [ ] } ',
    b'{"seat": 00}', b'{"moves": [{"seat": -0, "move": "a\\tb"}]}',
])
def test_edge_cases_read_as_before(text):
    assert outcome(records.parse, text) == outcome(old_parse, text)


def test_repeated_moves_share_one_tuple():
    moves = [{"seat": i % 3, "move": "keep"} for i in range(300)]
    scanned = recordscan.scan(json.dumps({"moves": moves}, indent=2))
    assert len(scanned.moves) == 300 and len({id(m) for m in scanned.moves}) == 3


def random_record(seed: int, moves: int) -> records.Record:
    rng = random.Random(seed)
    game_id = rng.choice(["chase", "rams"])
    g = new_game(game_id, None, rng.randint(3, 7), seed=seed, bot_seed=seed)
    g.start()
    while not g.finished and len(g.moves) < moves:
        p = g.to_move()
        g.apply(p.seat, rng.choice(list(p.legal)))
    return records.record_of(g, [Seat(f"S{i}") for i in range(g.n_seats)], seed=seed,
                             bot_seed=seed)


def old_replay_json(record: records.Record) -> str:
    return json.dumps(records.rebuild(record).summary(), indent=1) + "\n"


def new_replay_json(record: records.Record) -> str:
    out = io.StringIO()
    replaying.replay_json(record, out)
    return out.getvalue()


@pytest.mark.parametrize("path", example_records(), ids=lambda p: p.name)
def test_replay_json_prints_byte_for_byte_what_it_printed(path):
    try:
        record = records.load(path)
        want = old_replay_json(record)
    except RecordError as exc:
        with pytest.raises(RecordError) as err:
            replaying.replay_json(records.load(path), io.StringIO())
        assert (err.value.kind, err.value.message) == (exc.kind, exc.message)
        return
    assert new_replay_json(record) == want


@given(st.integers(0, 10**6), st.integers(0, 600))
def test_replay_json_is_the_summary_for_any_game(seed, moves):
    record = random_record(seed, moves)
    assert new_replay_json(record) == old_replay_json(record)


def test_a_bad_move_late_in_the_record_prints_nothing(tmp_path):
    record = long_rams(400)
    record.moves[150] = (record.moves[150][0], "fold")
    out = io.StringIO()
    with pytest.raises(RecordError) as err:
        replaying.replay_json(record, out)
    assert err.value.message.startswith("move 150: ") and out.getvalue() == ""


@pytest.mark.parametrize("seed", range(6))
def test_advice_from_the_light_rebuild_is_the_same(seed):
    """``advise`` reads a view whose history shares equal events: the same view, so
    the same advice."""
    from game.ai.coach import advise_view

    record = random_record(seed, 10**6)             # a whole game, cut half-way
    record.moves = record.moves[: len(record.moves) // 2 + seed]
    full = records.rebuild(record)
    light = replaying.rebuild_light(record, history=True)
    pending = full.to_move()
    assert pending is not None and full.round_index >= 1
    view = replaying.shallow_view(light, pending.seat)
    assert view == full.view(pending.seat)
    assert advise_view(view, "medium", 40) == advise_view(full.view(pending.seat),
                                                          "medium", 40)


def long_rams(moves: int) -> records.Record:
    """Void Rams rounds (no drop limit, every seat drops): as long as one likes."""
    from game.rules.rams import RamsGame

    rules = {"drop_limit": "none", "dealer_must_play": False,   # the dealer may drop too
             "last_round": "none"}                             # and no last round
    g = RamsGame(rules, 4, seed=1, bot_seed=1)
    g.start()
    while g.round_index < 4:
        p = g.to_move()
        g.apply(p.seat, "drop" if "drop" in p.legal else p.legal[0])
    cycle = list(g.moves)
    seq = (cycle * (moves // len(cycle) + 1))[:moves]
    return records.Record("rams", [Seat(c) for c in "ABCD"], rules, seed=1, moves=seq)


def test_a_long_replay_holds_no_state_per_move(monkeypatch):
    """Traced memory of a replay of 20,000 moves against one of 2,000: the light
    rebuild's hardly grows (the round entries go to a file once past the spool's
    size, here 64 KB), the full rebuild's grows by its kept moves, rounds and history."""
    monkeypatch.setattr(replaying, "SPOOL_BYTES", 64 * 1024)

    def peak(fn, record) -> int:  # noqa: ANN001
        tracemalloc.start()
        try:
            fn(record)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    def light(record):  # noqa: ANN001
        replaying.replay_json(record, _Null())

    def full(record):  # noqa: ANN001
        records.rebuild(record)

    small, large = long_rams(2_000), long_rams(20_000)
    light_growth = peak(light, large) - peak(light, small)
    full_growth = peak(full, large) - peak(full, small)
    assert light_growth < 200 * 1024, light_growth
    assert full_growth > 8 * light_growth + 1_000_000, (full_growth, light_growth)


class _Null(io.TextIOBase):
    def write(self, text: str) -> int:
        return len(text)
