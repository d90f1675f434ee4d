"""Endings and saves: the end-of-game story (rounds, lives over the rounds, who lost
when, the pot, the record against these opponents; a stray Enter never starts a new
game), and unfinished games that stay until the player resumes or discards them,
listed under Continue and never among the record files."""

from __future__ import annotations

import os
import random

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import shelf, store  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402


def finished_table(game_id="chase", rules=None, n=5, seed=3, bot_seed=1):
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(n, 1), rules=rules or {},
                   seed=seed, options=TableOptions(bot_seed=bot_seed))
    app.push(tb)
    assert T.play_to_results(app, tb, random.Random(seed))
    return app, tb, app.top


@pytest.mark.parametrize("game_id,rules,n,seed,sudden", [
    ("chase", {"stake": 5}, 5, 3, False), ("rams", {"counters": 8}, 5, 3, False),
    ("rams", {"scoring": "lives", "drop_limit": 1, "general_rams": False,
              "dealer_must_play": False}, 5, 3, False),
    ("chase", {"lives": 1}, 3, 8, True)],
    ids=["chase", "rams", "rams-as-written", "chase-sudden-death"])
def test_the_story_of_the_game(home, game_id, rules, n, seed, sudden):
    app, tb, res = finished_table(game_id, rules, n, seed)
    st = res.story
    summary = tb.game.summary()
    assert st.rounds == len(summary["rounds"]) and st.rounds >= 1
    counting = tb.game.rules.get("scoring") == "counters"     # Rams: nobody goes out
    start = tb.game.rules["counters"] if counting else tb.game.rules["lives"]
    assert st.start_lives == start and st.lives[0] == [start] * tb.n
    assert st.lives[-1] == list(summary["lives"])
    lost = [0] * tb.n
    for r in st.losses:
        for s, k in r.items():
            lost[s] += k
    assert sum(lost) > 0
    assert bool(st.out_round) != counting
    # the case each game is here for (a sudden death: contenders go out without a loss)
    assert any(e.get("sudden_death") for e in summary["rounds"]) == sudden
    for s, r in st.out_round.items():
        entry = summary["rounds"][r - 1]
        if entry.get("sudden_death"):      # out of a sudden death: its lives went before
            assert s in entry["out"] and s not in st.losses[r - 1] and st.lives[r - 1][s] == 0
        else:                               # the round someone went out in took their last life
            assert s in st.losses[r - 1] and st.lives[r - 1][s] > 0 == st.lives[r][s]
    if game_id == "chase":
        assert st.stake == rules.get("stake", 0) and st.pot == tb.game.pot
    # the people's record against these computers counts this game
    assert st.record is not None and st.record.games == 1
    app.draw()


@pytest.mark.parametrize("lang,nobody", [("en", "Nobody took the penalty."),
                                         ("de", "Niemand hat die Strafe bekommen.")])
def test_who_lost_when_says_nobody_when_nobody_did(home, monkeypatch, english_after, lang,
                                                   nobody):
    """A short Rams game under counters where nobody took the penalty: the heading
    "Who took the penalty when" stood over an empty list."""
    from game import i18n
    from tests.screen_check import drawn_strings

    app, tb, res = finished_table("rams", {"counters": 5}, 3, seed=1)
    assert not any(res.story.losses)          # the case this test is here for
    i18n.set_lang(lang)
    seen = drawn_strings(monkeypatch)
    app.draw()
    assert nobody in seen


def test_play_again_has_the_focus_and_a_stray_enter_waits(home):
    app, tb, res = finished_table()
    assert res.list.buttons[res.list.focus].name == "again"
    T.key(app, pygame.K_RETURN)                 # a stray Enter from the table
    assert app.top is res
    T.pump(app, 1.5)
    T.key(app, pygame.K_RETURN)                 # one more, still in the table's rhythm
    assert app.top is res
    T.pump(app, 2.1)
    T.key(app, pygame.K_RETURN)                 # a deliberate one, after a pause, plays again
    assert app.top.name == "table" and app.top is not tb


