"""The words of the game as players read them: grammar where the solo player is
"you" (live, in replays, in old records), plurals, the card that blocks, German
game terms, one word for dropping out, keys that belong to the language, buttons
that say what they do, the language the game really speaks, names kept as roles."""

from __future__ import annotations

import os
import random
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import i18n, records, store  # noqa: E402
from game.i18n import t, tn  # noqa: E402
from game.records import Record  # noqa: E402
from game.rules.base import Pending  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.settings import default_setup  # noqa: E402
from game.turn.chase_texts import prompt  # noqa: E402
from game.turn.seats import seats_from_setup  # noqa: E402
from game.turn.texts import SeatNames, log_text, seat_name  # noqa: E402
from tests.screen_check import drawn_strings  # noqa: E402

# ----------------------------------------------------------------- "you" in the log

WRONG_YOU = re.compile(r"\b(You (swaps|deals|keeps|draws|blocks|loses|is|shows|refuses|gets)"
                       r"|Round \d+, You deals|You, you|Du (tauscht|gibt|bleibt|zieht|verliert"
                       r"|ist|blockt|zeigt))\b")


def replay_log(record: Record, lang: str) -> list[str]:
    """Every log line of a record watched to its end, in ``lang``."""
    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    app.open("replay", record=record, title="x")
    replay = app.top
    lines: list[str] = []
    for _ in range(20000):
        app.update(0.05)
        for key, fmt, to in replay.table.model.log:
            line = log_text(key, fmt)
            if to is None and line not in lines:
                lines.append(line)
        if replay.finished:
            break
    assert replay.finished
    return lines


def solo_record(role: str | None, name: str = "You") -> Record:
    """A finished solo game against three computers; seat 0 the person."""
    app = T.make_app((960, 600), "en")
    app.push(MenuScene(app))
    seats = [{"name": name, "human": True, "level": "medium"}] + [
        {"name": n, "human": False, "level": "easy"} for n in ("Anna", "Ben", "Clara")]
    if role:
        seats[0]["role"] = role
    tb = app.scene("table", game_id="chase", seats=seats, rules={"lives": 3}, seed=4)
    app.push(tb)
    assert T.play_game(app, rng=random.Random(4))
    return records.record_of(tb.game, store.seats_to_record(seats), seed=4)


@pytest.mark.parametrize("role", ["you", None])     # None: a record saved before roles
def test_a_replay_speaks_to_you_in_the_second_person(role):
    rec = solo_record(role)
    lines = replay_log(rec, "en")
    assert not [ln for ln in lines if WRONG_YOU.search(ln)], lines
    assert any(re.search(r"\bRound \d+, you deal\.", ln) for ln in lines)
    assert any(ln.startswith("You ") for ln in lines)
    de = replay_log(rec, "de")
    assert not [ln for ln in de if WRONG_YOU.search(ln) or "You" in ln], de
    assert any(re.search(r"Runde \d+, du gibst\.", ln) for ln in de)


def test_the_dealers_prompt_does_not_say_you_twice():
    for lang in ("en", "de"):
        i18n.set_lang(lang)
        names = SeatNames([t("table.you_name"), "Anna", "Ben"], [0], ["you", None, None])
        p = Pending(0, ("keep", "draw"), "dealer")
        ask = prompt(p, names, [1, 2, 0])
        assert not re.match(r"^(You|Du)\s*,\s*(you|du)\b", ask), ask
        assert ask.startswith(("You deal", "Du gibst"))
        turn = prompt(Pending(0, ("keep", "swap"), "turn"), names, [0, 1, 2])
        assert not turn.startswith(("You:", "Du:")) and "Anna" in turn


# ----------------------------------------------------------------- names are roles


