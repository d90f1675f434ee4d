"""Seeded fuzzing of ``replay --json`` and ``advise --json`` over the shared example
records (``tools/fuzz_records.py``): flipped bytes, cuts, deleted keys, wrong types at
every key, huge numbers, deep nesting, other encodings, long files, special files.
Every run ends with exit status 0 and one JSON object, or 2 and one line that starts
with the error's kind; never a traceback. ``tools/bench_fuzz.py`` runs 10,000 cases.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import fuzz_records as fz  # noqa: E402

CASES = 300


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    out = []
    for case in fz.cases(seed=20261201, n=CASES):
        path = fz.materialize(case, folder)
        for command in ("replay", "advise"):
            out.append((case.name, command, fz.run_case(command, path)))
    fz.cleanup(folder)
    return out


def test_no_run_breaks_the_contract(outcomes):
    broken = [(name, command, o.problem(), (o.traceback or o.err)[-300:])
              for name, command, o in outcomes if o.problem() is not None]
    assert broken == []


def test_the_cases_reach_every_outcome(outcomes):
    """The fuzzing is not all refused at the door: valid records replay and get
    advice, and the refusals span the error kinds."""
    kinds = Counter(o.err.split(":", 1)[0] for _, _, o in outcomes if o.code == 2)
    ok = Counter(command for _, command, o in outcomes if o.code == 0)
    assert ok["replay"] >= 30 and ok["advise"] >= 15, ok
    assert {"malformed_json", "bad_format", "bad_value", "illegal_move",
            "no_decision"} <= set(kinds), kinds
    assert any(name.startswith("special:") for name, _, _ in outcomes)
