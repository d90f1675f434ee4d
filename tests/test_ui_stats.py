"""Statistics screen, replay viewer and list, export buttons: driven headless by
synthetic events in both languages."""

import random
import re
import sys
from pathlib import Path

import pygame
import pytest

from game import records, store
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.scenes.replay import ReplayScene
from game.scenes.replay_list import ReplayListScene
from game.scenes.stats import StatsScene

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import bench_stats  # noqa: E402


def app_with_menu(lang="en", size=(960, 600)):
    app = T.make_app(size, lang)
    app.push(MenuScene(app))
    T.frame(app)
    return app


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(960, 600), (1920, 1080)])
def test_stats_screen_empty_and_filled(home, lang, size):
    app = app_with_menu(lang, size)
    T.click_button(app, app.top.list.by_name("stats"))
    assert isinstance(app.top, StatsScene)
    T.frame(app)
    assert app.top.list.by_name("replay_last") is None
    T.key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)
    bench_stats.fill(60, distinct=12)
    T.click_button(app, app.top.list.by_name("stats"))
    scene = app.top
    T.frame(app)
    d = scene.data
    assert d.total == 60 and sum(s.games for s in d.by_level) == 60
    assert d.last_lives and d.rate_curve[-1][0] == 60
    # every label fits its place: the table and charts stay inside the window
    w, h = size
    for r in (scene.table_rect, scene.lives_rect, scene.rate_rect):
        assert 0 <= r.left and r.right <= w and r.bottom <= scene.list.buttons[0].rect.top
    T.click_button(app, scene.list.by_name("replay_last"))
    assert isinstance(app.top, ReplayScene) and app.top.error is None


def test_replay_plays_steps_and_ends(home):
    bench_stats.fill(3, distinct=3)
    app = app_with_menu()
    T.click_button(app, app.top.list.by_name("replays"))
    lst = app.top
    assert isinstance(lst, ReplayListScene) and len(lst.rows) == 3
    T.click_button(app, lst.list.buttons[0])
    rp = app.top
    assert isinstance(rp, ReplayScene) and rp.table is not None
    total = len(rp.record.moves)
    # pause, then step one move at a time
    T.click_button(app, rp.list.by_name("play"))
    assert not rp.playing
    T.pump(app, 0.5)
    before = rp.done_moves
    T.click_button(app, rp.list.by_name("step"))
    T.pump(app, 1.0)
    assert rp.done_moves == before + 1 and not rp.playing
    T.key(app, pygame.K_RIGHT)
    T.pump(app, 1.0)
    assert rp.done_moves == before + 2
    # speed cycles, play runs to the end of the record without a results screen
    T.click_button(app, rp.list.by_name("speed"))
    assert rp.speed_i == 2
    T.click_button(app, rp.list.by_name("play"))
    T.pump(app, 20.0, dt=0.1, draw=False)
    assert rp.done_moves == total and rp.finished and app.top is rp
    assert rp.table.game.summary() == records.rebuild(rp.record).summary()
    assert not store.has_autosave()                # replays keep no records
    assert store.summarize().total == 3
    T.click_button(app, rp.list.by_name("restart"))
    assert rp.done_moves == 0
    T.key(app, pygame.K_ESCAPE)
    assert app.top is lst


def test_replay_of_a_game_in_progress_stops_at_its_end(home):
    from tests.test_store import SEATS, play_engine

    g = play_engine(4, moves=15)
    rec = records.record_of(g, SEATS, seed=4, bot_seed=4)
    app = app_with_menu("de")
    app.push(ReplayScene(app, rec, title="x.json"))
    T.pump(app, 10.0, dt=0.1)
    rp = app.top
    assert rp.done_moves == 15 and rp.finished
    assert rp.table.game.summary() == g.summary()



@pytest.mark.parametrize("lang,reason", [("de", "keine Berechtigung"),
                                         ("en", "permission denied")])
def test_a_stored_game_that_cannot_be_read_says_why_in_the_players_language(
        home, monkeypatch, lang, reason):
    """The statistics became unreadable after the list was shown: watching or reviewing
    a game there is a notice with the reason in the player's words (not the OS's
    English), and the list stays."""
    import errno

    bench_stats.fill(1, distinct=1)
    app = app_with_menu(lang)
    T.click_button(app, app.top.list.by_name("replays"))
    lst = app.top
    assert isinstance(lst, ReplayListScene) and len(lst.rows) == 1

    def unreadable(row_id):
        raise PermissionError(errno.EACCES, "Permission denied", "stats.sqlite3")

    monkeypatch.setattr(store, "game_record", unreadable)
    for open_it in (lambda: T.click_button(app, lst.list.buttons[0]),
                    lambda: lst.reviews[0]()):
        app.toast = None
        open_it()
        assert app.top is lst and app.toast is not None
        assert reason.lower() in app.toast[0].lower() and "Errno" not in app.toast[0], app.toast[0]
        T.frame(app)

