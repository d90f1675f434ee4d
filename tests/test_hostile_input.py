"""Every reader of JSON survives every JSON, every number on the command line is
range-checked, and every refusal has its own kind (issue 15)."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pygame
import pytest

from game import jsonio, records, settings
from game.ai.coach import main as advise_main
from game.ai.policy import main as policy_main
from game.ai.tournament import main as tournament_main
from game.cli import main as cli_main
from game.cli import window_parser
from game.scenes import testing as T

EXAMPLES = Path(__file__).parent / "examples"
COMPLETE = EXAMPLES / "0000_chase_5p_complete.json"
PARTIAL = EXAMPLES / "0010_chase_5p_partial.json"
DEEP = "[" * 1000 + "]" * 1000


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = cli_main(argv)
    except SystemExit as exc:     # argparse
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def one_line(err: str) -> str:
    line = err.strip()
    assert "\n" not in line, err
    return line


# ----------------------------------------------------------------- the one JSON reader


def nested(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def test_depth_limit_is_exact():
    assert jsonio.loads(nested(jsonio.MAX_DEPTH)) is not None
    with pytest.raises(jsonio.JSONError, match="nested deeper"):
        jsonio.loads(nested(jsonio.MAX_DEPTH + 1))
    for text in (DEEP, "[" * 100_000, nested(5000)):
        with pytest.raises(jsonio.JSONError):
            jsonio.loads(text)


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"name": "[" * 500 + '\\"{{{' + "]" * 7, "x": [["\\\\"]]})
    assert jsonio.depth(text) == 3
    assert jsonio.loads(text)["x"] == [["\\\\"]]


@pytest.mark.parametrize("command", ["replay", "advise"])
def test_deep_nesting_in_a_record_is_malformed_json(command, tmp_path, capsys):
    for i, text in enumerate([DEEP, '{"format": 1, "moves": ' + DEEP + "}",
                              '{"format": 1, "rules": ' + nested(200) + "}"]):
        path = tmp_path / f"deep{i}.json"
        path.write_text(text)
        code, out, err = run([command, str(path), "--json"], capsys)
        assert code == 2 and out == ""
        assert one_line(err).startswith("malformed_json: not valid JSON: nested deeper")


def test_deep_nesting_in_the_replay_viewer(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text(DEEP)
    code, out, err = run(["replay", str(path)], capsys)     # the window mode
    assert code == 2 and one_line(err).startswith("malformed_json: ")


def test_deep_file_chosen_or_dropped_in_the_window(home):
    from game.scenes.menu import MenuScene
    from game.scenes.replay_list import ReplayListScene

    (home / "saves").mkdir()
    deep = home / "saves" / "deep.json"
    deep.write_text(DEEP)
    app = T.make_app((960, 600), "en")
    menu = MenuScene(app)
    app.push(menu)
    app.handle(pygame.event.Event(pygame.DROPFILE, file=str(deep)))   # dropped on the menu
    assert app.top is menu and "malformed_json" in app.toast[0]
    app.toast = None
    replays = ReplayListScene(app)
    app.push(replays)
    button = replays.list.by_name("file_deep.json")
    assert button is not None
    T.click_button(app, button)                                   # chosen in the list
    assert app.top is replays and "nested deeper" in app.toast[0]
    T.frame(app)


def test_deep_rules_on_the_command_line(capsys):
    for argv in (["tournament", "--players", "3", "--seats", "random,random,random",
                  "--rules", DEEP, "--json"],
                 ["policy", "--players", "3", "--rules", DEEP, "--json"]):
        code, out, err = run(argv, capsys)
        assert code == 2 and out == "" and "error: argument --rules: not valid JSON" in err


def test_strict_json_numbers(tmp_path, capsys):
    rec = COMPLETE.read_text()
    for bad in ("NaN", "Infinity", "-Infinity"):
        path = tmp_path / "nan.json"
        path.write_text(rec.replace('"format": 1', f'"format": 1, "x": {bad}', 1))
        code, _, err = run(["replay", str(path), "--json"], capsys)
        assert code == 2 and one_line(err).startswith("malformed_json: ") and bad in err
    path = tmp_path / "digits.json"
    path.write_text(rec.replace('"format": 1', '"format": 1, "x": ' + "9" * 5000, 1))
    code, _, err = run(["replay", str(path), "--json"], capsys)
    assert code == 2 and one_line(err).startswith("malformed_json: ")


# ----------------------------------------------------------------- encodings


def test_utf8_with_or_without_a_byte_order_mark_is_accepted(tmp_path, capsys):
    _, plain, _ = run(["replay", str(COMPLETE), "--json"], capsys)
    path = tmp_path / "bom.json"
    path.write_bytes(codecs.BOM_UTF8 + COMPLETE.read_bytes())
    code, out, err = run(["replay", str(path), "--json"], capsys)
    assert code == 0 and out == plain


@pytest.mark.parametrize("encoding,name", [
    ("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"),
    ("utf-32", "UTF-32"), ("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32")])
def test_utf16_and_utf32_are_refused_by_name(encoding, name, tmp_path, capsys):
    path = tmp_path / "wide.json"
    path.write_bytes(COMPLETE.read_text().encode(encoding))
    code, out, err = run(["replay", str(path), "--json"], capsys)
    assert code == 2 and out == ""
    line = one_line(err)
    assert line.startswith("malformed_json: ") and "UTF-8" in line
    assert name in line or "UTF-16 or UTF-32" in line


def test_invalid_utf8_is_malformed_json(tmp_path, capsys):
    path = tmp_path / "latin1.json"
    path.write_bytes(COMPLETE.read_text().replace('"Anna"', '"Jürgen"').encode("latin-1"))
    code, _, err = run(["replay", str(path), "--json"], capsys)
    assert code == 2 and one_line(err).startswith("malformed_json: the text is not UTF-8"[:16])
    assert "not UTF-8" in err


def test_settings_in_utf16_are_damaged_not_a_crash(home):
    (home / "settings.json").write_bytes(json.dumps({"volume": 0.3}).encode("utf-16"))
    st = settings.load()
    assert st["volume"] == 0.7 and st.notice.key == "settings.damaged"
    assert "UTF-16" in st.notice.params["reason"]


# ----------------------------------------------------------------- kinds


def test_advise_on_a_finished_record_has_its_own_kind(capsys):
    code = advise_main([str(COMPLETE), "--json"])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert one_line(out.err).startswith("no_decision: ")


def rams_take_record(move: str) -> dict:
    return {"format": 1, "game": "rams", "rules": {"dealer_takes_trump": True,
                                                   "deck": "skat32"},
            "seats": [{"name": n, "type": "human"} for n in "ABCD"], "dealer": 0, "seed": 0,
            "moves": [{"seat": 0, "move": move}]}


@pytest.mark.parametrize("move,kind", [
    ("take:10H", "bad_card"),        # malformed code
    ("take:2S", "bad_card"),         # a real card, but not in the 32-card deck
    ("take:ZZ", "bad_card"),
    ("take:", "bad_card"),
    ("take:AS", "illegal_move"),     # in the deck, not in the dealer's hand
    ("take:keep", "illegal_move"),   # not a card at all
    ("take:9D", None),               # the dealer holds it
])
def test_a_card_inside_take_is_checked_like_any_card(move, kind, tmp_path, capsys):
    path = tmp_path / "take.json"
    path.write_text(json.dumps(rams_take_record(move)))
    code, out, err = run(["replay", str(path), "--json"], capsys)
    if kind is None:
        assert code == 0, err
        return
    assert code == 2 and one_line(err).startswith(f"{kind}: move 0: seat 0 played {move!r}")


# ----------------------------------------------------------------- command-line numbers


BAD_ARGS = [
    ["--quit-after", "nan"], ["--quit-after", "inf"], ["--quit-after", "-1"],
    ["--seed", "-1"], ["--seed", "x"], ["--players", "2"], ["--players", "11"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--time-limit", "inf"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--time-limit", "0"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--time-limit", "nan"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--time-limit", "-2"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--max-rounds", "-1"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--max-rounds", "0"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--games", "0"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--seed", "-5"],
    ["tournament", "--players", "0", "--seats", "random"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--rules", "5"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--rules", "null"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--rules", "[]"],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--rules", '"x"'],
    ["tournament", "--players", "3", "--seats", "random,random,random", "--rules", "{"],
    ["advise", str(PARTIAL), "--samples", "0"],
    ["advise", str(PARTIAL), "--samples", "-3"],
    ["advise", str(PARTIAL), "--samples", "1e9"],
    ["policy", "--players", "1"], ["policy", "--players", "11"],
    ["policy", "--players", "3", "--rules", "null"],
]


@pytest.mark.parametrize("argv", BAD_ARGS, ids=[" ".join(a)[-40:] for a in BAD_ARGS])
def test_every_number_is_range_checked(argv, capsys, monkeypatch):
    if argv[0].startswith("--"):       # the window's options: parse only, open nothing
        with pytest.raises(SystemExit) as exc:
            window_parser().parse_args(argv)
        code, err = exc.value.code, capsys.readouterr().err
    else:
        code, _, err = run(argv, capsys)
    assert code == 2
    assert "error: argument" in err and "Traceback" not in err


def test_values_in_range_are_accepted(capsys):
    ns = window_parser().parse_args(["--quit-after", "0.5", "--seed", "7", "--players", "10"])
    assert ns.quit_after == 0.5 and ns.seed == 7 and ns.players == 10
    code = tournament_main(["--players", "3", "--seats", "random,random,random", "--games",
                            "2", "--time-limit", "0.5", "--max-rounds", "3", "--rules",
                            '{"lives": 1}', "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["games"] == 2


def test_policy_rules_are_checked_like_records(capsys):
    code = policy_main(["--players", "3", "--rules", '{"ace_high": "x"}', "--json"])
    err = capsys.readouterr().err
    assert code == 2 and one_line(err).startswith("bad_value: rules key 'ace_high'")
    # the same value in a record gives the same refusal
    rec = json.loads(COMPLETE.read_text())
    rec["rules"] = {"ace_high": "x"}
    with pytest.raises(records.RecordError) as e:
        records.parse(json.dumps(rec))
    assert e.value.kind == "bad_value" and e.value.message == one_line(err).split(": ", 1)[1]
    assert policy_main(["--players", "3", "--rules", '{"ace_high": true}', "--json"]) == 0


def test_policy_takes_its_rules_through_the_solvers_model(capsys):
    """`stammtisch policy` refuses by name the round variants the solved tables cannot
    express (game.ai.solver_rules, the guard docs/fast-paths.md names), and takes keys
    that act only between rounds: the one-round table is the same under them."""
    code = policy_main(["--players", "3", "--rules", '{"domino": "low", "lives": 2}',
                        "--json"])
    err = one_line(capsys.readouterr().err)
    assert code == 2 and "domino='low'" in err and "lives" not in err
    assert policy_main(["--players", "3", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert policy_main(["--players", "3", "--rules", '{"lives": 2, "final_tie": "shared"}',
                        "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == plain
