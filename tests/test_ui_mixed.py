"""A mixed table: two or more people at the screen, phones and computers together.

The people at the screen pass the privacy screen between them (hot-seat), and since
the phones' players watch the big screen too, the person who passed it still sees
their cards only when they ask (the peek key, a click: ``game.table.peek``). Whole
games of both games are played through the real channels and checked:

* every frame the window draws (:class:`tests.test_ui_privacy.Onlooker`: the card
  faces fetched, the texts rendered) shows public cards and at most the cards of the
  person who passed the privacy screen for this turn, is deciding now and asked to see
  them -- never while a phone's or a computer's turn is shown, never the cards of the
  other person at the screen, never under the join codes;
* every message the phones' server wrote (``PhoneServer.on_sent``) carries only its
  seat's own view (:func:`tests.phone_helpers.check_no_leaks`);
* the privacy screen never hides the join codes (it waits until they are closed),
  the rounds' reveals and reckonings go on to the next deal, and a game continued
  from its autosave is a mixed table again, with new codes for the phones.
"""

from __future__ import annotations

import random
import time

import pygame

from game.rules.rams import AS_WRITTEN
from game.scenes import testing as T
from game.scenes.menu import MenuScene
from game.turn import flow
from tests.phone_helpers import Sent, check_no_leaks
from tests.test_ui_peek import _hand_point, _key
from tests.test_ui_phones import LOOPBACK, Phones, _seats
from tests.test_ui_privacy import Onlooker, act


class Asking:
    """The test's own account of the person at the screen: the peek key is down, or
    they clicked their cards and nobody moved since; nothing covers the table."""

    def __init__(self, table) -> None:
        self.table = table
        self.held = False
        self.clicked_at: int | None = None

    def asked(self) -> bool:
        tb = self.table
        covered = tb.show_phones or tb.away_seat is not None or tb.app.top is not tb
        clicked = self.clicked_at is not None and len(tb.game.moves) == self.clicked_at
        return (self.held or clicked) and not covered


def _watch(app, table) -> tuple[Onlooker, Asking, Sent]:
    """An onlooker for the frames (the privacy screen's rule and the asking), and a tap
    on everything the phones' server writes."""
    asking = Asking(table)
    eye: Onlooker

    def may_see() -> int | None:
        seat = eye.decider_may_see()
        return seat if seat is not None and asking.asked() else None

    eye = Onlooker(app, table, may_see=may_see)
    sent = Sent()
    table.phones.server.on_sent = sent
    return eye, asking, sent


def _decide(app, table, asking: Asking, rng: random.Random, seen: dict) -> None:
    """The person at the screen looks (or not) and decides, as test_ui_peek's do."""
    seat = table.pending.seat
    how = rng.choice(("key", "click", "blind"))
    if how == "key":
        _key(app, table.peek.key, True)
        asking.held = True
        T.frame(app)
        assert table.viewer == seat
        if rng.random() < 0.4:                  # the join codes come up meanwhile
            T.key(app, pygame.K_F2)
            assert table.show_phones and table.viewer is None
            T.frame(app)                        # (all phones in at last: they close)
            if table.show_phones:
                T.key(app, pygame.K_RETURN)
            asking.held = False                 # covering hid them until asked anew
            T.frame(app)
            seen["codes"] += 1
        _key(app, table.peek.key, False)
        asking.held = False
        T.frame(app)
    elif how == "click":
        T.click(app, _hand_point(table))
        asking.clicked_at = len(table.game.moves)
        assert table.viewer == seat
        T.frame(app)
    if table.picks_cards() and table.viewer is None:
        moves = len(table.game.moves)           # a hidden card is shown before chosen
        asking.clicked_at = moves
        T.click(app, _hand_point(table))
        assert len(table.game.moves) == moves and table.viewer == seat
        T.frame(app)
    seen["blind" if how == "blind" and table.viewer is None else "asked"] += 1
    act(app, table, rng.choice(list(table.pending.legal)))
    assert table.viewer is None                 # decided: face down again


