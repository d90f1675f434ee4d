"""How much room a Rams forced round leaves a stronger player: simulations on the
search's packed-card rounds (:mod:`game.ai.rams_playout`), 4 players, 5 cards each,
default trick rules, every seat playing (the round the drop limit brings every other
round at a 4-player table).

    python tools/bench_rams_room.py sight --deals 3000 --jobs 2
    python tools/bench_rams_room.py reading --deals 1500 --worlds 60 --jobs 2
    python tools/bench_rams_room.py plan --deals 2000 --worlds 60 --jobs 2
    python tools/bench_rams_room.py sight --deals 1000 --counters

``--counters``: the same round under ``scoring: counters`` (every trick sheds a
counter, none adds five), the figures in counters per round.

One seat plays a stronger way, the other three the play-out heuristic
(:func:`~game.ai.rams_playout.policy_bit`); every deal is played with that seat in each
of the four places. Printed: the seat's lives lost per round less the average of the
other three (negative: better), mean and 95 % interval over the deals.

``sight``: the seat sees every hand once it holds ``k`` cards or fewer (k = 5 … 2) and
plays the card whose heuristic play-out is best; before that it plays the heuristic.
What knowing the hidden cards is worth, trick by trick (no fair player gets this).

``reading``: the seat samples ``--worlds`` deals of the unseen cards per decision and
plays the card with the best heuristic play-outs over them (like ``hard``), once with
deals that only respect the voids shown, once with deals in which every card the
others played is the heuristic's card with that hand (the exact posterior: their play
is known perfectly). The difference is the most that reading the cards played can be
worth against these opponents; against unfamiliar ones it is less.

``plan``: two sampling seats on the same deals. One values each card by heuristic
play-outs, in which its own later cards are the heuristic's too (like ``hard``). The
other plans its next card as well, without seeing the hidden cards: in every sampled
deal it tries each card it could play at its next turn, and chooses there the card that
did best over the other deals in which it would have seen the same cards played up to
that turn (leave one out, so a deal never picks its own best card; alone, or on a tie,
the heuristic's card). ``--key trick`` groups the deals by less (the cards of the trick
at that turn and the tricks won so far), so more deals share a choice. The paired
difference is what a search over the seat's own later cards adds to ``hard``'s kind of
search.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.ai.common import mix  # noqa: E402
from game.ai.rams_cards import SUIT_MASK, bits, deck  # noqa: E402
from game.ai.rams_playout import Round, play_out, policy_bit  # noqa: E402
from game.ai.stats import mean_ci  # noqa: E402

DK = deck("skat32")
CARDS = sorted(DK.code)
SEATS = 4
#: a life of the seat's own against one of the others', in the seat's choices
OWN = 3

Log = list[tuple[int, int]]
Policy = Callable[[Round, int, Log, Round], int]


def _deal(seed: int) -> tuple[list[int], int]:
    cards = CARDS[:]
    random.Random(seed).shuffle(cards)
    hands = [0] * SEATS
    for s in range(SEATS):
        for b in cards[5 * s:5 * s + 5]:
            hands[s] |= 1 << b
    return hands, cards[20]


def _score(r: Round, seat: int) -> int:
    lost = r.losses()
    return -OWN * lost.get(seat, 0) + sum(v for s, v in lost.items() if s != seat)


def _after(r: Round, seat: int, b: int, hands: dict[int, int] | None = None) -> int:
    """The score for ``seat`` of playing ``b`` now and the heuristic afterwards, with
    the other seats' hands replaced by ``hands`` if given."""
    w = r.copy()
    if hands:
        for s, h in hands.items():
            w.hands[s] = h
    won = w.play(seat, b)
    # the trick goes on from the next seat, or the winner of the one this card ended
    # leads the next
    return _score(play_out(w, w.to_play() if won is None else won), seat)


def sight(k: int) -> Policy:
    def choose(r: Round, seat: int, log: Log, start: Round) -> int:
        legal = r.legal(seat)
        if legal & (legal - 1) == 0 or r.hands[seat].bit_count() > k:
            return policy_bit(r, seat)
        return max(bits(legal), key=lambda b: (_after(r, seat, b), -b))
    return choose


