"""The review of a game record: every decision with the coach's odds, what it cost
against the best option, and per player the lives that choices cost and the rest that
the cards decided. Pure: no pygame, no clock.

Three steps, so the window can run the middle one in a worker with progress:

1. :func:`plan` replays the record (validated by :func:`game.records.rebuild` first)
   and lists every decision that offered a choice, the cards each seat was dealt in
   each round, and the lives lost. Decisions of a round still in play are left out:
   the review shows nothing of a round that is not over.
2. :func:`advise_moves` (what a worker runs, for a few decisions at a time) replays the
   record to each decision and asks the coach (:func:`game.ai.coach.advise_view`, the
   same coach and number of deals as the in-game odds) with the deciding seat's own
   view at that moment (``game.view(seat)``). The coach decides from counts and the
   view's own seed, so the same record always gives the same review. (The views are
   made where they are used and dropped at once: a long game's views kept together
   would fill the memory and slow the window.)
3. :func:`assemble` turns the plan and the coach's answers into the review as plain
   JSON-ready data (``docs/review.md``); ``stammtisch review --json`` prints exactly
   that, and the review screen draws exactly that.

What a choice costs is counted in lives: an option's *lives* are the expected lives
the deciding seat loses this round after it, plus what the coach says it costs in
later rounds (``later``: a Rams drop that brings a forced round). The best option has
the fewest; a choice costs its lives less the best option's. Going out in a Chase
sudden-death round counts as a life, as the coach counts it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game import records
from game.records import Record
from game.rules.rams_rules import counters_of

#: The version of the review's JSON (``docs/review.md``).
REVIEW_FORMAT = 1
#: The coach's level behind the in-game odds (game.turn.coach asks for the default).
DEFAULT_LEVEL = "hard"
#: The costliest decisions marked as the game's key moments, and per player.
KEY_MOMENTS = 5
KEY_PER_PLAYER = 3
#: A decision is a key moment only if it cost at least this many lives: below it the
#: difference is within what the coach's sampling can tell apart.
KEY_MIN_COST = 0.02
#: Public parts of the view shown beside a decision's cards (whichever the game has).
SEEN_KEYS = ("faceup", "trump", "trump_card", "trick", "tricks")
#: Decimal places of every figure in the review.
DIGITS = 4


@dataclass
class Point:
    """One decision that offered a choice."""

    move: int               # index of the move in the record
    round: int
    seat: int
    decision: str
    legal: list[str]
    chosen: str


@dataclass
class Plan:
    """A record's decisions to review, and the facts of its finished rounds."""

    record: Record
    points: list[Point]
    finished: bool
    winner: Any
    #: moves of the finished rounds (the review covers these)
    reviewed_moves: int
    #: per finished round: ``{round, dealer, dealt: {seat: cards}, lost, out}``
    rounds: list[dict[str, Any]]
    #: the round still in play, if the game is not over: ``{round, moves}``
    in_play: dict[str, Any] | None
    lives_lost: list[int]


def plan(record: Record) -> Plan:
    """Replay ``record`` and list its decisions (raises :class:`RecordError` for a bad
    record, exactly as ``stammtisch replay`` reports it)."""
    final = records.rebuild(record)
    game = records.new_engine(record)
    game.start()
    points: list[Point] = []
    dealt: dict[int, dict[str, list[str]]] = {}
    dealers: dict[int, int] = {}
    round_moves: dict[int, int] = {}
    rnd = _note_round(game, dealt, dealers, -1)
    for i, (seat, move) in enumerate(record.moves):
        pending = game.to_move()
        assert pending is not None       # rebuild() accepted every move
        round_moves[rnd] = round_moves.get(rnd, 0) + 1
        if len(pending.legal) > 1:
            points.append(Point(i, rnd, seat, pending.decision, sorted(pending.legal), move))
        game.apply(seat, move)
        rnd = _note_round(game, dealt, dealers, rnd)
    summary = final.summary()
    done = len(summary.get("rounds", []))
    finished = bool(final.finished)
    in_play = None
    if not finished:
        in_play = {"round": done, "moves": round_moves.get(done, 0)}
        points = [p for p in points if p.round < done]
    n = len(record.seats)
    lost = [0] * n
    rounds = []
    for r, entry in enumerate(summary.get("rounds", [])):
        got = {int(s): int(k) for s, k in (entry.get("lost") or {}).items()}
        out = [int(s) for s in entry.get("out") or []] if entry.get("sudden_death") else []
        for s, k in got.items():
            lost[s] += k
        for s in out:
            lost[s] += 1
        rounds.append({"round": r, "dealer": dealers.get(r, entry.get("dealer")),
                       "dealt": dealt.get(r, {}), "lost": {str(s): k for s, k in got.items()},
                       "out": out})
    reviewed = sum(k for r, k in round_moves.items() if finished or r < done)
    return Plan(record, points, finished, summary.get("winner"), reviewed, rounds, in_play,
                lost)


