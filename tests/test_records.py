"""Records and ``stammtisch replay --json`` (docs/records.md), on the shared examples and on
bad input of every kind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.cli import main as cli_main
from game.records import Record, RecordError, Seat, load, parse, rebuild, save

EXAMPLES = Path(__file__).parent / "examples"
CASES = sorted(p for p in EXAMPLES.glob("*.json")
               if not p.name.endswith(".expected.json") and p.name != "manifest.json")
REQUIRED = ("finished", "winner", "lives", "rounds", "to_move")


def run_replay(path: Path, capsys) -> tuple[int, str, str]:
    code = cli_main(["replay", str(path), "--json"])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_examples_replay_exactly(path, capsys):
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    code, out, err = run_replay(path, capsys)
    if "exit" in expected:
        assert code == expected["exit"] and out == ""
        want = expected["stderr"]
        if expected.get("subkind", "").startswith("format_"):
            # the examples were written for a reader of format 1 only; this one also
            # knows format 3 (docs/records.md) and says so
            want = want.replace("(this reader knows format 1)",
                                "(this reader knows formats 1 and 3)")
        assert err.strip() == want
        assert "\n" not in err.strip(), "one line"
    else:
        assert code == 0, err
        got = json.loads(out)
        for key in REQUIRED:
            assert got[key] == expected[key], key
        for key, value in expected.items():   # the extras we print keep their meaning too
            if key in got:
                assert got[key] == value, key


def test_examples_cover_both_games_and_every_error_kind():
    kinds = {json.loads(p.with_name(p.stem + ".expected.json").read_text()).get("error")
             for p in CASES}
    assert {"malformed_json", "bad_format", "unknown_rules_key", "bad_value", "bad_card",
            "wrong_seat", "illegal_move"} <= kinds
    assert any("_rams_" in p.name for p in CASES) and any("_chase_" in p.name for p in CASES)


def chase_record(**changes):
    base = {"format": 1, "game": "chase", "rules": {"lives": 1},
            "seats": [{"name": "A", "type": "human"}, {"name": "B", "type": "ai",
                                                       "level": "hard"},
                      {"name": "C", "type": "human"}],
            "dealer": 0, "seed": 5, "moves": []}
    base.update(changes)
    return base


BAD = [
    ("malformed_json", "{\"format\": 1,"),
    ("malformed_json", ""),
    ("bad_format", "[1, 2]"),
    ("bad_format", chase_record(format=None)),
    ("bad_format", chase_record(format="1")),
    ("bad_format", chase_record(game="poker")),
    ("bad_format", chase_record(seats=[{"name": "A", "type": "human"}])),
    ("bad_format", chase_record(seats=[{"name": "A", "type": "robot"}] * 3)),
    ("bad_format", chase_record(seats=[{"name": "", "type": "human"}] * 3)),
    ("bad_format", chase_record(seats=[{"name": "A", "type": "ai", "level": "godlike"}] * 3)),
    ("bad_format", chase_record(dealer=7)),
    ("bad_format", chase_record(dealer=None, seed=None)),
    ("bad_format", chase_record(seed="x")),
    ("bad_format", chase_record(moves=[{"seat": "0", "move": "keep"}])),
    ("bad_format", chase_record(moves={"seat": 1})),
    ("bad_format", chase_record(deals="AS")),
    ("bad_format", chase_record(deals=[["AS", "AS"]])),
    ("unknown_rules_key", chase_record(rules={"must_trump": True})),
    ("bad_value", chase_record(rules={"lives": 9})),
    ("bad_card", chase_record(deals=[["AS", "1H"]])),
    ("bad_card", chase_record(deals=[["Fool"]])),
    ("wrong_seat", chase_record(moves=[{"seat": 2, "move": "keep"}])),
    ("illegal_move", chase_record(moves=[{"seat": 1, "move": "draw"}])),
    ("illegal_move", chase_record(moves=[{"seat": 1, "move": "QS"}])),
    ("missing_deal", chase_record(seed=None, deals=[])),
]


@pytest.mark.parametrize("kind,content", BAD, ids=[f"{k}-{i}" for i, (k, _) in enumerate(BAD)])
def test_bad_records_exit_2_with_one_line(kind, content, tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    code, out, err = run_replay(path, capsys)
    assert code == 2 and out == ""
    line = err.strip()
    assert "\n" not in line and line.startswith(kind + ": "), line


def test_missing_file_is_reported(tmp_path, capsys):
    code, out, err = run_replay(tmp_path / "nope.json", capsys)
    assert code == 2 and out == "" and err.startswith("bad_format: ")


def test_game_over_is_reported_before_other_faults(tmp_path, capsys):
    rec = chase_record(rules={"lives": 1, "final_tie": "shared"})
    game = rebuild(parse(json.dumps(rec)))
    moves = []
    while not game.finished:
        p = game.to_move()
        moves.append({"seat": p.seat, "move": "keep"})
        game.apply(p.seat, "keep")
    rec["moves"] = moves + [{"seat": 9, "move": "ZZ"}]
    path = tmp_path / "over.json"
    path.write_text(json.dumps(rec))
    code, out, err = run_replay(path, capsys)
    assert code == 2 and err.startswith(f"illegal_move: move {len(moves)}: ")
    assert "already over" in err


def test_fault_order_wrong_seat_before_illegal(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(chase_record(moves=[{"seat": 0, "move": "fly"}])))
    code, _, err = run_replay(path, capsys)
    assert err.startswith("wrong_seat: move 0: seat 0 played 'fly' but it is seat 1's turn")


def test_mid_round_to_move():
    rec = parse(json.dumps(chase_record(moves=[{"seat": 1, "move": "keep"}])))
    s = rebuild(rec).summary()
    assert s["to_move"] == {"seat": 2, "legal": ["keep", "swap"], "decision": "turn"}
    assert s["finished"] is False and s["winner"] is None and s["rounds"] == []


def test_save_load_round_trip_atomic(tmp_path):
    rec = Record(game="chase", seats=[Seat("A"), Seat("B", "ai", "easy"), Seat("C")],
                 rules={"lives": 2}, seed=3, moves=[])
    g = rebuild(rec)
    p = g.to_move()
    g.apply(p.seat, "swap")
    rec.moves = list(g.moves)
    target = tmp_path / "sub" / "save.json"
    save(rec, target)
    assert [x.name for x in target.parent.iterdir()] == ["save.json"], "no temporary left"
    again = load(target)
    assert again.as_dict() == rec.as_dict()
    assert rebuild(again).summary() == g.summary()


def test_record_error_kinds_are_exceptions():
    with pytest.raises(RecordError) as err:
        parse("{")
    assert err.value.kind == "malformed_json"


def test_replay_does_not_import_pygame():
    code = ("import sys, runpy; sys.argv=['stammtisch','replay',"
            f"{str(CASES[0])!r},'--json']\n"
            "from game.cli import main\nimport io, contextlib\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(sys.argv[1:])\n"
            "assert 'pygame' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1])