def test_a_moves_letter_still_meant_for_the_table_waits_too(home):
    """In German A is "Aussteigen" at the Rams table and "Analyse" on the end screen:
    a player tapping A through the last rounds landed in the review. A letter in the
    table's rhythm waits as Enter and Space do; one after a pause opens the review."""
    from game import i18n

    app, tb, res = finished_table()
    i18n.set_lang("de")
    try:
        T.key(app, pygame.K_a, unicode="a")
        assert app.top is res
        T.pump(app, 1.5)
        T.key(app, pygame.K_a, unicode="a")     # still in the table's rhythm
        assert app.top is res
        T.pump(app, 2.1)
        T.key(app, pygame.K_a, unicode="a")     # after a pause: the review
        assert app.top is not res and app.top.name == "review", app.top.name
    finally:
        i18n.set_lang("en")


def test_a_key_made_by_a_program_without_its_text_is_taken_calmly(home):
    """An event posted by a program may carry no ``unicode``: reading a move's letter
    from it must not stop the window (the end screen's rhythm guard reads it)."""
    app, tb, res = finished_table()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=0))   # no button's
    assert app.top is res


def test_export_toast_leaves_the_title_free(home):
    app, tb, res = finished_table()
    T.pump(app, 1.2)
    T.click_button(app, res.list.by_name("export"))
    assert app.toast is not None
    app.draw()
    title_bottom = int(18 * res.u) + res.title_size
    # the toast sits near the bottom, below the title and the sub line
    assert res.toast_anchor == "bottom" and app.screen.get_height() - 90 * res.u > title_bottom


def _outcome(res) -> tuple:
    st = res.story
    return res.ranking, res.rounds, st.lives, st.losses, st.out_round


@pytest.mark.parametrize("game_id,held", [("chase", False), ("chase", True),
                                          ("rams", False), ("rams", True)])
def test_leaving_a_decided_game_shows_its_results(home, game_id, held):
    """Esc and the way out of a game that is decided -- its last move made and the
    last round still being shown, or its reckoning held on the table -- go to the
    end screen, the same as the game played to its end; M goes on to the main menu.
    The way out went straight to the main menu: the player never saw how it ended."""
    seats = T.mixed_seats(4, 1)

    def table(app):
        tb = app.scene("table", game_id=game_id, seats=[dict(s) for s in seats],
                       rules={}, seed=7, options=TableOptions(bot_seed=2))
        app.push(tb)
        return tb

    app = T.make_app((1280, 720), "en", reveal_hold=None)
    app.push(MenuScene(app))
    assert T.play_to_results(app, table(app), random.Random(7))
    whole = _outcome(app.top)
    app.open("menu", how="reset")
    tb = table(app)
    assert T.drive(app, lambda t: t.game.finished and (t.state == "hold") == held,
                   random.Random(7))
    assert held or tb.queue                      # the end not shown yet
    T.key(app, pygame.K_ESCAPE)
    assert app.top.name == "pause"
    leave = app.top.list.by_name("menu")
    assert leave.text() == "Results (game decided)"
    T.click_button(app, leave)
    res = app.top
    assert res.name == "results" and res.table is tb and _outcome(res) == whole
    app.draw()
    T.key(app, pygame.K_m)
    assert app.top.name == "menu" and len(app.stack) == 1


def test_leaving_an_undecided_game_goes_to_the_main_menu(home):
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    tb = start_game(app, "chase", 6, seed=1)
    T.key(app, pygame.K_ESCAPE)
    leave = app.top.list.by_name("menu")
    assert not tb.decided() and leave.text() == "Main menu (leave game)"
    T.click_button(app, leave)
    assert app.top.name == "menu" and len(app.stack) == 1


def start_game(app, game_id="chase", moves=6, seed=1):
    app.open("table", game_id=game_id, seats=T.mixed_seats(4, 1), rules={}, seed=seed)
    tb = app.top
    assert T.drive(app, lambda t: len(t.game.moves) >= moves, random.Random(seed))
    return tb


