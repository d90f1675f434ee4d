"""Sampled worlds of a Chase the Ace round, played by the engine itself.

From one seat's view only (docs/view.md), estimate what each of its legal moves leads to,
assuming every seat plays by a given policy (an object with ``probabilities(view)``,
see :mod:`game.ai.chase_levels`):

1. **Cards.** The cards this seat knows where they are (its own, cards shown face up
   or before a pass, the cards it handed over, followed through the public swaps; with
   ``deck_policy: continue`` the discards everybody saw) stay put; every other card
   of the deck is dealt at random to the other seats, the talon and the face-down
   discards. A face-down discard is a card some dealer threw away to draw, so it is
   drawn in proportion to how likely that dealer was to draw holding it (with the
   importance weight that keeps the estimate exact).
2. **The round so far.** Undoing the public swaps gives everybody's dealt card. A
   :class:`~game.rules.chase.ChaseGame` is set up at the start of the round with that
   deal (:meth:`~game.rules.chase.ChaseGame.deal_round_at`) and the round's moves are made
   again; the world is kept only if the engine shows exactly what the view shows
   (a swap into a King would have been a block; a low card passed without being shown
   was not low under ``reveal_low_on_pass``; …), and it is weighted by how likely the
   other seats' moves were under their policies, each seen from its own view then.
3. **Play-outs.** For each legal move the engine plays the rest of the round, every
   seat drawing its moves from its policy with common random numbers across moves,
   and the round's own result says what this seat lost.

So every rule and variant counts exactly as it does in the game: the engine is the
only place the rules are written. Random numbers come from a seed the caller derives
from the view, so the same view gives the same estimate.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.ai.chase_info import Situation, letters
from game.ai.chase_levels import MOVE_ORDER
from game.ai.common import View, pick
from game.rules.chase import ChaseGame
from game.rules.chase_rules import decks_in_play, scale_for


class Policy(Protocol):
    def probabilities(self, view: View) -> dict[str, float]: ...


Policies = Mapping[int, Policy]
#: (lost at least one life: 0/1, lives lost) for one move in one world
Outcome = tuple[int, int]


@dataclass
class Belief:
    """What the deciding seat knows of the cards, read once from its view."""

    view: View
    me: int
    n_seats: int
    known: dict[int, str]          # seat -> the card it holds now, where known
    unknown: list[int]             # active seats whose card is not known
    pool: list[str]                # the cards whose place is unknown
    talon_size: int                # unknown cards in the talon that matter
    hidden_discards: int           # face-down discards (``continue``)
    refusals: list[bool] | None    # Queen refusals left at the start of the round
    template: ChaseGame            # a new game under the view's rules, to fork from
    #: per face-down discard: card strength -> how likely its dealer was to draw with it
    discard_odds: list[dict[int, float]]
    strengths: dict[str, int]      # every card of the deck on the policies' scale


def _discard_odds(view: View, policies: Policies | None, hidden: int
                  ) -> list[dict[int, float]]:
    """For each face-down discard (the newest ``hidden`` dealer draws of ``history``
    whose own card went to the pile): the chance its dealer drew holding a card of each
    strength, by that dealer's policy (when it has ``p_yes``) in that round's
    situation. Empty when nothing is known of the discards."""
    if not hidden or policies is None:
        return []
    rules = view["rules"]
    blk = scale_for(rules).blocker_strength
    fallback = next(iter(policies.values()), None)
    out: list[dict[int, float]] = []
    for events in reversed(view["history"]):
        if len(out) == hidden:
            break
        draw = next((e for e in events if e.get("type") == "draw"), None)
        show = next((e for e in events if e.get("type") == "showdown"), None)
        if draw is None or show is None or any(e.get("type") == "talon_king"
                                              for e in events):
            continue
        dealer = draw["seat"]
        active = sorted(int(k) for k in show["cards"])
        if dealer not in active:
            continue
        i = active.index(dealer)
        order = active[i + 1:] + active[:i + 1]
        before = events[:events.index(draw)]
        hist = "".join(x or "k" for x in letters(order, before)[:-1])
        policy = policies.get(dealer, fallback)
        p_yes = getattr(policy, "p_yes", None)
        if p_yes is None:
            out.append({})
            continue
        odds = {}
        for v in range(1, blk + 1):
            sit = Situation(len(order), len(order) - 1, order, v, v, hist, "dealer", rules,
                            blk)
            odds[v] = float(p_yes(sit))
        out.append(odds)
    return out


def _follow_cards(view: View) -> tuple[dict[int, str], list[str], list[bool] | None]:
    """What the seat knows from its view: the seat each card it has seen now lies with
    (followed through the swaps; a swap of its own by what it handed over), the seen
    cards out of this round's play (drawn away, a King refused from the talon), and
    which seats had a Queen's refusal left when the round began (``None`` without
    ``queen_refuses_once``)."""
    me = view["seat"]
    known: dict[int, str] = {}
    gone: list[str] = []     # known cards out of this round's play
    exchanges = iter([e for e in view["private"] if e.get("type") == "exchange"])
    for e in view["private"]:
        if e.get("type") == "dealt" and e.get("cards"):
            known[me] = e["cards"][0]
    refusals = list(view["refusals"]) if view.get("refusals") is not None else None
    for e in view["events"]:
        t = e.get("type")
        if t in ("show", "block", "refuse"):
            known[e["seat"]] = e["card"]
            if t == "refuse" and refusals is not None:
                refusals[e["seat"]] = True    # it was still there when the round began
        elif t == "swap":
            a, b = e["seat"], e["with"]
            if me in (a, b):
                x = next(exchanges, None)
                if x is not None:
                    known[me] = x["got"]
                    known[x["with"]] = x["gave"]
                    continue
            ka, kb = known.pop(a, None), known.pop(b, None)
            if ka is not None:
                known[b] = ka
            if kb is not None:
                known[a] = kb
        elif t == "draw":
            old = known.pop(e["seat"], None)
            if old is not None:
                gone.append(old)
        elif t == "talon_king":
            gone.append(e["card"])
    if view["hand"]:
        known[me] = view["hand"][0]
    return known, gone, refusals


def read_belief(view: View, policies: Policies | None = None) -> Belief:
    """Where the seat knows each card to be, and which cards are unplaced (with the
    policies, also what the dealers' draws say of the face-down discards)."""
    me = view["seat"]
    rules = view["rules"]
    n_seats = view["players"]
    scale = scale_for(rules)
    deck = list(scale.deck) * decks_in_play(rules, n_seats)
    known, gone, refusals = _follow_cards(view)
    pile = view.get("discard_pile")
    hidden = 0
    if pile is not None:
        gone += pile["seen"]
        hidden = pile["count"] - len(pile["seen"])
    pool = list(deck)
    for c in list(known.values()) + gone:
        if c in pool:
            pool.remove(c)
    talon = view.get("talon")
    talon_size = 1 if talon is None else talon
    unknown = [s for s in view["active"] if s not in known]
    template = ChaseGame(rules, n_seats, dealer=view["dealer"])
    strengths = scale.strength
    return Belief(view, me, n_seats, known, unknown, pool, talon_size, hidden, refusals,
                  template, _discard_odds(view, policies, hidden), strengths)


def _dealt(belief: Belief, now: dict[int, str]) -> dict[int, str]:
    """Everybody's dealt card: ``now`` with this round's public swaps undone."""
    hands = dict(now)
    for e in reversed(belief.view["events"]):
        if e.get("type") == "swap":
            a, b = e["seat"], e["with"]
            hands[a], hands[b] = hands[b], hands[a]
    return hands


def _next_move(decision: str, seat: int, event: Mapping[str, Any] | None) -> str:
    """The move that made ``event`` the next public event of the round."""
    t = event.get("type") if event is not None else None
    if decision == "queen":
        return "refuse" if t == "refuse" else "accept"
    if decision == "dealer":
        return "draw" if t == "draw" else "keep"
    return "keep" if t == "keep" and event is not None and event.get("seat") == seat \
        else "swap"


def world(belief: Belief, policies: Policies, rng: random.Random
          ) -> tuple[float, ChaseGame] | None:
    """One sampled world at the deciding seat's decision, with its weight, or ``None``
    when the sample contradicts what the view shows."""
    need = len(belief.unknown) + belief.talon_size + belief.hidden_discards
    if need > len(belief.pool):
        return None
    pool = list(belief.pool)
    hidden: list[str] = []
    boost = 1.0
    for odds in belief.discard_odds:
        # draw the discard in proportion to its dealer's odds of drawing with it; the
        # world's weight is multiplied by the normaliser, which makes the whole
        # estimate an exact importance sample of the posterior
        weights = [odds.get(belief.strengths[c], 0.0) for c in pool]
        total = sum(weights)
        if total <= 0.0:
            return None
        x = rng.random() * total
        i = 0
        while i < len(pool) - 1 and x >= weights[i]:
            x -= weights[i]
            i += 1
        hidden.append(pool.pop(i))
        boost *= total
    cards = rng.sample(pool, need - len(hidden))
    now = dict(belief.known)
    for s, c in zip(belief.unknown, cards):
        now[s] = c
    k = len(belief.unknown)
    rest = cards[k + belief.talon_size:]
    got = world_from(belief, now, cards[k:k + belief.talon_size], hidden + rest, policies,
                     rng.getrandbits(63))
    if got is None:
        return None
    return got[0] * boost, got[1]


def world_from(belief: Belief, now: Mapping[int, str], talon: list[str],
               hidden: list[str], policies: Policies, seed: int
               ) -> tuple[float, ChaseGame] | None:
    """The world where every active seat holds ``now[seat]``, the talon is ``talon``
    (top first) and the face-down discards ``hidden``: the engine replays the round
    to the deciding seat's decision. Returns its weight (how likely the other seats'
    moves were) and the game, or ``None`` if the engine shows anything else than the
    view does."""
    view = belief.view
    pile = view.get("discard_pile")
    seen = list(pile["seen"]) if pile is not None else []
    active = set(view["active"])
    game = belief.template.fork()
    game.deal_round_at(
        dealer=view["dealer"], dealt=_dealt(belief, dict(now)), talon=talon,
        lives=view["lives"], in_game=[s in active for s in range(belief.n_seats)],
        sudden_death=bool(view["sudden_death"]), refusals=belief.refusals,
        discards=list(hidden) + seen, discards_seen=seen, round_index=view["round"],
        games_started=view.get("games_started", 1), seed=seed)
    observed = view["events"]
    weight = 1.0
    me = belief.me
    while len(game.public) < len(observed):
        p = game.to_move()
        if p is None:
            return None
        move = _next_move(p.decision, p.seat, observed[len(game.public)])
        if move not in p.legal:
            return None
        if p.seat != me:
            weight *= policies[p.seat].probabilities(game.search_view(p.seat)).get(move, 0.0)
            if weight <= 0.0:
                return None
        done = len(game.public)
        game.apply(p.seat, move)
        if game.public[done:] != observed[done:len(game.public)]:
            return None
    p = game.to_move()
    if p is not None and p.seat != me and view.get("decision") == "queen":
        # asked while holding a Queen: the asker's swap shows no event before our answer
        if p.seat != view.get("partner") or "swap" not in p.legal:
            return None
        weight *= policies[p.seat].probabilities(game.search_view(p.seat)).get("swap", 0.0)
        if weight <= 0.0:
            return None
        done = len(game.public)
        game.apply(p.seat, "swap")
        if game.public[done:] != observed[done:]:
            return None
        p = game.to_move()
    if (p is None or p.seat != me or p.decision != view.get("decision")
            or sorted(p.legal) != list(view["legal"]) or game.private[me] != view["private"]):
        return None
    return weight, game


def play_out(game: ChaseGame, move: str, policies: Policies, numbers: Sequence[float]
             ) -> Outcome:
    """Play ``move`` for the deciding seat and the rest of the round by the policies;
    ``numbers`` are the common random numbers (one per later decision)."""
    me = game.to_move().seat    # type: ignore[union-attr]
    g = game.fork()
    g.apply(me, move)
    k = 0
    while (p := g.to_move()) is not None:
        probs = policies[p.seat].probabilities(g.search_view(p.seat))
        g.apply(p.seat, pick(probs, MOVE_ORDER, numbers[k % len(numbers)]))
        k += 1
    entry = g.rounds[-1]
    if entry.get("sudden_death"):
        out = int(me in entry.get("out", ()))
        return out, out
    lost = int(entry.get("lost", {}).get(str(me), 0))
    return int(lost > 0), lost


def outcomes(view: View, policies: Policies, samples: int, seed: int,
             tries_per_sample: int = 6) -> list[tuple[float, dict[str, Outcome]]]:
    """``samples`` weighted worlds (at most ``tries_per_sample`` draws each), each
    with the outcome of every legal move."""
    belief = read_belief(view, policies)
    rng = random.Random(seed)
    legal = list(view["legal"])
    out: list[tuple[float, dict[str, Outcome]]] = []
    for _ in range(samples * tries_per_sample):
        if len(out) >= samples:
            break
        got = world(belief, policies, rng)
        if got is None:
            continue
        weight, game = got
        numbers = [rng.random() for _ in range(2 * belief.n_seats + 4)]
        out.append((weight, {m: play_out(game, m, policies, numbers) for m in legal}))
    return out


def estimate(view: View, policies: Policies, samples: int, seed: int
             ) -> dict[str, dict[str, float]]:
    """``{move: {lose_life, expected_loss}}`` for every legal move of the view."""
    legal = list(view["legal"])
    got = outcomes(view, policies, samples, seed)
    total = sum(w for w, _ in got)
    if total <= 0:
        return {m: {"lose_life": 0.0, "expected_loss": 0.0} for m in legal}
    return {m: {"lose_life": round(sum(w * r[m][0] for w, r in got) / total, 4),
                "expected_loss": round(sum(w * r[m][1] for w, r in got) / total, 4)}
            for m in legal}
