"""Search for the ``hard`` and ``expert`` Rams levels: sampled deals, medium rollouts.

From the view only (an :class:`~game.ai.rams_levels.Info`):

1. **Deals.** The cards this seat cannot see (the deck less its hand, the cards played,
   the turned trump on the stock and its own discard) are dealt at random to the other
   seats, respecting the voids they showed (a seat that did not follow a suit holds
   none of it; under ``must_trump`` none of trump either) and the trump card a dealer
   took.
2. **Weights.** Each deal is weighted by how likely every earlier declaration of this
   round was with the hand it gives that seat (medium's declaration model made soft;
   the ``expert`` fits each opponent's threshold to the share of free rounds it chose
   to play in ``history``). Forced declarations say nothing.
3. **Rollouts.** For every candidate move the rest of the round is played with medium
   heuristics for everybody (later declarations by the same soft model, with common
   random numbers across candidates), and scored under the rules.
4. **Value.** Not only this seat's lives: a round's outcome is valued by this seat's
   share of the table's squared lives afterwards (a stand-in for its chance to win
   the game), so losing a life alone hurts more than losing one together with others.
   A drop that forces play next round is charged the expected cost of that.

Random numbers come from the view's seed and step and the sample counts are fixed
(no clock anywhere), so the same view gives the same move on any machine. The rules
of the round (legal cards, who takes a trick, what a round costs) are the engine's
own functions (:mod:`game.rules.rams_rules`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any

from game.ai.common import mix
from game.ai.rams_heuristics import (
    FORCED_COST,
    choose_card,
    none_declare,
    p_no_trick,
    p_sweep,
    sigmoid,
)
from game.ai.rams_info import Info, deck_of
from game.rules.rams_rules import RANK_ORDER, legal_cards, rank_table, round_losses, trick_winner

DECLARE_TEMP = 0.07
#: ``q_later`` of medium's model: chance that a free seat still to declare plays
Q_LATER = 0.42


# ---------------------------------------------------------------- declaration model

def decl_loss(hand: Sequence[str], trump: str, gone: set[str], rank: Mapping[str, int],
              deck: str, earlier: int, forced_later: int, free_later: int, n_order: int,
              lone_needs_one: bool) -> float:
    """Medium's expected loss of playing ``hand`` (see ``rams_levels.play_loss``)."""
    expect = earlier + forced_later + Q_LATER * free_later
    p_lone = (1.0 - Q_LATER) ** free_later if earlier == 0 and forced_later == 0 else 0.0
    opp = max(1.0, expect / (1.0 - p_lone)) if p_lone < 1 else 1.0
    lose = p_no_trick(hand, trump, gone, rank, deck, opp)
    if p_lone > 0:
        if lone_needs_one:
            lone = p_no_trick(hand, trump, gone, rank, deck, n_order - 1)
        else:
            lone = 2.0 * (1.0 - p_sweep(hand, trump, gone, rank, deck, n_order - 1))
        return p_lone * lone + (1.0 - p_lone) * lose
    return lose


