"""What a newcomer reads and finds at the table, in both languages: the cards named
with their article, the running record's plural, the language forced by ``--lang``,
one German phrase for the winner, the coach's badges clear of the player's lives, the
replay's controls clear of the hand and its heading whole, unfinished games told apart,
an away phone not "thinking", the lives drawn as steps everywhere, the counters named
where a Rams game counted them, "Play again" first on the end screen, the hint's card
selected, and the last trick, the loser rule and the keys in sight."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest

from game import i18n, records, shelf, store
from game.i18n import t
from game.records import Record, Seat
from game.rules.rams import RamsGame
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.scenes.replay import ReplayScene
from game.scenes.stats import StatsScene
from game.scenes.unfinished import describe
from game.table import painter as painter_mod
from game.turn.coach import advise
from game.turn.options import TableOptions
from game.turn.texts import log_text
from tests.screen_check import drawn_strings, problems, recording
from tests.screens_tour import play_out

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import bench_stats  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "game" / "locale"
SIZES = [(960, 600), (1280, 720), (1920, 1080), (3840, 2160)]


pytestmark = pytest.mark.usefixtures("english_after")   # home: conftest.py


def catalogue(lang: str) -> dict:
    return json.loads((LOCALE / f"{lang}.json").read_text(encoding="utf-8"))


def table_at(game_id: str, size=(1280, 720), lang="en", n=4, humans=1, seed=2, until=None,
             choose=None):
    app = T.make_app(size, lang)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(n, humans, lang), rules={},
                   seed=seed, options=TableOptions(bot_seed=seed))   # the same game each run
    app.push(tb)
    ok = T.drive(app, lambda t_: t_.state == "human" and app.top is t_
                 and (until is None or until(t_)), random.Random(seed), choose=choose)
    assert ok
    app.draw()
    return app, tb


# ----------------------------------------------------------------- "the Seven of spades"


def test_every_card_in_an_english_sentence_has_its_article():
    """'You got the Seven of spades from Anna', never 'You got Seven of spades'."""
    en = catalogue("en")
    checked = 0
    for key, value in en.items():
        if not isinstance(value, str):
            continue
        for slot in ("card", "got", "gave"):
            for m in re.finditer(r"(.{0,7})\{" + slot + r"\}", value):
                before = m.group(1)
                assert re.search(r"(the |your |'s |\(|: )$", before), (key, value)
                checked += 1
    assert checked >= 20


def test_the_swap_in_the_log_reads_you_got_the_card():
    app, tb = table_at("chase", choose=lambda p: "keep" if "keep" in p.legal else p.legal[0],
                       until=lambda t_: any(k == "log.exchange" for k, _, _ in t_.model.log))
    lines = [log_text(k, f) for k, f, to in tb.model.log if k == "log.exchange"]
    assert lines and all(re.fullmatch(r"You got the \w+ of \w+ from \w+\.", x) for x in lines)


# ----------------------------------------------------------------- the running record


@pytest.mark.parametrize("lang,games,expected", [
    ("en", 1, "Your record at Chase the Ace against Medium computers: 1 game, "),
    ("de", 2, "Bilanz bei Chase the Ace gegen Computer „Mittel“: 2 Spiele, "),
])
def test_the_running_record_names_the_game_and_counts_right(home, monkeypatch, lang, games,
                                                            expected):
    seen = []
    for _ in range(games):
        app = T.make_app((1280, 720), lang)
        app.push(MenuScene(app))
        seats = T.mixed_seats(3, 1, lang)
        for s in seats[1:]:
            s["level"] = "medium"
        app.open("table", game_id="chase", seats=seats, rules={"lives": 1})
        assert T.play_game(app)
        seen = drawn_strings(monkeypatch)
        app.draw()
        monkeypatch.undo()
        monkeypatch.setenv("STAMMTISCH_HOME", str(home))
    lines = [s for s in seen if s.startswith(expected)]
    assert lines, [s for s in seen if "Medium" in s or "Mittel" in s]
    assert not any("in this game" in s or "in diesem Spiel" in s for s in seen)


# ----------------------------------------------------------------- --lang in the settings


def test_the_settings_say_the_language_was_set_on_the_command_line(monkeypatch):
    app = T.make_app((960, 600), "de")
    app.push(MenuScene(app))
    seen = drawn_strings(monkeypatch)
    app.open("settings")
    app.draw()
    assert "Deutsch (festgelegt mit --lang)" in seen
    assert not any("per --lang" in s for s in seen)


# ----------------------------------------------------------------- German rules


def test_german_rules_say_the_last_player_the_same_way():
    de = catalogue("de")
    for key in ("rules.chase", "rules.rams"):
        body = "\n".join(de[key]) if isinstance(de[key], list) else de[key]
        assert "Wer als Letzter noch ein Leben hat" in body, key
    everything = json.dumps(de, ensure_ascii=False)
    assert "als Letztes" not in everything


# ----------------------------------------------------------------- badges and lives


def badge_boxes(monkeypatch) -> list[pygame.Rect]:
    boxes: list[pygame.Rect] = []
    original = painter_mod.TablePainter.hint_badge

    def spy(self, surf, msg, center, max_w, best):
        bh = self.hint_badge_h()
        box = pygame.Rect(0, 0, max_w, bh)
        box.center = center
        boxes.append(box)
        return original(self, surf, msg, center, max_w, best)

    monkeypatch.setattr(painter_mod.TablePainter, "hint_badge", spy)
    return boxes


@pytest.mark.parametrize("size", SIZES)
def test_the_risk_badges_never_cover_the_players_lives(monkeypatch, size):
    app, tb = table_at("rams", size, "de", n=5,
                       until=lambda t_: t_.pending.decision == "trick"
                       and len(t_.pending.legal) > 1)
    tb.toggle_hint()
    assert tb.coach.visible()
    boxes = badge_boxes(monkeypatch)
    plate = tb.table_layout.plate_rect(tb.viewer)
    hand = tb.controls.hand()
    assert hand
    for i in range(len(hand)):           # every card lifted in turn
        tb.controls.focus, tb.controls.hover = i, -1
        boxes.clear()
        app.draw()
        assert boxes
        for box in boxes:
            assert not box.colliderect(plate), (size, i, box, plate)


# ----------------------------------------------------------------- the replay's controls


def finished_record(game_id: str) -> Record:
    """A whole game of ``game_id`` as the statistics keep it."""
    app = T.make_app((1280, 720))
    app.push(MenuScene(app))
    rules = {"lives": 1, "scoring": "lives"} if game_id == "rams" else {"lives": 1}
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(4, 1, "en"),
                   rules=rules, seed=3, options=TableOptions(bot_seed=3))
    app.push(tb)
    play_out(app, tb, seed=1)                  # random moves for the person
    assert tb.game.finished
    return store.game_record(store.recent_games(1)[0].id)


@pytest.mark.parametrize("game_id", ["rams", "chase"])
@pytest.mark.parametrize("size", SIZES)
def test_the_replay_controls_leave_the_hand_free(home, game_id, size):
    rec = finished_record(game_id)
    app = T.make_app(size, "de")
    app.push(MenuScene(app))
    app.push(ReplayScene(app, rec, title="x.json"))
    scene = app.top
    for _ in range(30):
        T.frame(app, 0.1)
        tb = scene.table
        if game_id == "rams" and tb.controls.hand():
            break
    tb = scene.table
    app.draw()
    win = app.screen.get_rect()
    assert win.contains(scene.panel)
    for b in scene.list.buttons:
        assert scene.panel.contains(b.rect), b.name
    g = tb.table_layout.geo
    if game_id == "rams":
        cards = tb.controls.card_rects()
        assert cards
        assert not any(scene.panel.colliderect(r) for r in cards)
    else:
        assert not scene.panel.colliderect(g.hand_panel)
    assert not scene.panel.colliderect(g.log_panel)


@pytest.mark.parametrize("game_id", ["rams", "chase"])
def test_a_replay_says_whose_move_comes_next_not_who_is_thinking(home, monkeypatch, game_id):
    """Nobody decides in a replay: the record plays the moves. Opened at a decision (as
    the review's jump does) it said "You is thinking …" for the seat named You."""
    rec = finished_record(game_id)
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    app.push(ReplayScene(app, rec, title="x.json", at=4))
    seen = drawn_strings(monkeypatch)
    for _ in range(40):
        T.frame(app, 0.1)
        app.draw()
    assert any(s.startswith("Next: ") for s in seen)
    assert not any("thinking" in s for s in seen)


@pytest.mark.parametrize("game_id,size,chosen,best", [
    ("rams", (960, 600), "Aussteigen", "Generalrams"),
    ("rams", (1920, 1080), "Aussteigen", "Generalrams"),
    ("chase", (800, 450), "Tauschen", "Behalten")])
def test_the_replay_heading_of_a_reviewed_decision_wraps_instead_of_being_cut(
        home, game_id, size, chosen, best):
    """The review's jump to a decision names it in the replay's heading; a long one goes
    on in a second row (the panel grows) where it was cut short with "…"."""
    rec = finished_record(game_id)
    app = T.make_app(size, "de")
    app.push(MenuScene(app))
    title = t("review.replay_title", name="Annabelle", round=12, chosen=chosen, best=best)
    app.push(ReplayScene(app, rec, title=title, at=4))
    scene = app.top
    T.frame(app, 0.1)
    with recording(app) as frame:
        app.draw()
    assert not problems(frame, game_id), problems(frame, game_id)
    rows = [r for r in scene.head_lines if r]
    assert len(scene.head_lines) >= 2
    assert " ".join(rows) == t("replay.banner") + ": " + title
    drawn = dict(frame.texts)
    for row in rows:
        assert scene.panel.contains(drawn[row]), row
    assert app.screen.get_rect().contains(scene.panel)


# ----------------------------------------------------------------- unfinished games


def unfinished(humans: int, phones: list[int]) -> shelf.Unfinished:
    seats = [Seat("Anna", "human" if i < humans else "ai", None if i < humans else "easy")
             for i in range(3)]
    rec = Record(game="rams", seats=seats, seed=1)
    return shelf.Unfinished(path=Path("x.json"), record=rec,
                            session={"saved": 1_700_000_000.0, "phones": phones},
                            summary={"round": 2})


@pytest.mark.parametrize("lang,words", [("en", ("solo", "hot-seat", "with phones")),
                                        ("de", ("gegen Computer", "Hot-Seat", "mit Handys"))])
def test_unfinished_games_name_the_kind_of_table_the_players_and_the_date(lang, words):
    i18n.set_lang(lang)
    rows = [describe(unfinished(1, [])), describe(unfinished(2, [])),
            describe(unfinished(2, [1]))]
    for row, word in zip(rows, words):
        assert f" · {word} · " in row, row
        assert "Anna" in row and "2023" in row
    assert len(set(rows)) == 3


# ----------------------------------------------------------------- a phone that is away


def test_an_away_phone_is_waited_for_not_thinking(monkeypatch):
    app = T.make_app((1280, 720))
    seats = [{"name": "Anna", "human": True, "phone": True, "level": "medium"},
             {"name": "Ben", "human": False, "level": "medium"},
             {"name": "Carl", "human": False, "level": "medium"}]
    table = app.open("table", game_id="chase", seats=seats, seed=2,
                     options=TableOptions(phone_bind="127.0.0.1"))
    try:
        table.phones.link.away_after = 1e9         # never ask; just wait
        T.key(app, pygame.K_RETURN)                # close the join panel
        for _ in range(3000):
            T.frame(app)
            if table.thinking_seat == 0 and not table.anim.busy:
                break
        assert table.thinking_seat == 0
        seen = drawn_strings(monkeypatch)
        app.draw()
        assert "Waiting for Anna's phone …" in seen
        assert not any("Anna is thinking" in s for s in seen)
    finally:
        table.exit()


def test_a_connected_phone_decides_on_the_phone():
    flow = SimpleNamespace(source=lambda s: SimpleNamespace(kind="remote"))
    host = SimpleNamespace(thinking_seat=1, names=SimpleNamespace(name=lambda s: "Ben"),
                           flow=flow, phones=SimpleNamespace(
                               sources={1: SimpleNamespace(standing_in=False)},
                               link=SimpleNamespace(connected={1})))
    fake = SimpleNamespace(host=host)
    assert painter_mod.TablePainter.waiting_text(fake) == "Ben decides on the phone …"
    host.phones.link.connected = set()
    host.phones.sources[1].standing_in = True       # a computer plays for the phone
    assert painter_mod.TablePainter.waiting_text(fake) == "Ben is thinking …"


# ----------------------------------------------------------------- lives as steps


def segments_axis_aligned(calls: list) -> int:
    n = 0
    for pts in calls:
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            assert abs(x0 - x1) < 0.5 or abs(y0 - y1) < 0.5, ((x0, y0), (x1, y1))
            n += 1
    return n


def test_the_statistics_draw_lives_as_steps_like_the_end_screen(home, monkeypatch):
    bench_stats.fill(20, distinct=6)
    app = T.make_app((1280, 720))
    app.push(MenuScene(app))
    app.push(StatsScene(app))
    T.frame(app)
    calls: list = []
    lines = pygame.draw.lines

    def spy(surf, col, closed, pts, width=1):
        calls.append([tuple(p) for p in pts])
        return lines(surf, col, closed, pts, width)

    monkeypatch.setattr(pygame.draw, "lines", spy)
    scene = app.top
    last = scene.data.last_lives
    assert last and len(last) >= 2
    scene.draw(app.screen)
    # the lives chart draws one line per seat first; the win-rate curves follow
    n = len(scene.data.last_game.seats)
    lives = calls[:n]
    assert len(lives) == n and all(len(c) == 2 * (len(last) + 1) - 1 for c in lives)
    assert segments_axis_aligned(lives) > 0


def rams_game_in_the_statistics(scoring: str) -> None:
    """One finished Rams game (random moves, round 10 the last) in the statistics."""
    rng = random.Random(5)
    g = RamsGame({"scoring": scoring, "last_round": 10}, 4, seed=5, bot_seed=6)
    g.start()
    while not g.finished:
        p = g.to_move()
        g.apply(p.seat, rng.choice(p.legal))
    seats = [Seat("You", "human")] + [Seat(n, "ai", "easy") for n in ("Anna", "Ben", "Clara")]
    store.record_game(records.record_of(g, seats, seed=5, bot_seed=6), g.summary())


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("scoring", ["counters", "lives"])
def test_the_statistics_chart_of_a_rams_game_names_what_was_counted(home, monkeypatch, lang,
                                                                    scoring):
    """Rams under counters (its default) drew "Lives in the last game" over counters."""
    rams_game_in_the_statistics(scoring)
    app = T.make_app((1280, 720), lang)
    app.push(MenuScene(app))
    app.push(StatsScene(app))
    T.frame(app)
    seen = drawn_strings(monkeypatch)
    app.draw()
    want = {"en": {"counters": "Counters in the last game", "lives": "Lives in the last game"},
            "de": {"counters": "Zähler im letzten Spiel", "lives": "Leben im letzten Spiel"}}
    assert want[lang][scoring] in seen
    other = "lives" if scoring == "counters" else "counters"
    assert want[lang][other] not in seen


@pytest.mark.parametrize("lang,heads", [("en", {"lives": "Lives", "counters": "Counters"}),
                                        ("de", {"lives": "Leben", "counters": "Zähler"})])
@pytest.mark.parametrize("scoring", ["lives", "counters"])
def test_the_reckoning_heads_its_last_column_lives_or_counters(monkeypatch, lang, heads,
                                                               scoring):
    """The round's reckoning: the column of what each seat lost or gained is headed by
    what is counted, as the counters' column always was ("Lives lost" said less)."""
    app = T.make_app((1280, 720), lang, reveal_hold=None)     # the reckoning stays
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="rams", seats=T.mixed_seats(4, 1, lang),
                   rules={"scoring": scoring}, seed=2, options=TableOptions(bot_seed=2))
    app.push(tb)
    rng = random.Random(1)

    def play(p) -> str:
        return "play" if "play" in p.legal else rng.choice(list(p.legal))

    def reckoning(t_) -> bool:             # a round everyone dropped shows no reckoning
        return t_.state == "hold" and not (t_.game.rounds and t_.game.rounds[-1].get("void"))

    assert T.drive(app, reckoning, rng, choose=play)
    T.pump(app, 0.5)
    assert tb.model.summary is not None
    seen = drawn_strings(monkeypatch)
    tb.painter._summary_layer((620, 320), tb.model.summary["rows"], 22, 29)
    assert heads[scoring] in seen
    assert not any(w in s for s in seen for w in ("lost", "verloren"))


