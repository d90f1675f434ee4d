"""The window's worker process: built-in levels and the coach think beside the window
(no contest for Python's lock with drawing) and answer exactly as they would in the
window's own process; user bots, which cannot be sent to another process, think in a
thread of the window."""

from __future__ import annotations

import threading

from game import games
from game.ai.registry import make_player
from game.turn.coach import advise
from game.turn.workers import InlineWorker, ProcessWorker, decide


def views(game_id: str, n: int = 6) -> list[dict]:
    out = []
    for seed in range(n):
        g = games.new_game(game_id, {}, 4, seed=seed, bot_seed=seed)
        g.start()
        p = g.to_move()
        out.append(g.view(p.seat))
    return out


def test_levels_in_the_worker_process_answer_as_they_do_here():
    worker = ProcessWorker()
    try:
        worker.start()
        for game_id, level in (("chase", "expert"), ("rams", "hard"), ("chase", "easy")):
            here = make_player(game_id, level)
            for view in views(game_id):
                fut = worker.submit(decide, game_id, level, view)
                assert fut.result(timeout=120) == here.choose(view)
        view = views("chase", 1)[0]
        advice = worker.submit(advise, view).result(timeout=120)
        assert advice == InlineWorker().submit(advise, view).result()
    finally:
        worker.shutdown()


def test_what_cannot_travel_runs_in_a_thread_of_the_window():
    worker = ProcessWorker()
    try:
        names = worker.submit_local(lambda: threading.current_thread().name).result(timeout=30)
        assert names.startswith("table-bot")
    finally:
        worker.shutdown()
    assert worker._pool is None and worker._local is None
