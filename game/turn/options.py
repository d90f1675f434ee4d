"""How a table is set up beyond its seats and rules: a demo or a real game, whether
it keeps records, a saved game to catch up to, who decides for each seat, and how it
paces itself. The game window, Continue and the replay viewer all build the same
table, only with different options. No pygame."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.turn.flow import Pacing
from game.turn.sources import MoveSource
from game.turn.workers import Worker

#: What happens when a game is over and shown: the results screen, or nothing (the
#: table stays as it is, e.g. under the replay viewer's controls). A demo always goes
#: on to the attract mode's next game.
RESULTS = "results"
STAY = "stay"


@dataclass
class TableOptions:
    demo: bool = False
    #: autosave and statistics (game.turn.bookkeeping); never for demos
    keep_records: bool = True
    #: ``(record, session)`` of an autosave: start caught up to its last move, quietly
    resume: tuple[Any, dict[str, Any]] | None = None
    #: a move source per seat (default: from the seats -- people, levels, bots)
    sources: Mapping[int, MoveSource] | None = None
    #: the computers' seed of a new game (default: drawn from ``secrets``, apart from
    #: the shuffle seed; tools and tests give one to replay the same choices)
    bot_seed: int | None = None
    #: whose private cards show (default: the one person at the screen, if one)
    viewer: int | None = None
    #: the seat drawn at the bottom (default: the first person at the screen, or 0)
    bottom: int | None = None
    #: pacing and animation speed (default: the player's settings)
    pacing: Callable[[], Pacing] | None = None
    anim_speed: Callable[[], str] | None = None
    after_game: str = RESULTS
    #: the text key of the top bar's menu button
    menu_key: str = "table.menu"
    #: people at the table may fast-forward the computers (not in the replay viewer)
    fast_forward: bool = True
    #: the first game's tips, if the settings have them on (not in the replay viewer)
    tips: bool = True
    #: where computers and the coach think (default: a thread; tests: inline)
    worker: Worker | None = None
    #: phone seats: listen on this local address only (default: loopback and the
    #: computer's local-network addresses; tests use loopback)
    phone_bind: str | None = None
    #: the phone room of the game before at the same seats (*Play again*,
    #: ``PhoneRoom.hand_over``): its phones stay at their seats, with the same links
    phone_room: Any = None
