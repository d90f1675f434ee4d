"""Subcommands of ``stammtisch``: replay, tournament, advise, policy, host, review.

Each prints machine-readable output with ``--json``. None of them imports pygame.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable


def _replay(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="stammtisch replay",
                                description="Rebuild a game record (docs/records.md).")
    p.add_argument("file", help="record file (JSON)")
    p.add_argument("--json", action="store_true",
                   help="print the game's outcome as one JSON object")
    args = p.parse_args(argv)
    from game.records import RecordError, load
    from game.replaying import rebuild_light, replay_json

    try:
        record = load(args.file)
        if args.json:       # the rounds go out as they are made (game.replaying)
            replay_json(record, sys.stdout)
            return 0
        rebuild_light(record)
    except RecordError as exc:
        print(f"{exc.kind}: {exc.message}", file=sys.stderr)
        return 2
    from game.app import run_replay  # the table, watching the record

    return int(run_replay(args.file, record=record))


def _tournament(argv: list[str]) -> int:
    from game.ai.tournament import main

    return main(argv)


def _advise(argv: list[str]) -> int:
    from game.ai.coach import main

    return main(argv)


def _policy(argv: list[str]) -> int:
    from game.ai.policy import main

    return main(argv)


def _host(argv: list[str]) -> int:
    from game.net.host import main

    return main(argv)


def _review(argv: list[str]) -> int:
    from game.review.cli import main

    return main(argv)


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "replay": _replay,
    "tournament": _tournament,
    "advise": _advise,
    "policy": _policy,
    "host": _host,
    "review": _review,
}


def run(name: str, argv: list[str]) -> int:
    try:
        return COMMANDS[name](argv)
    except KeyboardInterrupt:      # Ctrl+C: stop quietly, as the window does (crash.guard)
        return 130
    except BrokenPipeError:
        # the reader of the output went away (``| head``): stop quietly, and send what
        # is still buffered nowhere, or its flush at exit fails again
        # (docs.python.org/3/library/signal.html#note-on-sigpipe)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, AttributeError, ValueError):   # no stdout to speak of
            pass
        return 1
