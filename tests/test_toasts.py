"""Toasts (a message over the screen) stay one named time, counted on the frame
clock and scaled by the speed setting like every animation (never faster than
``fast``: a message must stay readable). No wall clock is read."""

from __future__ import annotations

import os
import time

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest  # noqa: E402

from game import notices  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.view import timing  # noqa: E402

DT = 1 / 32          # exact in binary: frames add up to whole seconds


@pytest.fixture
def app_at(monkeypatch):
    """A window at a speed setting; from then on any read of the wall clock fails."""

    def make(speed: str):
        app = T.make_app((960, 600), "en", speed=speed)
        app.push(MenuScene(app))
        T.frame(app, 0.0)

        def stopped() -> float:
            raise AssertionError("the wall clock was read")

        for name in ("monotonic", "time", "perf_counter"):
            monkeypatch.setattr(time, name, stopped)
        return app

    return make


def frames_shown(app) -> int:
    """Frames (of DT) until the toast is gone."""
    n = 0
    while app.toast is not None:
        T.frame(app, DT)
        n += 1
        assert n < 10_000
    return n


@pytest.mark.parametrize("speed,factor", [("slow", 0.6), ("normal", 1.0), ("fast", 2.5),
                                          ("off", 2.5)])
def test_a_toast_stays_its_time_on_the_frame_clock(app_at, speed, factor):
    app = app_at(speed)
    app.show_toast("Saved.")
    frames = frames_shown(app)
    assert frames * DT == pytest.approx(timing.TOAST / factor, abs=DT * 1.01)


def test_every_kind_of_message_stays_the_same_time(app_at):
    """A notice from code without a screen, an added message and a direct toast."""
    app = app_at("normal")
    notices.post("store.check_failed", reason="test")
    T.frame(app, DT)                       # the window drains the notice
    assert app.toast is not None and "test" in app.toast[0]
    first = 1 + frames_shown(app)          # the frame that drained the notice counts
    app.notify("One.")
    second = frames_shown(app)
    app.show_toast("Two.")
    assert frames_shown(app) == second == first == timing.TOAST / DT


def test_a_message_added_shows_with_the_first_for_the_full_time(app_at):
    app = app_at("normal")
    app.notify("One.")
    T.pump(app, timing.TOAST - 1.0, dt=DT)
    app.notify("Two.")
    assert app.toast is not None and app.toast[0] == "One.\nTwo."
    assert frames_shown(app) * DT == timing.TOAST


def test_a_message_told_again_keeps_the_others(app_at):
    """The same message again while it shows: the toast keeps every message it holds
    and shows them its full time anew. It was cut down to the repeated message, and
    the other one was gone before anybody read it."""
    app = app_at("normal")
    app.notify("One.")
    app.notify("Two.")
    T.pump(app, 1.0, dt=DT)
    app.notify("One.")
    assert app.toast is not None and app.toast[0] == "One.\nTwo."
    assert frames_shown(app) * DT == timing.TOAST


def test_nothing_moves_no_time_passes(app_at):
    """A window that draws no frames (minimised, a stalled machine) keeps the toast."""
    app = app_at("normal")
    app.show_toast("Saved.")
    T.frame(app, 0.0)
    assert app.toast is not None and app.toast[1] == timing.TOAST


def test_a_notice_follows_a_language_chosen_while_it_shows_with_its_time_left(app_at):
    """A notice shown in English, then German chosen in the settings: the toast speaks
    German for the time it had left (it stayed English), and a message added before
    the change follows too."""
    from game import i18n

    app = app_at("normal")
    notices.post("store.stats.unusable", file="stats.sqlite3", reason="x")
    T.frame(app, DT)
    app.notify(lambda: i18n.t("store.save.in_use"))
    assert app.toast is not None and app.toast[0].startswith("The statistics file")
    T.pump(app, 1.0, dt=DT)
    left = app.toast[1]
    app.set_lang("de")
    german = (i18n.t("store.stats.unusable", file="stats.sqlite3", reason="x") + "\n"
              + i18n.t("store.save.in_use"))
    assert app.toast is not None and app.toast == (german, left)
    assert frames_shown(app) * DT == pytest.approx(left, abs=DT * 1.01)
