"""Same view, same move: every level of both games, and the coach, decide from the view
alone, whatever the machine is doing (issue: budgets are counts, never clocks).

The dynamic test decides a fixed set of positions twice, once on a quiet process and
once beside two busy processes that load both cores, and compares every answer. The
static test keeps clocks out of the code the levels and the coach run.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from game.ai.coach import advise_view
from game.ai.registry import LEVELS, make_player
from game.games import GAME_IDS, new_game

ROOT = Path(__file__).resolve().parents[1]
#: Modules that time things on purpose: the tournament reports decision times, the
#: user-bot harness enforces a bot's time limit. No level or coach imports them.
CLOCK_ALLOWED = {"tournament.py", "bots.py", "stats.py"}


def positions(game_id: str, count: int) -> list[dict]:
    """``count`` views of real decisions with a choice, from seeded games."""
    out: list[dict] = []
    filler = make_player(game_id, "medium")
    k = 0
    while len(out) < count:
        g = new_game(game_id, None, 4, seed=1000 + k, bot_seed=k)
        g.start()
        step = 0
        while (p := g.to_move()) is not None and len(out) < count:
            view = g.view(p.seat)
            if len(p.legal) > 1 and step % 5 == k % 5:
                out.append(view)
            g.apply(p.seat, filler.choose(view))
            step += 1
        k += 1
    return out


def decide_all(views: dict[str, list[dict]]) -> list[object]:
    answers: list[object] = []
    for game_id, vs in views.items():
        for level in LEVELS:
            player = make_player(game_id, level)
            answers += [player.choose(v) for v in vs]
        answers += [advise_view(v, "hard", samples=24) for v in vs[:3]]
    return answers


@pytest.fixture
def busy_cores():
    procs = [subprocess.Popen([sys.executable, "-c", "while True:\n    pass"])
             for _ in range(2)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_levels_and_coach_ignore_the_machines_load(busy_cores: None) -> None:
    # the first pass ran on a quiet machine before the fixture started the load
    assert QUIET == decide_all(VIEWS)


VIEWS = {game_id: positions(game_id, 4) for game_id in GAME_IDS}
QUIET = decide_all(VIEWS)


def _clock_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names]
            mod = getattr(node, "module", None) or ""
            if "time" in names or mod == "time" or "datetime" in names or mod == "datetime":
                found.append(f"{path.name}:{node.lineno} imports a clock")
    return found


def test_no_clock_in_rules_levels_or_coach() -> None:
    files = sorted((ROOT / "game" / "rules").glob("*.py")) + sorted(
        p for p in (ROOT / "game" / "ai").glob("*.py") if p.name not in CLOCK_ALLOWED)
    assert files
    problems = [msg for f in files for msg in _clock_calls(f)]
    assert not problems, problems
