"""Games played by known players, as records, for the game review's tests."""

from __future__ import annotations

from typing import Any

from game import games, records
from game.ai.registry import make_player
from game.records import Record, Seat


class Always:
    """A player with a known mistake: ``move`` whenever it is allowed (``keep`` in
    Chase, ``play`` in Rams), otherwise as ``level`` plays."""

    def __init__(self, game_id: str, move: str, level: str = "medium") -> None:
        self.move = move
        self.other = make_player(game_id, level)

    def choose(self, view: dict[str, Any]) -> str:
        return self.move if self.move in view["legal"] else self.other.choose(view)


def play(game_id: str, seats: list[Any], seed: int, rules: dict[str, Any] | None = None,
         stop: int | None = None) -> Record:
    """A game of ``game_id`` played by ``seats`` (level names or players), as a record
    (its first ``stop`` moves only, when given)."""
    players = [make_player(game_id, s) if isinstance(s, str) else s for s in seats]
    g = games.new_game(game_id, rules, len(seats), seed=seed, bot_seed=seed + 7)
    g.start()
    while not g.finished and (stop is None or len(g.moves) < stop):
        p = g.to_move()
        g.apply(p.seat, players[p.seat].choose(g.view(p.seat)))
    kinds = [Seat(f"P{i}", "ai", s) if isinstance(s, str) else Seat(f"P{i}", "human")
             for i, s in enumerate(seats)]
    return records.record_of(g, kinds, seed=seed, bot_seed=seed + 7)


def cut(record: Record, moves: int) -> Record:
    """``record`` with only its first ``moves`` moves."""
    return records.from_dict({**record.as_dict(),
                              "moves": [{"seat": s, "move": m}
                                        for s, m in record.moves[:moves]]})