def test_the_persons_default_name_is_a_role_and_follows_the_language():
    setup = default_setup()
    i18n.set_lang("en")
    seats = seats_from_setup(setup, "en")
    assert seats[0]["role"] == "you" and seats[0]["name"] == "You"
    rec = Record("chase", store.seats_to_record(seats), {}, seed=1)
    back = records.parse(records.dumps(rec))
    assert back.seats[0].role == "you"
    i18n.set_lang("de")
    table_seats = store.seats_from_record(back)
    assert seat_name(table_seats[0], 0) == "Du"
    assert seat_name(back.seats[0].as_dict(), 0) == "Du"
    # an old statistics row without a role, written in English, reads in German
    assert seat_name({"name": "You", "type": "human"}, 0) == "Du"
    assert seat_name({"name": "Anna", "type": "ai"}, 1) == "Anna"
    # a name the player typed stays theirs
    setup["seats"][0]["name"] = "Eva"
    assert "role" not in seats_from_setup(setup, "de")[0]
    # several people: seat 0 without a name is "Player 1" in the current language
    setup["seats"][0]["name"] = ""
    setup["seats"][1]["human"] = True
    multi = seats_from_setup(setup, "en")
    assert multi[0]["role"] == "player"
    assert seat_name(multi[0], 0) == "Spieler 1"


def _table_log(game_id: str, seats, seed: int, until) -> tuple:
    """A German table played (people at random) until its log holds what ``until``
    looks for; then the language switches to English, as in the settings."""
    app = T.make_app((1280, 720), "de")
    app.push(MenuScene(app))
    from game.turn.options import TableOptions

    tb = app.scene("table", game_id=game_id, seats=seats, rules={}, seed=seed,
                   options=TableOptions(bot_seed=seed))
    app.push(tb)
    assert T.drive(app, lambda t_: until([log_text(k, f) for k, f, _ in t_.model.log]),
                   random.Random(seed))
    app.set_lang("en")
    return [log_text(k, f) for k, f, _ in tb.model.log]


def test_the_log_speaks_a_language_chosen_in_the_middle_of_a_game():
    """The lines already in the log read in the new language: the person addressed as
    "you", "Player 1" of a hot-seat game, a suit. They kept the German words of the
    moment they were written ("Clara swaps with dir", "Trump is Pik")."""
    solo = seats_from_setup(default_setup(), "de")
    lines = _table_log("chase", solo, 4,
                       lambda ls: any(x.endswith(" mit dir.") for x in ls))
    assert any(x.endswith(" swaps with you.") for x in lines), lines
    assert not any(re.search(r"\b(dir|dich|Du)\b", x) for x in lines), lines

    setup = default_setup()
    setup["seats"][1]["human"] = True
    people = seats_from_setup(setup, "de")
    lines = _table_log("rams", people, 4,
                       lambda ls: any(x.startswith("Spieler 1 ") for x in ls)
                       and any(x.startswith("Trumpf ist ") for x in ls))
    assert any(re.fullmatch(r"Trump is (clubs|diamonds|hearts|spades) \(.+\)\.", x)
               for x in lines), lines
    assert any(x.startswith("Player 1 ") for x in lines), lines
    assert not any("Spieler" in x or re.search(r"\b(Kreuz|Karo|Herz|Pik)\b", x)
                   for x in lines), lines


# ----------------------------------------------------------------- plurals


@pytest.mark.parametrize("lang,one,two", [("en", "1 game", "2 games"),
                                          ("de", "1 Spiel", "2 Spiele")])
def test_counts_agree_with_their_number(lang, one, two):
    i18n.set_lang(lang)
    assert tn("count.games", 1) == one and tn("count.games", 2) == two
    assert tn("count.rounds", 1) in ("1 round", "1 Runde")
    assert tn("count.rounds", 3) in ("3 rounds", "3 Runden")


def test_the_statistics_header_after_one_game(monkeypatch, tmp_path):
    from game.scenes.stats import StatsScene

    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))     # exactly one game recorded

    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="chase", seats=T.mixed_seats(4, 1), rules={"lives": 1},
                   seed=2)
    app.push(tb)
    assert T.play_game(app)
    seen = drawn_strings(monkeypatch)
    app.open("stats", how="reset")
    assert isinstance(app.top, StatsScene)
    app.draw()
    drawn = " | ".join(seen)
    assert re.search(r"\b1 game\b", drawn) and not re.search(r"\b1 games\b", drawn), drawn
    rounds = tb.model.rounds_played
    expected = tn("count.rounds", rounds)
    assert expected in drawn and not re.search(r"\b1 rounds\b", drawn)


def after_a_game(monkeypatch, tmp_path, lang: str, screens: tuple[str, ...]) -> str:
    """Every string drawn on ``screens`` after one game played to its end in
    ``lang``, joined with " | "."""
    monkeypatch.setenv("STAMMTISCH_HOME", str(tmp_path))
    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="chase", seats=T.mixed_seats(4, 1, lang),
                   rules={"lives": 1}, seed=2)
    app.push(tb)
    assert T.play_game(app)
    seen = drawn_strings(monkeypatch)
    for screen in screens:
        if app.top.name != screen:
            app.open(screen)
        assert app.top.name == screen
        app.draw()
    return " | ".join(seen)


