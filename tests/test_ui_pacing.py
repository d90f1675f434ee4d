"""Pacing that respects the player: a round's reveal stays until the person continues
(or goes on after the chosen delay), the computers can be fast-forwarded (button and
key) up to the next decision of a person, and a Rams player can look at the last
trick (key and click) and sees everyone's tricks."""

from __future__ import annotations

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.i18n import t  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402


def table(game_id: str, hold, humans: int = 1, speed: str = "fast", seed: int = 3,
          rules: dict | None = None):
    app = T.make_app((1280, 720), "en", speed=speed, reveal_hold=hold)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(4, humans), rules=rules or {},
                   seed=seed)
    app.push(tb)
    return app, tb


@pytest.mark.parametrize("game_id", ["chase", "rams"])
@pytest.mark.parametrize("how", ["space", "enter", "click"])
def test_the_reveal_stays_until_the_person_continues(game_id, how):
    app, tb = table(game_id, None)

    def played_round_held(t) -> bool:       # a Rams round everyone dropped shows no tricks
        return t.state == "hold" and not (t.game.rounds and t.game.rounds[-1].get("void"))

    rng = random.Random(1)

    def play(p) -> str:       # a Rams person who drops leaves the round to fast-forward
        return "play" if "play" in p.legal else rng.choice(list(p.legal))

    assert T.drive(app, played_round_held, rng, choose=play)
    nxt = tb.queue[0]
    assert nxt.type in ("round_start", "game_over")
    if game_id == "rams":
        T.pump(app, 0.5)
        assert tb.model.summary is not None and tb.model.summary_alpha > 0.9
    T.pump(app, 20.0, dt=0.25)                 # waiting changes nothing
    assert tb.state == "hold" and tb.queue[0] is nxt
    assert "continue" in tb.hold_note()
    if how == "click":
        T.click(app, (640, 300))
    else:
        T.key(app, pygame.K_SPACE if how == "space" else pygame.K_RETURN)
    assert tb.state != "hold"
    T.pump(app, 0.2)
    assert nxt not in tb.queue


def test_the_reveal_goes_on_by_itself_after_the_chosen_delay():
    app, tb = table("chase", 4.0)
    assert T.drive(app, lambda t: t.state == "hold", random.Random(1))
    T.pump(app, 2.0, dt=0.25)
    # held for 2 s (and the frame it began in) of 4 s: still held, 2 s to go
    assert tb.state == "hold" and 2.0 <= tb.flow.held < 2.5
    assert tb.hold_note() == t("table.continue_in", n=2)
    T.pump(app, 2.5, dt=0.25)
    assert tb.state != "hold" and tb.hold_note() == ""


def test_the_settings_offer_waiting_or_a_delay():
    from game.scenes.settings_scene import SettingsScene

    app = T.make_app((1280, 720), "en", reveal_hold=None)
    sc = SettingsScene(app)
    row = next(r for r in sc.form.rows if r.name == "reveal_hold")
    assert row.value() == "wait for me"
    row.step(1)
    assert app.settings["reveal_hold"] == 2.0 and row.value() == "go on after 2 s"


@pytest.mark.parametrize("use_key", [True, False])
def test_fast_forward_runs_the_computers_to_the_next_decision(use_key):
    app, tb = table("rams", None, speed="normal", seed=5)
    tb.app.settings["think_pause"] = 1.0
    assert T.drive(app, lambda t: t.state == "human", random.Random(2))
    tb.human_move("play" if "play" in tb.pending.legal else tb.pending.legal[0])
    T.pump(app, 0.1)
    assert tb.skip_allowed() and not tb.hint_allowed()
    if use_key:
        T.key(app, tb.fast_button.hotkey)
    else:
        T.click_button(app, tb.fast_button)
    assert tb.skipping and tb.anim_speed() == "skip" and tb.pacing().think == 0.0
    for _ in range(4000):
        T.frame(app, 1 / 30)
        if tb.state == "human" or app.top is not tb:
            break
    # back to the normal pace at the person's next decision (or the end)
    assert not tb.skipping and tb.anim_speed() == "normal"
    assert tb.state == "human" or app.top.name == "results"


@pytest.mark.parametrize("size", [(800, 450), (1920, 1080)])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_button_says_that_fast_forward_is_on_and_how_to_stop_it(size, lang):
    """While the computers are fast-forwarded the button says so: it reads "Stop fast
    forward" ("Vorspulen stoppen"), whole in the button even at 800x450, and
    "Fast forward" again once stopped. Only a gold ring around it told before, which
    a player did not notice."""
    from tests.screen_check import recording

    app = T.make_app(size, lang, speed="normal", reveal_hold=None)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="chase", seats=T.mixed_seats(5, 1, lang), rules={},
                   seed=2)
    app.push(tb)
    assert T.drive(app, lambda t: t.skip_allowed() and t.state != "hold", random.Random(2))

    def label() -> str:
        with recording(app) as frame:
            app.draw()
        shown = [label for label, _, name in frame.buttons if name == "fast"]
        assert len(shown) == 1 and not frame.cut_labels, (shown, frame.cut_labels)
        return shown[0]

    assert label() == t("table.fast_forward")
    T.key(app, tb.fast_button.hotkey)
    assert tb.skipping
    assert label() == t("table.fast_forward_stop") != t("table.fast_forward")
    T.key(app, tb.fast_button.hotkey)
    assert not tb.skipping and label() == t("table.fast_forward")


