"""Chase the Ace computer players: view-only decisions, variants, policy tables,
the coach and user-bot forfeits. Fast (heavy figures live in tools/bench_chase_ai.py)."""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from game.ai.chase_players import PLAYERS as FACTORIES
from game.ai.coach import advise_view
from game.ai.policy import main as policy_main
from game.ai.policy import strategy_chart
from game.ai.registry import make_player
from game.ai.tournament import run_tournament
from game.rules.chase import ChaseGame

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ("easy", "medium", "hard", "expert")


def _game(cards: list[str], n: int = 4, bot_seed: int = 5) -> ChaseGame:
    rest = [c for c in "2C 3D 9H TS JC QD 8S 7H 6C 5D 4H".split() if c not in cards]
    g = ChaseGame(None, n, seed=1, dealer=n - 1, deals=[cards + rest], bot_seed=bot_seed)
    g.start()
    return g


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_same_decision(level: str) -> None:
    # seat 0 (left of the dealer) holds 6H in both; the hidden cards differ
    for mine in ("6H", "2S", "8D", "7C"):
        a = _game([mine, "KS", "3C", "AD"])
        b = _game([mine, "5S", "QC", "9D"])
        va, vb = a.view(0), b.view(0)
        assert va == vb
        pa, pb = FACTORIES[level](), FACTORIES[level]()
        assert pa.choose(va) == pb.choose(vb)
        # a plain JSON copy of the view decides the same as the lazy view
        assert pa.choose(json.loads(json.dumps(va))) == pa.choose(a.lazy_view(0))
    # the dealer's view after three keeps
    for mine in ("6H", "8D"):
        views = []
        for others in (["TS", "JC", "QD"], ["9H", "QC", "JD"]):
            g = _game(others + [mine])
            for s in range(3):
                g.apply(s, "keep")
            views.append(g.view(3))
        assert views[0] == views[1]
        assert FACTORIES[level]().choose(views[0]) == FACTORIES[level]().choose(views[1])


def test_player_gets_a_view_not_the_engine() -> None:
    seen = []

    class Spy:
        name = "spy"

        def choose(self, view):  # noqa: ANN001
            seen.append(type(view).__name__)
            assert not hasattr(view, "hands")
            return FACTORIES["hard"]().choose(view)

    from game.ai.tournament import play_one

    play_one("chase", None, [Spy(), make_player("chase", "medium"),
                             make_player("chase", "expert"), make_player("chase", "easy")],
             seed=3, bot_seed=4)
    assert seen and "ChaseGame" not in seen


RULE_CHOICES = {
    "ace_high": [False, True], "queen_refuses_once": [False, True],
    "reveal_low_on_pass": [False, True], "domino": ["off", "low", "ace"],
    "dealer_wins_ties": [False, True], "talon_king_blocks": [False, True],
    "blocked_swap_skips": [False, True], "deck": ["french52", "cuckoo40"],
    "aces_double": [False, True], "final_tie": ["sudden_death", "replay", "restart",
                                                 "shared"],
    "deck_policy": ["fresh", "continue"], "lives": [1, 2, 3],
}


def _random_rules(rng: random.Random) -> dict:
    rules = {k: rng.choice(v) for k, v in RULE_CHOICES.items()}
    if rules["deck"] == "cuckoo40":
        rules["ace_high"] = False
        rules["aces_double"] = False
    return rules


def test_every_level_plays_sensibly_under_random_variants() -> None:
    rng = random.Random(11)
    players = {lv: FACTORIES[lv]() for lv in LEVELS}
    checked_king = checked_ace = 0
    for k in range(60):
        rules = _random_rules(rng)
        n = rng.choice([3, 4, 5, 6, 11])
        g = ChaseGame(rules, n, seed=k, bot_seed=k)
        g.start()
        seats = [rng.choice(LEVELS) for _ in range(n)]
        steps = 0
        while g.to_move() is not None and steps < 120:
            p = g.to_move()
            view = g.view(p.seat)
            move = players[seats[p.seat]].choose(view)
            assert move in view["legal"]
            card = view["hand"][0]
            if p.decision in ("turn", "dealer") and (card == "Cuckoo" or card[0] == "K"):
                assert move == "keep"
                checked_king += 1
            if p.decision == "dealer" and g.scale.value[card] == 1:
                assert move == "draw"
                checked_ace += 1
            g.apply(p.seat, move)
            steps += 1
    assert checked_king > 10 and checked_ace > 3


def _policy_json(n: int, level: str) -> dict:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert policy_main(["--game", "chase", "--players", str(n), "--level", level,
                            "--json"]) == 0
    return json.loads(buf.getvalue())


@pytest.mark.parametrize("n,count", [(2, 168), (3, 492), (4, 1296), (5, 3228)])
def test_policy_counts_and_shape(n: int, count: int) -> None:
    for level in ("hard", "medium", "easy"):
        out = _policy_json(n, level)
        assert out["game"] == "chase" and out["players"] == n and out["level"] == level
        assert out["rules"] == {"ace_high": False}
        pol = out["policy"]
        assert len(pol) == count
        keys = {(e["pos"], e["dealt"], e["current"], e["history"]) for e in pol}
        assert len(keys) == count
        for e in pol:
            assert set(e) == {"pos", "dealt", "current", "history", "p_swap"}
            assert 0.0 <= e["p_swap"] <= 1.0
            assert 1 <= e["dealt"] <= 12 and 1 <= e["current"] <= 12
            assert len(e["history"]) == e["pos"] and set(e["history"]) <= set("ksbx")
        if level == "hard":
            ace = [e for e in pol if e["pos"] == n - 1 and e["dealt"] == 1
                   and e["current"] == 1]
            assert ace and all(e["p_swap"] == 1.0 for e in ace)
    if n == 2:   # the 2-player equilibrium mixes
        pol = _policy_json(2, "hard")["policy"]
        assert any(0.0 < e["p_swap"] < 1.0 for e in pol)


