"""The game registry: one entry per game, and the only place outside the engines that
knows which games exist.

An entry names everything the rest of the program needs of a game: its engine and
rules keys (imported here: they are pure), and, as ``"module:attribute"`` references
resolved on first use, its computer players, its coach, its setup screen, its table
scene and its attract-mode demo. The references keep this module free of pygame and
of the AI, so records, tournaments and tools can read the registry cheaply, and no
module the registry names needs to import it back.

A third game plugs in by adding its engine under ``game/rules/``, its players and
coach under ``game/ai/``, its table under ``game/turn/``, ``game/table/`` and ``game/scenes/``, its
texts in ``game/locale/``, and one :class:`GameEntry` in :data:`GAMES` below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from game.rules.base import Game, GameError, Key
from game.rules.chase import CHASE_RULES, ChaseGame
from game.rules.chase import MAX_SEATS as CHASE_MAX
from game.rules.chase import MIN_SEATS as CHASE_MIN
from game.rules.rams import MAX_SEATS as RAMS_MAX
from game.rules.rams import MIN_SEATS as RAMS_MIN
from game.rules.rams import (
    PRESETS as RAMS_PRESETS,
)
from game.rules.rams import (
    RAMS_RULES,
    RamsGame,
    format_1_or_none,
    format_1_rules,
)


@cache
def resolve(ref: str) -> Any:
    """The object a ``"package.module:attribute"`` reference names (imported once)."""
    module, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GameEntry:
    """Everything the program needs to offer one game."""

    #: the id used in records, views, settings and on the command line
    id: str
    #: the engine class (``Game`` protocol: start, to_move, apply, view, summary)
    engine: type
    #: every rules key with its default and allowed values (docs/rules.md)
    rules_keys: dict[str, Key]
    #: seats the engine accepts, and the setup screen's default
    min_seats: int
    max_seats: int
    default_seats: int
    #: the largest table the setup screen offers (the engine may take more)
    setup_max_seats: int
    #: text keys: the game's name, and the prefix of its rules keys' texts
    title_key: str
    rule_text_prefix: str
    #: the settings key under which the last setup of this game is kept
    settings_key: str
    #: ``name -> factory()`` of its computer players (levels and simple built-ins)
    players_ref: str
    #: ``advise(view, level, samples) -> dict`` (docs/view.md#advice-the-coach)
    coach_ref: str
    #: the table scene class, and ``demo(app, players, seed)`` for the attract mode
    table_ref: str
    demo_ref: str
    #: ``spec -> player or None`` for parameterised player names (e.g. ``threshold:S:D``)
    spec_players_ref: str | None = None
    #: the levels offered in the setup screen, weakest first
    levels: tuple[str, ...] = ("easy", "medium", "hard", "expert")
    #: short extra notes for the setup screen (text keys), e.g. which deck is used
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: text keys of the game's screens: the menu's button, the setup and rules pages'
    #: titles, the rules text, and the button that shows these rules from elsewhere
    menu_key: str = ""
    setup_title_key: str = ""
    rules_title_key: str = ""
    rules_text_key: str = ""
    rules_button_key: str = ""
    #: the scene (by name) of the game's strategy chart, if it has one
    chart_scene: str | None = None
    #: values the setup screen offers for a rules key instead of its whole range
    setup_values: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    #: record formats (docs/records.md#record-formats): a format-1 record's rules in
    #: today's terms, and today's rules as a format-1 record's (``None`` if format 1
    #: cannot say them). Both ``None``: the game's rules mean the same in every format.
    rules_from_format_1: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    rules_to_format_1: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
    #: named rule sets the setup screen offers (name -> the keys it sets)
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: ``rules -> text``: a table's rules in a few lines, atop the rules screen opened
    #: from that table (``None``: the game has none)
    rules_summary_ref: str | None = None

    def new_game(self, rules: dict[str, Any] | None, n_seats: int, *,
                 seed: int | None = None, dealer: int | None = None,
                 deals: list[list[str]] | None = None, bot_seed: int = 0) -> Game:
        """A new, not yet started game (raises :class:`GameError` on bad rules/seats)."""
        game: Game = self.engine(rules, n_seats, seed=seed, dealer=dealer, deals=deals,
                                 bot_seed=bot_seed)
        return game

    def validate_rules(self, given: object = None) -> dict[str, Any]:
        """Every rules key with its value in force; raises ``RulesError``."""
        from game.rules.base import validate_rules

        return validate_rules(self.id, self.rules_keys, given)

    def players(self) -> dict[str, Callable[[], Any]]:
        """``name -> factory`` of this game's computer players."""
        found: dict[str, Callable[[], Any]] = resolve(self.players_ref)
        return found

    def player_from_spec(self, spec: str) -> Any:
        """A player for a parameterised name, or ``None`` if the game has no such one."""
        if self.spec_players_ref is None:
            return None
        return resolve(self.spec_players_ref)(spec)

    def coach(self) -> Callable[..., dict[str, Any]]:
        found: Callable[..., dict[str, Any]] = resolve(self.coach_ref)
        return found

    def table_scene(self) -> Any:
        return resolve(self.table_ref)

    def demo(self) -> Callable[..., Any]:
        found: Callable[..., Any] = resolve(self.demo_ref)
        return found

    def rules_summary(self, rules: dict[str, Any]) -> str | None:
        """A table's rules in a few lines (``None`` when the game has no summary)."""
        if self.rules_summary_ref is None:
            return None
        summary: str = resolve(self.rules_summary_ref)(rules)
        return summary


