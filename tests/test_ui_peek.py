"""The person at the screen of a phone table: the others hold their cards on their
phones but watch the big screen too, so that person's cards lie face down until they
ask -- hold the peek key, or click them (until their move) -- and never show while the
join codes cover the table. Every frame of whole games is checked by an onlooker
(:class:`tests.test_ui_privacy.Onlooker`): the faces drawn and the texts rendered."""

from __future__ import annotations

import random
import time

import pygame

from game.scenes import testing as T
from game.turn import flow
from game.view.keys import move_key
from tests.test_ui_phones import LOOPBACK, Phones, _seats
from tests.test_ui_privacy import Onlooker, act

ME = 1      # the person at the screen; seats 0 and 2 are phones, 3 a computer


class Asking:
    """The test's own account of whether the person asked to see their cards: the
    peek key is down, or they clicked their cards and have not moved since; and
    whether anything covers the table (the join codes)."""

    def __init__(self, table) -> None:
        self.table = table
        self.held = False
        self.clicked_at: int | None = None     # moves made when they clicked

    def may_see(self) -> int | None:
        tb = self.table
        covered = tb.show_phones or tb.away_seat is not None or tb.app.top is not tb
        clicked = self.clicked_at is not None and len(tb.game.moves) == self.clicked_at
        return ME if (self.held or clicked) and not covered else None


