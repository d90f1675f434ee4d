"""The parts of the Rams search: the win-chance value, hand strength, the declaration
model and the styles read from history, the sampled worlds and the race of moves."""

from __future__ import annotations

import random

import pytest

from game.ai import rams_search
from game.ai.rams_cards import deck, suit_index
from game.ai.rams_info import Info
from game.ai.rams_model import DeclareModel, Style, read_styles
from game.ai.rams_strength import features, p_no_trick, p_sweep
from game.ai.rams_value import outcome_value, win_chance
from game.ai.rams_worlds import Worlds
from game.cards import SKAT32
from game.rules.rams import AS_WRITTEN
from game.rules.rams import RamsGame as Engine


class RamsGame(Engine):
    """The engine under "Rams as written": the search's tests here are of 002's lives
    and the drop limit; test_ai_rams_pace.py has the pace keys."""

    def __init__(self, rules: dict | None = None, *args: object, **kw: object) -> None:
        super().__init__({**AS_WRITTEN, **(rules or {})}, *args, **kw)  # type: ignore

DK = deck("skat32")


def test_win_chance_two_seats_exact_and_orderings() -> None:
    # two seats with one life each, each losing it with chance p a round:
    # I win if only the other loses: p(1-p) / (1 - (1-p)^2) = (1-p)/(2-p)
    assert win_chance([1, 1], 0) == pytest.approx(0.9 / 1.9)
    assert win_chance([3, 3, 3, 3], 0) == pytest.approx(win_chance([3, 3, 3, 3], 2))
    assert win_chance([3, 2, 3, 3], 0) > win_chance([3, 3, 3, 3], 0) > win_chance(
        [2, 3, 3, 3], 0)
    assert win_chance([0, 3, 3], 0) == 0.0 and win_chance([2, 0, 0], 0) == 1.0
    total = sum(win_chance([3, 2, 1, 3], s) for s in range(4))
    assert 0.9 < total <= 1.0            # a little is lost to everyone going out at once
    # ten seats: the model follows the strongest opponents only, and stays quick
    assert 0.0 < win_chance([5] * 10, 0) < 0.25


def test_outcome_value_counts_the_table_and_the_forced_round() -> None:
    lives = [3, 3, 3, 3]
    alone = outcome_value(lives, {0: 1}, 0, 0.0, 4)
    together = outcome_value(lives, {0: 1, 1: 1, 2: 1}, 0, 0.0, 4)
    assert together > alone                         # losing with others hurts less
    assert outcome_value(lives, {1: 2}, 0, 0.0, 4) > outcome_value(lives, {}, 0, 0.0, 4)
    assert outcome_value(lives, {}, 0, 0.15, 4) < outcome_value(lives, {}, 0, 0.0, 4)


def _hand(*cards: str) -> int:
    return DK.mask(cards)


def test_hand_strength_orders_hands() -> None:
    trump = suit_index("H")
    seen = DK.mask(["7H"])
    strong = features(_hand("AH", "KH", "AS", "AC", "QH"), trump, seen, DK)
    weak = features(_hand("7S", "8S", "9C", "8D", "9D"), trump, seen, DK)
    middle = features(_hand("TH", "KS", "9C", "8D", "9D"), trump, seen, DK)
    for m in (1, 2, 3, 4):
        assert p_no_trick(strong, m) < 0.01
        assert p_no_trick(strong, m) < p_no_trick(middle, m) < p_no_trick(weak, m)
    assert p_no_trick(middle, 1) < p_no_trick(middle, 3)     # more players, more risk
    assert p_sweep(strong, 3) > p_sweep(middle, 3) > p_sweep(weak, 3)
    assert p_sweep(strong, 1) > p_sweep(strong, 3)


def _declare_view(deal: list[str], declares: list[str], rules: dict | None = None
                  ) -> tuple[RamsGame, dict]:
    g = RamsGame(rules, 4, seed=3, dealer=0, deals=[deal], bot_seed=1)
    g.start()
    for choice in declares:
        p = g.to_move()
        g.apply(p.seat, choice)
    p = g.to_move()
    return g, g.view(p.seat)


