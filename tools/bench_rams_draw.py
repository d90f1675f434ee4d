"""Would drawing cards make Rams' declaration a real choice more often? A model on the
search's packed-card rounds (:mod:`game.ai.rams_playout`), four seats, five cards each
from the 32-card deck, ``scoring: counters``; the exchange is not a rule of the engine.

    python tools/bench_rams_draw.py room --deals 1500 --worlds 200
    python tools/bench_rams_draw.py room --others hand --keep K
    python tools/bench_rams_draw.py skill --deals 400 --worlds 100

Figures and what they mean: ``docs/rams-pace.md`` (Drawing cards).

The exchange (traditional): after the declarations every seat that plays, in turn from
the dealer's left, discards up to ``k`` cards and draws as many from the stock while it
lasts (4 x 5 cards and the turned trump leave 11).

``room``: for every deal (seeded, deterministic) one seat, its place at the table drawn
with the deal, knows its five cards and the turned trump; ``--worlds`` deals of the 26
cards it cannot see (the other hands and the stock) give its expected counters from
playing, each world played out by the heuristic (:func:`policy_bit`); with an exchange
the value counts the exchange to come (the seat declares before it sees what it will
draw). Dropping costs nothing (no fee, no limit), so play's expected counters are the
gap the coach's ``choice`` measure reads. Printed per exchange rule: the gap's
quartiles, the share of deals within half a counter of dropping (a tenth of a stake),
the ``room`` of ``tools/bench_rams_pace.py`` (the best share any constant fee for
playing could reach, the same function) and its change against no exchange (paired:
the same deals and worlds). Rows: no exchange; discarding by the simple rule with
``k`` = 1 … 5 (5: any number).

``skill``: the declaring seat plays; instead of the simple rule it tries every discard
of up to five cards in ``--worlds`` sampled deals and keeps the best one; both discards
are then played out in ``--worlds`` fresh deals. Printed: what the searched discard
gains over the simple rule in counters per round played (positive: it sheds more).

Simplifications (it is a model, not the game):

- The other seats declare without seeing their hands or earlier declarations: each
  plays with a 60 % chance (``--others``), as often as the levels play under counters.
  With ``--others hand`` a seat plays by its hand instead: when the fitted
  hand-strength model of the levels (:func:`game.ai.rams_model._count_loss`, against
  two other players) puts playing below :data:`PLAY_BELOW` stakes, which also makes
  60 % of the seats play. The first lands nearer the coach's figures without an
  exchange (the room 24.6 % against the bench's 25 %; by hand 20 %). The others
  declare the same way with an exchange (a rule with one would likely make more of
  them play).
- Everyone discards by the simple rule: keep trumps and side cards of rank
  ``--keep`` (``A``: aces; ``K``: kings and aces) or higher, discard the rest, lowest
  first, up to ``k``. Nobody sees the cards discarded; the play-outs treat them as unseen.
- Exactly one seat playing is Rams as in the rules (everyone takes part, the others
  defend); defenders do not draw. No General Rams, no seat reaching zero in the round.
- The seat's values are heuristic play-outs over ``--worlds`` deals, as the coach's
  are over its sampled deals (200 in the bench's figures): the sampling noise widens
  the gap's spread in both.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rams_pace import CLOSE, room  # noqa: E402
from bench_rams_room import CARDS, DK, SEATS  # noqa: E402

from game.ai.common import mix  # noqa: E402
from game.ai.rams_model import _count_loss  # noqa: E402
from game.ai.rams_playout import Round, play_out  # noqa: E402
from game.ai.rams_strength import features  # noqa: E402
from game.ai.stats import mean_ci, percentile  # noqa: E402

HAND = 5
#: a counter is a fifth of the stake (what playing without a trick costs)
STAKE = 5.0
#: the other seats play when the fitted model's cost of playing against two others is
#: below this (stakes): 60 % of the seats then play, as the levels do under counters
PLAY_BELOW = 0.13
RANKS = "789TJQKA"

#: one sampled world: the other seats' hands (the seat's own in place), the stock in
#: drawing order, and which seats declared play
World = tuple[list[int], list[int], list[bool]]


def _deal(seed: int) -> tuple[int, int, int]:
    """The declaring seat, its hand and the turned trump (a bit) of deal ``seed``."""
    rng = random.Random(seed)
    cards = CARDS[:]
    rng.shuffle(cards)
    hand = 0
    for b in cards[:HAND]:
        hand |= 1 << b
    return rng.randrange(SEATS), hand, cards[HAND]


def _plays(hand: int, turned: int, others: float | None, rng: random.Random) -> bool:
    if others is not None:
        return rng.random() < others
    f = features(hand, turned >> 4, 1 << turned, DK)
    return _count_loss(f, 2.0, False) < PLAY_BELOW


def _worlds(me: int, hand: int, turned: int, n: int, rng: random.Random,
            others: float | None) -> list[World]:
    unseen = [b for b in CARDS if b != turned and not hand >> b & 1]
    out = []
    for _ in range(n):
        rng.shuffle(unseen)
        hands = [0] * SEATS
        i = 0
        for s in range(SEATS):
            if s == me:
                hands[s] = hand
                continue
            for b in unseen[i:i + HAND]:
                hands[s] |= 1 << b
            i += HAND
        plays = [s == me or _plays(hands[s], turned, others, rng) for s in range(SEATS)]
        out.append((hands, unseen[i:], plays))
    return out


def simple_discard(hand: int, trump: int, k: int, keep: int) -> int:
    """The simple rule: every card that is not a trump or a side card of rank ``keep``
    (an index into ``RANKS``) or higher, lowest rank first, at most ``k`` of them."""
    loose = [b for b in range(64) if hand >> b & 1 and b >> 4 != trump and b & 15 < keep]
    out = 0
    for b in sorted(loose, key=lambda b: (b & 15, b))[:k]:
        out |= 1 << b
    return out


def play(me: int, turned: int, world: World, k: int, keep: int,
         own: int | None = None) -> int:
    """The seat's counters lost in ``world`` (negative: shed), every playing seat
    exchanging by the simple rule (up to ``k`` cards; 0: no exchange), the seat itself
    discarding ``own`` if given."""
    hands, stock, plays = world
    hands = hands[:]
    trump = turned >> 4
    players = [s for s in range(SEATS) if plays[s]]
    lone = None
    if len(players) == 1:
        players, lone = list(range(SEATS)), me
    elif k or own is not None:
        pos = 0
        for s in players:          # from the dealer's left (seat 0), while stock lasts
            out = own if s == me and own is not None else simple_discard(hands[s], trump,
                                                                         k, keep)
            for b in range(64):
                if out >> b & 1 and pos < len(stock):
                    hands[s] = hands[s] & ~(1 << b) | 1 << stock[pos]
                    pos += 1
    r = Round(DK, trump, players, lone, SEATS, HAND, counting=True)
    r.hands = hands
    r.gone = 1 << turned
    return play_out(r, players[0]).losses().get(me, 0)


def _quartiles(xs: list[float]) -> list[float]:
    return [round(percentile(xs, q), 2) for q in (25, 50, 75)]


def room_rows(deals: int, worlds: int, seed: int, keep: int, others: float | None
              ) -> dict[str, list[float]]:
    """Play's expected counters per deal (the gap to dropping), per exchange rule."""
    rules = {"no exchange": 0} | {f"up to {k}" if k < HAND else "any number": k
                                  for k in range(1, HAND + 1)}
    out: dict[str, list[float]] = {name: [] for name in rules}
    for d in range(deals):
        me, hand, turned = _deal(mix(seed, d))
        ws = _worlds(me, hand, turned, worlds, random.Random(mix(seed, d, 1)), others)
        for name, k in rules.items():
            out[name].append(sum(play(me, turned, w, k, keep) for w in ws) / len(ws))
    return out


