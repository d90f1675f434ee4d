"""A spy at a seat: what it may know, what it was sent, and an attacker that tries to
name the next deal from it.

The attacker knows every way the code ever derived the computers' seed from the
shuffle seed (``DERIVATIONS``) and the old view seed (an invertible map of the bot
seed, :func:`old_seat_seed`). From a seat's stream it brute-forces the shuffle seed
through each of them, round by round; once a candidate has dealt the seat's hands so
far exactly (24 bits of evidence) it predicts the next ones; until then it guesses.
Its hits are then set against chance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from game import games, records
from game.ai.common import mix
from game.rules.base import DealSource, seat_seed
from tests.phone_helpers import card_strings

M64 = 2**64 - 1


# --------------------------------------------------------------------------- old seeds

def old_seat_seed(bot_seed: int, seat: int) -> int:
    """The view's seed before it was a one-way hash: an affine map and splitmix64's
    finalizer, every step invertible."""
    x = (bot_seed * 0x9E3779B97F4A7C15 + (seat + 1) * 0xBF58476D1CE4E5B9) & M64
    x ^= x >> 31
    x = (x * 0x94D049BB133111EB) & M64
    return x ^ (x >> 29)


def _unxorshift(y: int, k: int) -> int:
    x = y
    for _ in range(64 // k + 1):
        x = y ^ (x >> k)
    return x & M64


def invert_old_seat_seed(view_seed: int, seat: int) -> int:
    """The bot seed (mod 2**64) behind an old view seed."""
    x = _unxorshift(view_seed & M64, 29)
    x = (x * pow(0x94D049BB133111EB, -1, 2**64)) & M64
    x = _unxorshift(x, 31)
    x = (x - (seat + 1) * 0xBF58476D1CE4E5B9) & M64
    return (x * pow(0x9E3779B97F4A7C15, -1, 2**64)) & M64


#: Every derivation of a game's bot seed from a shuffle seed (or a series' root and the
#: game's number) the code has used: the window table, ``stammtisch host``,
#: tournaments, calibration and the benchmark tools, and tests that pass the seed twice.
DERIVATIONS: dict[str, Callable[[int, int], int]] = {
    "seed & 0xFFFF": lambda s, k: s & 0xFFFF,
    "Random(f'bots/{seed}')": lambda s, k: random.Random(f"bots/{s}").randrange(2**31),
    "mix(root, k, 1) >> 1": lambda s, k: mix(s, k, 1) >> 1,
    "the seed itself": lambda s, k: s,
}

#: Both ways a view seed was made from a bot seed.
SEAT_SEEDS: dict[str, Callable[[int, int], int]] = {
    "seat_seed": seat_seed,
    "the old invertible map": old_seat_seed,
}


def linked(shuffle_seed: int, k: int, bot_seed: int, seat: int,
           view_seed: int | None) -> list[str]:
    """The derivations that tie a game's bot seed (or a view seed) to its shuffle seed
    (or its series' root): none may."""
    out = []
    for name, derive in DERIVATIONS.items():
        b = derive(shuffle_seed, k)
        if b == bot_seed:
            out.append(name)
        if view_seed is not None:
            out += [f"{name}, {how}" for how, f in SEAT_SEEDS.items() if f(b, seat) == view_seed]
    return out


# --------------------------------------------------------------------------- what a seat may know

def allowed_cards(record: records.Record, seat: int) -> list[set[str]]:
    """``out[step]``: every card ``seat`` may know after ``step`` moves -- the cards of
    every public event and every event to this seat so far (its deals, its swaps) --
    from the engine's events of a replay of ``record``."""
    game = records.new_engine(record)
    known: set[str] = set()

    def learn(events: Iterable[Any]) -> None:
        for e in events:
            if e.to is None or e.to == seat:
                known.update(card_strings(e.data))

    learn(game.start())
    out = [set(known)]
    for s, move in record.moves:
        learn(game.apply(s, move))
        out.append(set(known))
    return out


def leaked(message: Any, allowed: set[str], deck: Iterable[str]) -> set[str]:
    """Cards of the game's ``deck`` named anywhere in ``message`` that the seat may not
    know (a seat number as a key, "1", is no card of a French deck)."""
    return (card_strings(message) & set(deck)) - allowed


# --------------------------------------------------------------------------- the attacker

@dataclass
class Round:
    index: int
    dealer: int
    active: list[int]
    dealt: list[str]                # the seat's own cards, as dealt (none: sat out)


@dataclass
class GameSeen:
    """One game as a seat saw it."""

    game: str
    rules: dict[str, Any]
    players: int
    seat: int
    view_seed: int | None
    number: int = 0                 # the game's place in a series (tournaments)
    rounds: list[Round] = field(default_factory=list)


def rounds_from_views(views: Sequence[dict[str, Any]]) -> list[Round]:
    """The rounds of one game from a seat's views (its own deal: the ``dealt`` event)."""
    out: dict[int, Round] = {}
    for v in views:
        r = v["round"]
        dealt = next((e["cards"] for e in v.get("private", []) if e.get("type") == "dealt"),
                     [])
        if r not in out or (dealt and not out[r].dealt):
            out[r] = Round(r, v["dealer"], list(v["active"]), list(dealt))
    return [out[r] for r in sorted(out)]


def _deals(game_seen: GameSeen, shuffle_seed: int, upto: int) -> dict[int, list[str]]:
    """The seat's own cards of every seen round up to ``upto`` if the game's shuffle
    seed were ``shuffle_seed`` (the engine's own card supply, dealt the engine's way)."""
    probe = games.new_game(game_seen.game, game_seen.rules, game_seen.players, seed=0)
    src = DealSource(probe.deck, shuffle_seed)
    hand = getattr(probe, "hand_size", 1)
    out = {}
    seen = {r.index: r for r in game_seen.rounds}
    for r in range(upto + 1):
        rnd = seen.get(r)
        if rnd is None:
            return out                 # a round the seat sat out: the attack stops here
        n = game_seen.players
        order = [s for s in ((rnd.dealer + j) % n for j in range(1, n + 1))
                 if s in rnd.active]
        m = len(order)
        stock = src.next_stock(top=hand * m + 1)
        if game_seen.seat in order:
            i = order.index(game_seen.seat)
            out[r] = sorted(stock[i:hand * m:m])
    return out


def candidate_seeds(g: GameSeen, budget: int = 1 << 12) -> dict[str, list[int]]:
    """Shuffle seeds the seat's stream points to, by derivation (brute force over each
    one the code used, within ``budget`` candidates where a search is needed)."""
    out: dict[str, list[int]] = {}
    v = g.view_seed
    if v is None:
        return out
    # the invertible view seed gives the bot seed at once
    b = invert_old_seat_seed(v, g.seat)
    if b < 1 << 16:                                     # seed & 0xFFFF, 31-bit seeds
        out["seed & 0xFFFF"] = [b + (j << 16) for j in range(1 << 15)]
    if old_seat_seed(b, g.seat) == v and b < 1 << 64:
        out["the seed itself"] = [b]
    forward = getattr(seat_seed, "__wrapped__", seat_seed)     # no cache to fill
    for s in range(1 << 16):                            # the one-way hash: forward
        if forward(s, g.seat) == v:
            out.setdefault("seed & 0xFFFF, hashed", []).extend(
                s + (j << 16) for j in range(1 << 15))
            out.setdefault("the seed itself, hashed", []).append(s)
    for root in range(budget):                          # small series roots and seeds
        for how, f in SEAT_SEEDS.items():
            if f(mix(root, g.number, 1) >> 1, g.seat) == v:
                out.setdefault(f"mix, {how}", []).append(mix(root, g.number) >> 1)
            if f(random.Random(f"bots/{root}").randrange(2**31), g.seat) == v:
                out.setdefault(f"bots/, {how}", []).append(root)
    return out


@dataclass
class Score:
    guesses: int = 0
    hits: int = 0
    chance: float = 0.0             # expected hits by guessing
    found: list[str] = field(default_factory=list)

    def add(self, guesses: int, hits: int, p: float) -> None:
        self.guesses += guesses
        self.hits += hits
        self.chance += guesses * p


#: Bits of evidence (own deals matched) before a candidate seed counts as found: a
#: wrong candidate survives them with probability 2**-24.
ENOUGH = 24.0


def attack(seen: Sequence[GameSeen]) -> Score:
    """Predict each seat's hand of every round after its first, from its stream only,
    round by round as a seat could: the candidate shuffle seeds of the derivations are
    kept while they deal the seat's rounds so far exactly as they were dealt; once one
    has matched ``ENOUGH`` bits it predicts the next hand, else the guess is the hand
    the seat held the round before."""
    score = Score()
    for g in seen:
        probe = games.new_game(g.game, g.rules, g.players, seed=0)
        deck = len(set(probe.deck))
        dealt = [r for r in g.rounds if r.dealt]
        cands: list[tuple[str, int]] = []
        if dealt and dealt[0].index == 0:
            cands = [(how, s) for how, ss in candidate_seeds(g).items() for s in ss]
        bits = 0.0
        prev: Round | None = None
        for rnd in dealt:
            if prev is not None:
                guess = None
                if cands and bits >= ENOUGH:
                    guess = _deals(g, cands[0][1], rnd.index).get(rnd.index)
                guess = guess or prev.dealt
                hits = len(set(guess) & set(rnd.dealt))
                score.add(len(guess), hits, len(rnd.dealt) / deck)
            if cands:                  # learn: keep the seeds that dealt this round so
                want = sorted(rnd.dealt)
                cands = [c for c in cands if _deals(g, c[1], rnd.index).get(rnd.index) == want]
                bits += math.log2(math.comb(deck, len(rnd.dealt)))
            prev = rnd
        if cands and bits >= ENOUGH:
            score.found.append(cands[0][0])
    return score


def beyond_chance(score: Score, alpha: float = 1e-6) -> bool:
    """The hits are more than guessing gives, at false-alarm rate ``alpha`` (a binomial
    tail with the mean rate of a guess)."""
    n = score.guesses
    if n == 0:
        return False
    p = min(1.0, score.chance / n)
    tail = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(score.hits, n + 1))
    return tail < alpha