def _key(app, key: int, down: bool) -> None:
    kind = pygame.KEYDOWN if down else pygame.KEYUP
    app.handle(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


def _hand_point(table) -> tuple[int, int]:
    """Where the person's own cards lie (the card panel, or the middle of the hand)."""
    table.app.draw()
    if hasattr(table.controls, "card_rects"):
        rects = table.controls.card_rects()
        return rects[len(rects) // 2].center
    return table.table_layout.geo.hand_panel.center


def play_with_phones(game_id: str, rules: dict, seed: int, lang: str) -> dict:
    app = T.make_app((960, 600), lang, speed="fast", think=0.05)
    table = app.open("table", game_id=game_id, seats=_seats(["phone", "human", "phone",
                                                             "medium"]),
                     rules=rules, seed=seed, options=LOOPBACK)
    assert table.humans == [ME] and table.flow.viewer == ME
    asking = Asking(table)
    eye = Onlooker(app, table, may_see=asking.may_see)
    rng = random.Random(seed)
    peek_key = move_key("peek")[0] or pygame.K_c
    seen = {"asked": 0, "blind": 0, "covered_while_held": 0, "private_frames": 0}
    give_up = time.monotonic() + 240
    with Phones(table, [0, 2], seed=seed):
        while time.monotonic() < give_up:
            top = app.top
            if top.name == "results" or table.game.finished and not table.busy():
                break
            assert top.name != "handoff", "a privacy screen at a phone table"
            p = table.pending
            if p is not None and p.seat != ME and table.state == flow.THINKING \
                    and p.seat in (0, 2) and not table.anim.moving and not table.queue:
                time.sleep(0.002)
                T.frame(app)
                continue
            if table.state == flow.HUMAN_TURN and not table.show_phones:
                how = rng.choice(("key", "click", "blind"))
                if how == "key":                 # hold the key, look, let go
                    _key(app, peek_key, True)
                    asking.held = True
                    T.frame(app)
                    if rng.random() < 0.3:       # the join codes come up meanwhile
                        T.key(app, pygame.K_F2)
                        assert table.show_phones
                        T.frame(app)
                        seen["covered_while_held"] += 1
                        T.key(app, pygame.K_RETURN)      # closes them again
                        assert not table.show_phones
                        # covering hid the cards for good: the key must be pressed anew
                        asking.held = False
                        T.frame(app)
                        _key(app, peek_key, False)
                        _key(app, peek_key, True)
                        asking.held = True
                        T.frame(app)
                    _key(app, peek_key, False)
                    asking.held = False
                    T.frame(app)
                    seen["asked"] += 1
                elif how == "click":             # click the cards: they stay until the move
                    T.click(app, _hand_point(table))
                    asking.clicked_at = len(table.game.moves)
                    T.frame(app)
                    seen["asked"] += 1
                else:
                    seen["blind"] += 1
                if table.picks_cards() and table.viewer is None:
                    # a card key or a click on a hidden card shows the hand first
                    moves = len(table.game.moves)
                    asking.clicked_at = moves
                    if how == "key":
                        T.key(app, pygame.K_RETURN)
                    else:
                        T.click(app, _hand_point(table))
                    assert len(table.game.moves) == moves and table.viewer == ME
                    T.frame(app)
                act(app, table, rng.choice(list(table.pending.legal)))
                T.frame(app)
                continue
            T.frame(app)
        else:
            raise AssertionError("the game did not end")
    assert table.game.finished
    seen["private_frames"] = eye.private_frames
    seen["frames"] = eye.frames
    table.exit()
    return seen


def test_a_phone_tables_person_sees_their_card_only_when_asking():
    seen = play_with_phones("chase", {"lives": 2}, seed=4, lang="en")
    assert seen["asked"] > 2 and seen["blind"] > 0, seen
    assert seen["private_frames"] > 0 and seen["covered_while_held"] > 0, seen


def test_a_phone_tables_person_sees_their_hand_only_when_asking():
    seen = play_with_phones("rams", {"scoring": "lives", "lives": 1, "hand_size": 4}, seed=7,
                            lang="de")
    assert seen["asked"] > 2 and seen["blind"] > 0, seen
    assert seen["private_frames"] > 0 and seen["covered_while_held"] > 0, seen


def test_the_join_codes_never_show_a_card_and_peeking_needs_a_new_ask():
    from game.games import new_game

    seed = next(k for k in range(100)       # a deal where the person decides first
                if (g := new_game("chase", None, 3, seed=k)).start() and g.to_move().seat == 0)
    app = T.make_app((960, 600), "en", speed="off")
    table = app.open("table", game_id="chase", seats=_seats(["human", "phone", "medium"]),
                     seed=seed, options=LOOPBACK)
    try:
        for _ in range(100):
            T.frame(app)
            if table.state == flow.HUMAN_TURN:
                break
        assert table.state == flow.HUMAN_TURN and table.show_phones and table.viewer is None     # the codes at first
        _key(app, table.peek.key, True)
        T.frame(app)
        assert table.viewer is None, "a card showed under the join codes"
        _key(app, table.peek.key, False)
        T.key(app, pygame.K_RETURN)                           # close the codes
        assert not table.show_phones and table.viewer is None
        _key(app, table.peek.key, True)
        assert table.viewer == 0
        _key(app, table.peek.key, False)
        assert table.viewer is None
        T.click(app, _hand_point(table))                      # a click keeps them up
        assert table.viewer == 0
        T.frame(app)
        T.key(app, pygame.K_F2)                               # the codes again
        assert table.viewer is None
        T.key(app, pygame.K_RETURN)
        assert table.viewer is None                           # until asked anew
        T.click(app, _hand_point(table))
        assert table.viewer == 0
        assert table.state == flow.HUMAN_TURN, table.state
        act(app, table, table.pending.legal[0])
        assert table.viewer is None                           # the move hides them
    finally:
        table.exit()


def test_a_click_before_the_tables_first_frame():
    """A click can reach a phone table before it is first drawn (a quick double click
    on the button that opens it): the hand it lands on is where the window puts it,
    not an error."""
    for game_id in ("rams", "chase"):
        app = T.make_app((960, 600), "en", speed="off")
        table = app.open("table", game_id=game_id, seats=_seats(["human", "phone", "medium"]),
                         seed=3, options=LOOPBACK)
        try:
            table.show_phones = False              # the codes closed: the hand is there
            w, h = app.size
            for x in range(0, w, 48):
                for y in range(0, h, 48):
                    T.click(app, (x, y))
            assert table.table_layout.ready
        finally:
            table.exit()
