"""The search's play-outs: a round's trick play on packed cards, every seat playing
the card heuristic of :func:`policy_bit` (what a careful player does with what it
sees: its hand, the cards gone, the voids shown, the tricks won).

:class:`Round` holds the state of one round's trick play (hands as bit sets,
:mod:`game.ai.rams_cards`); :func:`play_out` plays it to the end. What a finished
round costs is the rules' own :func:`~game.rules.rams_rules.round_losses`.
``tests/test_rams_fast_paths.py`` plays random legal cards through a round and the
engine (legal sets, winners, voids, losses); ``tests/test_rule_primitives.py`` the
play-outs' own cards.

The heuristic's goal per seat (:func:`mode`): ``NEED`` a trick, ``SAFE`` (has one:
take tricks away from players still needing one), ``ALL`` (the lone player, or the
General Rams announcer, still taking every trick), ``DEFEND`` (against the lone player
or the announcer), ``NONE`` (nothing left to play for). Under ``scoring: counters``
every trick a player takes counts, so a player stays ``NEED`` all round, and the
defenders defend every trick; the round ends at once when a seat's tricks bring its
counters (``stack``) to zero (``first_out``), as the engine's does.
"""

from __future__ import annotations

from game.ai.rams_cards import SUIT_MASK, Deck, beating, bits, legal_mask
from game.rules.rams_rules import round_losses, sheds

NONE, NEED, SAFE, ALL, DEFEND = range(5)


class Round:
    """One round's trick play on bit sets. ``hands`` and ``voids`` (a 4-bit set of
    suits each seat showed it lacks) are indexed by seat; ``gone`` is every card seen
    played this round plus the turned trump card on the stock."""

    __slots__ = ("dk", "trump", "must_trump", "must_beat", "nln", "hand_size", "players",
                 "lone", "hands", "tricks", "gone", "voids", "trick", "led", "best",
                 "best_seat", "counting", "general", "stack", "first_out")

    def __init__(self, dk: Deck, trump: int, players: list[int], lone: int | None,
                 n_seats: int, hand_size: int, must_trump: bool = False,
                 must_beat: bool = False, nln: bool = False, *, counting: bool = False,
                 general: int | None = None, stack: list[int] | None = None) -> None:
        self.dk = dk
        self.counting = counting
        self.general = general
        #: every seat's counters before the round (``counting``: who reaches zero)
        self.stack = stack if stack is not None else [99] * n_seats
        self.first_out: int | None = None
        self.trump = trump
        self.must_trump = must_trump
        self.must_beat = must_beat
        self.nln = nln
        self.hand_size = hand_size
        self.players = players
        self.lone = lone
        self.hands = [0] * n_seats
        self.tricks = [0] * n_seats
        self.voids = [0] * n_seats
        self.gone = 0
        self.trick: list[tuple[int, int]] = []
        self.led = -1
        self.best = -1
        self.best_seat = -1

    def copy(self) -> Round:
        r = Round.__new__(Round)
        r.dk = self.dk
        r.trump = self.trump
        r.must_trump = self.must_trump
        r.must_beat = self.must_beat
        r.nln = self.nln
        r.hand_size = self.hand_size
        r.players = self.players
        r.lone = self.lone
        r.hands = self.hands[:]
        r.tricks = self.tricks[:]
        r.voids = self.voids[:]
        r.gone = self.gone
        r.trick = self.trick[:]
        r.led = self.led
        r.best = self.best
        r.best_seat = self.best_seat
        r.counting = self.counting
        r.general = self.general
        r.stack = self.stack
        r.first_out = self.first_out
        return r

    def legal(self, seat: int) -> int:
        return legal_mask(self.hands[seat], self.led, self.best, self.trump, self.dk.above,
                          self.must_trump, self.must_beat)

    def to_play(self) -> int:
        """The seat whose card is next (the trick's leader when it is empty)."""
        p = self.players
        return p[(p.index(self.trick[-1][0]) + 1) % len(p)]

    def play(self, seat: int, b: int) -> int | None:
        """``seat`` plays bit ``b``; returns the trick's winner when it completes."""
        self.hands[seat] &= ~(1 << b)
        self.gone |= 1 << b
        s = b >> 4
        if self.led < 0:
            self.led = s
            self.best = b
            self.best_seat = seat
        else:
            if s != self.led:
                self.voids[seat] |= 1 << self.led
                if self.must_trump and s != self.trump:
                    self.voids[seat] |= 1 << self.trump
            best = self.best
            if (b > best) if s == best >> 4 else s == self.trump:
                self.best = b
                self.best_seat = seat
        self.trick.append((seat, b))
        if len(self.trick) < len(self.players):
            return None
        w = self.best_seat
        self.tricks[w] += 1
        # a seat sheds at most its tricks: the rules' count only when that may reach zero
        if (self.counting and self.first_out is None and self.tricks[w] >= self.stack[w]
                and self._shed(w) >= self.stack[w]):
            self.first_out = w
        self.trick = []
        self.led = -1
        self.best = -1
        self.best_seat = -1
        return w

    def _shed(self, seat: int) -> int:
        t = self.tricks
        return sheds(seat, {s: t[s] for s in self.players}, self.lone, self.general,
                     self.hand_size)

    def foe(self) -> int:
        """Whom the defenders defend against: the lone player or the announcer."""
        return self.lone if self.lone is not None else self.general  # type: ignore

    def losses(self) -> dict[int, int]:
        """What each seat loses by the finished round (the rules' own count): lives, or
        under ``counting`` the change of its counters (a round cut short by a seat at
        zero: the tricks so far shed)."""
        t = self.tricks
        if self.first_out is not None:
            return {s: -self._shed(s) for s in self.players if self._shed(s)}
        return round_losses(self.players, {s: t[s] for s in self.players}, self.lone,
                            self.hand_size, self.nln, counters=self.counting,
                            general=self.general)