def test_declare_model_forced_trap_and_hand() -> None:
    deal = list(SKAT32)
    random.Random(4).shuffle(deal)
    # the dealer (seat 0) declares last: seat 1 played, 2 and 3 dropped
    g, view = _declare_view(deal, ["play", "drop", "drop"])
    info = Info(view)
    model = DeclareModel(info, {0: Style(trap=0.9)})
    # the last seat, one player before it: it leaves that player alone, whatever it holds
    for hand in (_hand("AH", "KH", "AS", "AC", "QH"), _hand("7S", "8S", "9C", "8D", "9D")):
        assert model.p_play(0, hand, info.declared) == pytest.approx(0.1)
    # seat 2 after a player: no risk of being alone, the hand decides
    g2, v2 = _declare_view(deal, ["play"])
    i2 = Info(v2)
    m2 = DeclareModel(i2)
    trump = i2.trump
    good = [c for c in SKAT32 if c[1] == trump][-3:] + ["AS" if trump != "S" else "AC",
                                                        "AD" if trump != "D" else "AH"]
    bad = [c for c in SKAT32 if c[1] != trump and c[0] in "789"][:5]
    assert m2.p_play(2, DK.mask(good), i2.declared) > 0.9
    assert m2.p_play(2, DK.mask(bad), i2.declared) < 0.1
    # a seat the drop limit forces plays whatever it holds
    nxt = RamsGame(None, 4, seed=3, dealer=0, deals=[deal, deal[::-1]], bot_seed=1)
    nxt.start()
    for _ in range(4):
        nxt.apply(nxt.to_move().seat, "drop")
    p = nxt.to_move()
    i3 = Info(nxt.view(p.seat))
    assert "drop" not in p.legal
    assert DeclareModel(i3).p_play(p.seat, DK.mask(bad), i3.declared) == 1.0


def _history(seat: int, choice: str, rounds: int) -> list[list[dict]]:
    """Rounds in which ``seat`` declared ``choice`` as the first of four, free (it
    alternates with a forced play when it drops)."""
    out = []
    for k in range(rounds):
        forced = choice == "drop" and k % 2 == 1
        c = "play" if forced else choice
        out.append([{"type": "declare", "seat": seat, "choice": c},
                    {"type": "declare", "seat": 2, "choice": "play"},
                    {"type": "declare", "seat": 3, "choice": "play"},
                    {"type": "declare", "seat": 0, "choice": "play"}])
    return out


def test_styles_read_how_often_a_seat_plays() -> None:
    deal = list(SKAT32)
    random.Random(4).shuffle(deal)
    _, view = _declare_view(deal, [])
    view = dict(view, seat=0)
    bold = read_styles(Info(dict(view, history=_history(1, "play", 12))))
    shy = read_styles(Info(dict(view, history=_history(1, "drop", 12))))
    assert bold[1].bias > shy[1].bias
    assert read_styles(Info(dict(view, history=[]))) == {}


def test_worlds_respect_what_the_view_shows() -> None:
    rng = random.Random(6)
    checked = 0
    for k in range(12):
        g = RamsGame({"must_trump": k % 2 == 0}, 4, seed=50 + k, bot_seed=k)
        g.start()
        while (p := g.to_move()) is not None and g.round_index < 2:
            view = g.view(p.seat)
            if p.decision == "trick" and g.trick:
                info = Info(view)
                worlds = Worlds(info, DeclareModel(info), read_play=True)
                seen = DK.mask(info.hand) | DK.mask(info.gone)
                for _ in range(20):
                    w, hands = worlds.sample(rng)
                    assert w >= 0.0
                    dealt = 0
                    for s in info.order:
                        if s == info.me:
                            continue
                        h = hands[s]
                        assert not h & seen and not h & dealt
                        dealt |= h
                        assert h.bit_count() == info.hand_size - len(info.played_by.get(s, ()))
                        for suit in info.voids.get(s, ()):
                            assert not any(c[1] == suit for c in DK.cards(h))
                    checked += 1
            move = "play" if p.decision == "declare" else rng.choice(p.legal)
            g.apply(p.seat, move)
    assert checked > 100


class _Coin:
    """Trials whose moves are worth a known amount plus noise: ``a`` 0.5, ``b`` 0.2."""

    def __init__(self) -> None:
        self.runs = 0

    def world(self, rng: random.Random) -> tuple[float, float]:
        return 1.0, rng.random()

    def run(self, world: float, move: str) -> tuple[float, int]:
        self.runs += 1
        return (0.5 if move == "a" else 0.2) + 0.1 * world, 0


def test_race_stops_early_on_a_clear_choice() -> None:
    t = _Coin()
    assert rams_search.race(t, ["b", "a"], 1000, random.Random(1)) == "a"  # type: ignore[arg-type]
    assert t.runs < 2 * 1000 / 2          # fell out after a quarter of the budget
    again = _Coin()
    assert rams_search.race(again, ["b", "a"], 1000, random.Random(1)) == "a"  # type: ignore[arg-type]
    assert again.runs == t.runs            # counts only: the same every time


def test_the_coach_reads_the_cards_played(monkeypatch) -> None:
    """The coach's deals for a card are weighted by how likely the others' cards so
    far were with them (without it, its odds in late tricks ran about 0.05 too high:
    ``tools/bench_rams_ai.py calibration``)."""
    calls = []
    real = Worlds.play_likelihood

    def spy(self, hands):
        calls.append(1)
        return real(self, hands)

    monkeypatch.setattr(Worlds, "play_likelihood", spy)
    g = RamsGame({}, 4, seed=3, bot_seed=1)
    g.start()
    while (p := g.to_move()) is not None:
        if p.decision == "trick" and len(g.view(p.seat)["hand"]) <= 3:
            break
        g.apply(p.seat, "play" if p.decision == "declare" else p.legal[0])
    assert p is not None and p.decision == "trick"
    info = Info(g.view(p.seat))
    got = rams_search.odds(info, DeclareModel(info), 40, seed=1)
    assert set(got) == set(info.legal) and calls
    assert all(0.0 <= o["lose_life"] <= 1.0 for o in got.values())


