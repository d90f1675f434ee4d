"""User bots on Windows: ``exe:`` command lines split as Windows splits them, and a
bot's whole process tree ended with it (a job object, :mod:`game.winproc`).

The real ones (marked ``windows``) run under Wine in ``tools/build_windows.py --smoke``,
with the other Windows tests (tests/test_windows.py).
"""

from __future__ import annotations

import sys
import types

import pytest

from game.ai.bots import harness
from tests.windows_helpers import TREE_BOT, still_beating, wait_for_beats, windows


def test_exe_seat_on_windows_keeps_no_quotes_in_its_words(monkeypatch):
    monkeypatch.setattr(harness, "os", types.SimpleNamespace(name="nt"))
    spec = r'"C:\Program Files\Python\python.exe" -u "C:\my bots\bot.py"'
    assert harness.exe_command(spec) == [r"C:\Program Files\Python\python.exe", "-u",
                                         r"C:\my bots\bot.py"]
    monkeypatch.setattr(harness, "os", types.SimpleNamespace(name="posix"))
    assert harness.exe_command("node 'my bot.js'") == ["node", "my bot.js"]


@windows
@pytest.mark.parametrize("ending", ["kill", "close"])
def test_windows_ends_every_process_a_bot_started(tmp_path, ending):
    """A bot that started a helper: killed (a timeout) or closed (the tournament is
    over, the bot itself ends on its input's end), the helper ends too."""
    from game.ai.bots.channel import BotProcess

    beats = tmp_path / "beats.txt"
    bot = BotProcess([sys.executable, str(TREE_BOT), str(beats), "0"], max_line=4096)
    assert bot.tree.job is not None
    wait_for_beats(beats)
    bot.kill() if ending == "kill" else bot.close(grace=5.0)
    assert bot.exit_status() is not None
    assert not still_beating(beats)


@windows
def test_an_interrupt_ends_the_wait_for_a_bots_line():
    """Windows' lock waits let no Ctrl+C through: a wait for a bot's line (a queue its
    reader thread fills) ran to its deadline first, so ``stammtisch host`` stopped only
    after a starting bot's 20 s. The wait goes in slices, and the interrupt ends it."""
    import _thread
    import threading
    import time

    from game.ai.bots.channel import BotProcess

    bot = BotProcess([sys.executable, "-c", "import time; time.sleep(120)"], max_line=4096)
    try:
        assert bot.threads
        timer = threading.Timer(0.5, _thread.interrupt_main)
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            bot.read_line(start + 60)
        assert time.monotonic() - start < 30     # the interrupt, not the deadline
    finally:
        bot.kill()