def play_out(r: Round, leader: int) -> Round:
    """Play ``r`` to the end of the round, every seat by :func:`policy_bit`; ``leader``
    leads if no trick is under way. Returns ``r`` (changed)."""
    players = r.players
    n = len(players)
    nxt = leader if not r.trick else r.to_play()
    hands = r.hands
    while True:
        if not hands[nxt] or r.first_out is not None:
            return r
        w = r.play(nxt, policy_bit(r, nxt))
        if w is None:
            nxt = players[(players.index(nxt) + 1) % n]
        else:
            nxt = w


# ---------------------------------------------------------------- the heuristic

def mode(r: Round, seat: int) -> int:
    t = r.tricks
    lone = r.lone
    general = r.general
    if general is not None:
        broken = any(t[s] for s in r.players if s != general)
        if seat == general:
            return NONE if broken else ALL
        if not broken:
            return DEFEND
        if r.counting:
            return NEED
        lone = None
    elif r.counting:
        if lone is None or seat == lone:
            return NEED
        return DEFEND
    if lone is None:
        if t[seat] == 0:
            return NEED
        for s in r.players:
            if t[s] == 0:
                return SAFE
        return NONE
    if r.nln:
        if lone == seat:
            return NEED if t[seat] == 0 else NONE
        return DEFEND if t[lone] == 0 else NONE
    others = sum(t[s] for s in r.players) - t[lone]
    if others:
        return NONE
    return ALL if lone == seat else DEFEND


def lowest(m: int, trump: int) -> int:
    """The least valuable card of ``m``: the lowest side card, else the lowest trump."""
    side = m & ~SUIT_MASK[trump]
    if not side:
        return (m & -m).bit_length() - 1
    best, br = -1, 99
    for s in range(4):
        x = side & SUIT_MASK[s]
        if x:
            b = (x & -x).bit_length() - 1
            if b & 15 < br:
                best, br = b, b & 15
    return best


def highest(m: int, trump: int) -> int:
    """The strongest card of ``m``: the highest trump, else the highest side card."""
    t = m & SUIT_MASK[trump]
    if t:
        return t.bit_length() - 1
    best, br = -1, -1
    for s in range(4):
        x = m & SUIT_MASK[s]
        if x:
            b = x.bit_length() - 1
            if b & 15 > br:
                best, br = b, b & 15
    return best


def discard(m: int, hand: int, unseen: int, trump: int, above: list[int]) -> int:
    """The card to give away: never a master if another will do, the lowest rank,
    from the shortest suit (a void lets the trumps in)."""
    side = m & ~SUIT_MASK[trump]
    if not side:
        return (m & -m).bit_length() - 1
    best, key = -1, (9, 99, 99)
    for b in bits(side):
        k = (1 if above[b] & unseen == 0 else 0, b & 15,
             (hand & SUIT_MASK[b >> 4]).bit_count())
        if k < key:
            best, key = b, k
    return best


def policy_bit(r: Round, seat: int) -> int:
    """The heuristic's card for ``seat`` (a bit), from what that seat sees."""
    hand = r.hands[seat]
    legal = r.legal(seat)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    md = mode(r, seat)
    trump = r.trump
    dk = r.dk
    above = dk.above
    unseen = dk.full & ~r.gone & ~hand
    if md == NONE:
        return discard(legal, hand, unseen, trump, above)
    tmask = SUIT_MASK[trump]
    if r.led < 0:
        return _lead(r, seat, md, hand, legal, unseen, trump, tmask, above)
    return _follow(r, seat, md, hand, legal, unseen, trump, tmask, above)


