"""Entry script of the frozen executable (see ``build.spec``): ``game.cli.main()`` under guard.

Sets up logging and the missing-console streams first (``game.crash.install``), then
runs the ordinary command line. An unexpected exception writes a crash report into
the user's log folder and shows a message instead of the window just vanishing.
A windowed Windows build used from a terminal first attaches to its console
(``game.console``). A bot's runner (``stammtisch bot-runner FILE``, the process of a
user's bot) gets none of this: it holds nothing of the game's, not even its log file
(which, held open by several processes, Windows could not rotate).

``STAMMTISCH_CRASH_TEST=1`` raises on purpose after start-up, to test that path.
"""

from __future__ import annotations

import multiprocessing
import os
import sys


def _run() -> int:
    from game.cli import main

    if os.environ.get("STAMMTISCH_CRASH_TEST"):
        raise RuntimeError("crash test requested by STAMMTISCH_CRASH_TEST")
    return main()


def launch() -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game import cli, console

    args = sys.argv[1:]
    if args[:1] == [cli.BOT_RUNNER]:
        return int(cli.main(args))
    console.attach_parent_console(args, cli.SUBCOMMANDS)
    from game import crash

    crash.install()
    code = crash.guard(_run)
    return code if isinstance(code, int) else 0


if __name__ == "__main__":
    multiprocessing.freeze_support()  # harmless unless a worker process is spawned
    sys.exit(launch())
