"""Hot-seat privacy, checked at every drawn frame.

Several people share one screen with computer players. Whole games of both games,
in several variants and twenty more of each with three people at the screen (with
resumes from the autosave and fast-forward), are played through the scene: the
privacy screen's button and the move buttons are clicked, Rams cards are clicked
where they lie. After every frame the window draws, the card faces it fetched
(``CardArt.face``) and the texts it rendered (``text.render``) are compared with what
an onlooker may see at that moment:

* cards the engine made public (a King's block, a Queen's refusal, a shown low card,
  the showdown, the first-dealer search, a trump card, tricks), from the events the
  table has shown so far in this round (and the last round's, until the new deal);
  a text may also name a card shown in public earlier in the game (the log keeps it);
* and the private cards of exactly one person: the one who passed the privacy screen
  for this turn and is deciding now -- nobody else has moved since, and nothing the
  whole table watches (a trick swept, a showdown, a reckoning, a new deal) happened
  since.

Nothing else may be face up or named: not after a person's decision, not during the
deal, not while a computer thinks, not before a hand-off, not when the same person
acts first after a trick or a round. No text shows a seed either.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest  # noqa: E402

from game import records  # noqa: E402
from game.cards import CUCKOO_VALUES  # noqa: E402
from game.i18n import card_name  # noqa: E402
from game.rules.base import seat_seed  # noqa: E402
from game.rules.rams import AS_WRITTEN  # noqa: E402
from game.scenes import testing as T  # noqa: E402
from game.scenes.menu import MenuScene  # noqa: E402
from game.turn.options import TableOptions  # noqa: E402
from game.view import text as text_mod  # noqa: E402
from tests.screen_check import drawn_strings  # noqa: E402

#: What the whole table watches (the test's own list, not the flow's): a trick swept, a
#: showdown, a round reckoned or void, a new deal. After one of these a person's cards
#: wait for a new pass of the privacy screen, even if nobody else moved.
WATCHED = {"trick", "showdown", "lose_life", "void_round", "round_start"}


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


def known_to(view: dict) -> set[str]:
    """The cards a seat's own view tells it of: its hand and its private events (what
    it was dealt, swapped, drew, laid down)."""
    out = set(view["hand"])
    for e in view.get("private", []):
        for k in ("card", "gave", "got"):
            if isinstance(e.get(k), str):
                out.add(e[k])
        out.update(c for c in e.get("cards", []) if isinstance(c, str))
    return out


class Onlooker:
    """Watches one table as anybody in the room would: the events it shows, who passed
    the privacy screen, and every frame the window draws -- each card face fetched
    (``CardArt.face``) and each text rendered (``text.render``) while it draws."""

    def __init__(self, app, table, may_see=None) -> None:
        self.app = app
        self.table = table
        #: whose private cards may show now (default: the hot-seat rule below)
        self.may_see = may_see or self.decider_may_see
        self.public: set[str] = set()          # this round's public cards
        self.previous: set[str] = set()        # last round's, until the new deal
        self.ever_public: set[str] = set()     # named in public this game (the log keeps it)
        self.confirmed: tuple[int, int] | None = None   # (seat, moves made then)
        self.watched = False                   # the table watched something since then
        self.faces: list[str] = []
        self.texts: list[str] = []
        self.frames = 0
        self.private_frames = 0                # frames that showed a decider's cards
        self.texts_checked = 0
        self.drawing = False
        # card names to look for in texts ("Queen of Hearts", "Herz-Dame"); the cuckoo
        # deck's ("7", "Cat") are words of any text and are checked as faces only
        self.names = {c: card_name(c) for c in set(table.game.deck)
                      if c not in CUCKOO_VALUES}
        # the game's seeds: the screen never shows one (nothing to brute-force from)
        g = table.game
        self.seeds = {str(x) for x in (g.seed, g.bot_seed,
                                       *(seat_seed(g.bot_seed, k) for k in range(g.n_seats)))
                      if isinstance(x, int) and x >= 10**6}
        show = table.show

        def spy_show(ev) -> None:
            if ev.type == "round_start":
                self.previous, self.public = self.public, set()
            elif ev.type == "deal":
                self.previous = set()
            if ev.type in WATCHED:
                self.watched = True
            cards = public_cards(ev)
            self.public |= cards
            self.ever_public |= cards
            show(ev)

        table.show = spy_show
        face = app.art.face

        def spy_face(code, *a, **kw):
            if self.drawing:
                self.faces.append(code)
            return face(code, *a, **kw)

        app.art.face = spy_face
        prepare = app.art.prepare

        def spy_prepare(*a, **kw):              # scaling faces ahead is not showing them
            was, self.drawing = self.drawing, False
            try:
                prepare(*a, **kw)
            finally:
                self.drawing = was

        app.art.prepare = spy_prepare
        draw = app.draw

        def spy_draw() -> None:
            self.faces, self.texts = [], []
            self.drawing = True
            render = text_mod.render

            def spy_render(msg, *a, **kw):
                self.texts.append(msg)
                return render(msg, *a, **kw)

            text_mod.render = spy_render
            try:
                draw()
            finally:
                text_mod.render = render
                self.drawing = False
            self.check()

        app.draw = spy_draw

    def decider_may_see(self) -> int | None:
        """The seat whose private cards may show now, if any: the person deciding, who
        passed the privacy screen for this turn (nobody else moved since, nothing the
        table watches happened since)."""
        tb, c = self.table, self.confirmed
        if c is None or self.app.top is not tb or tb.state != "human" or tb.pending is None:
            return None
        seat, moves = c
        if tb.pending.seat != seat or self.watched:
            return None
        if any(s != seat for s, _ in tb.game.moves[moves:]):
            return None
        return seat

    def check(self) -> None:
        self.frames += 1
        if self.app.top is not None and self.app.top.name == "results":
            return                               # the game is over: nothing is secret
        allowed = self.public | self.previous
        seat = self.may_see()
        mine: set[str] = set()
        if seat is not None:
            mine = known_to(self.table.game.view(seat))
        bad = [c for c in self.faces if c not in allowed | mine]
        assert not bad, (
            f"frame {self.frames}: private cards {bad} face up; state {self.table.state}, "
            f"top {self.app.top.name}, decider allowed: {seat}, moves "
            f"{len(self.table.game.moves)}")
        # a text may name a card shown in public earlier (the log keeps it), or the
        # decider's own; no other card
        said = "\n".join(self.texts)
        named = [c for c, name in self.names.items() if name in said
                 and c not in self.ever_public | mine]
        assert not named, (f"frame {self.frames}: a text names hidden cards {named}; "
                           f"state {self.table.state}, decider allowed: {seat}")
        assert not [x for x in self.seeds if x in said], f"frame {self.frames}: a seed"
        self.texts_checked += len(self.texts)
        if seat is not None and set(self.faces) - allowed:
            self.private_frames += 1

    def handoff_confirmed(self, seat: int) -> None:
        self.confirmed = (seat, len(self.table.game.moves))
        self.watched = False


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


@dataclass
class Seen:
    """What whole games at the screen went through (the checks must have met it)."""

    games: int = 0
    frames: int = 0
    private_frames: int = 0
    handoffs: int = 0
    rounds: int = 0                  # round ends (a new deal after a reckoning)
    losses: int = 0                  # lives lost (reckonings)
    tricks: int = 0                  # trick sweeps
    twice: int = 0                   # the same person deciding twice in a row
    resumed: int = 0                 # games continued from their autosave
    fast: int = 0                    # frames drawn while fast-forwarding
    texts: int = 0

    def add(self, eye: Onlooker) -> None:
        self.frames += eye.frames
        self.private_frames += eye.private_frames
        self.texts += eye.texts_checked


def _count_events(seen: Seen, game) -> None:
    twin = records.rebuild(records.record_of(game, [records.Seat(f"P{i}")
                                                    for i in range(game.n_seats)],
                                             seed=game.seed, bot_seed=game.bot_seed))
    assert twin.summary() == game.summary()
    for rnd in game.history:
        seen.tricks += sum(1 for e in rnd if e.get("type") == "trick")
    seen.rounds += max(0, len(game.history) - 1)
    # lives lost, or counters added as a penalty (a trick shed under counters is not one)
    seen.losses += sum(sum(v for v in r.get("lost", {}).values() if v > 0)
                       for r in game.rounds)


def play_hot_seat(game_id: str, n: int, humans: int, rules: dict, seed: int,
                  lang: str = "en", *, bot_seed: int | None = None,
                  resume_at: int | None = None, fast: bool = False,
                  seen: Seen | None = None, dt: float = 1 / 20,
                  levels: tuple[str, ...] | None = None) -> Onlooker:
    """One whole game with ``humans`` people at the screen, every frame checked. With
    ``resume_at``, the window closes after that many moves and the game goes on from
    its autosave in a new window (Continue); with ``fast`` the people fast-forward the
    computers whenever the table offers it."""
    app = T.make_app((960, 600), lang, speed="fast", think=0.1)
    app.push(MenuScene(app))
    seats = T.mixed_seats(n, humans, lang)
    for i, level in zip(range(humans, n), levels or ()):   # the computers' levels
        seats[i]["level"] = level
    tb = app.scene("table", game_id=game_id, seats=seats, rules=rules, seed=seed,
                   options=TableOptions(bot_seed=bot_seed))
    app.push(tb)
    eye = Onlooker(app, tb)
    rng = random.Random(seed)
    handoffs = 0
    for _ in range(60000):
        top = app.top
        if top.name == "results":
            break
        if resume_at is not None and len(tb.game.moves) >= resume_at and tb.state in (
                "human", "handoff", "thinking"):
            resume_at = None
            record, saved = tb.session.record(), tb.session.session_data()
            if seen is not None:
                seen.add(eye)
                seen.resumed += 1
            tb.exit()
            app = T.make_app((960, 600), lang, speed="fast", think=0.1)
            app.push(MenuScene(app))
            tb = app.scene("continue", record=record, saved=saved)
            app.push(tb)
            eye = Onlooker(app, tb)
            continue
        if top.name == "handoff":
            seat = tb.flow.pending.seat
            if seen is not None and tb.game.moves and tb.game.moves[-1][0] == seat:
                seen.twice += 1
            T.click_button(app, top.list.buttons[0])
            eye.handoff_confirmed(seat)
            handoffs += 1
            continue
        if top is tb and tb.state == "human":
            if seen is not None and tb.game.moves and tb.game.moves[-1][0] == \
                    tb.pending.seat:
                seen.twice += 1
            act(app, tb, rng.choice(list(tb.pending.legal)))
            continue
        if fast and top is tb and tb.skip_allowed() and not tb.skipping and \
                rng.random() < 0.3:
            T.key(app, tb.fast_button.hotkey)        # the fast-forward key
            assert tb.skipping
        if seen is not None and tb.skipping:
            seen.fast += 1
        T.frame(app, dt)
    else:
        raise AssertionError("the game did not finish")
    assert tb.game.finished
    assert handoffs >= humans, handoffs
    assert eye.private_frames > 0, "no person ever saw their own cards"
    if seen is not None:
        seen.add(eye)
        seen.games += 1
        seen.handoffs += handoffs
        _count_events(seen, tb.game)
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

RAMS = [      # Rams as written with few lives, and the pub's pace with few counters
    (4, 2, {**AS_WRITTEN, "lives": 2}, 1),
    (5, 3, {**AS_WRITTEN, "lives": 2, "dealer_takes_trump": True}, 2),
    (6, 5, {**AS_WRITTEN, "lives": 1, "must_trump": True, "must_beat": True}, 3),
    (3, 2, {**AS_WRITTEN, "lives": 2, "hand_size": 3, "lone_needs_one": True,
            "dealer_takes_trump": True}, 4),
    (4, 3, {"counters": 4}, 5),
]


@pytest.mark.parametrize("n,humans,rules,seed", CHASE)
def test_chase_hot_seat_shows_only_the_deciders_card(n, humans, rules, seed):
    play_hot_seat("chase", n, humans, rules, seed, lang="de" if seed % 2 else "en")


@pytest.mark.parametrize("n,humans,rules,seed", RAMS)
def test_rams_hot_seat_shows_only_the_deciders_hand(n, humans, rules, seed):
    play_hot_seat("rams", n, humans, rules, seed, lang="en" if seed % 2 else "de")


# ----------------------------------------------------------------- twenty whole games

def _sweep(game_id: str, rules_of, games: int = 20) -> Seen:
    """``games`` whole games with three people and a computer (or two) at the screen;
    every fourth goes on from its autosave after some moves, every third has the
    people fast-forward the computers; both languages. Frames come at 6 per second of
    the table's time (every animation still draws a frame or more; the variants above
    draw 20), and the computers play quick levels, so the twenty games take seconds."""
    seen = Seen()
    pick = random.Random(game_id)
    for k in range(games):
        n = 4 if k % 4 else 5
        play_hot_seat(game_id, n, 3, rules_of(k), seed=pick.getrandbits(64),
                      bot_seed=pick.getrandbits(64), lang=("en", "de")[k % 2],
                      resume_at=4 + k // 4 if k % 4 == 1 else None, fast=k % 3 == 0, seen=seen,
                      dt=1 / 6, levels=("easy", "medium"))
    return seen


def test_twenty_chase_games_with_three_people_at_the_screen():
    def rules(k: int) -> dict:
        r: dict = {"lives": 1 + k % 2}
        if k % 2:
            r["domino"] = "low"              # a person asked twice within one turn
        if k % 5 == 2:
            r.update(queen_refuses_once=True, reveal_low_on_pass=True)
        return r

    seen = _sweep("chase", rules)
    assert seen.games == 20 and seen.resumed == 5
    assert seen.rounds > 40 and seen.losses > 40, seen
    assert seen.twice > 0 and seen.fast > 0 and seen.private_frames > 100, seen


def test_twenty_rams_games_with_three_people_at_the_screen():
    def rules(k: int) -> dict:
        # every other game Rams as written with few lives, else counters (the default)
        # to round ten (random play seldom sheds every counter before the last round)
        r: dict = {**AS_WRITTEN, "lives": 1 + k % 4 // 2} if k % 2 == 0 else \
            {"counters": 3 + k % 3, "last_round": 10}
        r["hand_size"] = 3 + k % 3
        if k % 3 == 1:
            r["dealer_takes_trump"] = True
        return r

    seen = _sweep("rams", rules)
    assert seen.games == 20 and seen.resumed == 5
    assert seen.rounds > 20 and seen.losses > 20 and seen.tricks > 100, seen
    assert seen.twice > 0 and seen.fast > 0 and seen.private_frames > 100, seen


# ----------------------------------------------------------------- the screen's words

def test_privacy_screen_names_the_person_in_the_language_chosen_behind_it(monkeypatch):
    """A language chosen in the settings while the privacy screen waits (Esc opens the
    menu over it) shows on that screen at once: "Player 1" of an English start reads
    "Spieler 1" in German. The screen kept the name it was opened with."""
    from game.settings import default_setup
    from game.turn.seats import seats_from_setup

    app = T.make_app((1280, 720), "en")
    app.push(MenuScene(app))
    setup = default_setup()
    setup["players"] = 3
    for i in range(3):
        setup["seats"][i].update(human=i < 2, name="", level="easy")
    seats = seats_from_setup(setup, "en")
    app.push(app.scene("table", game_id="rams", seats=seats, rules={}, seed=3,
                       options=TableOptions(bot_seed=3)))
    rng = random.Random(3)
    for _ in range(5000):
        top = app.top
        if top.name == "handoff" and top.player == "Player 1":
            break
        if top.name == "handoff":
            top.ready()
            continue
        table = T.table_of(app)
        if table.state == "human" and table.pending is not None:
            table.human_move(rng.choice(list(table.pending.legal)))
        elif table.state == "hold":
            table.flow.release()
        else:
            app.update(0.05)
    screen = app.top
    assert screen.name == "handoff" and screen.player == "Player 1"
    app.set_lang("de")
    drawn = drawn_strings(monkeypatch)
    app.draw()
    assert screen.player == "Spieler 1"
    assert any("Spieler 1" in s for s in drawn) and not any("Player 1" in s for s in drawn), \
        drawn