def test_a_card_that_ends_the_trick_hands_the_lead_to_its_winner(monkeypatch) -> None:
    """In the play-outs the next trick is led by whoever took the last one, also when
    this seat's own card ended it (the search once let the trick's leader lead again)."""
    rng = random.Random(8)
    real_play_out = rams_search.play_out
    checked = 0
    for k in range(8):
        g = RamsGame({}, 4, seed=70 + k, bot_seed=k)
        g.start()
        while (p := g.to_move()) is not None and g.round_index < 2:
            view = g.view(p.seat)
            info = Info(view)
            if (p.decision == "trick" and len(info.trick) == len(info.in_play) - 1
                    and len(info.hand) >= 2):
                trials = rams_search.CardTrials(info, DeclareModel(info))
                for card in info.legal:
                    got = trials.world(rng)
                    assert got is not None
                    r = got[1].copy()
                    winner = r.play(info.me, DK.bit[card])
                    assert winner is not None
                    first: list[int] = []

                    def spy(r, leader, first=first):
                        first.append(leader)
                        return real_play_out(r, leader)

                    with monkeypatch.context() as m:
                        m.setattr(rams_search, "play_out", spy)
                        trials.run(got[1], card)
                    assert first == [winner]
                    checked += 1
            move = "play" if p.decision == "declare" else rng.choice(p.legal)
            g.apply(p.seat, move)
    assert checked > 20


def _decisions(rules: dict | None, kind: str, seeds: range):
    """Views of ``kind`` with a choice, from games of random moves under ``rules``."""
    from game import games

    for seed in seeds:
        g = games.new_game("rams", rules, 4, seed=seed, bot_seed=seed)
        g.start()
        rng = random.Random(seed)
        while (p := g.to_move()) is not None and len(g.moves) < 120:
            if p.decision == kind and len(p.legal) > 1:
                yield g.view(p.seat)
            g.apply(p.seat, rng.choice(p.legal))


@pytest.mark.parametrize("rules", [None, AS_WRITTEN], ids=["pub", "as_written"])
def test_equivalent_cards_get_the_odds_of_the_lowest(rules) -> None:
    """The coach plays out one of equivalent cards (the same suit, nothing still out
    between them) for all: they get its odds, and the others' odds are those of
    playing out every card."""
    merged = 0
    for view in _decisions(rules, "trick", range(40)):
        info = Info(view)
        same = rams_search.equivalents(info)
        if len(set(same.values())) == len(same):
            continue
        model = DeclareModel(info)
        got = rams_search.odds(info, model, 30, seed=5, shortcut=False)
        each = rams_search.odds(info, model, 30, seed=5, shortcut=False, merge=False)
        for card, rep in same.items():
            assert got[card] == each[rep]
        merged += 1
        if merged >= 8:
            return
    pytest.fail(f"only {merged} decisions with equivalent cards")


@pytest.mark.parametrize("rules", [None, AS_WRITTEN], ids=["pub", "as_written"])
def test_a_drop_is_played_out_only_when_a_later_seat_announces_general_rams(rules) -> None:
    """The coach plays a drop out only in the deals where a seat after it announces
    General Rams (:meth:`DeclareTrials.caller`; never without ``general_rams``): in
    every world the coach's count of a drop is the round played out, which costs the
    seat that drops nothing (lives or counters) when nobody announces, whoever plays.
    (A deal where a later seat announces: tests/test_rams_coach_general.py.)"""
    checked = 0
    for view in _decisions(rules, "declare", range(12)):
        if "drop" not in view["legal"]:
            continue
        info = Info(view)
        played_out = rams_search.DeclareTrials(info, DeclareModel(info))
        coach = rams_search.DeclareTrials(info, DeclareModel(info), valued=False)
        rng = random.Random(checked)
        for _ in range(30):
            got = played_out.world(rng)
            if got is None:
                continue
            lost = played_out.run(got[1], "drop")[1]
            assert coach.run(got[1], "drop")[1] == lost
            caller = got[1][2]
            if caller is None:
                assert lost == 0
            else:
                assert rules is None and caller in played_out.later
        odds = rams_search.odds(info, DeclareModel(info), 30, seed=checked)
        if rules is not None:
            assert odds["drop"] == {"lose_life": 0.0, "expected_loss": 0.0}
        checked += 1
    assert checked >= 10
