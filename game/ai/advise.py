"""The coach: ``stammtisch advise FILE --json [--level L]`` and :func:`advise_view`.

From the deciding seat's view only, estimate for every legal move the probability
of losing at least one life this round (``lose_life``) and the expected lives lost
(``expected_loss``), assuming the other seats play as the named level would:

1. Cards this seat knows (its own, cards shown face up, cards it handed over in an
   exchange, followed through later public swaps) stay fixed; the unknown cards of
   the other seats and the talon are sampled from the rest of the deck.
2. Each sample is weighted by how likely the others' earlier moves of this round
   were under the level (each earlier card reconstructed by undoing the public swaps):
   a seat that kept probably holds a high card.
3. The rest of the round is simulated after each move with the level for everybody
   (common random numbers across moves), the showdown scored under the rules.

Deterministic: the samples are drawn from the view's ``seed``, ``round`` and ``step``.
:func:`estimate` takes one policy per seat; the ``expert`` level uses it for its
best response to its model of each opponent.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from game.ai.chase_levels import (
    ChaseLevel,
    Situation,
    blocker_strength,
    is_blocker,
    letters,
    situation,
    strength,
    turn_order,
)
from game.ai.players import mix

View = Mapping[str, Any]
PYes = Callable[[Situation], float]
DEFAULT_SAMPLES = 240


@lru_cache(maxsize=64)
def _deck(rules_items: tuple[tuple[str, Any], ...], players: int) -> tuple[str, ...]:
    from game.rules.chase import CardScale, chase_rules, decks_in_play

    rules = chase_rules(dict(rules_items))
    return tuple(CardScale(rules).deck * decks_in_play(rules, players))


@lru_cache(maxsize=64)
def _values(rules_items: tuple[tuple[str, Any], ...]) -> dict[str, int]:
    from game.rules.chase import CardScale, chase_rules

    return dict(CardScale(chase_rules(dict(rules_items))).value)


def _items(rules: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(rules.items()))


class World:
    """Everything one estimate needs that does not depend on the sample."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.rules = view["rules"]
        items = _items(self.rules)
        self.values = _values(items)
        self.deck = _deck(items, view["players"])
        self.sit = situation(view)
        self.order = turn_order(view)
        self.n = len(self.order)
        self.me = view["seat"]
        self.events = [e for e in view["events"]]
        self.blk = blocker_strength(self.rules)
        self.s13 = {c: strength(c, self.rules) for c in set(self.deck)}
        # known cards now, following public swaps
        known: dict[int, str] = {}
        dealt = self.sit.hand_card
        exchanges = []
        for e in view["private"]:
            if e.get("type") == "dealt" and e.get("cards"):
                dealt = e["cards"][0]
            elif e.get("type") == "exchange":
                exchanges.append(e)
        known[self.me] = dealt
        ex = iter(exchanges)
        for e in self.events:
            t = e.get("type")
            if t in ("show", "block", "refuse"):
                known[e["seat"]] = e["card"]
            elif t == "swap":
                a, b = e["seat"], e["with"]
                if self.me in (a, b):
                    x = next(ex, None)
                    if x is not None:
                        known[self.me] = x["got"]
                        known[x["with"]] = x["gave"]
                        continue
                ka, kb = known.pop(a, None), known.pop(b, None)
                if ka is not None:
                    known[b] = ka
                if kb is not None:
                    known[a] = kb
        if self.sit.hand_card:
            known[self.me] = self.sit.hand_card
        self.known = known
        rest = list(self.deck)
        for c in known.values():
            if c in rest:
                rest.remove(c)
        rest.sort(key=lambda c: (self.values[c], c))   # by strength: suits never matter here
        self.rest = rest
        self.unknown = [s for s in self.order if s not in known]
        self.letters = letters(self.order, self.events)
        lives = view["lives"]
        self.my_lives = lives[self.me] if self.me < len(lives) else 1
        # Queen refusals already used this game (restarts ignored)
        self.refused = {e["seat"] for r in view["history"] for e in r
                        if e.get("type") == "refuse"}
        self.refused |= {e["seat"] for e in self.events if e.get("type") == "refuse"}
        self.faceup = {int(k): v for k, v in view["faceup"].items()}


def _sit_for(w: World, pos: int, dealt: str, cur: str, hist: str,
             faceup: Mapping[int, str]) -> Situation:
    order, n = w.order, w.n
    left = order[(pos + 1) % n]
    up = faceup.get(left)
    d, c = w.s13[dealt], w.s13[cur]
    return Situation(n, pos, order, d, c, hist, "turn", w.rules, w.blk,
                     bool(up) and is_blocker(up) and not w.rules.get("blocked_swap_skips"),
                     bool(hist) and hist[-1] == "s" and d < c, [], cur)