@pytest.mark.parametrize("lang,wrong", [("en", r"\d %"), ("de", r"\d%")])
def test_percentages_are_written_as_the_language_writes_them(monkeypatch, tmp_path, lang,
                                                             wrong):
    """English writes "37%", German "37 %": the end of a game, the statistics and the
    settings wrote "37 %" in English too, beside the coach's "42%"."""
    drawn = after_a_game(monkeypatch, tmp_path, lang, ("results", "stats", "settings"))
    assert re.search(r"\d ?%", drawn), drawn            # there are percentages
    assert not re.search(wrong, drawn), drawn


@pytest.mark.parametrize("lang,right,wrong", [
    ("en", r"\b\d{4}-\d\d-\d\d\b", r"\b\d\d\.\d\d\.\d{4}\b"),
    ("de", r"\b\d\d\.\d\d\.\d{4}\b", r"\b\d{4}-\d\d-\d\d\b")])
def test_dates_are_written_as_the_language_writes_them(monkeypatch, tmp_path, lang, right,
                                                       wrong):
    """The statistics and the replays wrote 07.12.2026 in English too, which reads as
    the 12th of July to many: English writes 2026-12-07 now."""
    drawn = after_a_game(monkeypatch, tmp_path, lang, ("stats", "replays"))
    assert re.search(right, drawn) and not re.search(wrong, drawn), drawn


def test_a_restart_with_one_life_is_singular():
    for lang, bad in (("en", "1 lives"), ("de", None)):
        i18n.set_lang(lang)
        line = t(i18n.plural_key("log.restart", 1), n=1)
        sub = t(i18n.plural_key("banner.restart.sub", 1), n=1)
        if bad:
            assert bad not in line and bad not in sub
        assert "1" in line and "1" in sub


# ----------------------------------------------------------------- the card that blocks


def test_a_cuckoo_block_is_logged_with_the_cuckoo():
    for lang in ("en", "de"):
        app = T.make_app((1280, 720), lang)
        app.push(MenuScene(app))
        found = None
        for seed in range(1, 80):
            tb = app.scene("table", game_id="chase", seats=T.mixed_seats(6, 0),
                           rules={"deck": "cuckoo40"}, seed=seed)
            app.push(tb)
            stop, until = T.next_event_is("block")
            tb.stop_before = stop
            if T.drive(app, until, random.Random(seed)):
                block = tb.queue[0]
                tb.stop_before = lambda ev, b=block: ev is not b    # show just the block
                T.pump(app, 0.2, draw=False)
                found = [log_text(k, f) for k, f, _ in tb.model.log]
                break
            app.pop()
        assert found, "no block in 80 games"
        line = next(ln for ln in found if "block" in ln.lower())
        assert "King" not in line and "König" not in line
        assert ("Cuckoo" if lang == "en" else "Kuckuck") in line


# ----------------------------------------------------------------- German terms, one word


def test_german_rams_terms():
    with i18n.language("de"):
        assert t("rule.rams.must_trump") == "Trumpfzwang"
        rules = t("rules.rams")
        assert "Trumpfzwang:" in rules and "Stichzwang:" not in rules
        assert "steigt aus" in t("rams.mark.drop") and "steigt aus" in t("log.rams.drop")
        assert "pass" not in t("say.rams.drop").lower()
    with i18n.language("en"):
        assert "drop" in t("rams.mark.drop") and "drop" in t("say.rams.drop").lower()


# ----------------------------------------------------------------- keys of the language


def _offer_chase(decision: str, legal: tuple[str, ...]):
    from game.table.chase_controls import ChaseControls
    from game.turn.sources import Decision

    c = ChaseControls(lambda m: None)
    p = Pending(0, legal, decision)
    c.offer(Decision(0, p, {}, 0))
    return c.actions.buttons


