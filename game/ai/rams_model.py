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

Under ``scoring: counters`` the loss is counted in stake units (the penalty of five
counters is one): the penalty's chance less the tricks expected, over five; nobody
sets a trap (a lone player only needs tricks there). A dealer that
``dealer_must_play`` forces plays; a General Rams announcement is as likely as the
hand's chance to take every trick (:meth:`DeclareModel.p_rams`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from game.ai.common import mix
from game.ai.rams_cards import deck, suit_index
from game.ai.rams_info import Info
from game.ai.rams_strength import (
    expected_tricks,
    expected_tricks_alone,
    features,
    p_no_trick,
    p_sweep,
)
from game.ai.rams_value import forced_lives
from game.rules.rams_rules import (
    COUNTER_PENALTY,
    forced_to_play,
    must_play,
    round_losses,
    round_players,
)

#: softness of a declaration, in lives of expected loss
TEMP = 0.05
#: nobody is that predictable: every free declaration keeps at least this chance
FLOOR = 0.03
#: chance that a free seat still to declare plays (as the declaring seat guesses)
Q_LATER = 0.5
#: prior chance that the last seat leaves a single player alone
TRAP = 0.85


@dataclass(frozen=True)
class Style:
    """How a seat declares: ``bias`` lives of extra risk it accepts, ``trap`` how often
    it leaves a single player alone when it can, ``fear`` how much of the risk of being
    left alone itself (as the first player) it counts (1: all of it)."""
    bias: float = 0.0
    trap: float = TRAP
    fear: float = 0.5


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
    counting: bool = False  # scoring: counters


def _count_loss(f: tuple[int, ...], others: float, alone: bool) -> float:
    """``counters``: what playing costs in stake units (negative: a gain) against
    ``others`` players, or alone against ``others`` defenders."""
    lo = max(1, int(others))
    a = others - lo
    if alone:
        tricks = expected_tricks_alone(f, lo)
    else:
        tricks = (1 - a) * expected_tricks(f, lo) + a * expected_tricks(f, lo + 1)
    return _no_trick(f, others) - tricks / COUNTER_PENALTY


@lru_cache(maxsize=1 << 16)
def play_loss(f: tuple[int, ...], c: Context, fear: float = 1.0) -> float:
    """Expected lives lost by playing a hand with features ``f`` in context ``c``,
    counting ``fear`` of the risk of being left alone (``counters``: in stake units,
    negative when playing is expected to gain). Kept once worked out: the search asks
    for the same few features and contexts in world after world."""
    n = c.seats
    if c.counting:
        k = c.earlier_play
        if c.forced_later == 0 and c.free_later == 0:
            return _count_loss(f, n - 1, True) if k == 0 else _count_loss(f, k, False)
        p_lone = 0.0
        if k == 0 and c.forced_later == 0:
            p_lone = (1.0 - Q_LATER) ** c.free_later * fear
        others = max(1.0, k + c.forced_later + Q_LATER * c.free_later)
        return (p_lone * _count_loss(f, n - 1, True)
                + (1.0 - p_lone) * _count_loss(f, others, False))
    lone_loss = p_no_trick(f, n - 1) if c.nln else 2.0 * (1.0 - p_sweep(f, n - 1))
    k = c.earlier_play
    if c.forced_later == 0 and c.free_later == 0:
        return lone_loss if k == 0 else p_no_trick(f, k)
    p_lone = 0.0
    if k == 0 and c.forced_later == 0:
        # alone if the free seats after it drop; the last of them drops on purpose
        p_lone = (1.0 - Q_LATER) ** (c.free_later - 1) * (TRAP if not c.nln else 1 - Q_LATER)
        p_lone *= fear
    others = max(1.0, k + c.forced_later + Q_LATER * c.free_later)
    return p_lone * lone_loss + (1.0 - p_lone) * _no_trick(f, others)


def drop_cost(drops_before: int, limit: int | None, seats: int) -> float:
    """What a drop costs in lives: a forced round next if it reaches the limit."""
    if limit is None:
        return 0.0
    after = drops_before + 1
    if must_play(after, limit):
        return forced_lives(seats)
    return forced_lives(seats) * 0.25 * after / limit


