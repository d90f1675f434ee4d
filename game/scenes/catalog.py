"""Every screen of the game by name: the one place that imports the scenes.

Scenes never import each other; they ask the app for a screen by name
(``app.open("setup", game_id=...)``) and the app builds it here. A game's table and
demo come from its entry in the game registry (:mod:`game.games`), so a new game
needs no line here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game import games


def _menu(app: Any) -> Any:
    from game.scenes.menu import MenuScene

    return MenuScene(app)


def _setup(app: Any, game_id: str | None = None) -> Any:
    from game.scenes.setup import SetupScene

    return SetupScene(app, game_id or games.DEFAULT_GAME)


def _table(app: Any, game_id: str, seats: list[dict[str, Any]], **kw: Any) -> Any:
    """A table of ``game_id`` (``rules``, ``seed``, ``game``, ``options`` as the table
    scene takes them); a setup the engine refuses raises ``GameError``."""
    return games.entry(game_id).table_scene()(app, seats, **kw)


def _resume(app: Any, record: Any, saved: dict[str, Any]) -> Any:
    """The table of an autosave, caught up to its last move (Continue).

    A record may give its deals and no seed (docs/records.md): valid as long as the
    deals cover every round dealt so far, but the game played on needs a shuffle for
    the next round. Such a game is given a fresh seed for the rounds beyond its deals
    (its rounds so far are the record's; the seed is saved with it from now on)."""
    import dataclasses

    from game import records, seeds, store
    from game.turn.options import TableOptions

    if record.seed is None:
        record = dataclasses.replace(record, seed=seeds.fresh())
    return _table(app, record.game, store.table_seats(record, saved),
                  rules=dict(record.rules), seed=record.seed if record.seed is not None else 0,
                  game=records.new_engine(record),
                  options=TableOptions(resume=(record, saved)))


def _demo(app: Any, game_id: str | None = None, players: int = 6,
          seed: int | None = None) -> Any:
    """An attract-mode table of ``game_id`` (default: the first game) with computers."""
    return games.entry(game_id or games.DEFAULT_GAME).demo()(app, players=players, seed=seed)


def _results(app: Any, table: Any) -> Any:
    from game.scenes.results import ResultsScene

    return ResultsScene(app, table)


def _unfinished(app: Any) -> Any:
    from game.scenes.unfinished import UnfinishedScene

    return UnfinishedScene(app)


def _confirm(app: Any, **kw: Any) -> Any:
    from game.scenes.confirm import ConfirmScene

    return ConfirmScene(app, **kw)


def _pause(app: Any) -> Any:
    from game.scenes.pause import PauseScene

    return PauseScene(app)


def _handoff(app: Any, **kw: Any) -> Any:
    from game.scenes.handoff import HandoffScene

    return HandoffScene(app, **kw)


def _replay(app: Any, record: Any, title: str = "", at: int | None = None,
            viewer: int | None = None) -> Any:
    from game.scenes.replay import ReplayScene

    return ReplayScene(app, record, title=title, at=at, viewer=viewer)


def _review(app: Any, record: Any, key: Any = None, title: str = "") -> Any:
    from game.scenes.review import ReviewScene

    return ReviewScene(app, record, key=key, title=title)


def _replays(app: Any) -> Any:
    from game.scenes.replay_list import ReplayListScene

    return ReplayListScene(app)


def _settings(app: Any) -> Any:
    from game.scenes.settings_scene import SettingsScene

    return SettingsScene(app)


def _rules(app: Any, game_id: str | None = None, rules: Any = None) -> Any:
    from game.scenes.rules import RulesScene

    return RulesScene(app, game_id or games.DEFAULT_GAME, rules=rules)


def _stats(app: Any) -> Any:
    from game.scenes.stats import StatsScene

    return StatsScene(app)


def _chart(app: Any, **kw: Any) -> Any:
    from game.scenes.chart import ChartScene

    return ChartScene(app, **kw)


SCENES: dict[str, Callable[..., Any]] = {
    "menu": _menu, "setup": _setup, "table": _table, "continue": _resume, "demo": _demo,
    "results": _results, "pause": _pause, "handoff": _handoff, "replay": _replay,
    "replays": _replays, "settings": _settings, "rules": _rules, "stats": _stats,
    "chart": _chart, "unfinished": _unfinished, "confirm": _confirm, "review": _review,
}


def build(app: Any, name: str, **kw: Any) -> Any:
    """The scene called ``name`` (keyword arguments as its factory takes them)."""
    try:
        factory = SCENES[name]
    except KeyError:
        raise ValueError(f"no scene called {name!r} (one of {', '.join(SCENES)})") from None
    return factory(app, **kw)