def _offer_rams(decision: str, legal: tuple[str, ...]):
    from game.table.model import RamsModel
    from game.table.rams_controls import RamsControls
    from game.table.rams_layout import RamsLayout
    from game.turn.sources import Decision

    m = RamsModel(4, 3)
    c = RamsControls(m, RamsLayout(4, 0, m), lambda mv: None, lambda: None)
    c.offer(Decision(0, Pending(0, legal, decision), {}, 0), lambda mv: None)
    return c.actions.buttons


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_move_key_is_a_letter_of_its_label_in_that_language(lang):
    pygame.init()
    i18n.set_lang(lang)
    groups = [_offer_chase("turn", ("keep", "swap")), _offer_chase("dealer", ("keep", "draw")),
              _offer_chase("queen", ("accept", "refuse")),
              _offer_chase("domino", ("keep", "swap")),
              _offer_rams("declare", ("play", "drop")), _offer_rams("take", ("pass_trump",))]
    for buttons in groups:
        keys = [b.hotkey for b in buttons]
        assert None not in keys and len(set(keys)) == len(keys)
        for b in buttons:
            letter = pygame.key.name(b.hotkey).upper()
            words = re.findall(r"\w+", b.text().upper())
            assert any(w.startswith(letter) for w in words), (lang, letter, b.text())
            assert b.hint == letter
    if lang == "de":
        assert pygame.key.name(_offer_chase("turn", ("keep", "swap"))[0].hotkey) == "b"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_results_screen_shows_its_keys_and_they_are_letters_of_the_language(home, lang):
    """Every button of the end screen shows its key, as the table's buttons do, the
    key is a letter of its label in that language, and it presses the button. The
    screen had M, E, N and R and said so nowhere (R for "Analyse", N for "Play
    again")."""
    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    tb = app.open("table", game_id="chase", seats=T.mixed_seats(4, 1, lang),
                  rules={"lives": 1}, seed=3)
    assert T.play_to_results(app, tb, random.Random(1))
    res = app.top
    app.draw()
    keys = [b.hotkey for b in res.list.buttons]
    assert None not in keys and len(set(keys)) == len(keys)
    for b in res.list.buttons:
        letter = pygame.key.name(b.hotkey).upper()
        assert b.hint == letter and letter in b.text().upper(), (lang, letter, b.text())
    T.key(app, res.list.by_name("review").hotkey)
    assert app.top.name == "review"


@pytest.mark.parametrize("game_id,move", [("chase", "keep"), ("rams", "play")])
def test_the_keys_follow_a_language_chosen_in_the_middle_of_a_game(game_id, move):
    """English at a decision, then German chosen in the settings: the buttons show the
    German letters and those keys work (the move buttons kept K and P, fast-forward F
    while its German label and the menu's list of keys said V), and the lines above a
    Chase question speak German (they kept "You were dealt ...")."""
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    from game.turn.options import TableOptions

    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(4, 1, "en"), rules={},
                   seed=3, options=TableOptions(bot_seed=3))
    app.push(tb)
    assert T.drive(app, lambda t_: t_.state == "human" and move in t_.pending.legal
                   and (game_id == "rams" or bool(t_.controls.story)),   # a card swapped
                   random.Random(3), choose=lambda p: "keep" if "keep" in p.legal else
                   "drop" if "drop" in p.legal else p.legal[0])
    app.draw()
    app.set_lang("de")
    app.draw()
    button = tb.controls.actions.by_name(move)
    german = t("key." + ("rams." if game_id == "rams" else "") + move)     # B, S
    assert button.hint == german and tb.fast_button.hint == "V" and tb.peek.letter == "K"
    if game_id == "chase":      # what the person knows about their card, above the question
        assert tb.controls.story[0].startswith("Ausgeteilt bekommen: "), tb.controls.story
    played: list[str] = []
    tb.controls.play = played.append
    T.key(app, pygame.key.key_code(german.lower()))
    assert played == [move]


# ----------------------------------------------------------------- buttons and settings


def test_switch_buttons_say_what_they_do():
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    app.open("setup", game_id="chase")
    label = app.top.buttons.by_name("game").text()
    assert label == "Switch to Rams"
    app.open("chart")
    chart = app.top
    view = chart.list.by_name("view")
    assert view.text().startswith("Show") and not view.text().startswith("View:")
    first = view.text()
    chart.toggle()
    assert view.text() != first