def test_fast_forward_shows_a_reveal_and_goes_on():
    """The person deals (acts last): fast-forward from there shows the showdown for a
    moment and goes on without a key."""
    app, tb = table("chase", None, speed="normal", seed=4)
    assert T.drive(app, lambda t: t.state == "human" and t.pending.decision == "dealer"
                   and app.top is t, random.Random(1))
    tb.human_move("keep")
    tb.toggle_skip()
    assert tb.skipping and tb.pacing().hold == pytest.approx(1.2)
    held = 0.0
    for _ in range(6000):
        T.frame(app, 1 / 30)
        if tb.state == "hold":
            held += 1 / 30
        elif held:
            break
    assert 1.0 <= held <= 1.6          # seen for a moment, never waited on


def test_the_last_trick_by_key_and_by_a_click_on_a_pile():
    app, tb = table("rams", 0.0, speed="off", seed=2)
    assert T.drive(app, lambda t: t.model.last_trick is not None and t.state == "human"
                   and app.top is t, random.Random(3))
    c = tb.controls
    lt = tb.model.last_trick
    assert len(lt["cards"]) >= 2 and lt["winner"] in [s for s, _ in lt["cards"]]
    assert tb.model.tricks[lt["winner"]] >= 1
    T.key(app, c.last_key)
    assert c.show_last
    app.draw()
    T.key(app, c.last_key)
    assert not c.show_last
    app.draw()
    pile = c.pile_rects()[0]
    T.click(app, pile.center)
    assert c.show_last
    T.click(app, pile.center)
    assert not c.show_last


def test_esc_hides_the_last_trick_before_it_opens_the_menu():
    """Esc goes back: with the last trick shown it hides it (it opened the menu over
    it); the next Esc opens the menu."""
    app, tb = table("rams", 0.0, speed="off", seed=2)
    assert T.drive(app, lambda t: t.model.last_trick is not None and t.state == "human"
                   and app.top is t, random.Random(3))
    T.key(app, tb.controls.last_key)
    assert tb.controls.show_last
    T.key(app, pygame.K_ESCAPE)
    assert not tb.controls.show_last and app.top is tb
    T.key(app, pygame.K_ESCAPE)
    assert app.top.name == "pause"


def test_a_person_who_drops_out_leaves_the_round_to_fast_forward():
    """Once the person has dropped out, only computers decide in the round: it goes on
    at fast speed by itself, up to the person's next decision; F gives the normal pace
    back. The round's result stays in the results strip."""
    app, tb = table("rams", None, speed="normal", seed=5)
    assert T.drive(app, lambda t: t.state == "human" and "drop" in t.pending.legal,
                   random.Random(2), choose=lambda p: "play")
    rounds = len(tb.game.rounds)
    tb.human_move("drop")
    assert tb.skipping and tb.anim_speed() == "skip" and tb.pacing().think == 0.0
    T.key(app, tb.fast_button.hotkey)              # F: the normal pace again
    assert not tb.skipping
    T.key(app, tb.fast_button.hotkey)
    assert tb.skipping
    for _ in range(6000):
        T.frame(app, 1 / 30)
        if tb.state == "human" or app.top is not tb:
            break
    assert not tb.skipping and tb.anim_speed() == "normal"
    # nobody clicked: the round went by, its result is in the strip, marked as new
    assert len(tb.game.rounds) > rounds
    assert tb.model.results and tb.model.results[-1]["round"] >= rounds
    assert tb.model.unseen >= 1


def test_every_round_stays_in_the_results_strip():
    app, tb = table("rams", 0.0, speed="off", seed=8)
    assert T.drive(app, lambda t: len(t.model.results) >= 4 and t.state == "human",
                   random.Random(4))
    got = [r["round"] for r in tb.model.results]
    assert got == list(range(1, len(got) + 1))
    for r, entry in zip(tb.model.results, tb.game.rounds):
        assert r["void"] == entry["void"]
        assert {s: a for s, a in r["changes"].items() if a} == {
            int(s): a for s, a in entry["lost"].items()}
    app.draw()                   # the strip draws every round (no exception, any size)
    tb.human_move(tb.pending.legal[0])
    assert tb.model.unseen == 0


def test_no_click_after_a_void_round():
    """Rams as written: a round everyone dropped is not held; the next deal goes on."""
    from game.rules.rams import AS_WRITTEN

    app, tb = table("rams", None, speed="off", seed=6, rules=dict(AS_WRITTEN))
    stop, until = T.next_event_is("round_start", lambda e: e.data["round"] > 0 and
                                  tb.game.rounds[e.data["round"] - 1]["void"])
    tb.flow.stop_before = stop
    assert T.drive(app, until, random.Random(3), choose=lambda p: (
        "drop" if "drop" in p.legal else p.legal[0]))
    assert not tb.holds_before(tb.queue[0])
    tb.flow.stop_before = None
    T.pump(app, 0.5)
    assert tb.state != "hold"
