"""The Rams table at a pub's pace: the setup names the rule set, the rules screen opened
from a table explains that table's scoring first (German and English), a game in
which no person decides any more goes on by itself to the end with every round's
result kept in the results strip, and General Rams is announced once."""

from __future__ import annotations

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest  # noqa: E402

from game import i18n  # noqa: E402
from game.rules.rams import AS_WRITTEN, RAMS_RULES  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.scenes.setup import SetupScene  # noqa: E402


def rams_table(lang: str = "en", rules: dict | None = None, seed: int = 3, humans: int = 1,
               speed: str = "off", hold: float | None = 0.0):
    app = T.make_app((1280, 720), lang, speed=speed, reveal_hold=hold)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="rams", seats=T.mixed_seats(4, humans, lang),
                   rules=rules or {}, seed=seed)
    app.push(tb)
    return app, tb


def rules_lines(app) -> list[str]:
    """The lines of the rules screen on top (laid out at the window's size)."""
    scene = app.top
    assert scene.name == "rules"
    app.draw()
    return [ln for ln, _, _, _ in scene.lines if ln]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("preset", ["pub", "as_written"])
def test_the_rules_screen_from_a_table_explains_its_scoring_first(lang, preset):
    rules = dict(AS_WRITTEN) if preset == "as_written" else {}
    app, tb = rams_table(lang, rules)
    assert T.drive(app, lambda t: t.state == "human", random.Random(1))
    app.open("pause")
    app.top.rules()
    lines = rules_lines(app)
    i18n.set_lang(lang)
    assert lines[0] == i18n.t("rules.this_table")
    if preset == "pub":
        want = i18n.t("rules.rams.now_counters", n=20)
        others = [i18n.t("rules.rams.now_general"), i18n.t("rules.rams.now_dealer")]
    else:
        want = i18n.t("rules.rams.now_lives", n=3)
        others = [i18n.t("rules.rams.now_limit", n=1)]
    # the scoring in use comes first, in a few lines, before the whole rulebook
    summary = "\n".join(lines[1:8])
    assert want[2:12] in summary
    for o in others:
        assert o[2:12] in summary
    ends = lines.index(next(ln for ln in lines[1:] if ln.startswith(
        i18n.t("rules.rams")[0][:20])))
    assert ends <= 8
    if preset == "as_written":
        assert i18n.t("rules.rams.now_counters", n=20)[2:12] not in summary
    i18n.set_lang("en")


def test_the_rules_screen_from_the_menu_has_no_table_section():
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    app.open("rules", game_id="rams")
    assert i18n.t("rules.this_table") not in rules_lines(app)


def test_the_setup_names_the_rule_set_and_shows_the_scorings_start_count():
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    setup = SetupScene(app, "rams")
    app.push(setup)
    app.draw()

    def shown() -> list[str]:
        return [r.name for r in setup.rule_form.focusable()]

    assert setup._preset() == "pub"
    assert "counters" in shown() and "lives" not in shown()
    setup._step_preset(1)
    app.draw()
    assert setup._preset() == "as_written"
    assert all(setup.rules[k] == v for k, v in AS_WRITTEN.items())
    assert "lives" in shown() and "counters" not in shown()
    setup._step_preset(1)
    assert setup._preset() == "pub"
    assert all(setup.rules[k] == RAMS_RULES[k].default for k in AS_WRITTEN)
    setup.rules["two_must_play"] = True          # a rule of one's own
    assert setup._preset() == "custom"


def test_with_every_person_out_the_game_goes_on_to_the_end_by_itself():
    """Rams as written with one life: once the person is out, nobody clicks; the
    computers play on at fast speed to the results, and the strip has every round.
    Reveals are held for the person (the default): without the fast speed the table
    would wait for a click after every round."""
    app, tb = rams_table(rules={**AS_WRITTEN, "lives": 1}, seed=11, speed="normal",
                         hold=None)
    app.settings["think_pause"] = 0.6
    me = tb.humans[0]
    assert T.drive(app, lambda t: not t.game.in_game[me] and not t.game.finished,
                   random.Random(5), choose=lambda p: "play" if "play" in p.legal
                   else p.legal[0], max_steps=400000)
    T.frame(app, 1 / 30)
    assert tb.skipping and tb.anim_speed() == "skip"
    for _ in range(200000):                 # no input at all from here on
        if app.top is not tb:
            break
        assert tb.state != "human"
        app.update(1 / 30)
    assert app.top.name == "results"
    assert tb.game.finished
    assert [r["round"] for r in tb.model.results] == list(range(1, len(tb.game.rounds) + 1))


def test_general_rams_is_logged_once():
    app, tb = rams_table(seed=4)
    assert T.drive(app, lambda t: t.state == "human" and "general" in t.pending.legal,
                   random.Random(1))
    tb.human_move("general")
    T.pump(app, 1.0, draw=False)
    keys = [key for key, _, _ in tb.model.log]
    assert sum(k.startswith("log.rams.general") for k in keys) == 1, keys


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("preset", ["pub", "as_written"])
def test_the_results_speak_of_the_scoring_played(lang, preset):
    """After a game under counters the results name counters left, the penalties and a
    chart of counters; after Rams as written, lives. Neither uses the other's word."""
    rules = {**AS_WRITTEN, "lives": 1} if preset == "as_written" else {"counters": 6}
    app, tb = rams_table(lang, rules=rules, seed=5)
    assert T.drive(app, lambda t: app.top.name == "results", random.Random(5),
                   choose=lambda p: "play" if "play" in p.legal else p.legal[0],
                   max_steps=400000)
    results = app.top
    app.draw()
    with i18n.language(lang):
        infos = [results._info(s) for s in range(4)]
        heads = [i18n.t(results._scored(k)) for k in ("results.chart", "results.losses")]
        none_left = i18n.t("results.counters_none")
    said = " ".join(infos + heads)
    counters = preset == "pub"
    word, other = (("counter", "Zähler"), ("life", "lives", "Leben")) if counters else \
        (("life", "lives", "Leben"), ("counter", "Zähler"))
    assert any(w in said for w in word), said
    assert not any(w in said for w in other), said
    if counters:        # a winner who shed the last counter has none left
        zero = [s for s in range(4) if tb.game.lives[s] == 0]
        assert zero and all(infos[s] == none_left for s in zero), infos
