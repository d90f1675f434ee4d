"""The ``stammtisch`` command: the game window by default, plus tools as subcommands.

Subcommands import only what they need, so ``stammtisch replay`` never loads pygame.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from game import cliargs

SUBCOMMANDS = ("replay", "tournament", "advise", "policy", "host", "review")
#: the hidden subcommand that runs a Python bot file in its own process
BOT_RUNNER = "bot-runner"
#: the hidden subcommand that holds a bot and everything it starts (Linux)
BOT_SUPERVISOR = "bot-supervisor"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x720, got {text!r}") from None
    if w < 320 or h < 240 or w > 16384 or h > 16384:
        raise argparse.ArgumentTypeError(f"window size {w}x{h} is out of range")
    return w, h


def window_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="stammtisch",
        description="Chase the Ace and Rams at a card table. Without a subcommand the game "
        "window opens. Subcommands: " + ", ".join(SUBCOMMANDS) + " (see 'stammtisch "
        "SUBCOMMAND --help').")
    p.add_argument("--demo", action="store_true",
                   help="attract mode: every seat is a computer player, games follow each other")
    from game.games import GAME_IDS

    p.add_argument("--game", choices=GAME_IDS, default=None,
                   help="with --demo: which game (default: alternate)")
    p.add_argument("--seed", type=cliargs.seed, default=None, help="seed for the shuffles")
    p.add_argument("--quit-after", type=cliargs.seconds(0, 1e7), default=None,
                   metavar="SECONDS", help="close the window after this many seconds")
    p.add_argument("--frame-stats", action="store_true",
                   help="on exit print one JSON line with frame-time figures")
    p.add_argument("--smoke-test", action="store_true",
                   help="start, render the main menu's first frame, exit 0")
    p.add_argument("--lang", choices=("de", "en"), default=None, help="language")
    p.add_argument("--size", type=_size, default=None, metavar="WxH", help="window size")
    p.add_argument("--players", type=cliargs.int_range(3, 10), default=None,
                   help="with --demo: number of seats (3 to 10)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from game import console

    console.utf8_output()        # Windows: pipes and files get UTF-8, not cp1252
    if args and args[0] in SUBCOMMANDS:
        from game import commands

        return commands.run(args[0], args[1:])
    if args and args[0] == BOT_RUNNER:
        # a frozen build runs user bots with itself (game.ai.bots.harness); this path
        # imports nothing of the game but the runner
        from game.ai.bots import runner

        return runner.main(args[1:])
    if args and args[0] == BOT_SUPERVISOR:
        # ... and holds each bot under itself (game.ai.bots.tree, Linux)
        from game.ai.bots import supervisor

        return supervisor.main(args[1:])
    opts = window_parser().parse_args(args)
    from game import crash

    return int(crash.guard(_window, opts))


def _window(opts: argparse.Namespace) -> int:
    """The game window, with logging and crash reports set up first (inside the guard,
    so even a failure there is reported rather than a bare traceback)."""
    from game import crash

    crash.install()
    from game.app import run

    return int(run(opts))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
