"""The Rams levels (easy … expert) and the Rams coach: view only, legal, forced play."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from pathlib import Path

import pytest

from game.ai import rams_levels
from game.ai.coach import advise_view
from game.ai.rams_info import Info
from game.ai.rams_players import PLAYERS as FACTORIES
from game.cards import SKAT32
from game.rules.rams import AS_WRITTEN
from game.rules.rams import RamsGame as Engine


class RamsGame(Engine):
    """The engine under "Rams as written" (lives, the drop limit): the levels' tests
    here pin them down under 002's scoring; test_ai_rams_pace.py has the pace keys."""

    def __init__(self, rules: dict | None = None, *args: object, **kw: object) -> None:
        super().__init__({**AS_WRITTEN, **(rules or {})}, *args, **kw)  # type: ignore

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ("easy", "medium", "hard", "expert")


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    for cls in (rams_levels.RamsHard, rams_levels.RamsExpert):
        monkeypatch.setattr(cls, "budget", dataclasses.replace(cls.budget, declare=10,
                                                                card=6))


def plain(view: object) -> dict:
    """A JSON round trip: a plain mapping, nothing of the engine."""
    return json.loads(json.dumps(dict(view)))  # type: ignore[call-overload]


def game_with(deal: list[str], rules: dict | None = None, n: int = 4,
              dealer: int = 0) -> RamsGame:
    g = RamsGame(rules, n, seed=7, dealer=dealer, deals=[deal], bot_seed=99)
    g.start()
    return g


def swapped_deal(deal: list[str], n: int, a: int, b: int, hand_size: int = 5,
                 dealer: int = 0) -> list[str]:
    """The same deal with the hands of seats ``a`` and ``b`` exchanged."""
    order = [(dealer + k) % n for k in range(1, n + 1)]
    out = list(deal)
    ia, ib = order.index(a), order.index(b)
    for r in range(hand_size):
        out[r * n + ia], out[r * n + ib] = deal[r * n + ib], deal[r * n + ia]
    return out


def test_same_view_same_decision_whatever_is_hidden() -> None:
    rng = random.Random(3)
    for trial in range(6):
        deal = list(SKAT32)
        rng.shuffle(deal)
        g1 = game_with(deal)
        g2 = game_with(swapped_deal(deal, 4, 2, 3))
        p1, p2 = g1.to_move(), g2.to_move()
        assert p1 is not None and p2 is not None and p1.seat == p2.seat == 1
        v1, v2 = g1.view(1), g2.view(1)
        assert v1 == v2
        for level in LEVELS:
            a = FACTORIES[level]().choose(plain(v1))
            b = FACTORIES[level]().choose(plain(v2))
            assert a == b, (trial, level)


def test_trick_decisions_are_functions_of_the_view(small_budget: None) -> None:
    rng = random.Random(5)
    seen = 0
    for k in range(4):
        g = RamsGame({"drop_limit": 1}, 4, seed=100 + k, bot_seed=k)
        g.emit_events = False
        g.start()
        med = FACTORIES["medium"]()
        while (p := g.to_move()) is not None and g.round_index < 4:
            v = g.view(p.seat)
            if p.decision == "trick" and len(p.legal) > 1:
                for level in LEVELS:
                    a = FACTORIES[level]().choose(plain(v))
                    b = FACTORIES[level]().choose(copy.deepcopy(plain(v)))
                    assert a == b and a in p.legal
                seen += 1
            move = med.choose(v) if rng.random() < 0.8 else rng.choice(p.legal)
            g.apply(p.seat, move)
    assert seen > 5


def test_easy_and_medium_stop_playing_once_their_life_is_safe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # once a club level holds a trick (and nobody plays alone) it sheds its lowest card,
    # where the heuristic would go on taking tricks away from the players still needing one
    for cls in (rams_levels.RamsMedium, rams_levels.RamsEasy):
        monkeypatch.setattr(cls, "slips", 0.0)
    rng = random.Random(12)
    safe = differs = 0
    for k in range(12):
        g = RamsGame({"drop_limit": 1}, 4, seed=300 + k, bot_seed=k)
        g.emit_events = False
        g.start()
        while (p := g.to_move()) is not None and g.round_index < 6:
            v = plain(g.view(p.seat))
            if p.decision == "trick" and len(p.legal) > 1:
                info = Info(v)
                if info.lone is None and info.tricks.get(p.seat, 0) > 0:
                    def low(c: str, info: Info = info) -> tuple[bool, int]:
                        return c[1] == info.trump, info.rank[c]
                    lowest = low(min(p.legal, key=low))
                    for level in ("easy", "medium"):
                        assert low(FACTORIES[level]().choose(v)) == lowest, (k, level)
                    safe += 1
                    differs += low(rams_levels.medium_card(Info(v))) != lowest
            g.apply(p.seat, FACTORIES["medium"]().choose(v) if rng.random() < 0.8
                    else rng.choice(p.legal))
    # the rule is seen, and it changes cards the heuristic alone would play otherwise
    assert safe > 100 and differs > 50, (safe, differs)


