"""The story of a finished game, for the end-of-game screen: rounds played, everyone's
lives (or Rams' counters) after each round, who lost lives in which round and who went out when, the pot,
and the people's running record against these opponents. No pygame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game import store


@dataclass
class Story:
    rounds: int
    start_lives: int
    #: lives of every seat after each round (the first entry: before round 1)
    lives: list[list[int]]
    #: per round: seat -> lives lost in it
    losses: list[dict[int, int]]
    out_round: dict[int, int]                 # seat -> the round it went out in (1-based)
    pot: int = 0
    stake: int = 0
    record: store.LevelStats | None = None    # the people against these opponents
    extra: dict[str, Any] = field(default_factory=dict)


def tell(game: Any, seats: list[dict[str, Any]], out_round: dict[int, int],
         with_record: bool = True) -> Story:
    """The story of ``game`` (an engine that has finished) with ``seats``."""
    summary = game.summary()
    n = game.n_seats
    start = store.start_count(game.rules)
    lives = [[start] * n] + store.lives_by_round(summary, n)
    losses: list[dict[int, int]] = []
    for r in summary.get("rounds", []):
        lost = r.get("lost") or {}
        losses.append({int(s): int(k) for s, k in lost.items() if int(k) > 0})
    rec = None
    if with_record:
        rec = record_against(game.game_id, seats)
    return Story(rounds=len(summary.get("rounds", [])), start_lives=start, lives=lives,
                 losses=losses, out_round=dict(out_round), pot=int(getattr(game, "pot", 0)),
                 stake=int(game.rules.get("stake", 0) or 0), record=rec)


def record_against(game_id: str, seats: list[dict[str, Any]]) -> store.LevelStats | None:
    """How the people at this table have done in this game against computers of these
    levels (the statistics' grouping), this game included; None without statistics."""
    level = store.opponent_level(store.seats_to_record(seats))
    if level == "none":
        return None
    try:
        summary = store.summarize()
    except store.STATS_ERRORS:   # a bonus on this screen; the start-up check told why
        return None
    for row in summary.by_level:
        if row.game == game_id and row.level == level:
            return row
    return None