def _note_round(game: Any, dealt: dict[int, dict[str, list[str]]], dealers: dict[int, int],
                last: int) -> int:
    """At the start of a new round, note what every seat dealt in was dealt (shown in
    the review only once the round is over). Returns the round in play."""
    pending = game.to_move()
    if pending is None:
        return last
    rnd = int(game.view_key(pending.seat, "round"))
    if rnd != last:
        hands: dict[str, list[str]] = {}
        for s in game.view_key(pending.seat, "active"):
            for ev in game.view_key(s, "private"):
                if ev.get("type") == "dealt":
                    hands[str(s)] = list(ev.get("cards", []))
        dealt[rnd] = hands
        dealers[rnd] = int(game.view_key(pending.seat, "dealer"))
    return rnd


def advise(view: Mapping[str, Any], level: str = DEFAULT_LEVEL,
           samples: int | None = None) -> dict[str, Any]:
    """The coach's odds for one view, and what the review shows of the view: ``{options,
    later, hand, seen}`` (the seat's cards and the public table it saw).
    ``samples``: deals per move (default: the coach's own, as the in-game odds)."""
    from game.ai.coach import advise_view

    got = advise_view(view, level, samples, pick=False)
    return {"options": got.get("options") or {}, "later": got.get("later") or {},
            "hand": list(view.get("hand", [])),
            "seen": {k: view[k] for k in SEEN_KEYS if k in view}}


#: A worker's game, kept between its calls for one record: ``(token, engine, moves
#: applied)``. The decisions come in order, so each worker replays a record once.
_replay: list[Any] = []


def advise_moves(record_data: Mapping[str, Any], moves: Sequence[int],
                 level: str = DEFAULT_LEVEL, samples: int | None = None,
                 token: str | None = None) -> list[dict[str, Any]]:
    """:func:`advise` at each of ``moves`` (indices into the record's moves, ascending)
    of the record ``record_data`` (docs/records.md's dict): what a worker runs. ``token``
    names the record, so that the next call for it goes on from where this one ended
    instead of replaying from the start (the answer is the same either way)."""
    game, done = None, 0
    if token is not None and _replay and _replay[0] == token and moves \
            and moves[0] >= _replay[2]:
        _, game, done = _replay
    record = records.from_dict(record_data)
    if game is None:
        game = records.new_engine(record)
        game.start()
        done = 0
    out = []
    for i in moves:
        while done < i:
            seat, move = record.moves[done]
            game.apply(seat, move)
            done += 1
        pending = game.to_move()
        out.append(advise(game.view(pending.seat), level, samples))
    _replay[:] = [token, game, done] if token is not None else []
    return out