def _play(app, table, phones: list[int], rng: random.Random, seen: dict,
          stop_at: int | None = None) -> tuple | None:
    """Play on until the end (or ``stop_at`` moves: then the table closes and the
    game's record and session are returned for Continue): the privacy screen is passed, the
    people decide, the phones' players (another thread) decide on their phones."""
    eye, asking, sent = _watch(app, table)
    # the join codes at any moment: a dice of its own, so that how many frames the
    # phones' thread takes leaves the people's choices as they are
    dice = random.Random(rng.random())
    give_up = time.monotonic() + 240
    try:
        with Phones(table, phones, seed=rng.randrange(1000)):
            while time.monotonic() < give_up:
                top = app.top
                if top.name == "results" or table.game.finished and not table.busy():
                    break
                if stop_at is not None and len(table.game.moves) >= stop_at \
                        and top is table:
                    saved = table.session.record(), table.session.session_data()
                    table.exit()                # the phones hear the table close
                    return saved
                if top.name == "handoff":
                    assert not table.show_phones     # it never hides the join codes
                    seat = table.pending.seat
                    assert seat in table.humans and table.viewer is None
                    T.click_button(app, top.list.buttons[0])
                    eye.handoff_confirmed(seat)
                    seen["handoffs"] += 1
                    # past the privacy screen, the cards still wait to be asked for
                    assert table.flow.viewer == seat and table.viewer is None
                    T.frame(app)
                    continue
                if top is table and table.state == flow.HUMAN_TURN \
                        and not table.show_phones:
                    _decide(app, table, asking, rng, seen)
                    T.frame(app)
                    continue
                if top is table and not table.show_phones and dice.random() < 0.03:
                    T.key(app, pygame.K_F2)     # the codes at any moment (a phone lost)
                    assert table.show_phones
                if top is table and table.show_phones and (
                        table.state == flow.HANDOFF or dice.random() < 0.1):
                    # a privacy screen due meanwhile waited for the codes to close
                    seen["waited"] += table.state == flow.HANDOFF
                    T.key(app, pygame.K_RETURN)
                    assert not table.show_phones
                p = table.pending
                if p is not None and p.seat in phones and table.state == flow.THINKING:
                    time.sleep(0.002)           # a phone (another thread) decides
                T.frame(app, 1 / 6)
            else:
                raise AssertionError("the game did not end")
        return None
    finally:
        seen["frames"] += eye.frames
        seen["private_frames"] += eye.private_frames
        seen["sent"].append(sent)


def play_mixed(game_id: str, kinds: list[str], rules: dict, seed: int, lang: str,
               resume_at: int | None = None) -> dict:
    """One whole game at a mixed table, every frame and every phone message checked;
    with ``resume_at``, the window closes after that many moves and the game goes on
    from its autosave in a new window (Continue), with new phones."""
    phones = [i for i, k in enumerate(kinds) if k == "phone"]
    people = [i for i, k in enumerate(kinds) if k == "human"]
    seen = {"handoffs": 0, "asked": 0, "blind": 0, "codes": 0, "waited": 0,
            "frames": 0, "private_frames": 0, "sent": []}
    app = T.make_app((960, 600), lang, speed="fast", think=0.05)
    app.push(MenuScene(app))
    table = app.open("table", game_id=game_id, seats=_seats(kinds), rules=rules, seed=seed,
                     options=LOOPBACK)
    assert table.humans == people and table.phones is not None and table.peek.guarded
    rng = random.Random(seed)
    stopped = _play(app, table, phones, rng, seen, stop_at=resume_at)
    if resume_at is not None:
        assert stopped is not None
        record, saved = stopped
        app = T.make_app((960, 600), lang, speed="fast", think=0.05)
        app.push(MenuScene(app))
        table = app.scene("continue", record=record, saved=saved)
        app.push(table)
        assert table.humans == people and sorted(table.phones.sources) == phones
        _play(app, table, phones, rng, seen)
    assert table.game.finished
    record = table.session.record()
    seen["messages"] = sum(check_no_leaks(record, s.all()) for s in seen["sent"])
    seen["rounds"] = len(table.game.rounds)
    movers = {s for s, _ in table.game.moves}
    assert set(phones) <= movers and set(people) <= movers, movers
    table.exit()
    return seen