def sigmoid(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def soft(margin: float) -> float:
    """The chance of playing a hand whose expected loss lies ``margin`` lives below the
    seat's threshold."""
    return FLOOR + (1.0 - 2.0 * FLOOR) * sigmoid(margin / TEMP)


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
        self.counting = info.counting
        self.forced = {s: info.forced(s) for s in info.order}

    def style(self, seat: int) -> Style:
        return self.styles.get(seat, DEFAULT_STYLE)

    def context(self, seat: int, declared: Mapping[int, str]) -> Context:
        order = self.info.order
        pos = order.index(seat)
        later = order[pos + 1:]
        forced_later = sum(1 for s in later if self.forced[s])
        return Context(sum(1 for s in order[:pos] if declared.get(s) == "play"),
                       forced_later, len(later) - forced_later, len(order), self.nln,
                       self.counting)

    def p_play(self, seat: int, hand: int, declared: Mapping[int, str]) -> float:
        """Chance that ``seat`` plays holding ``hand`` (a bit set)."""
        info = self.info
        if self.forced[seat] or info.dealer_forced(seat, dict(declared)):
            return 1.0
        c = self.context(seat, declared)
        st = self.style(seat)
        if info.limit is None and not self.counting:
            return self._p_play_no_limit(seat, hand, c)
        if (c.forced_later == 0 and c.free_later == 0 and c.earlier_play == 1
                and not c.nln and not c.counting):
            return 1.0 - st.trap
        f = features(hand, self.trump, self.seen, self.dk)
        loss = play_loss(f, c, st.fear) * (1.0 if c.counting else
                                           life_weight(info.lives[seat]))
        cost = drop_cost(info.drops_before.get(seat, 0), info.limit, c.seats)
        return soft(cost + st.bias - loss)

    def p_rams(self, seat: int, hand: int) -> float:
        """Chance that ``seat`` announced General Rams holding ``hand``: as likely as
        the hand takes every trick against everyone."""
        f = features(hand, self.trump, self.seen, self.dk)
        return max(FLOOR, p_sweep(f, len(self.info.order) - 1))

    def _p_play_no_limit(self, seat: int, hand: int, c: Context) -> float:
        """002 literally: dropping is free, so a seat plays only a hand that is nearly
        sure of a trick (and as the last seat alone, of every trick)."""
        f = features(hand, self.trump, self.seen, self.dk)
        st = self.style(seat)
        loss = play_loss(f, c, st.fear) * life_weight(self.info.lives[seat])
        return soft(0.08 + st.bias - loss)


DEFAULT_STYLE = Style()


# ---------------------------------------------------------------- styles from history

BIAS_GRID = tuple(round(-0.2 + 0.025 * i, 3) for i in range(29))     # -0.2 … 0.5
FEAR_GRID = (0.0, 0.25, 0.5, 0.75, 1.0)
#: prior on a seat's bias: normal with this spread (lives)
BIAS_PRIOR = 0.12
#: weight of the prior trap rate, in observed situations
TRAP_PRIOR_WEIGHT = 4.0
#: random hands behind the chance that a seat plays a hand the table never saw
REFERENCE_HANDS = 100


@lru_cache(maxsize=512)
def _reference_losses(c: Context, fear: float, hand_size: int, deck_name: str, lives: int
                      ) -> tuple[float, ...]:
    """Expected losses of random hands in context ``c`` (for a seat whose hand the
    table never saw: it dropped)."""
    # a seed from the numbers only (``hash`` of a string differs between processes)
    rng = random.Random(mix(c.earlier_play, c.forced_later, c.free_later, c.seats,
                            int(c.nln), round(fear * 100), hand_size, lives,
                            len(deck_name)))
    dk = deck(deck_name)
    allbits = sorted(dk.code)
    out = []
    for _ in range(REFERENCE_HANDS):
        cards = rng.sample(allbits, hand_size + 1)
        tc = cards[-1]
        h = 0
        for b in cards[:-1]:
            h |= 1 << b
        out.append(play_loss(features(h, tc >> 4, 1 << tc, dk), c, fear) * life_weight(lives))
    return tuple(out)


def read_styles(info: Info) -> dict[int, Style]:
    """Each other seat's :class:`Style`, fitted to its free declarations in the game's
    earlier rounds (``history``): how often it played with a hand like the ones dealt,
    the hands it played and showed (when the trump of that round is known from a
    trick), and how often it left a single player alone when it could."""
    hist = info.view.get("history") or []
    if not hist:
        return {}
    rules = info.rules
    return dict(_styles(history_key(hist), info.me, info.n, info.limit,
                        bool(rules.get("lone_needs_one")), info.hand_size, info.deck,
                        int(rules.get("lives", 3)), info.counting,
                        bool(rules.get("dealer_must_play")), bool(rules.get("two_must_play"))))


def history_key(hist: Sequence[Sequence[Mapping[str, Any]]]) -> tuple:
    """The earlier rounds (``history``) as tuples ``(type, seat, choice / card /
    winner, cards)`` of their declarations, cards, tricks and exchanges: hashable, so
    the styles read from them are computed once per game state."""
    return tuple(tuple((e.get("type"), e.get("seat"), e.get("choice") or e.get("card")
                        or e.get("winner"), tuple((e.get("cards") or {}).items()))
                       for e in rnd if e.get("type") in ("declare", "play", "trick",
                                                          "take_trump"))
                 for rnd in hist)


def round_declarations(rnd: Sequence[tuple], streak: Sequence[int], limit: int | None,
                       dealer_must_play: bool = False, two_must_play: bool = False
                       ) -> tuple[list[tuple[int, str]], dict[int, str], list[int]]:
    """An earlier round (one entry of :func:`history_key`) as the engine played it:
    its declarations in order, the seats the rules forced to play with the reason
    (:func:`~game.rules.rams_rules.forced_to_play` on ``streak``, each seat's drops in
    a row before it) and the streaks after it. The seats dealt in are those that
    declared or played (after General Rams the later seats are not asked, and play);
    the dealer declares last, if asked at all."""
    decl = [(s, ch) for t, s, ch, _ in rnd if t == "declare"]
    order = [s for s, _ in decl]
    dealt = dealt_seats(rnd)
    dealer = order[-1] if order and len(order) == len(dealt) else None
    forced: dict[int, str] = {}
    nobody = True
    for s, choice in decl:
        why = forced_to_play(streak[s], limit, dealer=s == dealer, nobody_plays=nobody,
                             seats=len(dealt), dealer_must_play=dealer_must_play,
                             two_must_play=two_must_play)
        if why is not None:
            forced[s] = why
        nobody = nobody and choice != "play"
    after = list(streak)
    for s in dealt:
        after[s] = streak[s] + 1 if (s, "drop") in decl else 0
    return decl, forced, after


def dealt_seats(rnd: Sequence[tuple]) -> list[int]:
    """The seats dealt into an earlier round (one entry of :func:`history_key`), in
    declaration order: those that declared, then those that played without being
    asked (after General Rams, the seats after the announcer, who come after it)."""
    order = [s for t, s, _, _ in rnd if t == "declare"]
    return order + [s for s in dict.fromkeys(s for t, s, _, _ in rnd if t == "play")
                    if s not in order]


@lru_cache(maxsize=32)
def _styles(hist: tuple, me: int, n: int, limit: int | None, nln: bool, hand_size: int,
            deck_name: str, start_lives: int, counting: bool = False,
            dealer_must_play: bool = False, two_must_play: bool = False
            ) -> tuple[tuple[int, Style], ...]:
    dk = deck(deck_name)
    streak = [0] * n
    lives = [3 if counting else start_lives] * n
    shown_obs: dict[int, list[tuple[Context, int, tuple[int, ...]]]] = {}
    blind: dict[int, dict[tuple[Context, int], list[int]]] = {}
    traps: dict[int, list[int]] = {}
    for rnd in hist:
        decl, forced, after = round_declarations(rnd, streak, limit, dealer_must_play,
                                                 two_must_play)
        order = [s for s, _ in decl]
        trump = _trump_of(rnd)
        shown: dict[int, int] = {}
        for t, s, x, _ in rnd:
            if t == "play":
                shown[s] = shown.get(s, 0) | (1 << dk.bit[x])
        declared: dict[int, str] = {}
        for i, (s, choice) in enumerate(decl):
            later = order[i + 1:]
            # the seats forced whatever the others do (as DeclareModel.context counts)
            fl = sum(1 for x in later if forced.get(x, "dealer_must_play")
                     != "dealer_must_play")
            c = Context(sum(1 for x in order[:i] if declared.get(x) == "play"), fl,
                        len(later) - fl, len(order), nln, counting)
            declared[s] = choice
            if s == me or s in forced or choice == "general":
                continue
            if not later and c.earlier_play == 1 and not nln and not counting:
                traps.setdefault(s, []).append(1 if choice == "drop" else 0)
                continue
            hand = shown.get(s, 0)
            if choice == "play" and trump is not None and hand.bit_count() == hand_size:
                shown_obs.setdefault(s, []).append((c, lives[s],
                                                    features(hand, trump, 0, dk)))
            else:
                cell = blind.setdefault(s, {}).setdefault((c, lives[s]), [0, 0])
                cell[0 if choice == "play" else 1] += 1
        streak = after
        if not counting:        # counters: a seat's style does not depend on them here
            lose_lives(rnd, lives, hand_size, nln)
    out = []
    for s in sorted(set(shown_obs) | set(blind) | set(traps)):
        bias, fear = _fit(shown_obs.get(s, []), blind.get(s, {}),
                          None if counting else limit, hand_size, deck_name,
                          0.0 if counting else 0.08)
        t = traps.get(s, [])
        trap = (sum(t) + TRAP * TRAP_PRIOR_WEIGHT) / (len(t) + TRAP_PRIOR_WEIGHT)
        out.append((s, Style(bias, trap, fear)))
    return tuple(out)


def _fit(shown: Sequence[tuple[Context, int, tuple[int, ...]]],
         blind: Mapping[tuple[Context, int], list[int]], limit: int | None, hand_size: int,
         deck_name: str, free: float = 0.08) -> tuple[float, float]:
    """The (bias, fear) of best posterior on the grids."""
    if not shown and not blind:
        return DEFAULT_STYLE.bias, DEFAULT_STYLE.fear
    best, best_ll = (DEFAULT_STYLE.bias, DEFAULT_STYLE.fear), -1e18
    for fear in FEAR_GRID:
        shown_losses = [(drop_cost(0, limit, c.seats) if limit is not None else free,
                         play_loss(f, c, fear) * life_weight(lives)) for c, lives, f in shown]
        cells = [(drop_cost(0, limit, c.seats) if limit is not None else free,
                  _reference_losses(c, fear, hand_size, deck_name, lives), n)
                 for (c, lives), n in blind.items()]
        for b in BIAS_GRID:
            ll = -0.5 * (b / BIAS_PRIOR) ** 2
            for cost, loss in shown_losses:
                ll += math.log(soft(cost + b - loss))
            for cost, ref, (plays, drops) in cells:
                p = sum(soft(cost + b - x) for x in ref) / len(ref)
                ll += plays * math.log(p) + drops * math.log(1.0 - p)
            if ll > best_ll:
                best, best_ll = (b, fear), ll
    return best


def _trump_of(rnd: Sequence[tuple]) -> int | None:
    """The trump suit of an earlier round, if a trick shows it (won by a card not of
    the suit led) or the dealer took the trump card."""
    for t, _s, x, cards in rnd:
        if t == "take_trump":
            return suit_index(x[1])
        if t == "trick" and cards:
            w = dict(cards).get(str(x))
            first = cards[0][1]
            if w and w[1] != first[1]:
                return suit_index(w[1])
    return None


def lose_lives(rnd: Sequence[tuple], lives: list[int], hand_size: int, nln: bool) -> None:
    """Follow the lives (``scoring: lives``) through an earlier round (one entry of
    :func:`history_key`): its declarations and the tricks each seat won, scored by the
    rules' own functions (who played, :func:`round_players`, from the seats dealt in,
    :func:`dealt_seats`; what each lost, :func:`round_losses`, a General Rams
    announcement included), capped at the lives left."""
    won: dict[int, int] = {}
    declared: dict[int, str] = {}
    for t, s, x, _ in rnd:
        if t == "trick":
            won[x] = won.get(x, 0) + 1
        elif t == "declare":
            declared[s] = x
    players, lone, general = round_players(dealt_seats(rnd), declared)
    for s, a in round_losses(players, won, lone, hand_size, nln, general=general).items():
        lives[s] = max(0, lives[s] - a)
