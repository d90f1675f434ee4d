"""Record formats (docs/records.md#record-formats): format 1 keeps "Rams as written" as its
defaults, format 3 has today's (the pub's pace); a record is written in the lowest
format that says its rules, so readers of format 1 keep reading every Chase record and
every Rams game as written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game import commands
from game.games import new_game
from game.records import FORMATS, RecordError, Seat, from_dict, rebuild, record_of
from game.rules.rams import AS_WRITTEN, NEW_IN_FORMAT_3, rams_rules


def rams_record(fmt: int, rules: dict[str, Any], moves: list[tuple[int, str]]
                ) -> dict[str, Any]:
    return {"format": fmt, "game": "rams", "rules": rules,
            "seats": [{"name": f"P{i}", "type": "human"} for i in range(4)],
            "dealer": 0, "seed": 11, "moves": [{"seat": s, "move": m} for s, m in moves]}


def test_the_formats() -> None:
    assert FORMATS == (1, 3)
    with pytest.raises(RecordError) as err:
        from_dict(rams_record(2, {}, []))
    assert err.value.kind == "bad_format" and "format 2 is not supported" in err.value.message


def test_format_1_replays_rams_as_written() -> None:
    # every seat drops in round 0; under the drop limit of 1 they must play in round 1
    drops = [(1, "drop"), (2, "drop"), (3, "drop"), (0, "drop")]
    g = rebuild(from_dict(rams_record(1, {}, drops)))
    assert g.rules["scoring"] == "lives" and g.rules["drop_limit"] == 1
    assert g.rounds[0]["void"] and g.to_move().legal == ("play",)
    assert not g.rules["general_rams"] and g.lives == [3, 3, 3, 3]
    # the same moves in format 3: the dealer must play when everyone before dropped
    with pytest.raises(RecordError) as err:
        rebuild(from_dict(rams_record(3, {}, drops)))
    assert err.value.kind == "illegal_move" and "move 3" in err.value.message
    g = rebuild(from_dict(rams_record(3, {}, drops[:3])))
    assert g.to_move().legal == ("play", "general") and g.lives == [20, 20, 20, 20]


@pytest.mark.parametrize("key", NEW_IN_FORMAT_3)
def test_format_1_does_not_know_the_new_keys(key: str) -> None:
    with pytest.raises(RecordError) as err:
        from_dict(rams_record(1, {key: rams_rules()[key]}, []))
    assert err.value.kind == "unknown_rules_key" and key in err.value.message
    from_dict(rams_record(3, {key: rams_rules()[key]}, []))       # format 3 does


def played(rules: dict[str, Any], game: str = "rams", n: int = 4, rounds: int = 3) -> Any:
    g = new_game(game, rules, n, seed=5)
    g.start()
    while (p := g.to_move()) is not None and g.round_index < rounds:
        g.apply(p.seat, p.legal[-1])
    return g


def test_a_game_as_written_is_written_in_format_1() -> None:
    g = played(dict(AS_WRITTEN))
    d = record_of(g, [Seat(f"P{i}") for i in range(4)], seed=5).as_dict()
    assert d["format"] == 1
    assert not set(d["rules"]) & set(NEW_IN_FORMAT_3) and d["rules"]["drop_limit"] == 1
    again = rebuild(from_dict(json.loads(json.dumps(d))))
    assert again.summary() == g.summary() and again.rules == g.rules


def test_a_game_of_today_is_written_in_format_3() -> None:
    g = played({})
    d = record_of(g, [Seat(f"P{i}") for i in range(4)], seed=5).as_dict()
    assert d["format"] == 3 and d["rules"]["scoring"] == "counters"
    again = rebuild(from_dict(json.loads(json.dumps(d))))
    assert again.summary() == g.summary() and again.rules == g.rules


def test_lives_without_the_drop_limit_still_fits_format_1() -> None:
    # today's drop_limit default differs from format 1's: format 1 says it explicitly
    g = played({**AS_WRITTEN, "drop_limit": "none"})
    d = record_of(g, [Seat(f"P{i}") for i in range(4)], seed=5).as_dict()
    assert d["format"] == 1 and d["rules"]["drop_limit"] == "none"


def test_chase_records_stay_format_1_and_read_the_same_in_format_3() -> None:
    g = played({}, "chase")
    d = record_of(g, [Seat(f"P{i}") for i in range(4)], seed=5).as_dict()
    assert d["format"] == 1
    d3 = {**d, "format": 3}
    assert rebuild(from_dict(d3)).summary() == rebuild(from_dict(d)).summary()


def test_replay_reads_format_3(tmp_path: Path, capsys: Any) -> None:
    f = tmp_path / "r.json"
    f.write_text(json.dumps(rams_record(3, {}, [(1, "play")])))
    assert commands.run("replay", [str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lives"] == [20, 20, 20, 20]
    assert out["to_move"] == {"seat": 2, "legal": ["drop", "general", "play"],
                              "decision": "declare"}


pace = st.fixed_dictionaries({}, optional={
    "scoring": st.sampled_from(["lives", "counters"]),
    "drop_limit": st.sampled_from([1, 3, "none"]),
    "general_rams": st.booleans(), "dealer_must_play": st.booleans(),
    "two_must_play": st.booleans(), "counters": st.integers(1, 30),
    "lives": st.integers(1, 5), "must_beat": st.booleans(),
    "last_round": st.sampled_from([10, 30, 100, "none"])})


@settings(max_examples=80, deadline=None)
@given(rules=pace)
def test_every_rule_set_reads_back_the_same(rules: dict[str, Any]) -> None:
    g = played(rules, rounds=1)
    d = json.loads(json.dumps(record_of(g, [Seat(f"P{i}") for i in range(4)],
                                        seed=5).as_dict()))
    back = from_dict(d)
    full, read = rams_rules(rules), rams_rules(back.rules)
    if full["scoring"] == "lives":
        full.pop("counters")
        read.pop("counters")      # not said in format 1, and meaningless under lives
    assert read == full
    assert d["format"] == (1 if all(full[k] == AS_WRITTEN.get(k) for k in AS_WRITTEN
                                    if k in NEW_IN_FORMAT_3) else 3)
