"""Every screen of the game, reached the way a person reaches it, one after another:
``tour(size, lang)`` yields ``(name, app)`` with the screen on top, ready to draw.
The layout tests check each one (``tests/screen_check.py``)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame

from game import notices, store
from game.review import history
from game.review.job import Reviews
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.turn.options import TableOptions
from game.turn.workers import InlineWorker

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import bench_stats  # noqa: E402


def new_app(size, lang, **kw) -> Any:
    app = T.make_app(size, lang, **kw)
    app.push(MenuScene(app))
    return app


def table(app, game_id: str, n: int = 5, humans: int = 1, seed: int = 2, rules=None) -> Any:
    """A table of ``n`` seats, ``humans`` of them people at the screen; the computers'
    seed is given too (a new table draws a secret one), so every tour is the same."""
    return app.open("table", game_id=game_id, seats=T.mixed_seats(n, humans, app_lang(app)),
                    rules=rules or {}, seed=seed, options=TableOptions(bot_seed=seed))


def app_lang(app) -> str:
    from game import i18n

    return i18n.get_lang()


def decide_until(app, tb, pred: Callable[[Any], bool], seed: int = 2, choose=None) -> bool:
    return T.drive(app, lambda t: t.state == "human" and app.top is t and pred(t),
                   random.Random(seed), choose=choose)


def play_out(app, tb, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(200000):
        if app.top.name == "results" or tb.game.finished and not tb.busy():
            return
        if app.top.name == "handoff":
            app.top.ready()
        elif tb.state == "hold":
            tb.flow.release()
        elif tb.state == "human" and tb.pending is not None:
            tb.human_move(rng.choice(list(tb.pending.legal)))
        else:
            app.update(0.05)


def _key(app, key: int, down: bool) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    app.handle(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


#: Deals per move for the tour's reviews: the screens need numbers, not good ones.
REVIEW_SAMPLES = 24


def tour(size: tuple[int, int], lang: str) -> Iterator[tuple[str, Any]]:
    """Every screen at ``size`` in ``lang`` (a throw-away STAMMTISCH_HOME is the
    caller's)."""
    app = new_app(size, lang)
    yield "menu", app
    app.open("setup", game_id="chase")
    yield "setup_chase", app
    app.pop()
    app.open("setup", game_id="rams")
    yield "setup_rams", app
    app.pop()
    app.open("settings")
    yield "settings", app
    app.pop()
    for game_id in ("chase", "rams"):
        app.open("rules", game_id=game_id)
        yield f"rules_{game_id}", app
        for _ in range(40):
            T.key(app, pygame.K_PAGEDOWN)
        yield f"rules_{game_id}_end", app
        app.pop()
    app.open("rules", game_id="chase")
    T.click_button(app, app.top.list.by_name("chart"))
    yield "chart", app
    app.open("stats", how="reset")
    yield "stats_empty", app

    # the tables: decisions without and with the hint, the reveal held, the pause, the end
    for game_id, decisions in (("chase", ("turn", "dealer")), ("rams", ("declare", "trick"))):
        for decision in decisions:
            app = new_app(size, lang, reveal_hold=None)
            tb = table(app, game_id)
            if decide_until(app, tb, lambda t, d=decision: t.pending.decision == d
                            and len(t.pending.legal) > 1
                            and (d != "trick" or t.model.last_trick is not None)):
                yield f"{game_id}_{decision}", app
                tb.toggle_hint()
                yield f"{game_id}_{decision}_hint", app
        app = new_app(size, lang, reveal_hold=None)
        tb = table(app, game_id, seed=6)
        if T.drive(app, lambda t: t.state == "hold", random.Random(6)):
            T.pump(app, 1.0, draw=False)
            yield f"{game_id}_reveal_held", app
        if game_id == "rams":
            app = new_app(size, lang)
            tb = table(app, "rams", seed=2)
            if decide_until(app, tb, lambda t: t.model.last_trick is not None, seed=3):
                T.key(app, tb.controls.last_key)
                yield "rams_last_trick", app
                T.key(app, pygame.K_ESCAPE)        # Esc hides the last trick first
        T.key(app, pygame.K_ESCAPE)
        assert app.top.name == "pause", app.top.name
        yield f"{game_id}_pause", app
        app = new_app(size, lang)
        tb = table(app, game_id, n=4, humans=2)
        if T.drive(app, lambda t, app=app: app.top is not None and app.top.name == "handoff",
                   random.Random(2)):
            yield f"{game_id}_privacy", app
            # the person who passed it, deciding: their cards and whose they are
            app.top.ready()
            if T.drive(app, lambda t, app=app: t.state == "human" and app.top is t,
                       random.Random(2)):
                yield f"{game_id}_hot_seat_decision", app
        app = new_app(size, lang)
        app._reviews = Reviews(InlineWorker, history.keep, samples=REVIEW_SAMPLES)
        # a short game to reach the results: one life each (under counters, random
        # moves play to the last round and the chart of 5 x 30 rounds is another matter)
        rules = {"lives": 1, "scoring": "lives"} if game_id == "rams" else {"lives": 1}
        tb = table(app, game_id, n=5, rules=rules, seed=3)
        play_out(app, tb)
        yield f"{game_id}_results", app
        # the review of that game: the players, one decision, one player's decisions
        T.click_button(app, app.top.list.by_name("review"))
        T.pump(app, 0.5, draw=False)
        yield f"{game_id}_review", app
        T.key(app, pygame.K_DOWN)
        T.key(app, pygame.K_DOWN)
        yield f"{game_id}_review_decision", app
        # that decision on the table: the replay's heading names it in full
        T.key(app, pygame.K_RETURN)
        T.pump(app, 0.5, draw=False)
        yield f"{game_id}_review_replay", app
        T.key(app, pygame.K_ESCAPE)
        T.key(app, pygame.K_RIGHT)
        yield f"{game_id}_review_player", app
        # a game that cannot be saved automatically says so on its table
        app = new_app(size, lang)
        held = store.autosave_path()
        held.parent.mkdir(parents=True, exist_ok=True)
        held.mkdir()                          # a folder where the autosave belongs
        try:
            table(app, game_id, n=4)
            T.pump(app, 0.5, draw=False)
            yield f"{game_id}_not_saved", app
        finally:
            held.rmdir()
        app = new_app(size, lang, tips=True)
        tb = table(app, game_id, n=4)
        for _ in range(20000):
            if tb.tips.showing():
                break
            if tb.state == "human":
                tb.human_move(tb.pending.legal[0])
            else:
                app.update(0.05)
        yield f"{game_id}_tip", app
    app = new_app(size, lang)
    table(app, "chase", n=10, humans=1)
    T.pump(app, 2.0, draw=False)
    yield "chase_ten", app
    app = new_app(size, lang)
    table(app, "rams", n=10, humans=1)
    T.pump(app, 2.0, draw=False)
    yield "rams_ten", app

    # the setup with a phone seat: the row that says where phones join
    app = new_app(size, lang)
    app.open("setup", game_id="chase")
    seat = app.top.setup["seats"][1]
    seat["human"], seat["phone"] = True, True
    lan = "192.168.178.23"                 # as a laptop on Wi-Fi names its address
    app.top.phone_binds = {lan: f"{lan} (wlp0s20f3)", "127.0.0.1": "127.0.0.1"}
    app.top.setup["phone_bind"] = lan
    T.frame(app)
    yield "setup_phones", app

    # the phone table: its codes, then the cards of the person at the screen face down
    # until they ask (hold-to-peek), and shown while they hold the key
    for game_id in ("chase", "rams"):
        app = new_app(size, lang)
        seats = T.mixed_seats(4, 1, lang)
        seats[1]["human"], seats[1]["phone"] = True, True
        tb = app.open("table", game_id=game_id, seats=seats, seed=2,
                      options=TableOptions(phone_bind="127.0.0.1", bot_seed=2))
        try:
            T.frame(app)
            if game_id == "chase":
                yield "phones_join", app
            tb.show_phones = False
            T.pump(app, 1.0, draw=False)
            yield f"{game_id}_peek_hidden", app
            _key(app, tb.peek.key, down=True)
            T.frame(app)
            yield f"{game_id}_peek_shown", app
            _key(app, tb.peek.key, down=False)
        finally:
            tb.exit()

    # what the statistics keep: Continue, the statistics, replays, a question
    bench_stats.fill(60, seed=3, distinct=20, you="Du" if lang == "de" else "You")
    for game_id in ("chase", "rams"):
        app = new_app(size, lang)
        tb = table(app, game_id, n=4, seed=21)
        T.drive(app, lambda t: len(t.game.moves) >= 12, random.Random(21))
    app = new_app(size, lang)
    yield "menu_continue", app
    app.open("unfinished")
    yield "unfinished", app
    T.click_button(app, app.top.list.by_name("discard_0"))
    yield "discard_question", app
    app = new_app(size, lang)
    app.open("stats")
    yield "stats", app
    app.open("replays")
    yield "replays", app
    for game_id in ("chase", "rams"):
        rec = next(store.game_record(g.id) for g in store.recent_games(60)
                   if g.game == game_id)
        app = new_app(size, lang, speed="normal")
        app.open("replay", record=rec, title=f"{game_id}-game.json")
        T.pump(app, 4.0, dt=1 / 30, draw=False)
        yield f"replay_{game_id}", app
    app = new_app(size, lang)
    notices.post("store.save.failed", reason="No space left on device")
    T.frame(app)
    yield "notice", app
