"""The game review (game.review): known mistakes are found at the coach's own odds,
nothing of a round still in play shows, the same record gives the same review on
every path (in this process, in a worker, on the command line)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import records
from game.ai.coach import advise_view
from game.ai.rams_info import Info
from game.ai.rams_search import model_for, odds, settled
from game.review import compute
from game.review.job import ReviewJob
from game.rules.rams import AS_WRITTEN
from game.turn.workers import InlineWorker, ManualWorker
from tests.review_helpers import Always, cut, play

CHASE_KEEPER = ("chase", lambda: [Always("chase", "keep"), "hard", "medium", "medium"], 1,
                None)
#: Deals per move where the test needs the same numbers on two paths, not good ones.
FEW = 24
#: Rams as written (lives, the drop-out limit): the scoring the review's figures name
RAMS_PLAYER = ("rams", lambda: [Always("rams", "play"), "hard", "medium"], 2,
               {"lives": 1, "scoring": "lives", "drop_limit": 1, "general_rams": False,
                "dealer_must_play": False})


def coach_lives(view: dict, level: str = "hard") -> dict[str, float]:
    """Every option's lives straight from the coach (this round and later)."""
    got = advise_view(view, level)
    later = got.get("later") or {}
    return {m: o["expected_loss"] + later.get(m, 0.0) for m, o in got["options"].items()}


@pytest.fixture(scope="module", params=[CHASE_KEEPER, RAMS_PLAYER], ids=["chase", "rams"])
def reviewed(request):
    game_id, seats, seed, rules = request.param
    record = play(game_id, seats(), seed, rules)
    return record, compute.review(record)


def test_a_seat_that_always_keeps_or_plays_is_found_at_the_coachs_odds(reviewed):
    record, review = reviewed
    mistake = "keep" if record.game == "chase" else "play"
    # replay the record on its own and ask the coach at every decision of seat 0
    game = records.new_engine(record)
    game.start()
    by_move = {d["move"]: d for d in review["decisions"]}
    found = missed = 0
    for i, (seat, move) in enumerate(record.moves):
        p = game.to_move()
        if len(p.legal) > 1 and seat == 0:
            lives = coach_lives(game.view(seat))
            best = min(lives.values())
            d = by_move[i]
            assert d["chosen"] == move
            assert d["cost"] == pytest.approx(lives[move] - best, abs=2e-4)
            assert d["options"][move]["lives"] == pytest.approx(lives[move], abs=1e-4)
            if move == mistake and lives[move] - best >= compute.KEY_MIN_COST:
                found += 1
                assert d["best"] != mistake and d["cost"] >= compute.KEY_MIN_COST
            elif move == mistake:
                missed += 1
        game.apply(seat, move)
    assert found >= 2, "the game should hold mistakes worth finding"
    players = review["players"]
    me = players[0]
    assert me["decision_cost"] == pytest.approx(
        sum(d["cost"] for d in review["decisions"] if d["seat"] == 0), abs=1e-3)
    assert me["decision_cost"] > 0.3
    assert me["accuracy"] < players[1]["accuracy"]        # the hard seat played better
    assert me["cards"] == pytest.approx(me["lives_lost"] - me["decision_cost"], abs=1e-3)
    # the costliest decisions of the game are this seat's, costliest first
    key = [by_move[m] for m in review["key_moments"]]
    assert key and key[0]["seat"] == 0
    assert [d["cost"] for d in key] == sorted((d["cost"] for d in key), reverse=True)
    assert all(d["key"] == k + 1 for k, d in enumerate(key))
    assert me["key_moments"] and by_move[me["key_moments"][0]]["seat"] == 0


def test_lives_lost_are_the_games_own(reviewed):
    record, review = reviewed
    summary = records.rebuild(record).summary()
    for p in review["players"]:
        lost = sum(int(r.get("lost", {}).get(str(p["seat"]), 0)) for r in summary["rounds"])
        lost += sum(1 for r in summary["rounds"] if r.get("sudden_death")
                    and p["seat"] in r.get("out", []))
        assert p["lives_lost"] == lost
    assert len(review["rounds"]) == len(summary["rounds"])
    assert review["finished"] is True and review["in_play"] is None