def test_the_language_row_shows_the_language_in_force():
    from game.scenes.settings_scene import SettingsScene

    settings = None
    app = T.make_app((1280, 720), "en", settings=settings)
    app.settings["lang"] = "de"                  # the setting says German ...
    assert i18n.get_lang() == "en"               # ... but --lang en is in force
    sc = SettingsScene(app)
    row = next(r for r in sc.form.rows if r.name == "lang")
    assert row.value() == "English (set by --lang)"
    sc._lang(1)                                 # choosing ends the forced language
    assert app.opts.lang is None
    assert i18n.get_lang() == (app.settings["lang"] or i18n.system_lang())
    app.settings["lang"] = None
    i18n.set_lang(None)
    assert row.value().startswith("System (")


def test_the_rams_rules_page_has_no_chart_and_c_opens_nothing():
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    app.open("rules", game_id="rams")
    page = app.top
    assert page.list.by_name("chart") is None
    T.key(app, pygame.K_c)
    assert app.top is page
    T.click_button(app, page.list.by_name("game"))      # over to Chase: its chart
    assert page.list.by_name("chart") is not None
    T.key(app, pygame.K_c)
    assert app.top.name == "chart"


# ----------------------------------------------------------------- names, not sources

QUOTES = {"en": ("“", "”"), "de": ("„", "“")}
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "..", "game", "locale")


def named(lang: str, key: str) -> str:
    """The text of ``key`` as a name in a sentence: in the language's quotation marks."""
    opening, closing = QUOTES[lang]
    return f"{opening}{t(key)}{closing}"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_no_player_text_names_a_rule_set_by_its_number_in_the_sources(lang):
    """The rules as written are "Rams as written" to a player, never "seed 002"."""
    import json

    with open(os.path.join(LOCALE_DIR, f"{lang}.json"), encoding="utf-8") as f:
        catalogue = json.load(f)
    for key, value in catalogue.items():
        for line in value if isinstance(value, list) else [value]:
            assert not re.search(r"\b(seed|Vorlage|00\d)\b", line), (key, line)
    with i18n.language(lang):
        assert named(lang, "setup.rams_preset.as_written") in t("rule.rams.scoring.help")
        assert named(lang, "setup.rams_preset.as_written") in t("setup.rams_preset.help")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_rule_names_in_a_sentence_are_quoted(lang):
    """Where a sentence lists rules (the presets' line in the setup, the variants on the
    rules page), each is quoted by the name the setup gives it, so "Dealer must play and
    Two must play" reads as two rules."""
    with i18n.language(lang):
        preset = t("setup.rams_preset.help")
        for key in ("setup.rams_preset.pub", "setup.rams_preset.as_written",
                    "rule.rams.general_rams", "rule.rams.dealer_must_play"):
            assert named(lang, key) in preset, (key, preset)
        page = t("rules.rams").split("\n")
        with_lives = next(ln for ln in page if t("rule.rams.two_must_play") in ln)
        for key in ("rule.rams.general_rams", "rule.rams.dealer_must_play",
                    "rule.rams.two_must_play"):
            assert named(lang, key) in with_lives, (key, with_lives)
        settable = next(ln for ln in page if t("rule.rams.hand_size") in ln)
        for key in ("rule.rams.hand_size", "rule.rams.counters", "rule.rams.lives",
                    "rule.rams.deck", "rule.rams.drop_limit"):
            assert named(lang, key) in settable, (key, settable)


@pytest.mark.parametrize("lang,said", [
    ("de", "32 Karten reichen nicht für 10 Spieler mit je 5 Karten und eine Trumpfkarte "
           "(51 nötig)"),
    ("en", "32 cards are too few for 10 players with 5 cards each and a trump card "
           "(51 needed)"),
])
def test_a_deck_too_small_for_the_table_is_explained_in_the_players_language(lang, said):
    """The Skat deck chosen for ten players: the setup stays and says why in the
    player's words (before: 'These rules do not fit: rules key 'hand_size': …')."""
    app = T.make_app((1280, 720), lang)
    setup = app.open("setup", game_id="rams")
    rows = {r.name: r for r in setup.rule_form.rows}
    players = next(r for r in setup.seat_form.rows if r.name == "players")
    while setup.setup["players"] < 10:
        players.step(1)
    while setup.rules.get("deck") != "skat32":
        rows["deck"].step(1)
    setup.start()
    assert app.top is setup and app.toast is not None
    assert app.toast[0].startswith(said) and "rules key" not in app.toast[0], app.toast[0]