def _sample(r: Round, seat: int, rng: random.Random, worlds: int,
            fits: Callable[[dict[int, int]], bool] | None = None) -> list[dict[int, int]]:
    """Up to ``worlds`` deals of the cards ``seat`` cannot see to the other seats, each
    respecting the voids shown (and ``fits``, if given)."""
    others = [s for s in range(SEATS) if s != seat]
    unseen = [b for b in CARDS if not (r.gone | r.hands[seat]) >> b & 1]
    sizes = [r.hands[s].bit_count() for s in others]
    out: list[dict[int, int]] = []
    tries = 0
    while len(out) < worlds and tries < 200 * worlds:
        tries += 1
        rng.shuffle(unseen)
        hands: dict[int, int] = {}
        i = 0
        for s, n in zip(others, sizes):
            h = 0
            for b in unseen[i:i + n]:
                h |= 1 << b
            i += n
            hands[s] = h
        if any(hands[s] & SUIT_MASK[x] for s in others for x in range(4)
               if r.voids[s] >> x & 1):
            continue
        if fits is not None and not fits(hands):
            continue
        out.append(hands)
    return out


def reading(worlds: int, exact: bool, seed: int) -> Policy:
    rng = random.Random(seed)

    def choose(r: Round, seat: int, log: Log, start: Round) -> int:
        legal = r.legal(seat)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        fits = (lambda hands: _as_the_heuristic(start, log, seat, hands)) if exact else None
        total = {b: 0 for b in bits(legal)}
        for hands in _sample(r, seat, rng, worlds, fits):
            for b in total:
                total[b] += _after(r, seat, b, hands)
        return max(total, key=lambda b: (total[b], -b))
    return choose


def plan(worlds: int, seed: int, coarse: bool = False) -> Policy:
    """A sampling seat that plans its next card too, per what it will have seen (with
    ``coarse``, per the trick at that turn and the tricks won)."""
    rng = random.Random(seed)

    def choose(r: Round, seat: int, log: Log, start: Round) -> int:
        legal = r.legal(seat)
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        deals = _sample(r, seat, rng, worlds)
        return max(bits(legal), key=lambda b: (_planned(r, seat, b, deals, coarse), -b))
    return choose


def _planned(r: Round, seat: int, b: int, deals: list[dict[int, int]],
             coarse: bool) -> float:
    """Total score over ``deals`` of playing ``b`` now, the heuristic until this seat's
    next turn, there the card chosen from the other deals that look the same to it
    (:func:`_leave_one_out`), then the heuristic."""
    total = 0.0
    seen: dict[tuple[object, ...], list[tuple[dict[int, int], int]]] = {}
    for hands in deals:
        w = r.copy()
        for s, h in hands.items():
            w.hands[s] = h
        won = w.play(seat, b)
        nxt = w.to_play() if won is None else won
        shown: list[tuple[int, int]] = []
        while w.hands[nxt] and nxt != seat:
            c = policy_bit(w, nxt)
            shown.append((nxt, c))
            won = w.play(nxt, c)
            nxt = w.to_play() if won is None else won
        legal = w.legal(seat) if w.hands[nxt] else 0
        if legal & (legal - 1) == 0:
            total += _score(play_out(w, nxt), seat)
            continue
        scores = {d: _after(w, seat, d) for d in bits(legal)}
        key = (tuple(w.trick), tuple(w.tricks)) if coarse else tuple(shown)
        seen.setdefault(key, []).append((scores, policy_bit(w, seat)))
    for group in seen.values():
        total += _leave_one_out(group)
    return total


def _leave_one_out(group: list[tuple[dict[int, int], int]]) -> float:
    """The total score of a group of deals that look the same to the seat at its next
    turn, each deal playing there the card with the best total over the group's other
    deals (the heuristic's card when it is alone or ties)."""
    sums: dict[int, int] = {}
    for scores, _ in group:
        for d, x in scores.items():
            sums[d] = sums.get(d, 0) + x
    total = 0.0
    for scores, heuristic in group:
        rest = {d: sums[d] - x for d, x in scores.items()}
        top = max(rest.values())
        pick = heuristic
        if len(group) > 1 and rest[heuristic] < top:
            pick = max(rest, key=lambda d: (rest[d], -d))
        total += scores[pick]
    return total


def _as_the_heuristic(start: Round, log: Log, seat: int, now: dict[int, int]) -> bool:
    """Whether, with the others' hands ``now``, every card they played so far was the
    heuristic's."""
    r = start.copy()
    for s, h in now.items():
        r.hands[s] = h
    for s, b in log:
        if s != seat:
            r.hands[s] |= 1 << b
    for s, b in log:
        if s != seat and policy_bit(r, s) != b:
            return False
        r.play(s, b)
    return True


