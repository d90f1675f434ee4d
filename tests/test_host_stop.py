"""``stammtisch host`` stopped (Ctrl+C, SIGTERM) while a computer decides in its own
thread: a ``bot:`` seat's program still starting held the stop for the bot's start-up
limit (20 s), and then played a forfeited move for it into the record."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from game import games

ROOT = Path(__file__).resolve().parents[1]
#: Seconds after which a host that has not answered is a failure (never a measure).
GUARD = 90.0

#: A bot that says it started (its pid, on the FIFO the test reads) and then takes
#: longer to load than the start-up limit allows.
SLOW_BOT = """\
import os, time
with open({fifo!r}, "w") as fifo:
    fifo.write(f"{{os.getpid()}}\\n")
time.sleep(600)


def choose(view):
    return view["legal"][0]
"""

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and FIFOs")


def bot_first_seed(seats: int) -> int:
    """A seed whose first decision is seat 0's (the bot's), before the phone's."""
    entry = games.entry("chase")
    for seed in range(1000):
        game = entry.new_game(None, seats, seed=seed, bot_seed=0)
        game.start()
        pending = game.to_move()
        if pending is not None and pending.seat == 0:
            return seed
    raise AssertionError("no seed lets seat 0 decide first")


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False
    except OSError:            # no /proc here: ask the system
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def read_line(proc: subprocess.Popen) -> str:
    assert select.select([proc.stdout], [], [], GUARD)[0], "the host said nothing"
    return proc.stdout.readline()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_does_not_wait_for_a_bot_still_starting_nor_play_for_it(tmp_path, sig):
    fifo = tmp_path / "started"
    os.mkfifo(fifo)
    bot = tmp_path / "slow_bot.py"
    bot.write_text(SLOW_BOT.format(fifo=str(fifo)))
    home, record = tmp_path / "home", tmp_path / "record.json"
    env = dict(os.environ, STAMMTISCH_HOME=str(home), PYTHONPATH=str(ROOT))
    started = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)    # open for the bot at once
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "host", "--game", "chase",
         "--seats", f"bot:{bot},random,phone", "--seed", str(bot_first_seed(3)),
         "--think", "0", "--bind", "127.0.0.1", "--json", "--record", str(record)],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        table = json.loads(read_line(proc))              # the table is there ...
        assert table["seats"][0]["kind"] == f"bot:{bot}"
        assert select.select([started], [], [], GUARD)[0], "the bot never started"
        bot_pid = int(os.read(started, 64).split()[0])  # ... and its bot is starting
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        os.close(started)
    assert proc.returncode == 0, err[-3000:]
    outcome = json.loads(out.strip().splitlines()[-1])
    assert outcome == {"finished": False, "winner": None, "moves": 0, "lives": [3, 3, 3],
                       "record": str(record)}, err[-3000:]
    assert json.loads(record.read_text())["moves"] == []       # no forfeit for the bot
    saved = json.loads((home / "saves" / "autosave.json").read_text())
    assert saved["moves"] == [] and saved["session"]["game_id"]   # unfinished, resumable
    assert not alive(bot_pid), "the bot's process outlived the host"