def room_report(gaps: dict[str, list[float]]) -> dict[str, object]:
    """Print and return each exchange rule's figures; the room's change against the
    first rule (no exchange) is paired: the same deals and sampled worlds."""
    print("| exchange | play - drop, counters: quartiles | within 0.5 of drop [95 %] "
          "| room: best fee (counters), share [95 %] | room's change, paired [95 %] |")
    print("|---|---|---|---|---|")
    out: dict[str, object] = {}
    first: list[float] | None = None
    for name, xs in gaps.items():
        n = len(xs)
        near = mean_ci([1.0 if abs(x) <= CLOSE * STAKE else 0.0 for x in xs])
        best = room([x / STAKE for x in xs], n)
        fee = best["best_shift"]
        hits = [1.0 if abs(x / STAKE + fee) <= CLOSE else 0.0 for x in xs]
        inside = mean_ci(hits)
        first = hits if first is None else first
        diff = mean_ci([h - f for h, f in zip(hits, first)])
        q = _quartiles(xs)
        print(f"| {name} | {q[0]:+.2f} / {q[1]:+.2f} / {q[2]:+.2f} | "
              f"{100 * near[0]:.1f} % [{100 * near[1]:.1f}, {100 * near[2]:.1f}] | "
              f"{fee * STAKE:+.2f}, {100 * inside[0]:.1f} % "
              f"[{100 * inside[1]:.1f}, {100 * inside[2]:.1f}] | "
              f"{100 * diff[0]:+.1f} [{100 * diff[1]:+.1f}, {100 * diff[2]:+.1f}] |")
        out[name] = {"quartiles": q, "near": round(near[0], 4),
                     "room_fee_counters": round(fee * STAKE, 2),
                     "room": best["real_share"],
                     "room_ci95": [round(inside[1], 4), round(inside[2], 4)],
                     "room_change": [round(x, 4) for x in diff],
                     "play_mean": round(sum(xs) / n, 3)}
    return out


