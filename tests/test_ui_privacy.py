"""Hot-seat privacy, checked at every drawn frame.

Several people share one screen with computer players. Whole games of both games,
in several variants, are played through the scene: the privacy screen's button and
the move buttons are clicked, Rams cards are clicked where they lie. After every
frame the window draws, the card faces the table drew are compared with what an
onlooker may see at that moment:

* cards the engine made public (a King's block, a Queen's refusal, a shown low card,
  the showdown, the first-dealer search, a trump card, tricks), from the events the
  table has shown so far in this round (and the last round's, until the new deal);
* and the private cards of exactly one person: the one who passed the privacy screen
  and is deciding now (nobody else has moved since).

Nothing else may be face up: not after a person's decision, not during the deal,
not while a computer thinks, not before a hand-off. Faces are counted where the
painters fetch them (``CardArt.face``) while the table's painter draws.
"""

from __future__ import annotations

import os
import random
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("STAMMTISCH_HOME", tempfile.mkdtemp(prefix="stammtisch-test-"))

import pytest  # noqa: E402

from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402


def public_cards(ev) -> set[str]:
    """Card codes a public event shows everyone."""
    if ev.to is not None:
        return set()
    d = ev.data
    out = set()
    if isinstance(d.get("card"), str):
        out.add(d["card"])
    cards = d.get("cards")
    if isinstance(cards, dict):
        out.update(c for c in cards.values() if isinstance(c, str))
    elif isinstance(cards, list):
        out.update(c for c in cards if isinstance(c, str))
    return out


class Onlooker:
    """Watches one table: the events it shows, who passed the privacy screen, and
    every card face its painter draws."""

    def __init__(self, app, table) -> None:
        self.app = app
        self.table = table
        self.public: set[str] = set()          # this round's public cards
        self.previous: set[str] = set()        # last round's, until the new deal
        self.confirmed: tuple[int, int] | None = None   # (seat, moves made then)
        self.faces: list[str] = []
        self.frames = 0
        self.private_frames = 0                # frames that showed a decider's cards
        self.painting = False
        show = table.show

        def spy_show(ev) -> None:
            if ev.type == "round_start":
                self.previous, self.public = self.public, set()
            elif ev.type == "deal":
                self.previous = set()
            self.public |= public_cards(ev)
            show(ev)

        table.show = spy_show
        face = app.art.face

        def spy_face(code, *a, **kw):
            if self.painting:
                self.faces.append(code)
            return face(code, *a, **kw)

        app.art.face = spy_face
        paint = table.painter.draw

        def spy_paint(surf) -> None:
            self.painting = True
            try:
                paint(surf)
            finally:
                self.painting = False

        table.painter.draw = spy_paint
        draw = app.draw

        def spy_draw() -> None:
            self.faces = []
            draw()
            self.check()

        app.draw = spy_draw

    def decider_may_see(self) -> int | None:
        """The seat whose private cards may show now, if any."""
        tb, c = self.table, self.confirmed
        if c is None or self.app.top is not tb or tb.state != "human" or tb.pending is None:
            return None
        seat, moves = c
        if tb.pending.seat != seat:
            return None
        if any(s != seat for s, _ in tb.game.moves[moves:]):
            return None
        return seat

    def check(self) -> None:
        self.frames += 1
        allowed = self.public | self.previous
        seat = self.decider_may_see()
        if seat is not None:
            allowed |= set(self.table.game.view(seat)["hand"])
        bad = [c for c in self.faces if c not in allowed]
        assert not bad, (
            f"frame {self.frames}: private cards {bad} face up; state {self.table.state}, "
            f"top {self.app.top.name}, decider allowed: {seat}, moves "
            f"{len(self.table.game.moves)}")
        if seat is not None and set(self.faces) - self.public - self.previous:
            self.private_frames += 1

    def handoff_confirmed(self, seat: int) -> None:
        self.confirmed = (seat, len(self.table.game.moves))


def act(app, tb, move: str) -> None:
    """Play ``move`` as a person would: its button, or the card where it lies."""
    btn = tb.actions.by_name(move)
    if btn is not None:
        T.click_button(app, btn)
        return
    code = move[5:] if move.startswith("take:") else move
    app.draw()                                   # the layout is current
    c = tb.controls
    for i, sp in enumerate(c.hand()):
        if sp.card == code:
            T.click(app, c.card_rects()[i].center)
            return
    raise AssertionError(f"no way to play {move!r}")


def play_hot_seat(game_id: str, n: int, humans: int, rules: dict, seed: int,
                  lang: str = "en") -> Onlooker:
    app = T.make_app((960, 600), lang, speed="fast", think=0.1)
    app.push(MenuScene(app))
    tb = app.scene("table", game_id=game_id, seats=T.mixed_seats(n, humans, lang),
                   rules=rules, seed=seed)
    app.push(tb)
    eye = Onlooker(app, tb)
    rng = random.Random(seed)
    handoffs = 0
    for _ in range(60000):
        top = app.top
        if top.name == "results":
            break
        if top.name == "handoff":
            seat = tb.flow.pending.seat
            T.click_button(app, top.list.buttons[0])
            eye.handoff_confirmed(seat)
            handoffs += 1
            continue
        if top is tb and tb.state == "human":
            act(app, tb, rng.choice(list(tb.pending.legal)))
            continue
        T.frame(app, 1 / 20)
    else:
        raise AssertionError("the game did not finish")
    assert handoffs > humans, handoffs
    assert eye.private_frames > 0, "no person ever saw their own cards"
    return eye


CHASE = [
    (4, 2, {"lives": 2}, 1),
    (5, 3, {"lives": 2, "queen_refuses_once": True, "reveal_low_on_pass": True,
            "domino": "low"}, 2),
    (6, 4, {"lives": 2, "deck": "cuckoo40", "blocked_swap_skips": True}, 3),
    (6, 5, {"lives": 2, "deck_policy": "continue", "stake": 5, "talon_king_blocks": True}, 4),
    (3, 2, {"lives": 2, "ace_high": True, "dealer_wins_ties": True,
            "final_tie": "sudden_death"}, 5),
]

RAMS = [
    (4, 2, {"lives": 2}, 1),
    (5, 3, {"lives": 2, "dealer_takes_trump": True}, 2),
    (6, 5, {"lives": 1, "must_trump": True, "must_beat": True}, 3),
    (3, 2, {"lives": 2, "hand_size": 3, "lone_needs_one": True,
            "dealer_takes_trump": True}, 4),
]


@pytest.mark.parametrize("n,humans,rules,seed", CHASE)
def test_chase_hot_seat_shows_only_the_deciders_card(n, humans, rules, seed):
    play_hot_seat("chase", n, humans, rules, seed, lang="de" if seed % 2 else "en")


@pytest.mark.parametrize("n,humans,rules,seed", RAMS)
def test_rams_hot_seat_shows_only_the_deciders_hand(n, humans, rules, seed):
    play_hot_seat("rams", n, humans, rules, seed, lang="en" if seed % 2 else "de")