def _lead(r: Round, seat: int, md: int, hand: int, legal: int, unseen: int, trump: int,
          tmask: int, above: list[int]) -> int:
    masters = [b for b in bits(legal) if above[b] & unseen == 0]
    t_out = unseen & tmask
    if md == ALL:
        if legal & tmask and t_out:
            return (legal & tmask).bit_length() - 1      # draw the trumps
        if masters:
            return max(masters, key=lambda b: (b >> 4 == trump, b & 15))
        return highest(legal, trump)
    tm = [b for b in masters if b >> 4 == trump]
    if md == NEED or md == DEFEND:
        if tm:
            return min(tm)
        if md == DEFEND:
            foes = [r.foe()]
        else:
            foes = [s for s in r.players if s != seat]
        side = [b for b in masters if b >> 4 != trump]
        if side:
            if t_out:
                safe = [b for b in side
                        if not any(r.voids[s] >> (b >> 4) & 1 for s in foes)]
                side = safe or side
            # the suit with the most cards still out is the least likely to be ruffed
            return max(side, key=lambda b: ((unseen & SUIT_MASK[b >> 4]).bit_count(), b))
        plain = legal & ~tmask
        if md == DEFEND:
            lone = r.foe()
            ok = [b for b in bits(plain) if not (r.voids[lone] >> (b >> 4)) & 1]
            if ok:
                return max(ok, key=lambda b: (b & 15, b))
            return highest(legal, trump)
        if plain:
            # a low card of the shortest side suit: the void lets the trumps in later
            best, key = -1, (99, 99)
            for s in range(4):
                x = plain & SUIT_MASK[s]
                if x:
                    b = (x & -x).bit_length() - 1
                    k = ((hand & SUIT_MASK[s]).bit_count(), b & 15)
                    if k < key:
                        best, key = b, k
            return best
        return (legal & -legal).bit_length() - 1
    # SAFE: take tricks away from players still needing one
    if masters:
        return max(masters, key=lambda b: (b & 15, b >> 4 == trump))
    return highest(legal, trump)


def _follow(r: Round, seat: int, md: int, hand: int, legal: int, unseen: int, trump: int,
            tmask: int, above: list[int]) -> int:
    best = r.best
    winners = legal & beating(best, trump, above)
    players = r.players
    # the seats still to play to this trick: the trick goes round the players in order
    n = len(players)
    k = players.index(seat)
    after = [players[(k + i) % n] for i in range(1, n - len(r.trick))]
    led = r.led
    t_out = unseen & tmask

    def holds(b: int, foes: list[int]) -> bool:
        if above[b] & unseen:
            return False
        if b >> 4 == trump or not t_out:
            return True
        return not any(r.voids[s] >> led & 1 and not r.voids[s] >> trump & 1
                       for s in foes)

    if md == ALL or md == NEED:
        if not winners:
            return discard(legal, hand, unseen, trump, above)
        wl = bits(winners)
        if not after:
            return min(wl, key=lambda b: (b >> 4 == trump, b & 15))
        sure = [b for b in wl if holds(b, after)]
        if sure:
            return min(sure, key=lambda b: (b >> 4 == trump, b & 15))
        if md == ALL:
            return max(wl, key=lambda b: (b >> 4 == trump, b & 15))
        follow = winners & SUIT_MASK[led]
        if follow:
            return follow.bit_length() - 1
        return min(wl, key=lambda b: (b >> 4 == trump, b & 15))
    if md == SAFE:
        t = r.tricks
        needy_after = [s for s in after if t[s] == 0]
        bs = r.best_seat
        if bs != seat and t[bs] == 0:
            if not winners:
                return discard(legal, hand, unseen, trump, above)
            wl = bits(winners)
            sure = [b for b in wl if holds(b, needy_after)]
            pool = sure or wl
            return min(pool, key=lambda b: (b >> 4 == trump, b & 15))
        if needy_after and winners and not holds(best, needy_after):
            sure = [b for b in bits(winners) if holds(b, needy_after)]
            if sure:
                return min(sure, key=lambda b: (b >> 4 == trump, b & 15))
        return discard(legal, hand, unseen, trump, above)
    # DEFEND
    lone = r.foe()
    bs = r.best_seat
    if bs == lone:
        if winners:
            return min(bits(winners), key=lambda b: (b >> 4 == trump, b & 15))
        return discard(legal, hand, unseen, trump, above)
    if lone in after and not holds(best, [lone]):
        sure = [b for b in bits(winners) if holds(b, [lone])]
        if sure:
            return min(sure, key=lambda b: (b >> 4 == trump, b & 15))
        if winners:
            # make the lone player spend its best: the highest card that heads the trick
            return max(bits(winners), key=lambda b: (b >> 4 == trump, b & 15))
    return discard(legal, hand, unseen, trump, above)
