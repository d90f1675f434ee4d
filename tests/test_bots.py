"""User bots run in their own process (docs/bots.md, issue 15): the protocol, the runner for
Python bot files, ``exe:`` bots, time limits by the parent's clock, restarts and
retirement, size bounds, plain-string moves, standard error kept apart -- and 38 bad
bots that each end as incidents (or, where nothing was wrong with the move, as
nothing) in a complete, valid ``tournament --json`` result."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from game.ai.bots import harness, protocol, runner
from game.ai.bots.harness import BotPlayer
from game.ai.registry import make_player
from game.ai.tournament import main as tournament_main
from game.ai.tournament import run_tournament
from game.games import new_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_PY = ROOT / "game" / "ai" / "example_bot.py"
EXAMPLE_SH = ROOT / "game" / "ai" / "example_bot.sh"
#: seconds per decision for the bots that are meant to run out of time; every other
#: bot gets the default (5 s), far more than it needs even on a busy machine
LIMIT = 0.3

# ----------------------------------------------------------------- the 38 bad bots

PY = "python"
EXE = "exe"

FIRST = "    return view['legal'][0]\n"

BAD_BOTS: list[tuple[str, str, str, set[str]]] = [
    # (name, kind, source, incident kinds that must appear; empty: none may appear)
    ("raise_runtime", PY, "def choose(view):\n    raise RuntimeError('boom')\n", {"raised"}),
    ("raise_keyboard", PY, "def choose(view):\n    raise KeyboardInterrupt\n", {"raised"}),
    ("raise_recursion", PY, "def choose(view):\n    return choose(view)\n", {"raised"}),
    ("raise_memory", PY, "def choose(view):\n    return bytearray(1 << 40)\n", {"raised"}),
    ("raise_sometimes", PY, "def choose(view):\n    if view['step'] % 2:\n"
     "        raise ValueError('odd')\n" + FIRST, {"raised"}),
    ("illegal_word", PY, "def choose(view):\n    return 'fold'\n", {"illegal"}),
    ("illegal_newline", PY, "def choose(view):\n    return view['legal'][0] + '\\n'\n",
     {"illegal"}),
    ("illegal_added_to_view", PY, "def choose(view):\n    view['legal'].append('fold')\n"
     "    return 'fold'\n", {"illegal"}),
    ("returns_none", PY, "def choose(view):\n    return None\n", {"illegal"}),
    ("returns_int", PY, "def choose(view):\n    return 42\n", {"illegal"}),
    ("returns_list", PY, "def choose(view):\n    return view['legal']\n", {"illegal"}),
    ("returns_bytes", PY, "def choose(view):\n    return view['legal'][0].encode()\n",
     {"illegal"}),
    ("returns_dict", PY, "def choose(view):\n    return {'move': view['legal'][0]}\n",
     {"illegal"}),
    ("lying_str", PY, "class Liar(str):\n    def __eq__(self, other):\n        return True\n"
     "    def __hash__(self):\n        return 0\n"
     "def choose(view):\n    return Liar('fold')\n", {"illegal"}),
    ("raising_str", PY, "class Bomb(str):\n    def __eq__(self, other):\n"
     "        raise SystemExit(3)\n    __hash__ = str.__hash__\n"
     "def choose(view):\n    return Bomb('fold')\n", {"illegal"}),
    ("sleep_forever", PY, "import time\ndef choose(view):\n    time.sleep(10**6)\n",
     {"timeout", "restarted", "retired"}),
    ("busy_forever", PY, "def choose(view):\n    while True:\n        pass\n",
     {"timeout", "restarted", "retired"}),
    ("late_answer", PY, f"import time\ndef choose(view):\n    time.sleep({LIMIT * 10})\n"
     + FIRST, {"timeout", "restarted"}),
    ("sys_exit", PY, "import sys\ndef choose(view):\n    sys.exit(0)\n", {"raised"}),
    ("os_exit", PY, "import os\ndef choose(view):\n    os._exit(0)\n",
     {"crashed", "restarted", "retired"}),
    ("os_exit_after_print", PY, "import os\ndef choose(view):\n    print('keep', flush=True)\n"
     "    os._exit(3)\n", {"crashed", "restarted", "retired"}),
    ("kill_itself", PY, "import os, signal\ndef choose(view):\n"
     "    os.kill(os.getpid(), signal.SIGKILL)\n", {"crashed", "retired"}),
    ("fork_and_die", PY, "import os, time\ndef choose(view):\n    if os.fork() == 0:\n"
     "        time.sleep(10**6)\n    os._exit(1)\n", {"restarted", "retired"}),
    ("close_every_fd", PY, "import os\ndef choose(view):\n    os.closerange(0, 64)\n"
     + FIRST, {"restarted"}),
    ("huge_answer", PY, "def choose(view):\n    return 'k' * 10_000_000\n",
     {"oversize", "restarted", "retired"}),
    ("syntax_error", PY, "def choose(view:\n    return 'keep'\n", {"load_failed", "retired"}),
    ("missing_file", PY, "", {"load_failed", "retired"}),
    ("no_choose", PY, "def decide(view):\n" + FIRST, {"load_failed", "retired"}),
    ("import_error", PY, "import no_such_module_anywhere\n", {"load_failed", "retired"}),
    ("exit_on_import", PY, "import sys\nsys.exit(1)\n", {"load_failed", "retired"}),
    ("print_to_stdout", PY, "import os, sys\ndef choose(view):\n"
     "    print('{\"games\": 0}')\n    sys.stdout.write('fold\\n')\n"
     "    os.write(1, b'fold\\n')\n" + FIRST, set()),
    ("mutate_view", PY, "def choose(view):\n    legal = list(view['legal'])\n"
     "    view['legal'].clear()\n    view['hand'][:] = ['AS']\n    view['lives'][:] = [0] * 9\n"
     "    return legal[0]\n", set()),
    ("exe_missing", EXE, "", {"load_failed", "retired"}),
    ("exe_not_executable", EXE, "#!/bin/sh\necho keep\n", {"load_failed", "retired"}),
    ("exe_exits", EXE, "#!/bin/sh\nexit 3\n", {"crashed", "retired"}),
    ("exe_garbage", EXE, "#!/bin/sh\nwhile read -r line; do printf '\\377\\376\\000\\n'; "
     "done\n", {"illegal"}),
    ("exe_silent", EXE, "#!/bin/sh\nexec sleep 1000\n", {"timeout", "retired"}),
    ("exe_flood", EXE, "#!/bin/sh\nwhile read -r line; do head -c 100000 /dev/zero | "
     "tr '\\000' k; echo; done\n", {"oversize"}),
]


def write_bot(folder: Path, name: str, kind: str, source: str) -> str:
    if name in ("missing_file", "exe_missing"):
        return str(folder / f"{name}.missing")
    path = folder / (f"{name}.py" if kind == PY else name)
    path.write_text(textwrap.dedent(source))
    if kind == EXE and name != "exe_not_executable":
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def spec_of(kind: str, path: str) -> str:
    return ("bot:" if kind == PY else "exe:") + path


def limit_for(name: str, expected: set[str]) -> float:
    """A short limit for the bots that hang (their answer never comes, whatever the
    machine's speed), the default for the rest."""
    hangs = "timeout" in expected or name in ("fork_and_die",)
    return LIMIT if hangs else harness.DEFAULT_TIME_LIMIT


@pytest.fixture(autouse=True)
def quick_start(monkeypatch):
    monkeypatch.setattr(harness, "STARTUP_LIMIT", 10.0)


def test_there_are_38_bad_bots_in_every_category_of_the_issue():
    assert len(BAD_BOTS) == 38 and len({b[0] for b in BAD_BOTS}) == 38
    names = " ".join(b[0] for b in BAD_BOTS)
    for word in ("raise", "illegal", "none", "int", "lying_str", "sleep_forever", "print",
                 "sys_exit", "os_exit", "syntax", "missing", "huge", "mutate"):
        assert word in names


@pytest.mark.parametrize("name,kind,source,expected", BAD_BOTS,
                         ids=[b[0] for b in BAD_BOTS])
def test_a_bad_bot_ends_as_incidents_in_a_valid_result(name, kind, source, expected,
                                                       tmp_path, capfd):
    path = write_bot(tmp_path, name, kind, source)
    spec = spec_of(kind, path)
    code = tournament_main(["--game", "chase", "--players", "4", "--seats",
                            f"{spec},threshold,random,threshold", "--games", "3",
                            "--max-rounds", "6", "--time-limit",
                            str(limit_for(name, expected)), "--seed", "5",
                            "--json"])
    out, err = capfd.readouterr()
    assert code == 0
    result = json.loads(out)                      # one JSON object and nothing else
    assert out.count("\n") == 1
    assert result["games"] == 3 and len(result["players"]) == 3
    assert sum(p["games"] for p in result["players"]) == 9
    for line in err.splitlines():                 # our own incident lines only
        assert line.startswith("incident: "), line
    kinds = {i["kind"] for i in result["incidents"]}
    assert all(i["bot"] == path for i in result["incidents"])
    assert all(len(i["detail"]) <= protocol.DETAIL_CHARS for i in result["incidents"])
    if expected:
        assert expected <= kinds, (kinds, result["incidents"][:4])
    else:
        assert kinds == set(), result["incidents"][:4]
    summary = result["bots"][spec]
    assert summary["incidents"] == len(result["incidents"])
    assert summary["retired"] == ("retired" in kinds)


def test_misbehaving_output_and_view_changes_do_not_change_the_games(tmp_path):
    """The printing and the view-mutating bot play exactly the games of a clean bot
    with the same moves."""
    clean = write_bot(tmp_path, "clean", PY, "def choose(view):\n" + FIRST)
    base = run_tournament("chase", [f"bot:{clean}", "threshold", "random", "threshold"], 4,
                          seed=5, max_rounds=6)
    for name in ("print_to_stdout", "mutate_view"):
        _, kind, source, _ = next(b for b in BAD_BOTS if b[0] == name)
        path = write_bot(tmp_path, name, kind, source)
        got = run_tournament("chase", [f"bot:{path}", "threshold", "random", "threshold"], 4,
                             seed=5, max_rounds=6)
        assert [p["wins"] for p in got["players"]] == [p["wins"] for p in base["players"]]
        assert got["rounds"] == base["rounds"]


# ----------------------------------------------------------------- the pieces


def test_answers_are_read_as_plain_strings_or_errors():
    d = protocol.decode_answer
    assert d(b"keep") == protocol.Answer(move="keep")
    assert d(b'"keep"') == protocol.Answer(move="keep")
    assert d(b"take:9D") == protocol.Answer(move="take:9D")
    assert d(b"null").error == "illegal" and d(b"42").error == "illegal"
    assert d(b"[1]").error == "illegal" and d(b"true").error == "illegal"
    assert d(b"").error == "bad_answer"
    assert d(b'{"error": "raised", "detail": "x"}') == protocol.Answer(error="raised",
                                                                       detail="x")
    assert d(b'{"error": "made-up"}').error == "raised"
    assert d(b"[" * 100_000).move is not None        # no recursion, just a wrong move
    assert d(b"\xff\xfe").move is not None
    assert type(d(b'"keep"').move) is str


def test_the_runner_imports_nothing_of_the_game(tmp_path):
    """The child holds the bot and the views it is sent: no engine to find."""
    probe = tmp_path / "probe.py"
    probe.write_text("import sys\n"
                     "def choose(view):\n"
                     "    mods = sorted(m for m in sys.modules if m == 'game' or "
                     "m.startswith('game.'))\n"
                     "    return 'keep' if not mods else ','.join(mods)\n")
    bot = BotPlayer(str(probe))
    g = new_game("chase", None, 4, seed=1, bot_seed=1)
    g.start()
    p = g.to_move()
    try:
        assert bot.choose(g.view(p.seat)) == "keep", bot.incidents
    finally:
        bot.close()
    assert not bot.incidents


def test_bot_stderr_is_kept_apart_and_bounded(tmp_path, capfd):
    noisy = tmp_path / "noisy.py"
    noisy.write_text("import sys\ndef choose(view):\n    sys.stderr.write('x' * 200000)\n"
                     "    sys.stderr.flush()\n" + FIRST)
    res = run_tournament("chase", [f"bot:{noisy}", "threshold", "threshold"], 2, seed=1,
                         max_rounds=3)
    out, err = capfd.readouterr()
    assert out == "" and err == "" and not res["incidents"]


def test_example_bots_play_without_incidents():
    for spec in (f"bot:{EXAMPLE_PY}", f"exe:{EXAMPLE_SH}"):
        res = run_tournament("chase", [spec, "medium", "easy", "threshold"], 8, seed=3,
                             duplicate=True)
        assert res["games"] == 8 and not res["incidents"], res["incidents"][:3]
        assert res["bots"][spec]["decisions"] > 0
    res = run_tournament("rams", [f"exe:{EXAMPLE_SH}", "random", "random"], 2, seed=3,
                         max_rounds=4)
    assert not res["incidents"]


def test_the_shell_example_keeps_high_cards_and_swaps_low_ones():
    bot = BotPlayer(str(EXAMPLE_SH), kind="exe")
    try:
        seen = set()
        for seed in range(30):
            g = new_game("chase", None, 4, seed=seed, bot_seed=seed)
            g.start()
            p = g.to_move()
            v = g.view(p.seat)
            move = bot.choose(v)
            rank = v["hand"][0][0]
            want = ("swap" if "swap" in v["legal"] else "draw") if rank in "A23456" else "keep"
            assert move == want, (v["hand"], v["legal"], move)
            seen.add(move)
        assert seen >= {"keep", "swap"}
    finally:
        bot.close()
    assert not bot.incidents


def test_a_time_limit_is_kept_by_the_parents_clock(tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ndef choose(view):\n    time.sleep(30)\n" + FIRST)
    bot = BotPlayer(str(slow), time_limit=0.2)
    g = new_game("chase", None, 4, seed=1, bot_seed=1)
    g.start()
    p = g.to_move()
    try:
        assert bot.choose(g.view(p.seat)) == p.legal[0]
    finally:
        bot.close()
    assert [i["kind"] for i in bot.incidents] == ["timeout", "restarted"]
    assert bot.process is None           # the stuck child is gone


def test_a_bot_that_keeps_failing_is_retired(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def choose(view):\n    return 'fold'\n")
    bot = BotPlayer(str(bad))
    g = new_game("chase", None, 4, seed=1, bot_seed=1)
    g.start()
    p = g.to_move()
    view = g.view(p.seat)
    try:
        for _ in range(harness.MAX_FAILURES_IN_ROW + 5):
            assert bot.choose(view) == p.legal[0]
    finally:
        bot.close()
    assert bot.retired and bot.incidents[-1]["kind"] == "retired"
    assert bot.kinds["illegal"] == harness.MAX_FAILURES_IN_ROW


def test_incidents_are_capped(tmp_path, monkeypatch):
    monkeypatch.setattr(harness, "MAX_FAILURES_IN_ROW", 10**6)
    bad = tmp_path / "bad.py"
    bad.write_text("def choose(view):\n    return 'fold' * 1000\n")
    bot = BotPlayer(str(bad))
    g = new_game("chase", None, 4, seed=1, bot_seed=1)
    g.start()
    view = g.view(g.to_move().seat)
    try:
        for _ in range(harness.MAX_INCIDENTS + 50):
            bot.choose(view)
    finally:
        bot.close()
    assert len(bot.incidents) == harness.MAX_INCIDENTS
    assert bot.incident_count == harness.MAX_INCIDENTS + 50


@pytest.mark.parametrize("name", ["raise_runtime", "sleep_forever", "os_exit", "huge_answer",
                                  "exe_garbage", "exe_silent"])
def test_the_thread_channel_behaves_the_same(name, tmp_path, monkeypatch):
    """The channel Windows uses (reader and writer threads), run here on POSIX."""
    _, kind, source, expected = next(b for b in BAD_BOTS if b[0] == name)
    path = write_bot(tmp_path, name, kind, source)
    res = run_tournament("chase", [spec_of(kind, path), "threshold", "threshold"], 2, seed=2,
                         max_rounds=4, time_limit=limit_for(name, expected), bot_threads=True)
    assert expected <= {i["kind"] for i in res["incidents"]}
    bot = make_player("chase", f"bot:{EXAMPLE_PY}", bot_threads=True)   # passed, not flipped
    try:
        assert bot.threads is True
    finally:
        bot.close()
    good = run_tournament("chase", [f"bot:{EXAMPLE_PY}", "threshold", "threshold"], 2,
                          seed=2, max_rounds=4, bot_threads=True)
    assert not good["incidents"]


def test_exe_specs_take_a_command_line(tmp_path):
    script = tmp_path / "bot.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('keep', flush=True)\n")
    res = run_tournament("chase", [f"exe:{sys.executable} {script}", "threshold",
                                   "threshold"], 2, seed=1, max_rounds=3)
    assert res["bots"][f"exe:{sys.executable} {script}"]["decisions"] > 0
    assert not [i for i in res["incidents"] if i["kind"] != "illegal"]


def test_no_bot_process_outlives_the_tournament(tmp_path):
    pids = tmp_path / "pids"
    bot = tmp_path / "pid.py"
    bot.write_text(f"import os\nopen({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
                   "def choose(view):\n" + FIRST)
    run_tournament("chase", [f"bot:{bot}", "threshold", "threshold"], 2, seed=1, max_rounds=3)
    for pid in map(int, pids.read_text().split()):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        # a zombie is gone too: it only waits to be reaped
        status = Path(f"/proc/{pid}/status")
        assert status.exists() and "zombie" in status.read_text().lower(), pid


#: A bot with a memory: "keep" in the first game its process sees, from then on any
#: other legal move. A game is told apart by the view's ``seed`` (the seat's, drawn
#: anew for every game and seat). Run as a ``bot:`` file (``choose``) or, with the
#: argument ``exe``, as a program that speaks the line protocol itself.
REMEMBERS = textwrap.dedent('''\
    import json, sys

    FIRST = None     # the seed of the first game this process saw

    def choose(view):
        global FIRST
        if FIRST is None:
            FIRST = view["seed"]
        legal = view["legal"]
        if view["seed"] == FIRST:
            return "keep" if "keep" in legal else legal[0]
        return next((m for m in legal if m != "keep"), legal[0])

    if sys.argv[1:] == ["exe"]:
        for line in sys.stdin:
            view = json.loads(line)
            print(json.dumps({"ask": view["ask"], "move": choose(view)}), flush=True)
''')


class RecordingBot(BotPlayer):
    """A user bot whose moves are kept per game, with the legal moves they were
    chosen from (the tournament says when a game begins)."""

    def __init__(self, target: str, kind: str) -> None:
        super().__init__(target, kind=kind)
        self.games: list[list[tuple[list[str], str]]] = []

    def begin_game(self) -> None:
        super().begin_game()
        self.games.append([])

    def choose(self, view: Mapping[str, Any]) -> str:
        move = super().choose(view)
        self.games[-1].append((list(view["legal"]), move))
        return move


@pytest.mark.parametrize("kind", ["bot", "exe"])
@pytest.mark.parametrize("duplicate", [True, False])
def test_a_duplicate_tournament_starts_each_bot_afresh_for_each_rotation(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, duplicate: bool) -> None:
    """A bot process lived for the whole tournament, so with ``--duplicate`` a bot that
    remembered the cards it was dealt knew them in the next rotation, at another
    seat's hand. Now every rotation after a sequence's first meets a new process: the
    remembering bot plays as in its first game there, and only there (rotation 0 of
    the next sequence has new deals and keeps the process). Without ``--duplicate``
    one process plays every game, as before."""
    import game.ai.tournament as tournament

    path = tmp_path / "remembers.py"
    path.write_text(REMEMBERS)
    spec = f"bot:{path}" if kind == "bot" else f"exe:{sys.executable} {path} exe"
    made: list[RecordingBot] = []

    def player(game_id: str, seat_spec: str, *, bot_threads: bool | None = None) -> object:
        if seat_spec != spec:
            return make_player(game_id, seat_spec, bot_threads=bot_threads)
        made.append(RecordingBot(spec[4:], "python" if kind == "bot" else "exe"))
        return made[-1]

    monkeypatch.setattr(tournament, "make_player", player)
    n, sequences = 3, 4
    res = run_tournament("chase", [spec, "medium", "medium"], n * sequences, seed=7,
                         bot_seed=7, duplicate=duplicate)
    (bot,) = made
    assert len(bot.games) == res["games"] == n * sequences
    wrong, told = [], 0
    for i, moves in enumerate(bot.games):
        fresh = (i == 0 or i % n > 0) if duplicate else i == 0
        for legal, move in moves:
            if "keep" in legal and len(legal) > 1:     # a choice that shows the memory
                told += 1
                if (move == "keep") != fresh:
                    wrong.append((i // n, i % n, legal, move))
    assert not wrong, f"(sequence, rotation, legal, move) of a bot that remembered: {wrong}"
    assert told >= 2 * len(bot.games)
    summary = res["bots"][spec]
    assert summary["fresh_starts"] == (sequences * (n - 1) if duplicate else 0)
    assert summary["decisions"] == sum(map(len, bot.games))
    assert summary["restarts"] == summary["incidents"] == 0 and not res["incidents"]


def test_incidents_add_up_over_the_fresh_starts(tmp_path: Path) -> None:
    """Every process of a bot that answers its first question wrong forfeits once: the
    result counts every forfeit of every process, of both seats the bot holds, and
    none of the fresh starts is a restart or an incident of its own."""
    path = tmp_path / "first_wrong.py"
    path.write_text("ASKED = 0\n\ndef choose(view):\n    global ASKED\n    ASKED += 1\n"
                    "    return 'fold' if ASKED == 1 else view['legal'][0]\n")
    spec = f"bot:{path}"
    res = run_tournament("chase", [spec, spec, "medium"], 9, seed=2, bot_seed=2,
                         duplicate=True)
    bot = res["bots"][spec]
    assert bot["fresh_starts"] == 2 * 3 * 2          # two seats, three sequences
    processes = bot["fresh_starts"] + 2
    assert bot["incidents"] == len(res["incidents"]) == processes
    assert bot["incident_kinds"] == {"illegal": processes}
    assert bot["restarts"] == 0 and not bot["retired"]



SNOOP = '''
import gc, sys

def game_like(o):
    d = getattr(o, "__dict__", None)
    return isinstance(d, dict) and "hands" in d and "moves" in d

def engines():
    found = [o for o in gc.get_objects() if game_like(o)]
    for frame in sys._current_frames().values():
        while frame is not None:
            found += [v for v in list(frame.f_locals.values()) if game_like(v)]
            frame = frame.f_back
    found += [m for name, m in list(sys.modules.items()) if name.startswith("game.rules")]
    return found

def choose(view):
    return view["legal"][0] if not engines() else "found-the-engine"
'''


def test_a_bot_finds_no_engine_in_its_process(tmp_path):
    """Objects, frames and modules of the bot's process hold nothing of the game; the
    same search inside the tournament's process finds the engine at once."""
    path = tmp_path / "snoop.py"
    path.write_text(SNOOP)
    res = run_tournament("chase", [f"bot:{path}", "threshold", "threshold"], 3, seed=4,
                         max_rounds=5)
    assert res["bots"][f"bot:{path}"]["decisions"] > 0 and not res["incidents"]
    namespace: dict = {}
    exec(compile(SNOOP, str(path), "exec"), namespace)   # the old way: in our process
    g = new_game("chase", None, 3, seed=4, bot_seed=4)
    g.start()
    assert namespace["choose"](g.view(g.to_move().seat)) == "found-the-engine"


@pytest.mark.parametrize("game_id,n", [("chase", 5), ("rams", 4)])
def test_the_cached_encoding_sends_exactly_the_view(game_id, n):
    """Within a game the rules and finished rounds are encoded once, and the Python
    runner is sent only the rounds it has not seen: what the bot gets (after the
    runner restores the history) is still exactly ``view(seat)``, round after round and
    game after game; an ``exe:`` bot gets every view whole on its line."""
    import random

    from game.ai.bots.runner import restore_history

    bot = BotPlayer(str(EXAMPLE_PY))
    exe = BotPlayer("./mybot", kind="exe")
    held: list = []
    partial = 0
    for seed in (1, 2):
        g = new_game(game_id, None, n, seed=seed, bot_seed=seed)
        g.start()
        bot.begin_game()
        exe.begin_game()
        rng = random.Random(seed)
        checked = 0
        while not g.finished and g.round_index < 12:
            p = g.to_move()
            if p.seat == 0:
                sent = json.loads(bot._encode(g.search_view(0)))
                partial += len(sent["history"]) < len(g.view(0)["history"])
                held = restore_history(sent, held)
                assert sent == g.view(0)
                assert json.loads(exe._encode(g.search_view(0))) == g.view(0)
                checked += 1
            g.apply(p.seat, rng.choice(list(p.legal)))
        assert checked > 5 and g.round_index >= 2
    assert partial > 5


def test_a_spin_that_does_not_pay_makes_the_next_waits_sleep_at_once(monkeypatch) -> None:
    """The bounded asking-before-sleeping of the bot pipes (``runner.Spin``): it stops
    for a few waits after missing the data and for many after another process had
    the CPU meanwhile, and never asks where it cannot pay."""
    monkeypatch.setattr(runner, "running_now", lambda: 1)      # a quiet machine
    spin = runner.Spin()
    spin.pays = True
    assert spin.window() == runner.SPIN_SECONDS
    spin.done(wall=0.0001, cpu=0.0001, caught=True)         # paid: keep asking
    assert spin.window() == runner.SPIN_SECONDS
    spin.done(wall=0.0003, cpu=0.0003, caught=False)        # missed: a short rest
    waits = [spin.window() for _ in range(runner.Spin.REST_MISSED + 1)]
    assert waits == [0.0] * runner.Spin.REST_MISSED + [runner.SPIN_SECONDS]
    spin.done(wall=0.0003, cpu=0.0001, caught=True)         # the CPU was not ours
    waits = [spin.window() for _ in range(runner.Spin.REST_BUSY + 1)]
    assert waits == [0.0] * runner.Spin.REST_BUSY + [runner.SPIN_SECONDS]
    spin.pays = False
    assert spin.window() == 0.0


def test_on_a_crowded_machine_the_pipes_sleep_and_look_again_later(monkeypatch) -> None:
    """More threads ready to run than CPUs: no asking for a while, then a new look;
    room again: asking again, and the next look only after ``LOOK_EVERY`` spins. A
    machine where the count cannot be read is taken as not crowded."""
    running = [3]
    monkeypatch.setattr(runner, "running_now", lambda: running[0])
    spin = runner.Spin()
    spin.pays, spin.cpus = True, 2
    rest = runner.Spin.REST_CROWDED
    assert [spin.window() for _ in range(rest + 1)] == [0.0] * (rest + 1)
    running[0] = 2
    assert spin.window() == runner.SPIN_SECONDS              # looked again: room
    running[0] = 5
    look = runner.Spin.LOOK_EVERY
    assert [spin.window() for _ in range(look - 1)] == [runner.SPIN_SECONDS] * (look - 1)
    assert spin.window() == 0.0                               # the next look: crowded
    running[0] = None
    spin.rest = 0
    assert spin.window() == runner.SPIN_SECONDS


def test_the_running_count_is_read_from_the_kernel_or_not_at_all() -> None:
    got = runner.running_now()
    if os.path.exists("/proc/stat"):
        assert isinstance(got, int) and got >= 1             # this test's own thread
    else:
        assert got is None


@pytest.mark.parametrize("pays", [True, False])
def test_the_runner_reads_every_view_whether_it_asks_first_or_not(monkeypatch, pays):
    """``runner.reader`` on a real pipe: the bytes as written, then the end, both when
    it asks before sleeping and when it sleeps at once (one CPU, Windows)."""
    if pays and os.name != "posix":
        pytest.skip("asking first exists on POSIX only")
    monkeypatch.setattr(runner, "spinning_pays", lambda: pays)
    r, w = os.pipe()
    with os.fdopen(r, "rb", buffering=0) as stream:
        read = runner.reader(stream)
        got = []
        for part in (b'{"a":1}\n', b'{"b":', b"2}\n"):
            os.write(w, part)
            got.append(read())
        os.close(w)
        assert b"".join(got) == b'{"a":1}\n{"b":2}\n'
        assert read() == b""


def incidents_of(spec: str, capfd) -> list[dict]:
    """The incidents of a short tournament with ``spec`` in the first seat."""
    code = tournament_main(["--game", "chase", "--players", "3", "--seats",
                            f"{spec},random,random", "--games", "1", "--max-rounds", "2",
                            "--seed", "5", "--json"])
    out, _ = capfd.readouterr()
    assert code == 0
    return json.loads(out)["incidents"]


@pytest.mark.skipif(os.name != "posix", reason="a POSIX shell bot")
def test_a_bot_that_closes_its_output_is_not_said_to_have_ended(tmp_path, capfd):
    """A bot that closes its standard output and goes on reading was reported as
    "the bot process ended (exit status None)": Python's None for a status it had not
    got, of a process that had not ended. Now the incident says what happened."""
    path = write_bot(tmp_path, "closes", EXE,
                     "#!/bin/sh\nexec 1>&-\nwhile read -r line; do :; done\n")
    crashed = [i for i in incidents_of(f"exe:{path}", capfd) if i["kind"] == "crashed"]
    assert crashed
    for incident in crashed:
        assert "None" not in incident["detail"] and "ended" not in incident["detail"]
        assert "closed its standard output but did not exit" in incident["detail"]


@pytest.mark.parametrize("kind", ["folder", "device"])
def test_a_bot_file_that_is_no_file_is_not_called_missing(tmp_path, capfd, kind):
    """``bot:`` naming a folder or a device said "not found" of something that is
    there; the incident now says what is there instead."""
    path = tmp_path if kind == "folder" else Path(os.devnull)
    if kind == "device" and os.name != "posix":
        pytest.skip("a device path")
    failed = [i for i in incidents_of(f"bot:{path}", capfd) if i["kind"] == "load_failed"]
    assert len(failed) == 1
    detail = failed[0]["detail"]
    assert "not found" not in detail
    assert ("is a folder" if kind == "folder" else "not a regular file") in detail
