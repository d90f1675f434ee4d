"""The coach's calibration, measured the same way for every game: every seat plays one
level, before each decision with a choice the coach (same level) predicts the chance of
losing a life with the move then made, and the predictions are set against what the
round did, by decile (:func:`game.ai.stats.calibration_deciles`).
``tools/bench_chase_ai.py calibration`` and ``tools/bench_rams_ai.py calibration``
print it."""

from __future__ import annotations

from multiprocessing import Pool
from typing import Any

from game.ai.registry import make_player
from game.ai.stats import calibration_deciles
from game.games import new_game
from game.seeds import series_bot_seed, series_deal_seed

#: Decisions left out: the Rams dealer's exchange of the trump card gets the odds of
#: then playing, and the dealer may still drop (a life kept against a prediction made
#: for playing).
NOT_COUNTED = frozenset({"take"})
#: A game stops here if it has not ended (Rams without a drop limit may not).
MAX_ROUNDS = 2000

Job = tuple[str, int, int, int, int, dict[str, Any] | None, str, int | None, int]


def predictions(job: Job) -> list[list[tuple[float, int]]]:
    """(predicted, lost) of every counted decision of games ``lo`` … ``hi - 1``, one
    list per game (a decision of a round the game did not finish is left out)."""
    game_id, lo, hi, seed, players, rules, level, samples, bot_seed = job
    from game.ai.coach import advise_view

    cast = [make_player(game_id, level) for _ in range(players)]
    out = []
    for k in range(lo, hi):
        game = new_game(game_id, rules, players, seed=series_deal_seed(seed, k),
                        bot_seed=series_bot_seed(bot_seed, k))
        game.emit_events = False
        game.start()
        pending: list[tuple[int, int, float]] = []   # round, seat, predicted
        while (p := game.to_move()) is not None and game.round_index < MAX_ROUNDS:
            view = game.view(p.seat)
            move = cast[p.seat].choose(view)
            if len(p.legal) > 1 and p.decision not in NOT_COUNTED:
                adv = advise_view(view, level, samples)
                pending.append((game.round_index, p.seat, adv["options"][move]["lose_life"]))
            game.apply(p.seat, move)
        got = []
        for r, seat, pr in pending:
            if r < len(game.rounds):
                entry = game.rounds[r]
                lost = str(seat) in entry.get("lost", {}) or seat in entry.get("out", [])
                got.append((pr, int(lost)))
        out.append(got)
    return out


def calibrate(game_id: str, level: str, decisions: int, players: int, seed: int,
              jobs: int, rules: dict[str, Any] | None, samples: int | None = None,
              chunk: int = 2, bot_seed: int = 0) -> dict[str, Any]:
    """At least ``decisions`` predictions from whole games (``chunk`` games per job,
    ``jobs`` processes): ``{decisions, games, deciles, max_gap}``. The deals come from
    ``seed``, the levels' random choices from ``bot_seed``, a root of its own (fixed by
    default, so a measurement repeats; only built-in levels play here)."""
    preds: list[tuple[float, int]] = []
    games = 0
    start = 0
    with Pool(max(1, jobs)) as pool:
        while len(preds) < decisions:
            work = [(game_id, start + i * chunk, start + (i + 1) * chunk, seed, players,
                     rules, level, samples, bot_seed) for i in range(max(1, jobs) * 2)]
            start += chunk * len(work)
            for res in pool.map(predictions, work, chunksize=1):
                for game in res:     # whole games, in order, until enough decisions
                    if len(preds) >= decisions:
                        break
                    preds.extend(game)
                    games += 1
    deciles, worst = calibration_deciles(preds)
    return {"decisions": len(preds), "games": games, "deciles": deciles, "max_gap": worst}
