"""How the other seats declare: the chance that a seat plays with a given hand, from
what it saw when it declared (:class:`DeclareModel`), and each seat's style read from
the game so far (:func:`read_styles`).

The model is a careful player's reasoning, made soft (people and programs differ):

- a seat the drop limit forces plays;
- the last seat to declare, with exactly one player before it, drops: the player
  must then take every trick alone or lose two lives (``trap``: how often it does);
- the last seat, with nobody playing yet, plays only a hand that takes every trick;
- otherwise a seat plays when its expected loss is below what a drop costs it (a
  forced round next, :func:`game.ai.rams_value.forced_lives`) plus its ``bias``.
  The expected loss counts the players expected in the round (those who declared,
  those the limit forces, a share of the free ones still to come) and, for the first
  player, the risk of being left alone. Chances come from :mod:`game.ai.rams_strength`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from game.ai.rams_cards import deck, suit_index
from game.ai.rams_info import Info
from game.ai.rams_strength import features, p_no_trick, p_sweep
from game.ai.rams_value import forced_lives
from game.rules.rams_rules import round_losses

#: softness of a declaration, in lives of expected loss
TEMP = 0.06
#: chance that a free seat still to declare plays (as the declaring seat guesses)
Q_LATER = 0.5
#: prior chance that the last seat leaves a single player alone
TRAP = 0.85


@dataclass(frozen=True)
class Style:
    """How a seat declares: ``bias`` lives of extra risk it accepts, ``trap`` how often
    it leaves a single player alone when it can."""
    bias: float = 0.0
    trap: float = TRAP


def life_weight(lives: int) -> float:
    """A seat on its last life fears a loss more."""
    return 1.3 if lives <= 1 else 1.1 if lives == 2 else 1.0


def _no_trick(f: tuple[int, ...], others: float) -> float:
    """:func:`p_no_trick` for a fractional number of other players."""
    lo = max(1, int(others))
    hi = lo + 1
    a = others - lo
    if a <= 0:
        return p_no_trick(f, lo)
    return (1 - a) * p_no_trick(f, lo) + a * p_no_trick(f, hi)


@dataclass(frozen=True)
class Context:
    """What a seat knows when it declares, beyond its hand."""
    earlier_play: int       # players before it
    forced_later: int       # seats after it that must play
    free_later: int         # seats after it that may drop
    seats: int              # seats dealt in
    nln: bool               # lone_needs_one


def play_loss(f: tuple[int, ...], c: Context) -> float:
    """Expected lives lost by playing a hand with features ``f`` in context ``c``."""
    n = c.seats
    lone_loss = p_no_trick(f, n - 1) if c.nln else 2.0 * (1.0 - p_sweep(f, n - 1))
    k = c.earlier_play
    if c.forced_later == 0 and c.free_later == 0:
        return lone_loss if k == 0 else p_no_trick(f, k)
    p_lone = 0.0
    if k == 0 and c.forced_later == 0:
        # alone if the free seats after it drop; the last of them drops on purpose
        p_lone = (1.0 - Q_LATER) ** (c.free_later - 1) * (TRAP if not c.nln else 1 - Q_LATER)
    others = max(1.0, k + c.forced_later + Q_LATER * c.free_later)
    return p_lone * lone_loss + (1.0 - p_lone) * _no_trick(f, others)


def drop_cost(drops_before: int, limit: int | None, seats: int) -> float:
    """What a drop costs in lives: a forced round next if it reaches the limit."""
    if limit is None:
        return 0.0
    after = drops_before + 1
    if after >= limit:
        return forced_lives(seats)
    return forced_lives(seats) * 0.25 * after / limit


def sigmoid(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class DeclareModel:
    """P(seat plays | its hand, the declarations before it) for the seats of a round."""

    def __init__(self, info: Info, styles: Mapping[int, Style] | None = None) -> None:
        self.info = info
        self.styles = dict(styles or {})
        self.dk = deck(info.deck)
        self.trump = suit_index(info.trump)
        self.seen = (self.dk.mask([info.trump_card])
                     if info.trump_card and info.took is None else 0)
        self.nln = bool(info.rules.get("lone_needs_one"))
        self.forced = {s: info.forced(s) for s in info.order}

    def style(self, seat: int) -> Style:
        return self.styles.get(seat, DEFAULT_STYLE)

    def context(self, seat: int, declared: Mapping[int, str]) -> Context:
        order = self.info.order
        pos = order.index(seat)
        later = order[pos + 1:]
        forced_later = sum(1 for s in later if self.forced[s])
        return Context(sum(1 for s in order[:pos] if declared.get(s) == "play"),
                       forced_later, len(later) - forced_later, len(order), self.nln)

    def p_play(self, seat: int, hand: int, declared: Mapping[int, str]) -> float:
        """Chance that ``seat`` plays holding ``hand`` (a bit set)."""
        if self.forced[seat]:
            return 1.0
        info = self.info
        c = self.context(seat, declared)
        st = self.style(seat)
        if info.limit is None:
            return self._p_play_no_limit(seat, hand, c)
        if c.forced_later == 0 and c.free_later == 0 and c.earlier_play == 1 and not c.nln:
            return 1.0 - st.trap
        f = features(hand, self.trump, self.seen, self.dk)
        loss = play_loss(f, c) * life_weight(info.lives[seat])
        cost = drop_cost(info.drops_before.get(seat, 0), info.limit, c.seats)
        return sigmoid((cost + st.bias - loss) / TEMP)

    def _p_play_no_limit(self, seat: int, hand: int, c: Context) -> float:
        """002 literally: dropping is free, so a seat plays only a hand that is nearly
        sure of a trick (and as the last seat alone, of every trick)."""
        f = features(hand, self.trump, self.seen, self.dk)
        loss = play_loss(f, c) * life_weight(self.info.lives[seat])
        return sigmoid((0.08 + self.style(seat).bias - loss) / TEMP)


DEFAULT_STYLE = Style()


# ---------------------------------------------------------------- styles from history

BIAS_GRID = tuple(round(-0.2 + 0.025 * i, 3) for i in range(29))     # -0.2 … 0.5
#: prior on a seat's bias: normal with this spread (lives)
BIAS_PRIOR = 0.12
#: weight of the prior trap rate, in observed situations
TRAP_PRIOR_WEIGHT = 4.0


@lru_cache(maxsize=256)
def _reference_losses(c: Context, hand_size: int, deck_name: str, lives: int
                      ) -> tuple[float, ...]:
    """Expected losses of random hands in context ``c`` (for a seat whose hand the
    table never saw: it dropped)."""
    rng = random.Random(hash((c, hand_size, deck_name, lives)) & 0xFFFFFFFF)
    dk = deck(deck_name)
    allbits = sorted(dk.code)
    out = []
    for _ in range(120):
        cards = rng.sample(allbits, hand_size + 1)
        tc = cards[-1]
        h = 0
        for b in cards[:-1]:
            h |= 1 << b
        out.append(play_loss(features(h, tc >> 4, 1 << tc, dk), c) * life_weight(lives))
    return tuple(out)


def read_styles(info: Info) -> dict[int, Style]:
    """Each other seat's :class:`Style`, fitted to its free declarations in the game's
    earlier rounds (``history``): how often it played with a hand like the ones dealt,
    the hands it played and showed (when the trump of that round is known from a
    trick), and how often it left a single player alone when it could."""
    hist = info.view.get("history") or []
    if not hist:
        return {}
    dk = deck(info.deck)
    nln = bool(info.rules.get("lone_needs_one"))
    limit = info.limit
    n = info.n
    streak = [0] * n
    lives = [int(info.rules.get("lives", 3))] * n
    obs: dict[int, list[tuple[Context, int, bool, float | None]]] = {}
    traps: dict[int, list[int]] = {}
    for rnd in hist:
        decl = [e for e in rnd if e.get("type") == "declare"]
        order = [e["seat"] for e in decl]
        forced = {s: limit is not None and streak[s] >= limit for s in order}
        trump = _trump_of(rnd)
        shown: dict[int, int] = {}
        for e in rnd:
            if e.get("type") == "play":
                shown[e["seat"]] = shown.get(e["seat"], 0) | (1 << dk.bit[e["card"]])
        declared: dict[int, str] = {}
        for i, e in enumerate(decl):
            s, choice = e["seat"], e.get("choice")
            later = order[i + 1:]
            fl = sum(1 for x in later if forced[x])
            c = Context(sum(1 for x in order[:i] if declared.get(x) == "play"), fl,
                        len(later) - fl, len(order), nln)
            declared[s] = choice
            if s == info.me or forced[s]:
                continue
            if not later and c.earlier_play == 1 and not nln:
                traps.setdefault(s, []).append(1 if choice == "drop" else 0)
                continue
            loss = None
            hand = shown.get(s, 0)
            if choice == "play" and trump is not None and hand.bit_count() == info.hand_size:
                loss = play_loss(features(hand, trump, 0, dk), c) * life_weight(lives[s])
            obs.setdefault(s, []).append((c, lives[s], choice == "play", loss))
        for s in order:
            streak[s] = streak[s] + 1 if declared.get(s) == "drop" else 0
        _lose_lives(rnd, order, declared, lives, info.hand_size, nln)
    styles: dict[int, Style] = {}
    for s in set(obs) | set(traps):
        bias = _fit_bias(obs.get(s, []), info, limit)
        t = traps.get(s, [])
        trap = (sum(t) + TRAP * TRAP_PRIOR_WEIGHT) / (len(t) + TRAP_PRIOR_WEIGHT)
        styles[s] = Style(bias, trap)
    return styles


def _fit_bias(obs: Sequence[tuple[Context, int, bool, float | None]], info: Info,
              limit: int | None) -> float:
    if not obs:
        return 0.0
    best, best_ll = 0.0, -1e18
    for b in BIAS_GRID:
        ll = -0.5 * (b / BIAS_PRIOR) ** 2
        for c, lives, played, loss in obs:
            cost = drop_cost(0, limit, c.seats) if limit is not None else 0.08
            if loss is not None:
                p = sigmoid((cost + b - loss) / TEMP)
            else:
                ref = _reference_losses(c, info.hand_size, info.deck, lives)
                p = sum(sigmoid((cost + b - x) / TEMP) for x in ref) / len(ref)
            p = min(max(p if played else 1.0 - p, 1e-4), 1.0)
            ll += math.log(p)
        if ll > best_ll:
            best, best_ll = b, ll
    return best


def _trump_of(rnd: Sequence[Mapping]) -> int | None:
    """The trump suit of an earlier round, if a trick shows it (won by a card not of
    the suit led) or the dealer took the trump card."""
    for e in rnd:
        t = e.get("type")
        if t == "take_trump":
            return suit_index(e["card"][1])
        if t == "trick":
            cards = e.get("cards") or {}
            w = cards.get(str(e.get("winner")))
            first = next(iter(cards.values()), None)
            if w and first and w[1] != first[1]:
                return suit_index(w[1])
    return None


def _lose_lives(rnd: Sequence[Mapping], order: list[int], declared: Mapping[int, str],
                lives: list[int], hand_size: int, nln: bool) -> None:
    """Follow the lives through an earlier round (from its tricks)."""
    won: dict[int, int] = {}
    for e in rnd:
        if e.get("type") == "trick":
            won[e["winner"]] = won.get(e["winner"], 0) + 1
    playing = [s for s in order if declared.get(s) == "play"]
    if not playing:
        return
    lone = playing[0] if len(playing) == 1 else None
    players = order if lone is not None else playing
    for s, a in round_losses(players, won, lone, hand_size, nln).items():
        lives[s] = max(0, lives[s] - a)
