"""Seeds that carry no secret: a game nobody seeded draws a wide shuffle seed from
``secrets``; the computers' seed (the views' ``seed``) is drawn apart, also when the
shuffle seed is given, and each seat's is a one-way hash of it; a tournament names
both roots so it can be played again exactly; a record replays as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import records, seeds
from game.ai.tournament import run_tournament
from game.net.host import HeadlessTable
from game.rules.base import seat_seed
from game.scenes import testing as T
from tests.spy_helpers import DERIVATIONS, invert_old_seat_seed, old_seat_seed

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.secret_seeds
def test_a_window_table_draws_wide_seeds_and_the_computers_apart():
    app = T.make_app((960, 600))
    seats = T.mixed_seats(4, 1)
    unseeded = [app.scene("table", game_id="chase", seats=seats) for _ in range(4)]
    given_seed = [app.scene("table", game_id="rams", seats=seats, seed=12345)
                  for _ in range(2)]
    try:
        shuffles = [tb.seed for tb in unseeded]
        assert len(set(shuffles)) == 4 and max(shuffles) >= 2**40    # 64 bits, not 31
        assert all(0 <= s < 2**64 for s in shuffles)
        for tb in unseeded + given_seed:
            b = tb.game.bot_seed
            assert not [n for n, d in DERIVATIONS.items() if d(tb.seed, 0) == b]
        # the same shuffle seed, other computers' seeds: no function of the deal
        assert given_seed[0].game.bot_seed != given_seed[1].game.bot_seed
    finally:
        for tb in unseeded + given_seed:
            tb.exit()


@pytest.mark.secret_seeds
def test_a_hosted_table_draws_the_computers_seed_apart_from_the_shuffle():
    tables = [HeadlessTable("chase", ["phone", "easy", "easy"], seed=7, keep_records=False)
              for _ in range(2)]
    assert tables[0].game.bot_seed != tables[1].game.bot_seed     # never started
    for tb in tables:
        b = tb.game.bot_seed
        assert not [n for n, d in DERIVATIONS.items() if d(7, 0) == b]
        assert tb.record().bot_seed == b and tb.record().seed == 7


def test_a_tournament_plays_again_from_its_two_seeds():
    a = run_tournament("chase", ["easy", "medium", "random"], 6, seed=5, bot_seed=9)
    b = run_tournament("chase", ["easy", "medium", "random"], 6, seed=5, bot_seed=9)
    c = run_tournament("chase", ["easy", "medium", "random"], 6, seed=5, bot_seed=10)
    strip = ("seconds", "rounds_per_s", "decision_ms_p50", "decision_ms_p95")

    def same(r: dict) -> str:
        return json.dumps({k: v for k, v in r.items() if k not in strip} | {
            "players": [{k: v for k, v in p.items() if k not in strip}
                        for p in r["players"]]}, sort_keys=True)

    assert same(a) == same(b) and (a["seed"], a["bot_seed"]) == (5, 9)
    assert same(a) != same(c)                 # the computers chose otherwise, same deals


@pytest.mark.secret_seeds
def test_a_tournament_without_seeds_draws_both_and_names_them():
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-m", "game", "tournament", "--game", "chase", "--players",
             "3", "--seats", "random,random,random", "--games", "2", "--json"],
            cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout))
    for r in runs:
        assert {"games", "rounds", "seconds", "rounds_per_s", "players"} <= set(r)  # docs/view.md#tournaments
        assert r["seed"] != r["bot_seed"] and max(r["seed"], r["bot_seed"]) >= 2**32
    assert runs[0]["seed"] != runs[1]["seed"]
    # --seed alone: the same deals, and still a secret root for the bots
    out = subprocess.run(
        [sys.executable, "-m", "game", "tournament", "--game", "chase", "--players", "3",
         "--seats", "random,random,random", "--games", "2", "--seed", "1", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    r = json.loads(out.stdout)
    assert r["seed"] == 1 and r["bot_seed"] not in (0, 1) and r["bot_seed"] >= 2**16


@given(st.integers(0, 2**64 - 1), st.integers(0, 9), st.integers(0, 9))
def test_a_seats_seed_tells_nothing_of_the_bot_seed_or_another_seats(b, seat, other):
    """The old map gave the bot seed back (and so every other seat's seed); the hash
    does not."""
    assert invert_old_seat_seed(old_seat_seed(b, seat), seat) == b     # the old leak
    mine = seat_seed(b, seat)
    assert invert_old_seat_seed(mine, seat) != b
    if other != seat:
        assert seat_seed(invert_old_seat_seed(mine, seat), other) != seat_seed(b, other)
    assert 0 <= mine < 2**64


def test_records_keep_both_wide_seeds_and_replay_exactly():
    from game.games import new_game

    shuffle, bot = seeds.fresh(), seeds.fresh()
    # Rams as written: the first legal move in every decision ends a game there (under
    # counters a seat that always announces General Rams as the dealer never does)
    g = new_game("rams", {"scoring": "lives", "drop_limit": 1, "general_rams": False,
                          "dealer_must_play": False}, 4, seed=shuffle, bot_seed=bot)
    g.start()
    while (p := g.to_move()) is not None:
        g.apply(p.seat, sorted(p.legal)[0])
    rec = records.record_of(g, [records.Seat(f"P{i}") for i in range(4)], seed=shuffle,
                            bot_seed=bot)
    again = records.parse(records.dumps(rec))
    assert (again.seed, again.bot_seed) == (shuffle, bot)
    assert records.rebuild(again).summary() == g.summary()