def _games(game_id: str, kinds: list[str], rules: dict, seeds: range, lang: str,
           resume_at: int | None = None) -> dict:
    """Whole games of several seeds (each in the other language than the one before),
    their counts added up; what they went through is checked."""
    total: dict = {}
    for k, seed in enumerate(seeds):
        seen = play_mixed(game_id, kinds, rules, seed, lang if k % 2 else
                          {"en": "de", "de": "en"}[lang], resume_at=resume_at)
        for key, v in seen.items():
            if key != "sent":
                total[key] = total.get(key, 0) + v
    assert total["handoffs"] >= 2 * len(seeds) and total["asked"] > len(seeds), total
    assert total["private_frames"] > len(seeds) and total["codes"] > 0, total
    assert total["waited"] > 0, total
    assert total["messages"] > 20 * len(seeds) and total["rounds"] >= 2 * len(seeds), total
    return total


def test_chase_with_two_people_at_the_screen_and_a_phone():
    seen = _games("chase", ["human", "phone", "human", "medium"], {"lives": 2},
                  range(11, 15), "en")
    assert seen["blind"] > 0, seen


def test_chase_with_three_people_two_phones_resumed():
    _games("chase", ["phone", "human", "easy", "human", "phone", "human"],
           {"lives": 1, "domino": "low", "reveal_low_on_pass": True}, range(21, 24), "de",
           resume_at=7)


def test_rams_with_two_people_at_the_screen_and_a_phone():
    seen = _games("rams", ["human", "medium", "phone", "human"],
                  {**AS_WRITTEN, "lives": 1, "hand_size": 3}, range(31, 35), "de")
    assert seen["blind"] > 0, seen            # a declaration made without looking


def test_rams_with_two_people_two_phones_resumed():
    _games("rams", ["phone", "human", "phone", "human", "easy"],
           {"counters": 4, "last_round": 10, "hand_size": 3,
            "dealer_takes_trump": True}, range(41, 44), "en",
           resume_at=9)


def test_the_privacy_screen_waits_until_the_join_codes_are_closed():
    """The first decision is a person's at the screen while the phones' players are
    still scanning their codes: the codes stay up (the privacy screen used to cover
    them at once, and with them the Phones button); closing them brings the privacy
    screen, and the cards wait for it."""
    from game.games import new_game

    for game_id in ("chase", "rams"):
        seed = next(k for k in range(200) if (g := new_game(game_id, None, 4, seed=k))
                    .start() and g.to_move().seat in (0, 2))
        app = T.make_app((960, 600), "en", speed="off")
        table = app.open("table", game_id=game_id,
                         seats=_seats(["human", "phone", "human", "medium"]), seed=seed,
                         options=LOOPBACK)
        try:
            for _ in range(200):
                T.frame(app)
            seat = table.pending.seat
            assert table.state == flow.HANDOFF and seat in (0, 2)
            assert app.top is table and table.show_phones, app.top.name
            assert table.viewer is None
            T.key(app, pygame.K_RETURN)              # the codes closed: on to the person
            T.frame(app)
            assert app.top.name == "handoff" and app.top.player == f"P{seat}"
            T.click_button(app, app.top.list.buttons[0])
            assert table.state == flow.HUMAN_TURN and table.viewer is None
        finally:
            table.exit()


def test_the_privacy_screen_of_a_mixed_table_says_the_cards_wait(monkeypatch):
    """Past the privacy screen of a mixed table the cards still lie face down until
    asked for: its button promised "show my card" and its note "only P0 should look"
    (the phones' players look at the screen too). It says how to see them instead, in
    both languages; the privacy screen of a table without phones is unchanged."""
    from game.scenes.handoff import HandoffScene
    from tests.screen_check import drawn_strings

    for lang, note, button in (("en", "until you click them or hold C", "I am P0: my turn"),
                               ("de", "bis du sie anklickst oder K gedrückt hältst",
                                "Ich bin P0: mein Zug")):
        app = T.make_app((960, 600), lang)
        for peek in (True, False):
            app.push(HandoffScene(app, "P0", lambda: None, peek=peek))
            drawn = drawn_strings(monkeypatch)
            app.draw()
            said = "\n".join(drawn)
            assert (note in said and button in said) is peek, said
            app.pop()