def _searched(me: int, hand: int, turned: int, ws: list[World], keep: int) -> int:
    """The discard (of up to five cards) with the best total over ``ws``."""
    cards = [b for b in range(64) if hand >> b & 1]
    best, best_v = 0, None
    for m in range(1 << len(cards)):
        out = 0
        for i, b in enumerate(cards):
            if m >> i & 1:
                out |= 1 << b
        v = sum(play(me, turned, w, HAND, keep, out) for w in ws)
        if best_v is None or v < best_v:
            best, best_v = out, v
    return best


def skill_rows(deals: int, worlds: int, seed: int, keep: int, others: float | None
               ) -> tuple[list[float], list[float], list[float]]:
    """Per deal: the simple rule's and the searched discard's counters lost (fresh
    deals), and the share of the searched discards that differ from the simple rule."""
    simple, searched, differs = [], [], []
    for d in range(deals):
        me, hand, turned = _deal(mix(seed, d))
        choose = _worlds(me, hand, turned, worlds, random.Random(mix(seed, d, 1)), others)
        pick = _searched(me, hand, turned, choose, keep)
        rule = simple_discard(hand, turned >> 4, HAND, keep)
        ws = _worlds(me, hand, turned, worlds, random.Random(mix(seed, d, 2)), others)
        simple.append(sum(play(me, turned, w, HAND, keep, rule) for w in ws) / len(ws))
        searched.append(sum(play(me, turned, w, HAND, keep, pick) for w in ws) / len(ws))
        differs.append(1.0 if pick != rule else 0.0)
    return simple, searched, differs


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name, deals, worlds in (("room", 1500, 200), ("skill", 300, 100)):
        q = sub.add_parser(name)
        q.add_argument("--deals", type=int, default=deals)
        q.add_argument("--worlds", type=int, default=worlds)
        q.add_argument("--seed", type=int, default=1)
        q.add_argument("--keep", choices=("A", "K", "Q"), default="A",
                       help="the lowest side card the simple rule keeps")
        q.add_argument("--others", default="0.6",
                       help="the chance each other seat plays, or 'hand': by its hand")
    a = p.parse_args(argv)
    keep = RANKS.index(a.keep)
    others = None if a.others == "hand" else float(a.others)
    res: dict[str, object] = {"cmd": a.cmd, "deals": a.deals, "worlds": a.worlds,
                              "seed": a.seed, "keep": a.keep,
                              "others": others if others is not None else "by hand"}
    if a.cmd == "room":
        res["rows"] = room_report(room_rows(a.deals, a.worlds, a.seed, keep, others))
    else:
        simple, searched, differs = skill_rows(a.deals, a.worlds, a.seed, keep, others)
        gain = mean_ci([x - y for x, y in zip(simple, searched)])
        print(f"simple rule: {sum(simple) / len(simple):+.3f} counters a round played; "
              f"searched discard: {sum(searched) / len(searched):+.3f}; gain "
              f"{gain[0]:+.3f} [{gain[1]:+.3f}, {gain[2]:+.3f}]; the discards differ in "
              f"{100 * sum(differs) / len(differs):.0f} % of the deals")
        res["gain"] = {"mean": round(gain[0], 4),
                       "ci95": [round(gain[1], 4), round(gain[2], 4)]}
        res["differs"] = round(sum(differs) / len(differs), 4)
    print(json.dumps(res), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