def test_bad_file_dropped_on_the_menu_is_reported(home, tmp_path):
    app = app_with_menu()
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": 1, "game": "chase", "seats": []')
    app.handle(pygame.event.Event(pygame.DROPFILE, file=str(bad)))
    assert isinstance(app.top, MenuScene)
    assert app.toast is not None and "malformed_json" in app.toast[0]
    from tests.test_store import SEATS, play_engine

    good = tmp_path / "good.json"
    records.save(records.record_of(play_engine(1, moves=5), SEATS, seed=1, bot_seed=1), good)
    app.handle(pygame.event.Event(pygame.DROPFILE, file=str(good)))
    assert isinstance(app.top, ReplayScene)



@pytest.mark.parametrize("lang,said", [
    ("de", "Die Aufzeichnung gone.json lässt sich nicht lesen "
           "(Datei oder Ordner nicht gefunden)."),
    ("en", "The record gone.json cannot be read (No such file or directory)."),
])
def test_a_record_file_that_cannot_be_read_says_why_in_the_players_language(
        home, tmp_path, lang, said):
    """Dropped on the window, or chosen for watching or review in the list: a record
    file that cannot be read names the file and the reason in the player's words,
    not the record contract's English line with the OS's words in it."""
    from game.scenes.files import read_record

    app = app_with_menu(lang)
    gone = tmp_path / "gone.json"
    app.handle(pygame.event.Event(pygame.DROPFILE, file=str(gone)))
    assert isinstance(app.top, MenuScene) and app.toast is not None
    assert app.toast[0].lower() == said.lower(), app.toast[0]
    app.toast = None
    assert read_record(app, gone) is None and app.toast[0].lower() == said.lower()

def test_export_from_pause_and_results(home):
    from game.scenes.table_chase import ChaseTableScene

    app = app_with_menu()
    seats = [{"name": "Du", "human": True, "level": "medium"},
             {"name": "A", "human": False, "level": "easy"},
             {"name": "B", "human": False, "level": "easy"}]
    tb = ChaseTableScene(app, seats, {"lives": 1}, seed=3)
    app.push(tb)
    T.drive(app, lambda t: len(t.game.moves) >= 2, random.Random(1))
    T.key(app, pygame.K_ESCAPE)
    assert app.top.name == "pause"
    T.click_button(app, app.top.list.by_name("export"))
    files = list((home / "saves" / "exports").glob("*.json"))
    assert len(files) == 1 and str(files[0]) in app.toast[0]
    assert records.load(files[0]).moves == tb.game.moves
    T.key(app, pygame.K_ESCAPE)
    assert T.play_game(app)
    T.click_button(app, app.top.list.by_name("export"))
    files = sorted((home / "saves" / "exports").glob("*.json"))
    assert len(files) == 2
    assert any(records.rebuild(records.load(f)).finished for f in files)
    # the replay list offers the exported files too
    app.push(ReplayListScene(app))
    assert sum(1 for b in app.top.list.buttons if b.name.startswith("file_")) == 2
    assert sum(1 for b in app.top.list.buttons if b.name.startswith("game_")) == 1


def test_window_size_is_remembered(home):
    from game import settings

    app = app_with_menu()
    app.set_window_size((1000, 700))
    app.settings.path = home / "settings.json"
    app.save_settings()
    st = settings.load(home / "settings.json")
    assert st["window_size"] == [1000, 700]


@pytest.mark.parametrize("size,words", [((800, 450), 12), ((800, 450), 600),
                                        ((1920, 1080), 100)])
def test_a_record_that_cannot_be_replayed_says_why_in_full_or_visibly_shortened(
        home, monkeypatch, size, words):
    """The message about a record that cannot be replayed grows its panel to the
    window; what still does not fit ends in an ellipsis instead of vanishing, and no
    line lies on the way back."""
    from game.records import RecordError
    from game.scenes import replay
    from tests.screen_check import recording
    from tests.test_store import SEATS, play_engine

    reason = " ".join(f"w{i}" for i in range(words))

    def refuse(_record):
        raise RecordError(reason)

    monkeypatch.setattr(replay, "rebuild_light", refuse)
    rec = records.record_of(play_engine(1, moves=5), SEATS, seed=1, bot_seed=1)
    app = app_with_menu("en", size)
    app.push(ReplayScene(app, rec, title="x.json"))
    with recording(app) as frame:
        app.draw()
    scene = app.top
    assert scene.table is None and scene.error == reason
    shown = [(s, r) for s, r in frame.texts if s.startswith(("This record", "w"))]
    assert shown
    back = scene.back_button.rect
    assert all(r.bottom <= back.top for _, r in shown)
    assert all(r.bottom <= size[1] for _, r in shown)
    said = " ".join(s for s, _ in shown).split()
    whole = f"This record cannot be replayed: {reason}".split()
    if words == 600:                 # more than the window holds: visibly shortened
        assert said[-1].endswith("…") and said[:-1] == whole[:len(said) - 1]
    else:                            # the rest is shown in full
        assert said == whole