def random_rules(rng: random.Random) -> dict:
    return {
        "lives": rng.choice([1, 2]),
        "hand_size": rng.choice([3, 4, 5]),
        "drop_limit": rng.choice([1, 2, "none"]),
        "must_trump": rng.random() < 0.5,
        "must_beat": rng.random() < 0.5,
        "dealer_takes_trump": rng.random() < 0.5,
        "lone_needs_one": rng.random() < 0.5,
    }


def test_random_games_legal_and_no_exceptions(small_budget: None) -> None:
    rng = random.Random(11)
    for k in range(10):
        rules = random_rules(rng)
        n = rng.choice([3, 4, 5])
        if rules["drop_limit"] == "none":
            rules["lives"] = 1
        g = RamsGame(rules, n, seed=k, bot_seed=k + 1)
        g.emit_events = False
        g.start()
        players = [FACTORIES[LEVELS[(i + k) % 4]]() for i in range(n)]
        moves = 0
        while (p := g.to_move()) is not None and g.round_index < 40:
            view = g.lazy_view(p.seat)
            move = players[p.seat].choose(view)
            assert move in p.legal, (rules, p, move)
            g.apply(p.seat, move)
            moves += 1
        assert moves > 0


def test_forced_play_is_honoured() -> None:
    rng = random.Random(2)
    checked = 0
    for k in range(30):
        rules = {"drop_limit": rng.choice([1, 2]), "lives": 2}
        g = RamsGame(rules, 4, seed=k, bot_seed=k)
        g.start()
        players = [FACTORIES[lv]() for lv in ("easy", "medium", "easy", "medium")]
        while (p := g.to_move()) is not None and g.round_index < 12:
            view = g.view(p.seat)
            if p.decision == "declare":
                info = Info(view)
                # the view's count is the engine's (tests/test_rams_fast_paths.py holds
                # it under every drop limit and the pace rules)
                assert info.forced(p.seat) == ("drop" not in p.legal)
                assert info.drops_before[p.seat] == view["drops"][p.seat]
                if "drop" not in p.legal:
                    for lv in LEVELS:
                        assert FACTORIES[lv]().choose(view) == "play"
                    checked += 1
                move = "drop" if "drop" in p.legal and rng.random() < 0.6 else "play"
            else:
                move = players[p.seat].choose(view)
            g.apply(p.seat, move)
    assert checked > 5


def test_levels_play_promising_hands_without_a_drop_limit() -> None:
    # 002 literally: dropping is always safe, yet a table of levels still finishes
    for level in ("medium", "hard"):
        g = RamsGame({"drop_limit": "none", "lives": 1}, 3, seed=4, bot_seed=4)
        g.emit_events = False
        g.start()
        ps = [FACTORIES[level]() for _ in range(3)]
        while (p := g.to_move()) is not None and g.round_index < 300:
            g.apply(p.seat, ps[p.seat].choose(g.lazy_view(p.seat)))
        assert g.finished, level


def test_advise_shape_and_view_determinism() -> None:
    rng = random.Random(8)
    deal = list(SKAT32)
    rng.shuffle(deal)
    g1 = game_with(deal, {"dealer_takes_trump": False})
    g2 = game_with(swapped_deal(deal, 4, 2, 3))
    v1, v2 = g1.view(1), g2.view(1)
    for level in ("medium", "hard", "expert"):
        a = advise_view(plain(v1), level, samples=40)
        b = advise_view(plain(v2), level, samples=40)
        assert a == b
        assert set(a) >= {"seat", "level", "move", "options"}
        assert a["seat"] == 1 and a["level"] == level and a["move"] in v1["legal"]
        assert set(a["options"]) == set(v1["legal"])
        for o in a["options"].values():
            assert 0.0 <= o["lose_life"] <= 1.0
            assert o["expected_loss"] >= o["lose_life"] - 1e-9
        assert a["options"]["drop"]["expected_loss"] == 0.0


def test_advise_in_tricks_and_exchange() -> None:
    g = RamsGame({"dealer_takes_trump": True}, 4, seed=21, bot_seed=3)
    g.start()
    p = g.to_move()
    assert p is not None and p.decision == "take"
    a = advise_view(g.view(p.seat), "hard", samples=30)
    assert set(a["options"]) == set(p.legal) and a["move"] in p.legal
    med = FACTORIES["medium"]()
    got = 0
    while (p := g.to_move()) is not None and got < 3 and g.round_index < 10:
        v = g.view(p.seat)
        if p.decision == "trick" and len(p.legal) > 1:
            a = advise_view(v, "hard", samples=30)
            assert set(a["options"]) == set(p.legal)
            assert a == advise_view(plain(v), "hard", samples=30)
            got += 1
        move = "play" if p.decision == "declare" else med.choose(v)
        g.apply(p.seat, move)
    assert got > 0


def test_advise_cli_on_a_rams_record() -> None:
    import contextlib
    import io

    from game.ai.coach import main

    path = ROOT / "tests" / "examples" / "0008_rams_5p_partial.json"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main([str(path), "--json", "--level", "hard", "--samples", "40"]) == 0
    out = json.loads(buf.getvalue())
    assert out["level"] == "hard" and out["move"] in out["options"]
