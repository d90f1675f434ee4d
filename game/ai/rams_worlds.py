"""The hands a seat cannot see, dealt at random consistently with its view, and how
likely each such deal is given what the other seats did (:class:`Worlds`).

Hard facts: the cards this seat holds, has seen played this round, the turned trump
card on the stock (or in the dealer's hand, when it took it), its own discard; every
void a seat showed by not following suit (under ``must_trump`` also of trumps). Soft
facts weigh each deal: how likely every free declaration of this round was with the
hand the deal gives that seat (:class:`~game.ai.rams_model.DeclareModel`), and, with
``read_play``, how likely each card the other seats played was under the play-out
heuristic (a player who does not take a trick it could have taken cheaply probably
could not).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from game.ai.rams_cards import SUIT_MASK, beats_bit, deck, suit_index
from game.ai.rams_info import Info
from game.ai.rams_model import DeclareModel
from game.ai.rams_playout import Round, policy_bit

#: chance given to a card the heuristic would not have played (``read_play``)
OFF_POLICY = 0.35


class Worlds:
    """Random deals of the unseen cards to the other seats of a round."""

    def __init__(self, info: Info, model: DeclareModel, read_play: bool = False) -> None:
        self.info = info
        self.model = model
        dk = self.dk = deck(info.deck)
        self.trump = suit_index(info.trump)
        me = info.me
        self.others = [s for s in info.order if s != me]
        self.played = {s: dk.mask(info.played_by.get(s, ())) for s in self.others}
        self.sizes = {s: info.hand_size - self.played[s].bit_count() for s in self.others}
        known = dk.mask(info.hand) | dk.mask(info.gone)
        self.fixed: dict[int, int] = {}
        if (info.took is not None and info.took != me and info.trump_card
                and info.trump_card not in info.played_by.get(info.took, ())):
            b = dk.mask([info.trump_card])
            self.fixed[info.took] = b
            known |= b
        self.pool = [b for b in sorted(dk.code) if not known >> b & 1]
        self.banned: dict[int, int] = {}
        for s, suits in info.voids.items():
            m = 0
            for x in suits:
                m |= SUIT_MASK[suit_index(x)]
            self.banned[s] = m
        # the most constrained seats are dealt first
        self.deal_order = sorted(self.others, key=lambda s: -self.banned.get(s, 0).bit_count())
        self.judged = [s for s in info.order if s != me and s in info.declared
                       and not info.forced(s)]
        self.read_play = read_play and bool(info.played)
        self.mine = dk.mask(info.hand)
        #: the cards played this round, in order: ``(seat, bit)``
        self.plays = [(e["seat"], dk.bit[e["card"]]) for e in info.events
                      if e.get("type") == "play"]
        if self.read_play:
            #: the round at its first lead, this seat's cards as dealt in it
            self.fresh = start_round(info, {}, fresh=True)
            self.fresh.hands[me] = self.mine | dk.mask(info.played_by.get(me, ()))

    def sample(self, rng: random.Random) -> tuple[float, list[int]] | None:
        """``(weight, hands)``: every other seat's cards now (a bit set by seat; this
        seat's own hand is filled in too), or ``None`` if no deal was found."""
        info = self.info
        hands = [0] * info.n
        for _attempt in range(8):
            cards = self.pool[:]
            rng.shuffle(cards)
            ok = True
            for s in self.deal_order:
                need = self.sizes[s]
                got = self.fixed.get(s, 0)
                need -= got.bit_count()
                ban = self.banned.get(s, 0)
                if not ban:
                    for b in cards[:need]:
                        got |= 1 << b
                    del cards[:need]
                else:
                    keep = []
                    for b in cards:
                        if need and not ban >> b & 1:
                            got |= 1 << b
                            need -= 1
                        else:
                            keep.append(b)
                    cards = keep
                    if need:
                        ok = False
                        break
                hands[s] = got
            if ok:
                break
        else:
            return None
        hands[info.me] = self.mine
        return self.weight(hands), hands

    def weight(self, hands: list[int]) -> float:
        """How likely the seats' declarations (and, with ``read_play``, their cards)
        were with these hands."""
        w = 1.0
        declared = self.info.declared
        model = self.model
        for s in self.judged:
            if declared[s] == "general":
                w *= model.p_rams(s, hands[s] | self.played[s])
                continue
            p = model.p_play(s, hands[s] | self.played[s], declared)
            w *= p if declared[s] == "play" else 1.0 - p
        if self.read_play and w > 0:
            w *= self.play_likelihood(hands)
        return w

    def play_likelihood(self, hands: list[int]) -> float:
        """How likely the cards played so far were, every other seat playing the
        play-out heuristic with the hand this deal gives it (and sometimes not)."""
        info = self.info
        me = info.me
        r = self.fresh.copy()
        for s in info.in_play:
            if s != me:
                r.hands[s] = hands[s] | self.played.get(s, 0)
        like = 1.0
        for s, b in self.plays:
            if s != info.me:
                legal = r.legal(s)
                if legal & (legal - 1):
                    like *= (1.0 - OFF_POLICY) if policy_bit(r, s) == b else OFF_POLICY
            r.play(s, b)
        return like


def start_round(info: Info, hands: Mapping[int, int], players: list[int] | None = None,
                lone: int | None = None, fresh: bool = False,
                general: int | None = None) -> Round:
    """A :class:`Round` for ``info``'s round with the given hands: at its first lead
    (``fresh``, or before the trick play: ``players``, ``lone`` and ``general`` then
    say who plays), else as the view shows it now (tricks won, the trick under way,
    voids, cards gone)."""
    dk = deck(info.deck)
    rules = info.rules
    if players is None:
        players = list(info.in_play)
        lone = info.lone
        general = info.general
    r = Round(dk, suit_index(info.trump), players, lone, info.n, info.hand_size,
              bool(rules.get("must_trump")), bool(rules.get("must_beat")),
              bool(rules.get("lone_needs_one")), counting=info.counting, general=general,
              stack=info.lives)
    for s, h in hands.items():
        r.hands[s] = h
    base = set(info.gone) - set(info.played)
    if fresh:
        r.gone = dk.mask(base)
        return r
    r.gone = dk.mask(info.gone)
    for s, n in info.tricks.items():
        r.tricks[s] = n
    for s, suits in info.voids.items():
        for x in suits:
            r.voids[s] |= 1 << suit_index(x)
    if info.trick:
        first = dk.bit[info.trick[0][1]]
        r.led = first >> 4
        r.best, r.best_seat = first, info.trick[0][0]
        for s, c in info.trick:
            b = dk.bit[c]
            r.trick.append((s, b))
            if b != first and beats_bit(b, r.best, r.trump):
                r.best, r.best_seat = b, s
    return r