def test_a_new_game_keeps_the_unfinished_one(home):
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    first = start_game(app, "chase", 6, seed=1)
    first_moves = list(first.game.moves)
    first_id = first.session.game_id
    app.open("menu", how="reset")
    second = start_game(app, "rams", 4, seed=2)
    assert second.session.game_id != first_id
    left = shelf.unfinished()
    assert [u.record.game for u in left] == ["rams", "chase"]
    assert left[0].current and not left[1].current
    assert left[1].record.moves == first_moves
    # the record files never show a game in progress
    assert all(p.name != store.AUTOSAVE_NAME for p in store.record_files())
    app.open("menu", how="reset")
    menu = app.top
    assert "2 unfinished" in menu.list.by_name("continue").text()
    T.click_button(app, menu.list.by_name("continue"))
    lst = app.top
    assert lst.name == "unfinished" and len(lst.entries) == 2
    T.click_button(app, lst.list.by_name("resume_1"))     # the Chase game again
    tb = T.table_of(app)
    assert tb.game_id == "chase" and tb.game.moves == first_moves
    assert tb.session.game_id == first_id
    left = shelf.unfinished()
    assert [(u.record.game, u.current) for u in left] == [("chase", True), ("rams", False)]


def unfinished_list(app, seeds):
    """The Unfinished games screen after a Chase game per seed, each left after four
    moves for the menu."""
    for seed in seeds:
        start_game(app, "chase", 4, seed=seed)
        app.open("menu", how="reset")
    T.click_button(app, app.top.list.by_name("continue"))
    return app.top


def test_discarding_asks_first(home):
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    lst = unfinished_list(app, (3, 4))
    shelved = [u for u in lst.entries if not u.current][0]
    i = lst.entries.index(shelved)
    T.click_button(app, lst.list.by_name(f"discard_{i}"))
    ask = app.top
    assert ask.name == "confirm" and ask.list.buttons[ask.list.focus].name == "no"
    T.key(app, pygame.K_RETURN)                 # Enter on "Cancel": nothing is lost
    assert app.top is lst and shelved.path.is_file()
    T.click_button(app, lst.list.by_name(f"discard_{i}"))
    T.click_button(app, app.top.list.by_name("yes"))
    assert not shelved.path.exists() and len(shelf.unfinished()) == 1
    assert app.top is lst and len(lst.entries) == 1


def test_delete_discards_the_focused_game_after_asking(home):
    """Delete on a game's row (or on its Discard) asks to discard that game, as the
    README and docs/playing.md say; it used to do nothing (only Shift+Delete did)."""
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    lst = unfinished_list(app, (3, 4, 5))
    assert len(lst.entries) == 3
    T.key(app, pygame.K_DOWN)
    T.key(app, pygame.K_DOWN)                    # the second game's row
    second = lst.entries[1]
    T.key(app, pygame.K_DELETE)
    ask = app.top
    assert ask.name == "confirm" and ask.list.buttons[ask.list.focus].name == "no"
    T.key(app, pygame.K_RETURN)                  # Cancel: nothing is lost
    assert app.top is lst and len(shelf.unfinished()) == 3
    T.key(app, pygame.K_RIGHT)                   # its Discard button
    assert lst.list.buttons[lst.list.focus].name == "discard_1"
    T.key(app, pygame.K_DELETE)
    T.click_button(app, app.top.list.by_name("yes"))
    assert app.top is lst and second.path not in [u.path for u in shelf.unfinished()]
    assert len(lst.entries) == 2


def test_the_focus_reaches_discard_all_and_back(home):
    """Tab and the arrows go through every button as on the other menu screens: the
    games' rows and Discards, then Discard all and Back, and round again. Only
    Shift+Delete and Esc did the bottom buttons' jobs from the keyboard."""
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    lst = unfinished_list(app, (3, 4, 5))

    def focused() -> str:
        return lst.list.buttons[lst.list.focus].name

    seen = []
    for _ in range(len(lst.entries) * 2 + 2):
        T.key(app, pygame.K_TAB)
        seen.append(focused())
    assert seen[-3:] == ["discard_all", "back", "resume_0"], seen
    T.key(app, pygame.K_UP)
    T.key(app, pygame.K_UP)
    assert focused() == "discard_all"
    app.draw()
    T.key(app, pygame.K_DELETE)                  # on no game's row: nothing to discard
    assert app.top is lst
    T.key(app, pygame.K_RETURN)
    assert app.top.name == "confirm" and "3" in app.top.title
    T.key(app, pygame.K_RETURN)                  # Cancel: nothing is lost
    assert app.top is lst and len(shelf.unfinished()) == 3
    T.key(app, pygame.K_DOWN)
    assert focused() == "back"
    T.key(app, pygame.K_RETURN)
    assert app.top.name == "menu"


