"""Everything a bot starts ends with the tournament (game.ai.bots.tree): a process it
forks, one it double-forks into the background, and one that calls ``setsid`` to
leave its session -- after the tournament ends normally, after the bot exits by
itself, and after the tournament is killed. The Windows way (a Job Object) is
checked here with stand-ins for the Windows API."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from game import cli
from game.ai.bots import tree
from game.ai.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]

#: An ``exe:`` bot (POSIX shell) that leaves three processes behind before it plays
#: ``keep``: one in its own process group, one in a new session (``setsid``), and one
#: double-forked into a new session whose parent is gone at once. Each writes its
#: process id into ``$PIDS`` (the bot answers only once all three are there). ``$EXIT_AFTER`` questions (if set): the bot exits by
#: itself, leaving them.
FORKER = textwrap.dedent('''\
    #!/bin/sh
    sleep 1000 & echo $! >> "$PIDS"
    setsid sleep 1001 & echo $! >> "$PIDS"
    ( setsid sh -c 'echo $$ >> "$PIDS"; exec sleep 1002' & )
    while [ "$(wc -l < "$PIDS")" -lt 3 ]; do sleep 0.01; done
    n=0
    while IFS= read -r view; do
        n=$((n + 1))
        echo keep
        [ -n "$EXIT_AFTER" ] && [ "$n" -ge "$EXIT_AFTER" ] && exit 0
    done
''')

#: The same as a Python ``bot:`` file: the runner's children are ended too.
FORKER_PY = textwrap.dedent('''\
    import os, subprocess
    out = open(os.environ["PIDS"], "a")
    for argv, session in ((["sleep", "1000"], False), (["sleep", "1001"], True)):
        p = subprocess.Popen(argv, start_new_session=session)
        out.write(f"{p.pid}\\n")
    out.flush()
    def choose(view):
        return view["legal"][0]
''')


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie only waits to be reaped: not alive)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            text = fh.read()
    except OSError:
        return False
    return text[text.rfind(b")") + 2:][:1] != b"Z"


def pids_of(path: Path, count: int) -> list[int]:
    for _ in range(2000):          # the bot writes them as it starts
        if path.exists() and len(path.read_text().split()) >= count:
            break
        time.sleep(0.005)
    pids = [int(x) for x in path.read_text().split()]
    assert len(pids) >= count, pids
    return pids


def gone(pids: list[int]) -> list[int]:
    """The pids still running after the tree had its moment to end (a killed process
    is gone within milliseconds; the loop only absorbs a loaded machine)."""
    for _ in range(400):
        left = [p for p in pids if alive(p)]
        if not left:
            return []
        time.sleep(0.01)
    for p in left:                 # never leave them behind, whatever the test says
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    return left


linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the subreaper supervisor is Linux's way")


def make_forker(tmp_path: Path, monkeypatch, **env: str) -> tuple[str, Path]:
    bot = tmp_path / "forker.sh"
    bot.write_text(FORKER)
    bot.chmod(0o755)
    pids = tmp_path / "pids"
    monkeypatch.setenv("PIDS", str(pids))
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return f"exe:{bot}", pids


@linux_only
def test_nothing_a_bot_started_outlives_the_tournament(tmp_path, monkeypatch):
    spec, pids = make_forker(tmp_path, monkeypatch)
    res = run_tournament("chase", [spec, "threshold", "threshold"], 3, seed=1)
    assert res["bots"][spec]["decisions"] > 0 and res["incidents"] == []
    assert gone(pids_of(pids, 3)) == []


@linux_only
def test_what_a_bot_leaves_when_it_exits_is_ended_with_it(tmp_path, monkeypatch):
    """The bot exits by itself after two questions: what it started ends at once
    (it would otherwise hold the bot's output open), and the bot is restarted."""
    spec, pids = make_forker(tmp_path, monkeypatch, EXIT_AFTER="2")
    res = run_tournament("chase", [spec, "threshold", "threshold"], 2, seed=1,
                         time_limit=30)
    kinds = {i["kind"] for i in res["incidents"]}
    assert "crashed" in kinds and "timeout" not in kinds, res["incidents"][:3]
    assert gone([int(x) for x in pids.read_text().split()]) == []


@linux_only
def test_a_python_bots_children_end_too(tmp_path, monkeypatch):
    bot = tmp_path / "forker.py"
    bot.write_text(FORKER_PY)
    pids = tmp_path / "pids"
    monkeypatch.setenv("PIDS", str(pids))
    res = run_tournament("chase", [f"bot:{bot}", "threshold", "threshold"], 2, seed=1)
    assert res["incidents"] == []
    assert gone(pids_of(pids, 2)) == []


@linux_only
def test_a_killed_tournament_takes_its_bots_with_it(tmp_path):
    """``kill -9`` of the tournament: the kernel closes the supervisors' control pipes
    and they end everything below them."""
    bot = tmp_path / "forker.sh"
    bot.write_text(FORKER)
    bot.chmod(0o755)
    pids = tmp_path / "pids"
    env = dict(os.environ, PYTHONPATH=str(ROOT), PIDS=str(pids))
    proc = subprocess.Popen([sys.executable, "-m", "game", "tournament", "--game", "chase",
                             "--players", "3", "--seats", f"exe:{bot},threshold,threshold",
                             "--games", "100000000", "--json"], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started = pids_of(pids, 3)
    finally:
        proc.kill()
        proc.wait(30)
    assert gone(started) == []


@linux_only
def test_the_bot_runs_under_a_subreaper(tmp_path):
    """The supervisor is the bot's parent and a child subreaper; the bot leads a
    session of its own; the exit status is the bot's."""
    t = tree.start([sys.executable, "-c", textwrap.dedent('''
        import os, sys
        ppid = os.getppid()
        print(ppid, os.getsid(0) == os.getpid(), flush=True)
        sys.exit(7)
    ''')])
    assert isinstance(t, tree.SupervisedTree)
    out = t.proc.stdout.read().decode().split()
    assert int(out[0]) == t.proc.pid and out[1] == "True"
    assert t.proc.wait(30) == 7
    t.end()
    killed = tree.start(["sh", "-c", "kill -9 $$"])
    assert killed.proc.wait(30) == -signal.SIGKILL
    killed.end()


def test_a_program_that_cannot_start_is_an_oserror(tmp_path):
    with pytest.raises(OSError) as err:
        tree.start([str(tmp_path / "no-such-bot")])
    assert "No such file" in str(err.value) or err.value.errno == 2


def test_the_frozen_build_runs_the_supervisor_as_itself(monkeypatch):
    assert tree.SUPERVISOR_COMMAND == cli.BOT_SUPERVISOR
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert tree.supervisor_command() == [sys.executable, cli.BOT_SUPERVISOR]


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_elsewhere_on_posix_the_group_is_ended(tmp_path, monkeypatch):
    """Without a subreaper (macOS, the BSDs) the bot's process group is killed: what
    it forked ends; ``setsid`` can leave the group there (docs/bots.md)."""
    monkeypatch.setattr(tree, "KIND", "group")
    bot = tmp_path / "bot.sh"
    pids = tmp_path / "pids"
    bot.write_text('#!/bin/sh\nsleep 1000 & echo $! >> "$PIDS"\n'
                   'while IFS= read -r v; do echo keep; done\n')
    bot.chmod(0o755)
    monkeypatch.setenv("PIDS", str(pids))
    run_tournament("chase", [f"exe:{bot}", "threshold", "threshold"], 2, seed=1)
    assert gone(pids_of(pids, 1)) == []


# ----------------------------------------------------------------- Windows, faked
# The job object itself (started suspended, put in the job, resumed) is game.winproc's
# and is tested there (tests/test_windows.py) and for real under Wine; here: that the
# bot's tree uses it, ends it, and falls back to taskkill /T without one.


class FakeJob:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def kill(self) -> None:
        self.calls.append("kill")

    def close(self) -> None:
        self.calls.append("close")


class FakePopen:
    def __init__(self) -> None:
        self.pid, self.killed = 99, False

    def wait(self, timeout=None):  # noqa: ANN001
        return 1

    def kill(self):
        self.killed = True


@pytest.fixture()
def windows(monkeypatch):
    started: list[tuple[list[str], dict]] = []
    job = FakeJob()

    def start_in_job(argv, **popen):  # noqa: ANN001, ANN003
        started.append((argv, popen))
        return FakePopen(), (job if not started_without_job else None)

    started_without_job: list[bool] = []
    monkeypatch.setattr(tree, "_platform", lambda: "win32")
    monkeypatch.setattr(tree.winproc, "start_in_job", start_in_job)
    ran: list[list[str]] = []
    monkeypatch.setattr(tree.subprocess, "run", lambda argv, **kw: ran.append(argv))
    return started, job, ran, started_without_job


def test_on_windows_the_bot_runs_in_a_job_that_ends_everything(windows):
    started, job, ran, _ = windows
    assert tree.kind() == "job"
    t = tree.start(["bot.exe"])
    argv, popen = started[0]
    assert argv == ["bot.exe"] and popen["creationflags"] & tree.CREATE_NEW_PROCESS_GROUP
    assert "start_new_session" not in popen                 # no process groups there
    t.end()
    assert job.calls == ["kill", "close"] and ran == []


def test_on_windows_without_a_job_taskkill_ends_the_tree(windows):
    _started, job, ran, without = windows
    without.append(True)
    t = tree.start(["bot.exe"])
    t.end()
    assert ran == [["taskkill", "/F", "/T", "/PID", "99"]] and t.proc.killed
    assert job.calls == []


@pytest.mark.parametrize("argv", [["x", "4", "--", "true"], ["-5", "4", "--", "true"],
                                  ["99999", "99998", "--", "true"]],
                         ids=["not-a-number", "negative", "not-open"])
def test_the_supervisor_refuses_bad_descriptors_before_starting_anything(argv, tmp_path,
                                                                         capsys):
    """``stammtisch bot-supervisor`` (hidden, run by the tournament) with descriptors
    that are no numbers ended in a ValueError traceback; with descriptors that are
    not open it started the bot first and then raised OSError writing its status,
    leaving the bot behind. It now checks them first and says so, exit status 2."""
    from game.ai.bots import supervisor

    marker = tmp_path / "started"
    code = supervisor.main(argv[:3] + ["touch", str(marker)])
    assert code == 2
    assert not marker.exists()
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1