class Model:
    """Soft declaration model of every seat: P(play | hand, what it saw)."""

    def __init__(self, info: Info, thresholds: Mapping[int, float] | None = None) -> None:
        self.info = info
        self.thr = dict(thresholds or {})
        self.gone0 = {info.trump_card} if info.trump_card and info.took is None else set()
        self.nln = bool(info.rules.get("lone_needs_one"))

    def threshold(self, seat: int) -> float:
        info = self.info
        if seat in self.thr:
            return self.thr[seat]
        if info.limit is None:
            return 0.0      # see p_play
        after = info.drops_before.get(seat, 0) + 1
        cost = FORCED_COST if after >= info.limit else FORCED_COST * 0.25 * after / info.limit
        return cost + 0.04

    def p_play(self, seat: int, hand: Sequence[str], declared: Mapping[int, str]) -> float:
        info = self.info
        if info.forced(seat):
            return 1.0
        order = info.order
        pos = order.index(seat)
        if info.limit is None and seat not in self.thr:
            # medium's rule without a drop limit (rams_levels.none_declare), made soft
            if seat == order[-1] and not any(v == "play" for v in declared.values()):
                sw = p_sweep(hand, info.trump, self.gone0, info.rank, info.deck,
                             len(order) - 1)
                return sigmoid((sw - 0.6) / DECLARE_TEMP)
            q = p_no_trick(hand, info.trump, self.gone0, info.rank, info.deck,
                           max(1.0, len(order) / 2))
            lives = info.lives[seat] if seat < len(info.lives) else 3
            q *= 1.35 if lives <= 1 else 1.1 if lives == 2 else 1.0
            return sigmoid((0.15 - q) / DECLARE_TEMP)
        earlier = sum(1 for s in order[:pos] if declared.get(s) == "play")
        later = order[pos + 1:]
        forced_later = sum(1 for s in later if info.forced(s))
        loss = decl_loss(hand, info.trump, self.gone0, info.rank, info.deck, earlier,
                         forced_later, len(later) - forced_later, len(order), self.nln)
        lives = info.lives[seat] if seat < len(info.lives) else 3
        loss *= 1.35 if lives <= 1 else 1.1 if lives == 2 else 1.0
        return sigmoid((self.threshold(seat) - loss) / DECLARE_TEMP)


# ---------------------------------------------------------------- opponent styles

@lru_cache(maxsize=16)
def _loss_quantiles(deck: str, hand_size: int, n_order: int) -> tuple[float, ...]:
    """Medium's play-loss of random hands (middle seat, average table): sorted sample."""
    rng = random.Random(12345 + n_order * 7 + hand_size)
    cards = list(deck_of(deck))
    rank = rank_table(deck)
    out = []
    for _ in range(400):
        rng.shuffle(cards)
        hand = cards[:hand_size]
        tc = cards[hand_size]
        out.append(decl_loss(hand, tc[1], {tc}, rank, deck, 1, 0, max(0, n_order - 2),
                             n_order, False))
    return tuple(sorted(out))


