"""The ``files`` check of ``tools/check_frozen.py``, run inside the frozen app itself.

The frozen executable runs a Python file only as a bot (``stammtisch bot-runner
FILE``), so the checker starts it that way: this module does its work when it is
loaded, prints one line ``files-check: {json}`` on standard error (where the runner
sends a bot's output) and then serves as a bot that is never asked anything.

``STAMMTISCH_CHECK_PHASE=write``: through the window's own screens (synthetic events,
as the UI tests send them, under SDL's dummy video driver) the language, animation
speed and computers' pause are changed in Settings; a Chase the Ace game is played to
its end (statistics); a Rams game is started and left after a few moves (autosave),
and the window closes. The computers of a window think in a worker process: one is
asked, to see that the frozen app can start it.

``STAMMTISCH_CHECK_PHASE=read`` (a new process: the restart): the settings are back,
the menu offers the unfinished game, which resumes at the same move and is played to
its end; the statistics then hold both games and the autosave is gone.

Everything happens in the user's own folders (no ``STAMMTISCH_HOME``): on Windows
``%APPDATA%\\Stammtisch``. The checker points those at a folder of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from typing import Any

PHASE = os.environ.get("STAMMTISCH_CHECK_PHASE", "")
MARK = "files-check:"


def _app(lang: str | None = None) -> Any:
    from game.app import App

    opts = argparse.Namespace(demo=False, game=None, seed=None, quit_after=None,
                              frame_stats=False, smoke_test=False, lang=lang,
                              size=(1280, 720), players=None)
    app = App(opts)               # the settings of the user's folder
    app.ai_sync = True            # computers decide at once, in this thread
    return app


def _close(app: Any) -> None:
    """What closing the window does: the loop ends, the settings are saved."""
    import pygame

    app.handle(pygame.event.Event(pygame.QUIT))
    assert not app.running
    app.save_settings()
    app.close()
    pygame.quit()


def _step_until(app: Any, done: Any, key: int, tries: int = 8) -> None:
    from game.scenes import testing

    for _ in range(tries):
        if done():
            return
        testing.key(app, key)
    assert done(), "the setting did not take the value"


def _start(app: Any, game: str) -> Any:
    """Menu -> the game's setup screen -> F5 (start); the table."""
    import pygame

    from game.scenes import testing

    menu = app.top
    assert menu.name == "menu", menu.name
    testing.click_button(app, menu.list.by_name("new_" + game))
    assert app.top.name == "setup", app.top.name
    testing.key(app, pygame.K_F5)
    table = testing.table_of(app)
    assert table is not None, "no table after F5"
    return table


def _worker_pid() -> int:
    """A window's computers think in a worker process: start one and ask it."""
    from game.turn.workers import ProcessWorker

    worker = ProcessWorker()
    try:
        return int(worker.submit(os.getpid).result(timeout=120))
    finally:
        worker.shutdown()


def write() -> dict[str, Any]:
    import pygame

    from game import paths, store
    from game.scenes import testing

    out: dict[str, Any] = {}
    app = _app()
    menu = app.open("menu")
    testing.click_button(app, menu.list.by_name("settings"))
    assert app.top.name == "settings"
    s = app.settings
    _step_until(app, lambda: s["lang"] == "de", pygame.K_RIGHT)     # the first row
    testing.key(app, pygame.K_DOWN)
    _step_until(app, lambda: s["anim_speed"] == "off", pygame.K_RIGHT)
    testing.key(app, pygame.K_DOWN)
    _step_until(app, lambda: s["think_pause"] == 0.0, pygame.K_RIGHT)
    testing.key(app, pygame.K_ESCAPE)                                # back: saved
    assert app.top.name == "menu", app.top.name
    out["settings_file"] = str(paths.config_dir() / "settings.json")

    _start(app, "chase")
    assert testing.play_game(app), "the Chase the Ace game did not end"
    testing.click_button(app, app.top.list.by_name("menu"))
    out["stats_games_after_write"] = store.summarize().total

    table = _start(app, "rams")
    assert testing.drive(app, lambda tb: len(tb.game.moves) >= 12), "Rams did not get going"
    out["autosave_moves"] = len(table.game.moves)
    out["autosave_file"] = str(store.autosave_path())
    _close(app)
    out["worker_pid"] = _worker_pid()
    out["own_pid"] = os.getpid()
    return out


def read() -> dict[str, Any]:
    from game import i18n, settings, store
    from game.scenes import testing

    out: dict[str, Any] = {}
    st = settings.load()
    out["settings"] = {k: st[k] for k in ("lang", "anim_speed", "think_pause")}
    saved, problem = store.read_autosave()
    assert problem is None, problem
    assert saved is not None, "no autosave after the restart"
    out["autosave_moves"] = len(saved.record.moves)
    app = _app()
    out["language_shown"] = i18n.get_lang()
    menu = app.open("menu")
    continue_button = menu.list.by_name("continue")
    assert continue_button is not None, "the menu offers no unfinished game"
    testing.click_button(app, continue_button)
    assert app.top.name == "unfinished", app.top.name
    testing.click_button(app, app.top.list.by_name("resume_0"))
    table = testing.table_of(app)
    assert table is not None, "the game did not resume"
    out["resumed_at"] = len(table.game.moves)
    testing.drive(app, lambda tb: False)      # Rams: cards are played, not buttons
    assert app.top.name == "results", f"the resumed game did not end: {app.top.name}"
    out["stats_games"] = store.summarize().total
    out["autosave_left"] = store.autosave_path().exists()
    testing.click_button(app, app.top.list.by_name("menu"))
    app.open("stats")
    app.draw()
    _close(app)
    return out


def main() -> None:
    from game import paths

    result: dict[str, Any] = {"phase": PHASE, "frozen": paths.is_frozen(),
                              "platform": sys.platform,
                              "home_override": os.environ.get(paths.HOME_ENV)}
    try:
        result["config_dir"] = str(paths.config_dir())
        result["data_dir"] = str(paths.data_dir())
        if PHASE == "write":
            result.update(write())
        elif PHASE == "read":
            result.update(read())
        else:
            raise ValueError(f"STAMMTISCH_CHECK_PHASE is {PHASE!r}, not write or read")
        result["ok"] = True
    except BaseException as exc:  # noqa: BLE001 - every failure goes into the line
        result["ok"] = False
        result["error"] = f"{type(exc).__name__}: {exc}"
        result["traceback"] = traceback.format_exc()[-3000:]
    sys.stderr.write(MARK + " " + json.dumps(result) + "\n")
    sys.stderr.flush()


if __name__ in ("__main__", "stammtisch_bot"):   # not in a worker process's import
    main()


def choose(view: dict) -> str:    # the bot this file pretends to be
    return view["legal"][0]