def advise_all(p: Plan, level: str = DEFAULT_LEVEL, samples: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Every decision's odds, one after another in this process."""
    data = p.record.as_dict()
    token = uuid.uuid4().hex
    out: list[dict[str, Any]] = []
    try:
        for chunk in chunks(p, 1):
            out += advise_moves(data, chunk, level, samples, token)
            if progress is not None:
                progress(len(out), len(p.points))
    finally:
        _replay.clear()
    return out


def chunks(p: Plan, size: int) -> list[list[int]]:
    """The decisions' move indices in groups of ``size``, in order."""
    moves = [pt.move for pt in p.points]
    return [moves[k:k + size] for k in range(0, len(moves), size)]


def _r(x: float) -> float:
    return round(float(x), DIGITS)


def judge(point: Point, advice: Mapping[str, Any]) -> dict[str, Any]:
    """One decision of the review: the options with their lives, the best, the cost."""
    options = advice.get("options") or {}
    later = advice.get("later") or {}
    shown: dict[str, dict[str, float]] = {}
    for m in point.legal:
        o = options.get(m)
        if o is None:
            continue
        lives = float(o["expected_loss"]) + float(later.get(m, 0.0))
        shown[m] = {"lose_life": _r(o["lose_life"]), "expected_loss": _r(o["expected_loss"]),
                    "lives": _r(lives)}
    out: dict[str, Any] = {"move": point.move, "round": point.round, "seat": point.seat,
                           "decision": point.decision, "hand": list(advice.get("hand", [])),
                           "seen": dict(advice.get("seen") or {}),
                           "chosen": point.chosen, "options": shown}
    if not shown or point.chosen not in shown:
        out.update(best=None, cost=0.0, at_stake=0.0, key=None)
        return out
    best = min(shown, key=lambda m: (shown[m]["lives"], shown[m]["lose_life"],
                                     point.legal.index(m)))
    lo = shown[best]["lives"]
    out.update(best=best, cost=_r(max(0.0, shown[point.chosen]["lives"] - lo)),
               at_stake=_r(max(o["lives"] for o in shown.values()) - lo), key=None)
    return out


def _key_moments(decisions: Sequence[dict[str, Any]], limit: int) -> list[int]:
    """Indices (into ``decisions``) of the costliest ones, costliest first."""
    ranked = sorted(range(len(decisions)),
                    key=lambda k: (-decisions[k]["cost"], decisions[k]["move"]))
    return [k for k in ranked[:limit] if decisions[k]["cost"] >= KEY_MIN_COST]


def scoring_of(rec: Record) -> str:
    """``counters`` for Rams under counters (every "lives" figure of the review is then
    counters: a penalty adds them, a trick sheds them), else ``lives``. From the rules
    the record's engine plays (a record may leave its format's defaults unsaid)."""
    return "counters" if counters_of(records.new_engine(rec).rules) else "lives"


def accuracy(cost: float, at_stake: float) -> float | None:
    """The share of the lives at stake in a player's choices that the choices kept:
    1 when every choice was the best option, 0 when every one was the worst. ``None``
    when no choice put anything at stake."""
    if at_stake <= 1e-9:
        return None
    return _r(max(0.0, min(1.0, 1.0 - cost / at_stake)))


def assemble(p: Plan, advice: Sequence[Mapping[str, Any]], level: str = DEFAULT_LEVEL,
             samples: int | None = None) -> dict[str, Any]:
    """The review as JSON-ready data (``docs/review.md``)."""
    if len(advice) != len(p.points):
        raise ValueError(f"{len(advice)} answers for {len(p.points)} decisions")
    rec = p.record
    decisions = [judge(pt, a) for pt, a in zip(p.points, advice)]
    key = _key_moments(decisions, KEY_MOMENTS)
    for rank, k in enumerate(key):
        decisions[k]["key"] = rank + 1
    players = []
    for s, seat in enumerate(rec.seats):
        mine = [k for k, d in enumerate(decisions) if d["seat"] == s]
        cost = sum(decisions[k]["cost"] for k in mine)
        stake = sum(decisions[k]["at_stake"] for k in mine)
        lost = p.lives_lost[s]
        own = [decisions[k] for k in mine]
        players.append({
            "seat": s, "name": seat.name, "type": seat.type, "level": seat.level,
            "decisions": len(mine), "lives_lost": lost, "decision_cost": _r(cost),
            "cards": _r(lost - cost), "at_stake": _r(stake),
            "accuracy": accuracy(cost, stake),
            "key_moments": [own[j]["move"] for j in _key_moments(own, KEY_PER_PLAYER)],
        })
    return {
        "review": REVIEW_FORMAT, "game": rec.game, "level": level, "samples": samples,
        "scoring": scoring_of(rec),
        "seats": [s.as_dict() for s in rec.seats],
        "finished": p.finished, "winner": p.winner,
        "moves": len(rec.moves), "reviewed_moves": p.reviewed_moves, "in_play": p.in_play,
        "players": players,
        "key_moments": [decisions[k]["move"] for k in key],
        "decisions": decisions,
        "rounds": p.rounds,
    }


def review(record: Record, level: str = DEFAULT_LEVEL, samples: int | None = None,
           progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The whole review of ``record`` in this process."""
    p = plan(record)
    return assemble(p, advise_all(p, level, samples, progress), level, samples)