def style_thresholds(info: Info) -> dict[int, float]:
    """Each opponent's play threshold, fitted to how often it played when free."""
    hist = info.view.get("history") or []
    free: dict[int, list[int]] = {}
    streak: dict[int, int] = {}
    for rnd in hist:
        for e in rnd:
            if e.get("type") != "declare":
                continue
            s = e["seat"]
            was_forced = info.limit is not None and streak.get(s, 0) >= info.limit
            play = e.get("choice") == "play"
            if not was_forced:
                free.setdefault(s, []).append(1 if play else 0)
            streak[s] = 0 if play else streak.get(s, 0) + 1
    qs = _loss_quantiles(info.deck, info.hand_size, max(3, len(info.order)))
    shown = shown_losses(info)
    base_model = Model(info)
    out: dict[int, float] = {}
    for s in info.order:
        if s == info.me:
            continue
        obs = free.get(s, [])
        if len(obs) < 3:
            continue
        # the medium share of free plays at this threshold, as a prior worth 4 rounds
        thr0 = base_model.threshold(s)
        prior = sum(1 for q in qs if q < thr0) / len(qs)
        rate = (sum(obs) + 4 * prior) / (len(obs) + 4)
        k = min(len(qs) - 1, max(0, int(rate * len(qs))))
        thr = qs[k] if rate < 1 else qs[-1] + 0.5
        seen = sorted(shown.get(s, ()))
        if len(seen) >= 2:
            # it played these hands when free: its threshold lies above most of them
            thr = max(thr, seen[(3 * len(seen)) // 4])
        out[s] = thr
    return out


def shown_losses(info: Info) -> dict[int, list[float]]:
    """Medium's play-loss of every hand a seat showed by playing it out when free
    (earlier rounds of ``history``; the trump is read from a trick won by ruffing)."""
    out: dict[int, list[float]] = {}
    streak: dict[int, int] = {}
    hs = info.hand_size
    for rnd in info.view.get("history") or []:
        trump = None
        cards: dict[int, list[str]] = {}
        free: list[int] = []
        for e in rnd:
            t = e.get("type")
            if t == "declare":
                s = e["seat"]
                was_forced = info.limit is not None and streak.get(s, 0) >= info.limit
                play = e.get("choice") == "play"
                if play and not was_forced:
                    free.append(s)
                streak[s] = 0 if play else streak.get(s, 0) + 1
            elif t == "take_trump":
                trump = e["card"][1]
            elif t == "play":
                cards.setdefault(e["seat"], []).append(e["card"])
            elif t == "trick" and trump is None:
                played = list((e.get("cards") or {}).values())
                w = (e.get("cards") or {}).get(str(e.get("winner")))
                if played and w and w[1] != played[0][1]:
                    trump = w[1]
        if trump is None:
            continue
        for s in free:
            hand = cards.get(s, [])
            if len(hand) == hs:
                out.setdefault(s, []).append(decl_loss(
                    hand, trump, set(), info.rank, info.deck, 1, 0, 1, len(info.order),
                    False))
    return out


# ---------------------------------------------------------------- sampling

def _unseen(info: Info) -> list[str]:
    known = set(info.hand) | info.gone
    if info.took is not None and info.took != info.me and info.trump_card:
        known.add(info.trump_card)
    return [c for c in deck_of(info.deck) if c not in known]


def sample_hands(info: Info, seats: Sequence[int], sizes: Mapping[int, int],
                 pool: list[str], rng: random.Random) -> dict[int, list[str]] | None:
    """Random hands for ``seats`` from ``pool``, consistent with the voids shown."""
    fixed: dict[int, list[str]] = {}
    if (info.took is not None and info.took != info.me and info.trump_card
            and info.trump_card not in info.played_by.get(info.took, ())
            and info.took in sizes):
        fixed[info.took] = [info.trump_card]
    voids = info.voids
    order = sorted(seats, key=lambda s: -len(voids.get(s, ())))
    for _attempt in range(6):
        cards = pool[:]
        rng.shuffle(cards)
        hands: dict[int, list[str]] = {}
        ok = True
        for s in order:
            need = sizes[s] - len(fixed.get(s, ()))
            v = voids.get(s)
            got = list(fixed.get(s, ()))
            if v:
                keep = []
                for c in cards:
                    if need and c[1] not in v:
                        got.append(c)
                        need -= 1
                    else:
                        keep.append(c)
                cards = keep
            else:
                take = cards[:need]
                got += take
                cards = cards[need:]
                need -= len(take)
            if need:
                ok = False
                break
            hands[s] = got
        if ok:
            return hands
    return None


# ---------------------------------------------------------------- rollouts

class Sim:
    """Quick play-outs of the rest of a round, by the rules' own functions."""

    def __init__(self, info: Info) -> None:
        self.trump = info.trump
        self.rank = info.rank
        self.deck = info.deck
        r = info.rules
        self.must_trump = bool(r.get("must_trump"))
        self.must_beat = bool(r.get("must_beat"))
        self.nln = bool(r.get("lone_needs_one"))
        self.hand_size = info.hand_size
        self.base_gone = {info.trump_card} if info.trump_card and info.took is None else set()

    def legal(self, hand: list[str], trick: list[tuple[int, str]]) -> list[str]:
        return list(legal_cards(hand, [c for _, c in trick], self.trump, self.rank,
                                self.must_trump, self.must_beat))

    def play(self, hands: dict[int, list[str]], players: list[int],
             trick: list[tuple[int, str]], tricks: dict[int, int], gone: set[str],
             lone: int | None, leader: int) -> dict[int, int]:
        """Play the round to its end; returns the tricks won (``tricks`` is updated)."""
        trump, rank, deck, nln = self.trump, self.rank, self.deck, self.nln
        n = len(players)
        trick = list(trick)
        if trick:
            nxt = players[(players.index(trick[-1][0]) + 1) % n]
        else:
            nxt = leader
        while True:
            if len(trick) == n:
                best_s = trick[trick_winner([c for _, c in trick], trump, rank)][0]
                tricks[best_s] = tricks.get(best_s, 0) + 1
                for _, c in trick:
                    gone.add(c)
                trick = []
                nxt = best_s
                if not hands[nxt]:
                    return tricks
            hand = hands[nxt]
            legal = self.legal(hand, trick)
            card = legal[0] if len(legal) == 1 else choose_card(
                hand, legal, trick, nxt, trump, rank, deck, gone, tricks, players, lone, nln)
            hand.remove(card)
            trick.append((nxt, card))
            nxt = players[(players.index(nxt) + 1) % n]

    def losses(self, players: list[int], tricks: Mapping[int, int],
               lone: int | None) -> dict[int, int]:
        return round_losses(players, tricks, lone, self.hand_size, self.nln)


def share(lives: Sequence[int], me: int) -> float:
    """This seat's share of the table's squared lives (a proxy for winning)."""
    mine = lives[me]
    if mine <= 0:
        return 0.0
    tot = sum(x * x for x in lives if x > 0)
    return mine * mine / tot


def value(info: Info, lost: Mapping[int, int], own_weight: float) -> float:
    lives = list(info.lives)
    for s, a in lost.items():
        lives[s] = max(0, lives[s] - a)
    mine = lost.get(info.me, 0)
    return share(lives, info.me) - own_weight * mine


# ---------------------------------------------------------------- the search

def _candidates(info: Info) -> list[str]:
    """Legal cards with equivalent ones (same suit, nothing unseen between) merged."""
    legal = sorted(info.legal, key=lambda c: (c[1], info.rank[c]))
    out: list[str] = []
    hand = set(info.hand)
    order = RANK_ORDER[info.deck]
    for c in legal:
        if out and out[-1][1] == c[1]:
            prev = out[-1]
            between = [order[k] + c[1] for k in range(info.rank[prev] + 1, info.rank[c])]
            if all(b in info.gone or b in hand for b in between):
                continue
        out.append(c)
    return out


def _card_mode(info: Info) -> str:
    me = info.me
    t = info.tricks
    lone = info.lone
    if lone is not None:
        if lone == me:
            if info.rules.get("lone_needs_one"):
                return "need" if t.get(me, 0) == 0 else "none"
            return "all" if sum(n for s, n in t.items() if s != me) == 0 else "none"
        if info.rules.get("lone_needs_one"):
            return "defend" if t.get(lone, 0) == 0 else "none"
        return "defend" if sum(n for s, n in t.items() if s != lone) == 0 else "none"
    if t.get(me, 0) == 0:
        return "need"
    needy = [s for s in info.in_play if s != me and t.get(s, 0) == 0]
    return "safe" if needy else "none"


def search_move(info: Info, level: Any) -> str | None:
    """The best move by sampled rollouts, or ``None`` to leave it to medium."""
    if info.decision == "declare":
        if "drop" not in info.legal:
            return "play"
        if info.limit is None:
            # dropping is always safe; a search would never play and a table of
            # searchers would never end: play promising hands like medium
            return none_declare(info)
        return _search_declare(info, level)
    if info.decision == "trick":
        if _card_mode(info) == "none":
            return None
        cands = _candidates(info)
        if len(cands) <= 1:
            return cands[0] if cands else None
        return _search_card(info, level, cands)
    return None


def _rng(info: Info, salt: int) -> random.Random:
    v = info.view
    return random.Random(mix(v["seed"], v.get("step", 0), v.get("round", 0), salt))


def _model(info: Info, level: Any) -> Model:
    thr = style_thresholds(info) if getattr(level, "model_opponents", False) else None
    return Model(info, thr)


def _declare_worlds(info: Info, model: Model, rng: random.Random, samples: int
                    ) -> Iterator[tuple[float, dict[int, list[str]],
                                    Callable[[str], list[int]]]]:
    """Sampled deals for a declaration, weighted by how likely the earlier (free)
    declarations were under ``model``: yields ``(weight, hands, playing)`` where
    ``playing(move)`` lists the seats that play if this seat declares ``move`` (the
    later seats declaring by ``model``)."""
    me = info.me
    order = info.order
    pos = order.index(me)
    others = [s for s in order if s != me]
    sizes = {s: info.hand_size for s in others}
    pool = _unseen(info)
    earlier = [s for s in order[:pos] if s in info.declared and not info.forced(s)]
    later = [s for s in order if s != me and s not in info.declared]
    for _ in range(samples):
        hands = sample_hands(info, others, sizes, pool, rng)
        if hands is None:
            break
        w = 1.0
        for s in earlier:
            p = model.p_play(s, hands[s], info.declared)
            w *= p if info.declared.get(s) == "play" else 1.0 - p
        us = [rng.random() for _ in later]
        if w <= 1e-9:
            continue
        hands[me] = list(info.hand)

        def playing(move: str, hands: dict[int, list[str]] = hands,
                    us: list[float] = us) -> list[int]:
            declared = dict(info.declared)
            declared[me] = move
            for s, u in zip(later, us):
                declared[s] = "play" if u < model.p_play(s, hands[s], declared) else "drop"
            return [s for s in order if declared[s] == "play"]

        yield w, hands, playing


def _play_round(sim: Sim, info: Info, hands: dict[int, list[str]],
                playing: list[int]) -> tuple[list[int], int | None, dict[int, int]]:
    """Play a whole round from the deal: ``(players, lone player or None, tricks)``."""
    lone = playing[0] if len(playing) == 1 else None
    players = list(info.order) if lone is not None else playing
    hh = {s: list(hands[s]) for s in players}
    tricks = sim.play(hh, players, [], {s: 0 for s in players}, set(sim.base_gone), lone,
                      players[0])
    return players, lone, tricks


def _search_declare(info: Info, level: Any) -> str | None:
    rng = _rng(info, 0xDEC1)
    model = _model(info, level)
    sim = Sim(info)
    me = info.me
    own_weight = getattr(level, "own_weight", 0.08)
    n = getattr(level, "samples_declare", 48)
    tot = {"play": 0.0, "drop": 0.0}
    wsum = 0.0
    for w, hands, playing_after in _declare_worlds(info, model, rng, n):
        for move in ("play", "drop"):
            playing = playing_after(move)
            lost: dict[int, int] = {}
            if playing:
                players, lone, tricks = _play_round(sim, info, hands, playing)
                lost = sim.losses(players, tricks, lone)
            tot[move] += w * value(info, lost, own_weight)
        wsum += w
    if wsum <= 0:
        return None
    life = share(info.lives, me) - share(
        [x - 1 if s == me else x for s, x in enumerate(info.lives)], me) + own_weight
    cost = 0.0
    if info.limit is not None:
        after = info.drops_before.get(me, 0) + 1
        cost = FORCED_COST if after >= info.limit else FORCED_COST * 0.25 * after / info.limit
    play_v = tot["play"] / wsum
    drop_v = tot["drop"] / wsum - cost * life
    if info.limit is None:
        # dropping is always safe; still play hands that are nearly sure, so tables end
        play_v += 0.02 * life
    return "play" if play_v > drop_v else "drop"


def _card_worlds(info: Info, model: Model, rng: random.Random, samples: int
                 ) -> Iterator[tuple[float, dict[int, list[str]]]]:
    """Sampled hands of the other players in the trick play, consistent with what was
    seen and weighted by how likely their (free) declarations were: yields
    ``(weight, hands)``."""
    me = info.me
    others = [s for s in info.in_play if s != me]
    sizes = {s: info.hand_size - len(info.played_by.get(s, ())) for s in others}
    pool = _unseen(info)
    # declarations only say something about seats whose hands we sample in full
    dec_seats = [s for s in info.order if s != me and s in info.declared
                 and not info.forced(s)]
    for _ in range(samples):
        hands = sample_hands(info, others, sizes, pool, rng)
        if hands is None:
            break
        w = 1.0
        for s in dec_seats:
            if s in hands:
                p = model.p_play(s, hands[s] + info.played_by.get(s, []), info.declared)
                w *= p if info.declared.get(s) == "play" else 1.0 - p
        if w <= 1e-9:
            continue
        yield w, hands


def _play_card(sim: Sim, info: Info, hands: dict[int, list[str]], card: str
               ) -> tuple[list[int], dict[int, int]]:
    """Play ``card`` now and the rest of the round: ``(players, tricks won)``."""
    me = info.me
    players = list(info.in_play)
    hh = {s: list(h) for s, h in hands.items()}
    mine = list(info.hand)
    mine.remove(card)
    hh[me] = mine
    tricks = dict(info.tricks)
    for s in players:
        tricks.setdefault(s, 0)
    leader = info.trick[0][0] if info.trick else me
    got = sim.play(hh, players, list(info.trick) + [(me, card)], tricks, set(info.gone),
                   info.lone, leader)
    return players, got


def _search_card(info: Info, level: Any, cands: list[str]) -> str | None:
    rng = _rng(info, 0xCA7D)
    model = _model(info, level)
    sim = Sim(info)
    own_weight = getattr(level, "own_weight", 0.08)
    n = getattr(level, "samples_card", 24)
    tot = dict.fromkeys(cands, 0.0)
    wsum = 0.0
    for w, hands in _card_worlds(info, model, rng, n):
        for c in cands:
            players, got = _play_card(sim, info, hands, c)
            tot[c] += w * value(info, sim.losses(players, got, info.lone), own_weight)
        wsum += w
    if wsum <= 0:
        return None
    best = max(cands, key=lambda c: (round(tot[c] / wsum, 9), -cands.index(c)))
    return best


def estimate_declare(info: Info, model: Model, samples: int, seed: int
                     ) -> dict[str, dict[str, float]]:
    """The coach's numbers for a declaration: lose_life / expected_loss per move."""
    return _estimate(info, model, samples, seed, None)


def _estimate(info: Info, model: Model, samples: int, seed: int,
              cands: list[str] | None) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    sim = Sim(info)
    me = info.me
    legal = list(info.legal)
    acc = {m: [0.0, 0.0] for m in legal}
    wsum = 0.0
    if info.decision == "trick":
        for w, hands in _card_worlds(info, model, rng, samples):
            for c in legal:
                players, got = _play_card(sim, info, hands, c)
                a = min(sim.losses(players, got, info.lone).get(me, 0), info.lives[me])
                acc[c][0] += w * (a > 0)
                acc[c][1] += w * a
            wsum += w
    else:
        for w, hands, playing_after in _declare_worlds(info, model, rng, samples):
            for move in legal:
                if move not in ("play", "drop"):
                    continue
                playing = playing_after(move)
                a = 0
                if me in playing:
                    players, lone, got = _play_round(sim, info, hands, playing)
                    a = min(sim.losses(players, got, lone).get(me, 0), info.lives[me])
                acc[move][0] += w * (a > 0)
                acc[move][1] += w * a
            wsum += w
    if wsum <= 0:
        return {m: {"lose_life": 0.0, "expected_loss": 0.0} for m in legal}
    return {m: {"lose_life": round(acc[m][0] / wsum, 4),
                "expected_loss": round(acc[m][1] / wsum, 4)} for m in legal}


def estimate(info: Info, model: Model, samples: int, seed: int
             ) -> dict[str, dict[str, float]]:
    """``{move: {lose_life, expected_loss}}`` for every legal move (declare or card)."""
    return _estimate(info, model, samples, seed, None)
