"""Bot lines matched to questions (docs/bots.md): every view carries its question's
number (``ask``); a bot that answers numbered can write any other line on its
standard output and none is ever taken for an answer; a bot that answers bare keeps
working, and the lines it writes that were not asked for are dropped exactly as the
documentation says. Whatever a bot writes reaches the terminal only as printable
text."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from game.ai.bots import protocol
from game.ai.bots.channel import LINE, BotProcess
from game.ai.tournament import main as tournament_main
from game.ai.tournament import run_tournament

#: An ``exe:`` bot in Python that numbers its answers and chats on standard output:
#: a line before any question, then around every answer a line of talk, a line that
#: is a legal move, its previous answer again (numbered with the previous number)
#: and, after a short random pause, one more line -- flushed one by one, so some are
#: still in the pipe when the next question comes. Its move is the last legal one
#: (a forfeit would play the first).
CHATTY = textwrap.dedent('''
    import json, random, sys, time
    out = sys.stdout
    rng = random.Random(int(sys.argv[1]))
    def say(text):
        out.write(text + "\\n")
        out.flush()
    say('{"ask": 0}')
    say("starting up")
    last = None
    for line in sys.stdin:
        view = json.loads(line)
        n, legal = view["ask"], view["legal"]
        say("thinking about " + ", ".join(legal))
        say(legal[0])
        if last is not None:
            say(json.dumps({"ask": n - 1, "move": last}))
        last = legal[-1]
        if rng.random() < 0.3:
            time.sleep(rng.random() * 0.003)
        say(json.dumps({"ask": n, "move": last}))
        if rng.random() < 0.5:
            time.sleep(rng.random() * 0.003)
        say("answered %d" % n)
''')

#: The same player as a Python bot file, for the games it must have played.
LAST = "def choose(view):\n    return view['legal'][-1]\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("game_id,players,games", [("chase", 4, 100), ("rams", 4, 12)])
def test_a_numbering_bot_that_chats_gets_no_wrong_incident(tmp_path, game_id, players,
                                                            games):
    bot = write(tmp_path, "chatty.py", CHATTY)
    spec = f"exe:{sys.executable} {bot} 7"
    others = ["threshold" if game_id == "chase" else "random"] * (players - 1)
    res = run_tournament(game_id, [spec, *others], games, seed=3, bot_seed=5)
    summary = res["bots"][spec]
    assert res["incidents"] == [] and summary["incidents"] == 0, res["incidents"][:3]
    assert summary["decisions"] > games
    # four lines a decision (and two at the start) answered no question: all dropped
    assert summary["stray_lines"] >= 4 * summary["decisions"] - 2
    # and it played exactly the games of the same player answering nothing else
    clean = run_tournament(game_id, [f"bot:{write(tmp_path, 'last.py', LAST)}", *others],
                           games, seed=3, bot_seed=5)
    assert res["rounds"] == clean["rounds"]
    assert [p["wins"] for p in res["players"]] == [p["wins"] for p in clean["players"]]


def test_a_bare_bot_keeps_working(tmp_path):
    bare = write(tmp_path, "bare.py", "import json, sys\nfor line in sys.stdin:\n"
                 "    print(json.loads(line)['legal'][-1], flush=True)\n")
    spec = f"exe:{sys.executable} {bare}"
    res = run_tournament("chase", [spec, "threshold", "threshold"], 20, seed=2)
    assert res["incidents"] == [] and res["bots"][spec]["stray_lines"] == 0


def _marker_bot(tmp_path: Path, before: str) -> list[str]:
    """A bare bot (POSIX shell) that writes ``before`` lines, then a marker file, then
    answers ``keep`` to every question."""
    marker = tmp_path / "written"
    script = write(tmp_path, "bot.sh", "#!/bin/sh\n" + before
                   + f": > '{marker}'\nwhile IFS= read -r v; do echo keep; done\n")
    script.chmod(0o755)
    return [str(script)]


def _wait_for(path: Path) -> None:
    _wait_until(path.exists)


def _wait_until(done: Callable[[], bool]) -> None:
    import time

    for _ in range(6000):       # the bot's own start; never a time the test depends on
        if done():
            return
        time.sleep(0.005)
    raise AssertionError("the bot did not start")


def _lines_taken(proc: BotProcess) -> int:
    """Complete lines the channel holds (Windows: those its reader thread has taken
    from the pipe)."""
    proc._take_waiting()
    return proc.buffer.count(b"\n")


@pytest.mark.parametrize("threads", [False, True])
def test_unasked_lines_in_the_pipe_are_dropped_before_a_question(tmp_path, threads):
    """docs/bots.md: lines a bare bot wrote before the question was written (read by
    the tournament or still in the pipe) are dropped and counted."""
    proc = BotProcess(_marker_bot(tmp_path, "echo debug one\necho keep\necho debug two\n"),
                      protocol.MAX_ANSWER_BYTES, threads=threads)
    try:
        _wait_for(tmp_path / "written")     # the three lines are in the pipe now
        if threads:     # a line counts once the reader thread took it (docs/bots.md)
            _wait_until(lambda: _lines_taken(proc) == 3)
        status, line = proc.request(protocol.with_ask(b'{"legal":["swap"]}\n', 1), 5.0)
        assert (status, line) == (LINE, b"keep") and proc.dropped == 3
    finally:
        proc.close()


def test_a_killed_bot_leaves_no_thread_writing_to_it(tmp_path):
    """Where a bot's pipes are served by threads (Windows), a bot killed after a fault
    (a restart, not a close) left its writing thread waiting for ever: one more per
    restart for the rest of the tournament."""
    import threading

    before = {t for t in threading.enumerate() if t.name == "bot-in"}
    proc = BotProcess(_marker_bot(tmp_path, ""), protocol.MAX_ANSWER_BYTES, threads=True)
    _wait_for(tmp_path / "written")
    mine = [t for t in threading.enumerate() if t.name == "bot-in" and t not in before]
    assert len(mine) == 1
    proc.kill()
    mine[0].join(10)
    assert not mine[0].is_alive()


def test_a_numbered_line_with_another_number_never_answers(tmp_path):
    """Numbering on: a late answer to an older question, an unnumbered move and a
    numbered line without a move are all passed over; the right number answers."""
    d = protocol.decode_answer
    assert d(b'{"ask": 4, "move": "keep"}') == protocol.Answer(move="keep", ask=4)
    assert d(b'{"ask": 4, "error": "raised", "detail": "x"}').error == "raised"
    assert d(b'{"ask": 4, "move": 7}').error == "illegal"
    assert d(b'{"ask": 0}') == protocol.Answer(
        error="bad_answer", detail='a numbered line without a move ({"ask": 0})', ask=0)
    for bad in (b'{"ask": -1, "move": "keep"}', b'{"ask": true, "move": "keep"}',
                b'{"ask": "4", "move": "keep"}', b'{"ask": 1.0, "move": "keep"}'):
        assert d(bad).ask is None and d(bad).error == "bad_answer"
    assert protocol.with_ask(b'{"game":"chase"}\n', 12) == b'{"ask":12,"game":"chase"}\n'


def test_a_python_bot_gets_the_view_without_the_number(tmp_path):
    """The runner echoes the number itself: a ``bot:`` file sees the view of docs/view.md."""
    bot = write(tmp_path, "keys.py", "def choose(view):\n"
                "    assert 'ask' not in view, sorted(view)\n    return view['legal'][-1]\n")
    res = run_tournament("chase", [f"bot:{bot}", "threshold", "threshold"], 3, seed=1)
    assert res["incidents"] == []


def test_bot_text_in_incidents_is_printable(tmp_path, capsys):
    """Escape sequences a bot writes (as its answer, on its standard error, in its
    error report) reach the incident lines only escaped."""
    nasty = "\x1b[2J\x1b]0;owned\x07\u202egnp.exe\r"
    bot = write(tmp_path, "nasty.py", textwrap.dedent(f'''
        import json, sys
        sys.stderr.write({nasty!r} * 3)
        sys.stderr.flush()
        for i, line in enumerate(sys.stdin):
            if i == 3:
                sys.exit(1)
            out = {nasty!r} if i % 2 else json.dumps({{"error": "raised", "detail": {nasty!r}}})
            print(out, flush=True)
    '''))
    spec = f"exe:{sys.executable} {bot}"
    assert tournament_main(["--game", "chase", "--players", "3", "--seats",
                            f"{spec},threshold,threshold", "--games", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    lines = [x for x in err.splitlines() if x.startswith("incident:")]
    kinds = {json.loads(out)["incidents"][i]["kind"] for i in range(len(lines))}
    assert {"raised", "illegal", "crashed"} <= kinds, err
    details = "".join(i["detail"] for i in json.loads(out)["incidents"])
    for ch in "\x1b\x07\r\u202e":
        assert ch not in err and ch not in details
    assert "\\x1b[2J" in err and "\\u202e" in err
    assert protocol.printable("a\x1bb\u202ec\td") == "a\\x1bb\\u202ec d"


def test_the_numbering_shell_bot_of_the_docs_works(tmp_path):
    """The example in docs/bots.md, as printed there: it numbers its answers, so its
    chatter is dropped, and it answers ``keep`` (an illegal move only where keeping
    is not allowed)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text()
    block = text.split("### A numbering bot in shell", 1)[1].split("```sh\n", 1)[1]
    script = write(tmp_path, "numbered.sh", "#!/bin/sh\n" + block.split("```", 1)[0])
    script.chmod(0o755)
    spec = f"exe:{script}"
    res = run_tournament("chase", [spec, "threshold", "threshold"], 10, seed=4)
    bot = res["bots"][spec]
    assert bot["stray_lines"] == bot["decisions"] + 1 and not bot["retired"]
    assert {i["kind"] for i in res["incidents"]} <= {"illegal"}
    assert all("returned 'keep'" in i["detail"] for i in res["incidents"])


def test_a_numbering_line_counts_even_when_it_is_dropped_unread(tmp_path):
    """``{"ask": 0}`` written before the first question may be dropped with the other
    early lines, unread as an answer: the bot is numbering all the same, so the stray
    line it writes after the question is not its answer."""
    marker = tmp_path / "written"
    script = write(tmp_path, "bot.sh", "#!/bin/sh\necho '{\"ask\": 0}'\necho hello\n"
                   f": > '{marker}'\n"
                   "while IFS= read -r v; do echo chatter; "
                   "echo \"{\\\"ask\\\": ${v#*:}\" | sed 's/,.*/, \"move\": \"keep\"}/'; done\n")
    script.chmod(0o755)
    from game.ai.bots.harness import BotPlayer

    bot = BotPlayer(str(script), kind="exe")
    view = {"legal": ["swap", "keep"], "seat": 0, "round": 0}
    try:
        bot._start(view, "swap")
        _wait_for(marker)
        assert bot.choose(view) == "keep" and bot.incidents == []
        assert bot.stray_lines == 3               # the two early lines and the chatter
    finally:
        bot.close()