GAMES: dict[str, GameEntry] = {
    "chase": GameEntry(
        id="chase", engine=ChaseGame, rules_keys=CHASE_RULES,
        min_seats=CHASE_MIN, max_seats=CHASE_MAX, default_seats=4, setup_max_seats=10,
        title_key="game.chase", rule_text_prefix="rule.", settings_key="setup",
        players_ref="game.ai.chase_players:PLAYERS",
        spec_players_ref="game.ai.chase_levels:threshold_player",
        coach_ref="game.ai.chase_coach:advise",
        table_ref="game.scenes.table_chase:ChaseTableScene",
        demo_ref="game.scenes.table_chase:demo_scene",
        menu_key="menu.chase", setup_title_key="setup.title", rules_title_key="rules.title",
        rules_text_key="rules.chase", rules_button_key="rules.show_chase",
        chart_scene="chart", setup_values={"stake": (0, 1, 2, 5, 10, 20, 50, 100)},
    ),
    "rams": GameEntry(
        id="rams", engine=RamsGame, rules_keys=RAMS_RULES,
        min_seats=RAMS_MIN, max_seats=RAMS_MAX, default_seats=4, setup_max_seats=10,
        title_key="game.rams", rule_text_prefix="rule.rams.", settings_key="setup_rams",
        players_ref="game.ai.rams_players:PLAYERS",
        coach_ref="game.ai.rams_coach:advise",
        table_ref="game.scenes.table_rams:RamsTableScene",
        demo_ref="game.scenes.table_rams:demo_scene",
        menu_key="menu.rams", setup_title_key="setup.title_rams",
        rules_title_key="rules.title_rams", rules_text_key="rules.rams",
        rules_button_key="rules.show_rams",
        setup_values={"counters": (5, 7, 10, 12, 15, 20, 25, 30),
                      "last_round": (10, 15, 20, 25, 30, 40, 50, 75, 100, "none")},
        rules_from_format_1=format_1_rules, rules_to_format_1=format_1_or_none,
        presets=RAMS_PRESETS, rules_summary_ref="game.turn.rams_texts:rules_summary",
    ),
}

#: Game ids in the order menus list them.
GAME_IDS: tuple[str, ...] = tuple(GAMES)
DEFAULT_GAME = GAME_IDS[0]


def entry(game_id: object) -> GameEntry:
    """The entry of ``game_id``; an unknown id is a :class:`GameError` (``bad_format``)."""
    if isinstance(game_id, str) and game_id in GAMES:
        return GAMES[game_id]
    raise GameError(f"unknown game {game_id!r} (expected one of {', '.join(GAME_IDS)})",
                    "bad_format")


def entries() -> Iterator[GameEntry]:
    return iter(GAMES.values())


def title_key(game_id: str) -> str:
    """The text key of a game's name (an unknown id, e.g. from an old database, gets
    the key it would have)."""
    return GAMES[game_id].title_key if game_id in GAMES else f"game.{game_id}"


def other(game_id: str) -> str:
    """The next game in menu order (the setup and rules screens' switch button)."""
    i = GAME_IDS.index(game_id) if game_id in GAMES else -1
    return GAME_IDS[(i + 1) % len(GAME_IDS)]


def new_game(game_id: str, rules: dict[str, Any] | None, n_seats: int, *,
             seed: int | None = None, dealer: int | None = None,
             deals: list[list[str]] | None = None, bot_seed: int = 0) -> Game:
    """A new, not yet started game of ``game_id``."""
    return entry(game_id).new_game(rules, n_seats, seed=seed, dealer=dealer, deals=deals,
                                   bot_seed=bot_seed)