def test_every_finished_round_shows_what_every_seat_was_dealt(reviewed):
    record, review = reviewed
    hand = 1 if record.game == "chase" else int(record.rules.get("hand_size", 5))
    for r in review["rounds"]:
        assert r["dealt"], r
        assert all(len(cards) == hand for cards in r["dealt"].values())


@pytest.mark.parametrize("game_id,seats,rules", [
    ("chase", ["medium", "hard", "medium", "easy"], None),
    ("rams", ["medium", "hard", "medium"], {"lives": 2}),
])
def test_nothing_of_a_round_still_in_play_shows(game_id, seats, rules):
    """Reviewed in the middle of a round, a record gives exactly the review of the same
    record cut where that round began: nothing the round has shown so far (cards, the
    odds of its decisions, what was dealt) is in it."""
    record = play(game_id, seats, 5, rules)
    game = records.new_engine(record)
    game.start()
    starts = []          # index of the first move of every round
    last = -1
    for i, (seat, move) in enumerate(record.moves):
        rnd = game.view_key(seat, "round")
        if rnd != last:
            starts.append(i)
            last = rnd
        game.apply(seat, move)
    checked = 0
    for k in (1, 2, len(starts) - 1):
        begin = starts[k]
        end = starts[k + 1] if k + 1 < len(starts) else len(record.moves)
        at_start = compute.review(cut(record, begin), samples=FEW)
        assert at_start["in_play"] == {"round": k, "moves": 0}
        for stop in sorted({begin + 1, (begin + end) // 2, end - 1}):
            if not begin < stop < end:
                continue
            mid = compute.review(cut(record, stop), samples=FEW)
            assert mid["in_play"] == {"round": k, "moves": stop - begin}
            for key in ("moves", "in_play"):
                mid.pop(key)
            a = dict(at_start)
            for key in ("moves", "in_play"):
                a.pop(key)
            assert mid == a
            checked += 1
    assert checked >= 4


def test_the_same_record_gives_the_same_review_on_every_path():
    record = play("chase", ["hard", "easy", "medium", "random"], 3)
    once = compute.review(record, samples=FEW)
    assert compute.review(record, samples=FEW) == once
    job = ReviewJob(record, InlineWorker(), samples=FEW)
    assert job.finished and job.review == once
    manual = ManualWorker()
    seen = []
    job = ReviewJob(record, manual, on_done=seen.append, samples=FEW)
    steps = 0
    while not job.finished:
        assert 0.0 <= job.progress() < 1.0
        manual.run_next()
        job.poll()
        steps += 1
        assert steps < 10_000
    assert job.review == once and seen == [once]
    assert json.loads(json.dumps(once)) == once          # plain JSON data


def test_stammtisch_review_prints_the_same_review(tmp_path):
    record = play("chase", ["hard", "easy", "medium", "random"], 4)
    path = tmp_path / "game.json"
    records.save(record, path)
    want = compute.review(record, samples=FEW)
    for jobs in ("1", "2"):
        out = subprocess.run([sys.executable, "-m", "game", "review", str(path), "--json",
                              "--jobs", jobs, "--samples", str(FEW)],
                             capture_output=True, text=True, check=True)
        assert json.loads(out.stdout) == want
    text = subprocess.run([sys.executable, "-m", "game", "review", str(path), "--jobs", "1",
                           "--samples", str(FEW)],
                          capture_output=True, text=True, check=True).stdout
    assert "Accuracy" in text and "P1" in text


def test_stammtisch_review_refuses_a_bad_record_in_one_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": 1, "game": "chase"', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "game", "review", str(path)],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("malformed_json: ") and out.stderr.count("\n") == 1
    record = play("chase", ["hard", "easy", "medium"], 2, stop=6)
    data = record.as_dict()
    data["moves"][3]["move"] = "dance"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "game", "review", str(path), "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.startswith("illegal_move: move 3")


def test_accuracy_is_the_share_of_the_lives_at_stake_that_choices_kept():
    assert compute.accuracy(0.0, 2.0) == 1.0
    assert compute.accuracy(2.0, 2.0) == 0.0
    assert compute.accuracy(0.5, 2.0) == 0.75
    assert compute.accuracy(0.0, 0.0) is None


def test_a_drop_is_charged_what_it_costs_later():
    """Rams: the coach says what a drop costs in later rounds (the forced round the drop
    limit brings); without a drop limit it costs nothing later."""
    for rules, positive in (({"drop_limit": 1}, True), ({"drop_limit": "none"}, False)):
        record = play("rams", ["medium", "medium", "medium"], 3, rules, stop=0)
        game = records.rebuild(record)
        p = game.to_move()
        assert p.decision == "declare"
        got = advise_view(game.view(p.seat))
        assert (got["later"]["drop"] > 0) is positive
        assert got["options"] == advise_view(game.view(p.seat), pick=False)["options"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5),
       rules=st.sampled_from([{}, {"lone_needs_one": True}, {"must_beat": True},
                              {"must_trump": True}, {"drop_limit": "none"},
                              {"dealer_takes_trump": True}, {"counters": 6},
                              {"scoring": "lives", "lives": 1},
                              {"scoring": "lives", "general_rams": True},
                              {"scoring": "lives", "drop_limit": 1, "general_rams": False,
                               "dealer_must_play": False}]))
def test_a_settled_seats_cards_get_what_every_world_would_count(seed, players, rules):
    """The Rams coach's shortcut for a seat whose result can no longer change gives
    exactly the odds of counting every world."""
    from game import games
    from game.ai.registry import make_player

    game = games.new_game("rams", rules, players, seed=seed, bot_seed=seed)
    game.start()
    levels = [make_player("rams", ("easy", "medium", "random")[(seed + s) % 3])
              for s in range(players)]
    checked = 0
    while not game.finished and len(game.moves) < 400 and checked < 6:
        p = game.to_move()
        view = game.view(p.seat)
        if p.decision == "trick" and len(p.legal) > 1:
            info = Info(view)
            if settled(info):
                model = model_for(info, False)
                assert odds(info, model, 40, seed) == odds(info, model, 40, seed,
                                                           shortcut=False)
                checked += 1
        game.apply(p.seat, levels[p.seat].choose(game.view(p.seat)))


@pytest.mark.parametrize("scoring", ["counters", "lives"])
def test_a_seat_facing_general_rams_is_not_settled(scoring):
    """While the General Rams announcer has every trick, another seat's own trick
    still changes its result: the coach counts every world for it, and its cards'
    odds are those of counting them all."""
    from game import games
    from game.ai.registry import make_player

    found = 0
    for seed in range(200):
        game = games.new_game("rams", {"scoring": scoring, "general_rams": True}, 4,
                              seed=seed, bot_seed=seed)
        game.start()
        levels = [make_player("rams", "random") for _ in range(4)]
        while not game.finished and len(game.moves) < 200:
            p = game.to_move()
            view = game.view(p.seat)
            info = Info(view)
            if (p.decision == "trick" and len(p.legal) > 1 and info.general is not None
                    and info.general != p.seat
                    and not any(view["tricks"].get(s, 0) for s in view["tricks"]
                                if int(s) != info.general)):
                assert not settled(info)
                model = model_for(info, False)
                assert odds(info, model, 40, seed) == odds(info, model, 40, seed,
                                                           shortcut=False)
                found += 1
                break
            game.apply(p.seat, levels[p.seat].choose(view))
        if found >= 2:
            return
    pytest.fail("no trick facing an unbroken General Rams in 200 games")


@pytest.mark.parametrize("rules,scoring", [({}, "counters"), (AS_WRITTEN, "lives")])
def test_a_review_counts_in_the_scoring_the_game_was_played_under(rules, scoring):
    """Rams under counters is reviewed in counters (the JSON says so, the text and the
    window speak of counters and the penalty); Rams as written in lives."""
    from game import i18n
    from game.review.cli import text_lines
    from game.view.review_panels import scored

    record = play("rams", ["medium", "easy", "medium"], 6, rules=rules, stop=40)
    review = compute.review(record, samples=FEW)
    assert review["scoring"] == scoring
    text = "\n".join(text_lines(review))
    if scoring == "counters":
        assert "counters" in text and "lives" not in text and "lose a life" not in text
    else:
        assert "lives" in text and "counters" not in text
    with i18n.language("de"):
        help_text = i18n.t(scored("review.accuracy_help", review))
    assert ("Zähler" in help_text) == (scoring == "counters")
    assert ("Leben" in help_text) == (scoring == "lives")