# ----------------------------------------------------------------- the end screen


def test_the_end_screen_offers_play_again_first(home):
    app = T.make_app((1280, 720))
    app.push(MenuScene(app))
    app.open("table", game_id="chase", seats=T.mixed_seats(3, 1, "en"), rules={"lives": 1})
    assert T.play_game(app)
    res = app.top
    assert res.list.buttons[res.list.focus].name == "again"
    old = res.table
    T.pump(app, 2.5, draw=False)                   # past the guards against a late key
    T.key(app, pygame.K_RETURN)
    assert app.top.name == "table" and app.top is not old
    assert app.top.seats == old.seats and not app.top.game.finished


def test_a_tap_still_in_the_rhythm_of_the_table_starts_no_new_game(home):
    """Someone out of the game taps Space every 1.5 s through the computers'
    showdowns; the end screen appears between two taps. A tap that lands after its
    first second used to press the focused "Play again" before the results were read;
    a press after a pause still does."""
    app = T.make_app((1280, 720))
    app.push(MenuScene(app))
    app.open("table", game_id="chase", seats=T.mixed_seats(3, 1, "en"), rules={"lives": 1})
    assert T.play_game(app)
    res = app.top
    T.key(app, pygame.K_SPACE)                     # the tap just before the end screen
    for _ in range(4):                             # ... and the rhythm goes on
        T.pump(app, 1.5, draw=False)
        T.key(app, pygame.K_SPACE)
        assert app.top is res
    T.pump(app, 2.5, draw=False)                   # the player stops and reads
    T.key(app, pygame.K_SPACE)
    assert app.top.name == "table" and not app.top.game.finished