def _weight(w: World, hands: dict[int, str], policies: Mapping[int, PYes]) -> tuple[
        float, dict[int, str]]:
    """Likelihood of the others' earlier moves; also each seat's dealt card."""
    h = dict(hands)
    decisions: list[tuple[int, str, str]] = []   # seat, card then, move
    seen: set[int] = set()
    for e in reversed(w.events):
        t = e.get("type")
        if t == "swap":
            a, b = e["seat"], e["with"]
            # a swap into a King would have been a block
            if is_blocker(h[a]):
                return 0.0, h
            h[a], h[b] = h[b], h[a]
            decisions.append((a, h[a], "s"))
        elif t == "keep":
            decisions.append((e["seat"], h[e["seat"]], "k"))
        elif t in ("block", "refuse"):
            decisions.append((e["by"], h[e["by"]], "s"))
    dealt = h
    pos_of = {s: i for i, s in enumerate(w.order)}
    weight = 1.0
    hist_letters = w.letters
    for seat, card, move in reversed(decisions):
        if seat == w.me or seat in seen:
            continue
        seen.add(seat)
        pos = pos_of.get(seat)
        if pos is None:
            continue
        hist = "".join(x or "k" for x in hist_letters[:pos])
        sit = _sit_for(w, pos, dealt[seat], card, hist, {})
        p = policies[seat](sit)
        weight *= p if move == "s" else 1.0 - p
        if weight <= 0.0:
            return 0.0, dealt
    return weight, dealt


def _simulate(w: World, hands: dict[int, str], dealt: Mapping[int, str], talon: str,
              move: str, policies: Mapping[int, PYes], rnd: list[float]) -> tuple[int, bool]:
    """Play the rest of the round after ``move``; returns (lives lost by me, lost)."""
    order, n, rules = w.order, w.n, w.rules
    hands = dict(hands)
    faceup = dict(w.faceup)
    lets = [x for x in w.letters]
    done = {order[i] for i in range(n) if lets[i]}
    pos_me = order.index(w.me)
    decision = w.sit.decision
    dealer = order[-1]

    def ask(asker: int, target: int, mode: str) -> None:
        ia = order.index(asker)
        card = hands[target]
        if is_blocker(card):
            faceup[target] = card
            done.add(target)
            lets[ia] = lets[ia] or "b"
            return
        if (rules.get("queen_refuses_once") and card[0] == "Q" and len(card) == 2
                and target not in w.refused and target != w.me):
            faceup[target] = card
            lets[ia] = lets[ia] or "b"
            return
        hands[asker], hands[target] = card, hands[asker]
        lets[ia] = "s"
        dom = rules.get("domino", "off")
        if mode == "turn" and dom != "off" and target != dealer:
            got = w.values[hands[asker]]
            if got == 1 or (dom == "low" and got <= 3):
                nxt = order[(order.index(target) + 1) % n]
                if nxt != asker:
                    up = faceup.get(nxt)
                    if not (up and is_blocker(up)):
                        ask(asker, nxt, "domino")

    start = pos_me
    if decision == "queen":
        asker_pos = next((i for i in range(n) if not lets[i] and order[i] != w.me), pos_me)
        asker = order[asker_pos]
        if move == "accept":
            hands[asker], hands[w.me] = hands[w.me], hands[asker]
            lets[asker_pos] = "s"
        else:
            faceup[w.me] = hands[w.me]
            lets[asker_pos] = lets[asker_pos] or "b"
        done.add(asker)
        start = asker_pos + 1
    elif decision == "domino":
        if move == "swap":
            target = order[(pos_me + 2) % n]
            ask(w.me, target, "domino")
        done.add(w.me)
        start = pos_me + 1
    elif decision == "dealer":
        start = n
    else:
        if move == "swap":
            ask(w.me, order[(pos_me + 1) % n], "turn")
        else:
            lets[pos_me] = "k"
        done.add(w.me)
        start = pos_me + 1
    drew = decision == "dealer" and move == "draw"
    for i in range(start, n):
        seat = order[i]
        if seat in done:
            if not lets[i]:
                lets[i] = "x"
            continue
        hist = "".join(x or "k" for x in lets[:i])
        sit = _sit_for(w, i, dealt.get(seat, hands[seat]), hands[seat], hist, faceup)
        yes = rnd[i] < policies[seat](sit)
        done.add(seat)
        if i == n - 1:
            drew = yes
        elif yes:
            ask(seat, order[i + 1], "turn")
        else:
            lets[i] = "k"
    if drew:
        if not (rules.get("talon_king_blocks") and is_blocker(talon)):
            hands[dealer] = talon
    vals = w.values
    low = min(vals[hands[s]] for s in order)
    losers = [s for s in order if vals[hands[s]] == low]
    if rules.get("dealer_wins_ties") and len(losers) > 1 and dealer in losers:
        losers.remove(dealer)
    if w.me not in losers:
        return 0, False
    card = hands[w.me]
    amount = 1
    if (rules.get("aces_double") and card[0] == "A" and len(card) == 2) or (
            rules.get("ace_of_spades_double") and card == "AS"):
        amount = 2
    if w.view.get("sudden_death"):
        return 1, True
    return min(amount, max(w.my_lives, 1)), True