def test_policy_for_large_tables_and_chart() -> None:
    for n in (6, 10):
        out = _policy_json(n, "hard") if (ROOT / f"game/data/chase_policy_{n}.json").exists() \
            else None
        if out is not None:
            assert out["policy"] and all(0 <= e["p_swap"] <= 1 for e in out["policy"])
    chart = strategy_chart(4)
    assert strategy_chart(12)["positions"]
    assert chart["players"] == 4 and len(chart["positions"]) == 4
    for row in chart["positions"]:
        assert set(row["p_swap"]) == set(range(1, 14))
        assert row["p_swap"][1] == 1.0 and row["p_swap"][13] == 0.0
    assert chart["positions"][3]["dealer"]


def test_advise_shape_and_view_determinism() -> None:
    a = _game(["6H", "KS", "3C", "AD"])
    b = _game(["6H", "5S", "QC", "9D"])
    for level in LEVELS:
        ra = advise_view(a.view(0), level, samples=80)
        rb = advise_view(b.view(0), level, samples=80)
        assert ra == rb
        assert ra["seat"] == 0 and ra["level"] == level and ra["move"] in ("keep", "swap")
        assert set(ra["options"]) == {"keep", "swap"}
        for o in ra["options"].values():
            assert set(o) == {"lose_life", "expected_loss"}
            assert 0.0 <= o["lose_life"] <= o["expected_loss"] + 1e-9 <= 2.0
    # an Ace left of the dealer: swapping is better
    g = _game(["AH", "9S", "TC", "JD"])
    r = advise_view(g.view(0), "hard", samples=120)
    assert r["move"] == "swap"
    assert r["options"]["swap"]["lose_life"] < r["options"]["keep"]["lose_life"]


def test_advise_command(tmp_path: Path) -> None:
    rec = {"format": 1, "game": "chase", "rules": {}, "seed": 7, "dealer": 3,
           "seats": [{"name": f"p{i}", "type": "human"} for i in range(4)],
           "moves": [{"seat": 0, "move": "keep"}]}
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(rec))
    from game.ai.coach import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert main([str(path), "--json", "--level", "medium", "--samples", "60"]) == 0
    out = json.loads(buf.getvalue())
    assert out["seat"] == 1 and out["level"] == "medium"
    assert set(out["options"]) == {"keep", "swap"}


BAD_BOTS = {
    "raises.py": "def choose(view):\n    raise RuntimeError('boom')\n",
    "illegal.py": "def choose(view):\n    return 'fold'\n",
    "slow.py": "import time\n\ndef choose(view):\n    time.sleep(5)\n"
               "    return view['legal'][0]\n",
}


def test_user_bots_forfeit_and_never_crash(tmp_path: Path) -> None:
    paths = []
    for name, src in BAD_BOTS.items():
        p = tmp_path / name
        p.write_text(src)
        paths.append(str(p))
    example = str(ROOT / "game/ai/example_bot.py")
    specs = [f"bot:{example}", f"bot:{paths[0]}", f"bot:{paths[1]}", f"bot:{paths[2]}",
             "hard"]
    # the slow bot answers far beyond the limit; the others far inside it
    res = run_tournament("chase", specs, 3, seed=2, time_limit=1.0, max_rounds=8)
    assert res["games"] == 3
    kinds = {(i["bot"], i["kind"]) for i in res["incidents"]}
    assert (paths[0], "raised") in kinds
    assert (paths[1], "illegal") in kinds
    assert (paths[2], "timeout") in kinds
    assert not any(i["bot"] == example for i in res["incidents"])
    names = {p["name"] for p in res["players"]}
    assert f"bot:{example}" in names and "hard" in names


def test_example_bot_plays_a_tournament() -> None:
    """The example bot answers every decision it is asked, in time, from one process
    (how fast is the benchmarks' business: ``tools/bench_bots.py``)."""
    example = str(ROOT / "game/ai/example_bot.py")
    spec = f"bot:{example}"
    res = run_tournament("chase", [spec, "medium", "easy", "expert"], 8, seed=3,
                         duplicate=True)
    assert res["games"] == 8 and res["unfinished"] == 0 and not res["incidents"]
    bot = res["bots"][spec]
    tally = next(p for p in res["players"] if p["name"] == spec)
    assert bot["decisions"] == tally["decisions"] > 0
    assert bot["incidents"] == bot["restarts"] == 0 and not bot["retired"]


def test_registry_gives_each_game_its_own_levels() -> None:
    from game.games import new_game

    g = new_game("rams", None, 3, seed=4)
    g.start()
    p = g.to_move()
    for level in LEVELS:
        player = make_player("rams", level)
        assert type(player).__module__ == "game.ai.rams_levels"
        assert player.choose(g.view(p.seat)) in g.legal_moves() == list(p.legal)
        assert type(make_player("chase", level)).__module__.startswith("game.ai.chase_")
    with pytest.raises(ValueError, match="unknown player"):
        make_player("chase", "grandmaster")
    assert make_player("chase", "threshold:4:4").name == "threshold:4:4"
    with pytest.raises(ValueError):
        make_player("rams", "threshold:4:4")


def test_exact_exploitability_small_tables() -> None:
    from game.ai.exploit import exact

    for n in (2, 3, 4):
        r = exact(n, "hard")
        assert r["nashconv"] <= 0.001
        assert len(r["loss"]) == n and all(0 <= g <= 1e-3 for g in r["gain"])
    assert exact(4, "medium")["nashconv"] <= 0.03