# ----------------------------------------------------------------- the hint's choice


@pytest.mark.parametrize("game_id,decision", [("chase", "turn"), ("rams", "trick"),
                                              ("rams", "declare")])
def test_h_selects_the_suggested_move_so_enter_plays_it(game_id, decision):
    app, tb = table_at(game_id, n=4, seed=5,
                       until=lambda t_: t_.pending.decision == decision
                       and len(t_.pending.legal) > 1)
    best = advise(tb.game.view(tb.pending.seat))["move"]
    assert best in tb.pending.legal
    # the keyboard focus starts elsewhere than the coach's choice
    c = tb.controls
    if decision == "trick":
        c.focus = next(i for i, sp in enumerate(c.hand())
                       if c.card_move(sp) in tb.pending.legal and c.card_move(sp) != best)
    else:
        tb.actions.focus = next(i for i, b in enumerate(tb.actions.buttons)
                                if b.name != best)
    T.key(app, pygame.K_h)
    assert tb.coach.visible() and tb.coach.best() == best
    moves_before = len(tb.game.moves)
    T.key(app, pygame.K_RETURN)
    assert len(tb.game.moves) == moves_before + 1
    assert tb.game.moves[-1][1] == best


# ----------------------------------------------------------------- in sight


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_last_trick_is_a_button_where_the_card_is_chosen(lang):
    app, tb = table_at("rams", (960, 600), lang, n=4, seed=2,
                       until=lambda t_: t_.pending.decision == "trick"
                       and t_.model.last_trick is not None)
    button = tb.actions.by_name("last")
    assert button is not None and button.hint == "L"
    assert app.screen.get_rect().contains(button.rect)
    assert not any(button.rect.colliderect(r) for r in tb.controls.card_rects())
    T.click_button(app, button)
    assert tb.controls.show_last
    T.click_button(app, button)
    assert not tb.controls.show_last