def test_after_the_first_game_the_charts_over_time_show_it_plainly(home):
    """One game played and reviewed: each chart over time labels its axis "1" once
    (not "1" at both ends) and shows each player's accuracy as a dot in the player's
    colour (only a dimmed dot at the axis before: the line of means needs two games)."""
    from game.review.history import AccuracyHistory, Line
    from game.scenes.stats import LINE_COLOURS
    from tests.screen_check import recording

    bench_stats.fill(1)
    app = app_with_menu("en", (1280, 800))
    T.click_button(app, app.top.list.by_name("stats"))
    scene = app.top
    scene.accuracy = AccuracyHistory(1, [Line("you", True, None, [(1, 0.36)]),
                                         Line("Anna", False, "medium", [(1, 1.0)])])
    with recording(app) as frame:
        app.draw()
    for rect in (scene.rate_rect, scene.accuracy_rect):
        ones = [r for s, r in frame.texts if s == "1" and rect.contains(r)]
        assert len(ones) == 1, ones
    r = scene.accuracy_rect
    chart = app.screen.subsurface(pygame.Rect(r.left, r.top, r.width, r.height * 2 // 3))
    colours = {tuple(chart.get_at((x, y)))[:3] for x in range(0, chart.get_width(), 2)
               for y in range(chart.get_height())}
    assert LINE_COLOURS[0] in colours and LINE_COLOURS[1] in colours


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(800, 450), (1920, 1080)])
def test_the_last_games_chart_always_numbers_the_last_round(home, monkeypatch, lang, size):
    """The statistics' chart of the last game over 1 to 120 rounds: the round axis
    numbers the last round and 0, and no two numbers touch. It numbered every
    ``rounds // 8``-th round, so 13 rounds ended the axis at 12."""
    from game.scenes import stats

    bench_stats.fill(3, distinct=3)
    app = app_with_menu(lang, size)
    T.click_button(app, app.top.list.by_name("stats"))
    scene = app.top
    T.frame(app)
    n = len(scene.data.last_game.seats)
    blit = stats.text.blit
    numbers: list[tuple[int, pygame.Rect]] = []

    def spy(surf, s, fs, pos, colour, anchor="topleft", *a, **k):
        box = blit(surf, s, fs, pos, colour, anchor, *a, **k)
        if anchor == "midtop" and s.isdigit():          # under the plot: a round
            numbers.append((int(s), box))
        return box

    monkeypatch.setattr(stats.text, "blit", spy)
    rect = scene.lives_rect
    for rounds in range(1, 121):
        scene.data.last_lives = [[max(0, 3 - (r + s) // 40) for s in range(n)]
                                 for r in range(rounds)]
        numbers.clear()
        scene._draw_lives(pygame.Surface(size), rect)
        shown = sorted(numbers)
        assert shown[0][0] == 0 and shown[-1][0] == rounds, (rounds, shown)
        for (a, ra), (b, rb) in zip(shown, shown[1:]):
            assert ra.right < rb.left, (rounds, a, b, ra, rb)
        assert all(rect.contains(r) for _, r in shown), (rounds, shown, rect)


@pytest.mark.parametrize("rows", [0, 3])
def test_the_keyboard_reaches_back_on_the_replays_list(home, rows):
    """Back stood outside the replays list's focus: only Esc left from the keyboard.
    Now the arrows reach it after the games (and wrap round), the focus ring shows
    there, R reviews nothing while it has the focus, and Enter leaves."""
    if rows:
        bench_stats.fill(rows, distinct=rows)
    app = app_with_menu()
    T.click_button(app, app.top.list.by_name("replays"))
    lst = app.top
    assert isinstance(lst, ReplayListScene) and len(lst.rows) == rows
    for _ in range(rows):
        T.key(app, pygame.K_DOWN)
    assert lst.list.focus == rows and lst.list.buttons[rows] is lst.back_button
    T.key(app, pygame.K_r)                      # no game has the focus: nothing opens
    assert app.top is lst
    if rows:
        T.key(app, pygame.K_DOWN)               # round to the first game
        assert lst.list.focus == 0
        T.key(app, pygame.K_UP)
    T.frame(app)
    T.key(app, pygame.K_RETURN)
    assert isinstance(app.top, MenuScene)


@pytest.mark.parametrize("lang,watch", [("en", "W"), ("de", "L")])
def test_the_stats_buttons_show_their_keys_and_they_work(home, lang, watch):
    """*Watch last game* shows its key, a letter of its label (W; German L *Letztes
    Spiel ansehen*), and *Back* shows Esc, as on every other screen; those keys press
    them (the screen had hidden English W and B, in German too)."""
    bench_stats.fill(3, distinct=2)
    app = app_with_menu(lang)
    T.click_button(app, app.top.list.by_name("stats"))
    scene = app.top
    T.frame(app)
    b = scene.list.by_name("replay_last")
    assert b.hint == watch and b.hotkey == pygame.key.key_code(watch.lower())
    assert any(w.startswith(watch) for w in re.findall(r"\w+", b.text().upper())), \
        (lang, b.text())
    assert scene.list.by_name("back").hint == "Esc"
    T.key(app, pygame.K_ESCAPE)
    assert isinstance(app.top, MenuScene)
    T.click_button(app, app.top.list.by_name("stats"))
    T.frame(app)
    T.key(app, pygame.key.key_code(watch.lower()))
    assert app.top.name == "replay"