def test_a_resumed_game_does_not_hold_the_rounds_it_catches_up_on(home):
    """Continue catches up on every saved move at once: the reveals of rounds already
    seen are not held again (the player would have to press a key for each)."""
    app = T.make_app((1280, 720), "en", reveal_hold=None)
    app.push(MenuScene(app))
    tb = start_game(app, "chase", 30, seed=5)
    rounds = len(tb.game.rounds)
    assert rounds >= 2
    app.open("menu", how="reset")
    T.click_button(app, app.top.list.by_name("continue"))
    T.click_button(app, app.top.list.by_name("resume_0"))
    table = T.table_of(app)
    holds = 0
    for _ in range(400):
        T.frame(app, 1 / 30)
        if table.state == "hold" and table.catching_up:
            holds += 1
        if not table.catching_up:
            break
    assert not table.catching_up and holds == 0


def test_discard_all_asks_first_and_names_how_many(home):
    app = T.make_app((1280, 720), "de")
    app.push(MenuScene(app))
    lst = unfinished_list(app, (3, 4, 5))
    assert len(lst.entries) == 3
    T.frame(app)
    assert lst.discard_all_button.rect.width > 0
    assert not lst.discard_all_button.rect.colliderect(lst.back_button.rect)
    T.click_button(app, lst.discard_all_button)
    ask = app.top
    assert ask.name == "confirm" and "3" in ask.title
    T.key(app, pygame.K_RETURN)                 # Enter on "Cancel": nothing is lost
    assert app.top is lst and len(shelf.unfinished()) == 3
    T.key(app, pygame.K_DELETE, mod=pygame.KMOD_SHIFT)
    T.click_button(app, app.top.list.by_name("yes"))
    assert shelf.unfinished() == [] and app.top is not lst


def test_discard_all_is_not_offered_for_one_game(home):
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    lst = unfinished_list(app, (3, 4))
    app.draw()
    where = lst.discard_all_button.rect.center
    T.click_button(app, lst.list.by_name("discard_1"))
    T.click_button(app, app.top.list.by_name("yes"))
    T.frame(app)
    assert len(lst.entries) == 1
    # a click where Discard all was shown does nothing: no question, the game stays
    T.click(app, where)
    T.frame(app)
    assert app.top is lst and len(lst.entries) == 1


def test_a_game_that_cannot_be_discarded_is_told_not_a_crash(home, monkeypatch):
    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    lst = unfinished_list(app, (3, 4, 5))
    stuck = [u for u in lst.entries if not u.current][0].path
    real = shelf.discard

    def discard(entry):
        if entry.path == stuck:
            raise PermissionError(13, "Permission denied", str(stuck))
        real(entry)

    monkeypatch.setattr(shelf, "discard", discard)
    T.click_button(app, lst.discard_all_button)
    T.click_button(app, app.top.list.by_name("yes"))
    assert app.toast is not None and "Permission denied" in str(app.toast)
    assert [u.path for u in shelf.unfinished()] == [stuck]
    assert app.top is lst and len(lst.entries) == 1


def test_players_out_in_the_same_round_share_a_place(home):
    """Two players who lose their last lives in the same showdown are equal: the end
    screen ranked them 2nd and 3rd by the order the table showed them going out (the
    later seat first), while equal scores of players still in already shared one."""
    app, tb, res = finished_table("chase", {"lives": 1}, 4, seed=6)
    out = res.story.out_round
    together = [s for s in out if list(out.values()).count(out[s]) > 1]
    assert len(together) == 2             # the case this test is here for
    place = dict((s, p) for p, s in res.ranking)
    assert place[together[0]] == place[together[1]] == 2
    # the one out before them comes after both: places 1, 2, 2, 4
    assert sorted(p for p, _ in res.ranking) == [1, 2, 2, 4]
    app.draw()