@pytest.mark.parametrize("rules,expected", [
    ({}, "Lowest card loses · Ace low"),
    ({"ace_high": True}, "Lowest card loses · the 2 is lowest"),
    ({"deck": "cuckoo40"}, "Lowest card loses · the Fool is lowest")])
def test_the_chase_table_says_the_lowest_card_loses(monkeypatch, rules, expected):
    app = T.make_app((960, 600), "en")
    app.push(MenuScene(app))
    tb = app.scene("table", game_id="chase", seats=T.mixed_seats(4, 1, "en"), rules=rules,
                   seed=2)
    app.push(tb)
    seen = drawn_strings(monkeypatch)
    T.frame(app)
    assert expected in seen


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game_id", ["rams", "chase"])
def test_the_pause_menu_shows_the_keys(monkeypatch, lang, game_id):
    """The keys of this table: Rams' card keys and last trick only at a Rams table
    (a Chase table listed them too), the phones' keys only where phones play."""
    app, tb = table_at(game_id, (960, 600), lang)
    seen = drawn_strings(monkeypatch)
    T.key(app, pygame.K_ESCAPE)
    app.draw()
    assert app.top.name == "pause" and app.top.keys_rect is not None
    assert t("pause.keys") in seen
    lines = app.top.key_lines()
    assert all(x in seen for x in lines)
    assert any(x.startswith({"en": "H: ", "de": "I: "}[lang]) for x in lines)   # Tipp
    assert any(x.startswith("L: ") for x in lines) == (game_id == "rams")
    assert any("1–9" in x for x in lines) == (game_id == "rams")
    assert not any(x.startswith("F2") for x in lines)      # no phones at this table
    monkeypatch.setattr(tb.phone_room, "room", object())   # as if phones played here
    assert tb.phones is not None
    assert any(x.startswith("F2") for x in app.top.key_lines())
    assert app.screen.get_rect().contains(app.top.keys_rect)
    assert not any(app.top.keys_rect.colliderect(b.rect) for b in app.top.list.buttons)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game_id", ["rams", "chase"])
def test_the_demos_pause_menu_shows_only_keys_that_work_there(monkeypatch, lang, game_id):
    """Watching the computers nobody moves, asks the coach, goes on after a reveal or
    fast-forwards: the pause menu listed those keys all the same."""
    from game.i18n import language

    app = T.make_app((960, 600), lang)
    app.push(MenuScene(app))
    app.open("demo", game_id=game_id, players=4, seed=3)
    T.pump(app, 0.5)
    seen = drawn_strings(monkeypatch)
    T.key(app, pygame.K_ESCAPE)
    app.draw()
    assert app.top.name == "pause"
    lines = app.top.key_lines()
    with language(lang):
        menu = t("pause.keys.menu")
    assert lines[0] == menu and menu.startswith("Esc, P")
    if game_id == "rams":
        assert len(lines) == 2 and lines[1].startswith("L: ")
    else:
        assert len(lines) == 1
    assert all(x in seen for x in lines)