def _round(hands: list[int], turned: int, seat: int, policy: Policy,
           counting: bool = False) -> dict[int, int]:
    r = Round(DK, turned >> 4, list(range(SEATS)), None, SEATS, 5, counting=counting)
    r.hands = hands[:]
    r.gone = 1 << turned
    start = r.copy()
    log: Log = []
    nxt = 0
    while r.hands[nxt]:
        b = policy(r, nxt, log, start) if nxt == seat else policy_bit(r, nxt)
        log.append((nxt, b))
        won = r.play(nxt, b)
        nxt = (nxt + 1) % SEATS if won is None else won
    return r.losses()


def _job(job: tuple[str, int, int, int, int, bool]) -> list[float]:
    kind, arg, first, count, seed, counting = job
    out = []
    for d in range(first, first + count):
        hands, turned = _deal(mix(seed, d))
        diff = 0.0
        for seat in range(SEATS):
            rng_seed = mix(seed, d, seat)
            policy = (sight(arg) if kind == "sight"
                      else plan(arg, rng_seed, kind == "plan-trick")
                      if kind.startswith("plan")
                      else reading(arg, kind == "exact", rng_seed))
            lost = _round(hands, turned, seat, policy, counting)
            diff += lost.get(seat, 0) - sum(v for s, v in lost.items() if s != seat) / 3
        out.append(diff / SEATS)
    return out


def run(kind: str, arg: int, deals: int, seed: int, jobs: int,
        counting: bool = False) -> list[float]:
    step = -(-deals // (4 * jobs))
    parts = [(kind, arg, a, min(step, deals - a), seed, counting)
             for a in range(0, deals, step)]
    if jobs == 1:
        return [x for p in parts for x in _job(p)]
    with Pool(jobs) as pool:
        return [x for part in pool.map(_job, parts) for x in part]


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sight")
    r = sub.add_parser("reading")
    pl = sub.add_parser("plan")
    for q in (r, pl):
        q.add_argument("--worlds", type=int, default=60)
    pl.add_argument("--key", choices=("seen", "trick"), default="seen",
                    help="what the deals sharing a choice at the next turn have in common")
    for q in (s, r, pl):
        q.add_argument("--deals", type=int, default=1000)
        q.add_argument("--seed", type=int, default=1)
        q.add_argument("--jobs", type=int, default=1)
        q.add_argument("--counters", action="store_true",
                       help="scoring: counters (the change of counters, not lives)")
    args = p.parse_args(argv)
    cnt = args.counters
    rows: list[tuple[str, list[float]]] = []
    if args.cmd == "sight":
        for k in (5, 4, 3, 2):
            rows.append((f"sees every hand from {k} cards on",
                         run("sight", k, args.deals, args.seed, args.jobs, cnt)))
    elif args.cmd == "reading":
        for kind, name in (("voids", "deals respecting the voids"),
                           ("exact", "deals where the others played the heuristic")):
            rows.append((f"samples {args.worlds} {name}",
                         run(kind, args.worlds, args.deals, args.seed, args.jobs, cnt)))
    else:
        for kind, name in (("voids", "its later cards the heuristic's"),
                           ("plan" if args.key == "seen" else "plan-trick",
                            "its next card planned as well")):
            rows.append((f"samples {args.worlds} deals, {name}",
                         run(kind, args.worlds, args.deals, args.seed, args.jobs, cnt)))
    out: dict[str, object] = {"cmd": args.cmd, "deals": args.deals, "seed": args.seed,
                              "scoring": "counters" if cnt else "lives"}
    if args.cmd == "plan":
        out["key"] = args.key
    unit = "counters" if cnt else "lives"
    print(f"| seat (among three heuristic seats) | {unit} per forced round vs theirs [95 %] |")
    print("|---|---|")
    for name, xs in rows:
        m, lo, hi = mean_ci(xs)
        print(f"| {name} | {m:+.4f} [{lo:+.4f}, {hi:+.4f}] |")
        out[name] = {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    if args.cmd != "sight":
        d = [b - a for a, b in zip(rows[0][1], rows[1][1])]
        m, lo, hi = mean_ci(d)
        what = "reading the cards exactly" if args.cmd == "reading" else "planning"
        print(f"| {what}, paired difference | {m:+.4f} [{lo:+.4f}, {hi:+.4f}] |")
        out["paired"] = {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