def samples_of(view: View, policies: Mapping[int, PYes], samples: int = DEFAULT_SAMPLES,
               salt: int = 0, seed: int | None = None
               ) -> list[tuple[float, dict[str, tuple[int, int]]]]:
    """Weighted samples: (weight, {move: (lost a life 0/1, lives lost)}); random
    numbers from the view's seed, round and step (or from ``seed``)."""
    w = World(view)
    legal = list(view["legal"])
    if seed is None:
        seed = mix(view["seed"], view.get("round", 0), view.get("step", 0), salt)
    rng = random.Random(seed)
    need = len(w.unknown) + 1
    out: list[tuple[float, dict[str, tuple[int, int]]]] = []
    tries = 0
    if len(w.rest) < need:
        return out
    while len(out) < samples and tries < samples * 6:
        tries += 1
        cards = rng.sample(w.rest, need)
        hands = dict(w.known)
        for s, c in zip(w.unknown, cards):
            hands[s] = c
        wt, dealt = _weight(w, hands, policies)
        if wt <= 0.0:
            continue
        rnd = [rng.random() for _ in range(w.n)]
        res = {}
        for m in legal:
            lost, lose = _simulate(w, hands, dealt, cards[-1], m, policies, rnd)
            res[m] = (int(lose), lost)
        out.append((wt, res))
    return out


def estimate(view: View, policies: Mapping[int, PYes], samples: int = DEFAULT_SAMPLES,
             salt: int = 0) -> dict[str, dict[str, float]]:
    """``{move: {lose_life, expected_loss}}`` for every legal move of the view."""
    legal = list(view["legal"])
    got = samples_of(view, policies, samples, salt)
    tot = sum(wt for wt, _ in got)
    if tot <= 0:
        return {m: {"lose_life": 0.0, "expected_loss": 0.0} for m in legal}
    return {m: {"lose_life": round(sum(wt * r[m][0] for wt, r in got) / tot, 4),
                "expected_loss": round(sum(wt * r[m][1] for wt, r in got) / tot, 4)}
            for m in legal}


def level_policy(level: str) -> PYes:
    from game.ai.levels import FACTORIES

    player = FACTORIES[level]()
    if isinstance(player, ChaseLevel):
        base = getattr(player, "base", player)
        return base.p_yes
    raise ValueError(f"level {level!r} cannot be simulated")


def advise_view(view: View, level: str = "hard", samples: int | None = None) -> dict:
    """The coach's answer for the deciding seat of ``view`` (BOTS.md "Advice"):
    ``{seat, level, move, options: {move: {lose_life, expected_loss}}}``. Quick enough
    for the table's hint button (fewer samples at large tables)."""
    if samples is None:
        n = len(view["active"])
        samples = DEFAULT_SAMPLES if n <= 5 else max(60, DEFAULT_SAMPLES * 5 // n)
    if view.get("game") == "rams":
        from game.ai.rams_search import advise_rams

        return advise_rams(view, level, min(samples, 400))
    if view.get("game") != "chase":
        raise ValueError("advice is available for Chase the Ace only")
    legal = list(view["legal"])
    if level == "expert":
        from game.ai.expert import opponent_policies

        policies = opponent_policies(view)
    else:
        p = level_policy(level)
        policies = {s: p for s in view["active"]}
    options = estimate(view, policies, samples) if len(legal) > 1 else {
        legal[0]: estimate(view, policies, samples)[legal[0]]} if legal else {}
    move = min(options, key=lambda m: (options[m]["expected_loss"], options[m]["lose_life"],
                                       legal.index(m))) if options else None
    return {"seat": view["seat"], "level": level, "move": move, "options": options}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="stammtisch advise",
                                description="Advice for the pending decision of a record.")
    p.add_argument("file", help="record file (JSON) whose moves stop at a decision")
    p.add_argument("--level", default="hard", choices=("easy", "medium", "hard", "expert"))
    p.add_argument("--samples", type=int, default=None,
                   help=f"sampled deals per move (default {DEFAULT_SAMPLES}, fewer at large "
                        "tables)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    from game.records import RecordError, load, rebuild

    try:
        game = rebuild(load(args.file))
    except RecordError as exc:
        print(f"{exc.kind}: {exc.message}", file=sys.stderr)
        return 2
    pending = game.to_move()
    if pending is None:
        print("error: the record has no pending decision", file=sys.stderr)
        return 2
    if getattr(game, "game_id", "") not in ("chase", "rams"):
        print("error: advice is available for Chase the Ace and Rams only", file=sys.stderr)
        return 2
    result = advise_view(game.view(pending.seat), args.level, args.samples)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"seat {result['seat']} ({args.level}): {result['move']}")
        for m, o in result["options"].items():
            print(f"  {m:<7} lose a life {o['lose_life']:.2f}  "
                  f"expected loss {o['expected_loss']:.2f}")
    return 0
