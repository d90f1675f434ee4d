"""Rams heuristics on plain values, for the levels and the search's play-outs.

The declaration estimates the chance of taking at least one trick from every card (its
distance from the top of its suit among the cards still unseen, trump or not), the
number of opponents expected in the play and the risk of becoming the lone player,
and weighs that against the cost of dropping (a drop now may force play next round).
The card play takes tricks with the cheapest card that holds, leads sure winners,
discards the least useful card, and once safe denies tricks to players still needing
one. Which card heads a trick is the rules' :func:`~game.rules.rams_rules.beats`.

Under ``scoring: counters`` every trick sheds a counter: the declaration weighs the
tricks expected against the penalty's chance (:func:`counters_margin`), and a player
keeps taking tricks all round. General Rams is called with a hand that very likely
takes every trick (:func:`general_call`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from game.ai import rams_model
from game.ai.rams_info import Info, higher_out, keep_value
from game.ai.rams_strength import features
from game.rules.rams_rules import beats, trick_winner

# chance that a card takes a trick against three opponents, by how many unseen cards
# of its suit rank above it (0: it is the top card still out)
TRUMP_P = (0.97, 0.86, 0.74, 0.64, 0.56, 0.5, 0.45, 0.41, 0.38, 0.35, 0.33, 0.31, 0.3)
SIDE_P = (0.58, 0.27, 0.12, 0.05, 0.03, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02)
#: cost (in lives) of being forced to play next round with whatever is dealt
FORCED_COST = 0.16


def sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def card_p(card: str, trump: str, above: int, opponents: float) -> float:
    """Chance this card alone takes a trick against ``opponents`` players."""
    table = TRUMP_P if card[1] == trump else SIDE_P
    p = table[min(above, len(table) - 1)]
    if opponents <= 0:
        return 1.0
    return p ** (opponents / 3.0)


def p_no_trick(hand: Sequence[str], trump: str, gone: set[str], rank: Mapping[str, int],
               deck: str, opponents: float) -> float:
    """Estimated chance of taking no trick at all."""
    q = 1.0
    for c in hand:
        q *= 1.0 - card_p(c, trump, higher_out(c, gone, hand, rank, deck),
                          max(1.0, opponents))
    return q


def p_sweep(hand: Sequence[str], trump: str, gone: set[str], rank: Mapping[str, int],
            deck: str, opponents: int, below: float = 0.0) -> float:
    """Estimated chance of taking every trick alone against ``opponents`` defenders.
    ``below``: stop as soon as the chance is sure to be under it (every factor is at
    most 1) and return the part worked out so far, itself under ``below``."""
    p = 1.0
    trumps = sum(1 for c in hand if c[1] == trump)
    for c in hand:
        above = higher_out(c, gone, hand, rank, deck)
        if c[1] == trump:
            p *= 0.97 if above == 0 else 0.5 ** above * 0.8
        else:
            side = 0.75 if above == 0 else 0.12 ** above * 0.6
            # side winners need the defenders' trumps drawn first
            p *= side * (0.6 + 0.1 * min(trumps, 4))
        if p < below:
            return p
    return p * (0.9 ** max(0, opponents - 2))


def play_loss(info: Info, hand: Sequence[str] | None = None,
              q_later: float = 0.42) -> float:
    """Expected lives ``info.me`` loses this round by declaring play (medium's model)."""
    hand = list(info.hand if hand is None else hand)
    me = info.me
    order = info.order
    pos = order.index(me)
    earlier = sum(1 for s in order[:pos] if info.declared.get(s) == "play")
    later = order[pos + 1:]
    forced_later = sum(1 for s in later if info.forced(s))
    free_later = len(later) - forced_later
    expect = earlier + forced_later + q_later * free_later
    p_lone = 0.0
    if earlier == 0 and forced_later == 0:
        p_lone = (1.0 - q_later) ** free_later
    rules = info.rules
    gone = info.gone
    lose = p_no_trick(hand, info.trump, gone, info.rank, info.deck,
                      max(1.0, expect / (1.0 - p_lone) if p_lone < 1 else 1.0))
    if p_lone > 0:
        others = len(order) - 1
        if rules.get("lone_needs_one"):
            lone_loss = p_no_trick(hand, info.trump, gone, info.rank, info.deck, others)
        else:
            lone_loss = 2.0 * (1.0 - p_sweep(hand, info.trump, gone, info.rank, info.deck,
                                             others))
        return p_lone * lone_loss + (1.0 - p_lone) * lose
    return lose


def drop_cost(info: Info, forced_cost: float = FORCED_COST) -> float:
    """What dropping now costs later: a forced play next round at the limit."""
    if info.limit is None:
        return 0.0
    after = info.drops_before.get(info.me, 0) + 1
    if info.forced_after_drop(info.me):
        return forced_cost
    return forced_cost * 0.25 * after / info.limit


def life_weight(info: Info) -> float:
    """How much a life matters now: more when it is the last one."""
    mine = info.lives[info.me]
    return 1.35 if mine <= 1 else 1.1 if mine == 2 else 1.0


def declare_margin(info: Info) -> float:
    """How far below medium's threshold the expected loss of playing lies (lives;
    positive: play)."""
    return drop_cost(info) + 0.04 - play_loss(info) * life_weight(info)


def counters_margin(info: Info) -> float:
    """``counters``: what playing is expected to gain, in stake units (five counters):
    the tricks expected, less the chance of none, against the players expected in the
    round (those who declared, the forced, a share of those still free), the risk of
    being left alone counted at half (:func:`game.ai.rams_model.play_loss`, on the
    fitted hand-strength models)."""
    m = rams_model.DeclareModel(info)
    f = features(m.dk.mask(info.hand), m.trump, m.seen, m.dk)
    return -rams_model.play_loss(f, m.context(info.me, info.declared), 0.5)


def general_call(info: Info) -> bool:
    """Whether to announce General Rams (:func:`general_hand`), where it is legal."""
    if "general" not in info.legal:
        return False
    return general_hand(info.hand, info.trump, info.gone, info.rank, info.deck,
                        len(info.order), info.counting)


def general_hand(hand: Sequence[str], trump: str, gone: set[str], rank: Mapping[str, int],
                 deck: str, seats: int, counting: bool) -> bool:
    """Whether a seat announces General Rams with ``hand`` (it knows the cards ``gone``
    are out of play) among ``seats`` dealt in: a hand very likely to take every trick
    against everyone (it costs two lives, or five counters, when it fails). The levels'
    own call, and the search's and the coach's model of the seats still to declare
    (:class:`game.ai.rams_search.DeclareTrials`)."""
    need = 0.6 if counting else 0.75
    return p_sweep(hand, trump, gone, rank, deck, seats - 1, below=need) >= need


def medium_declare(info: Info, bias: float = 0.0) -> str:
    if general_call(info):
        return "general"
    if "drop" not in info.legal:
        return "play"
    if info.counting:
        return "play" if counters_margin(info) + bias > 0 else "drop"
    if info.limit is None:
        return none_declare(info, bias)
    return "play" if declare_margin(info) + bias > 0 else "drop"


def none_declare(info: Info, bias: float = 0.0) -> str:
    """002 literally (no drop limit): dropping is always safe, so a table of careful
    players would never end. Play a promising hand (nearly sure of a trick if others
    play too); only a dealer who would be the lone player drops it."""
    if "drop" not in info.legal:
        return "play"
    order = info.order
    if info.me == order[-1] and not any(v == "play" for v in info.declared.values()):
        sweep = p_sweep(info.hand, info.trump, info.gone, info.rank, info.deck,
                        len(order) - 1)
        return "play" if sweep > 0.6 else "drop"
    q = p_no_trick(info.hand, info.trump, info.gone, info.rank, info.deck,
                   max(1.0, len(order) / 2)) * life_weight(info)
    return "play" if q < 0.15 + bias else "drop"


def take_choice(info: Info) -> str:
    """Dealer's exchange for the turned trump: give the least useful card."""
    legal = info.legal
    tc = info.trump_card
    if not tc:
        return "pass_trump"
    worst = min(info.hand, key=lambda c: keep_value(c, info.trump, info.rank))
    if keep_value(tc, info.trump, info.rank) > keep_value(worst, info.trump, info.rank):
        move = "take:" + worst
        if move in legal:
            return move
    return "pass_trump"


# ---------------------------------------------------------------- card play

def card_goal(me: int, tricks: Mapping[int, int], lone: int | None, lone_needs_one: bool,
              counting: bool, general: int | None) -> tuple[str, int | None]:
    """What ``me`` plays this trick for, and the seat it plays against (``lone``, or the
    General Rams announcer while nobody has broken the General). The goals:
    ``need`` a trick (yet), ``all`` of them, ``defend`` against that seat's aim,
    ``safe`` (its own trick is in: spoil the needy), ``none`` (nothing left to win or
    deny: throw the lowest card)."""
    mine = tricks.get(me, 0)
    if general is not None:
        broken = any(n for s, n in tricks.items() if s != general)
        if me == general:
            return ("none" if broken else "all"), lone
        if not broken:
            return "defend", general
        return ("need" if counting or mine == 0 else "safe"), lone
    if counting:
        return ("need" if lone is None or lone == me else "defend"), lone
    if lone is None:
        return ("need" if mine == 0 else "safe"), lone
    if lone == me:
        if lone_needs_one:
            return ("need" if mine == 0 else "none"), lone
        others = sum(n for s, n in tricks.items() if s != me)
        return ("all" if others == 0 else "none"), lone
    if lone_needs_one:
        return ("defend" if tricks.get(lone, 0) == 0 else "none"), lone
    others = sum(n for s, n in tricks.items() if s != lone)
    return ("defend" if others == 0 else "none"), lone


def choose_card(hand: Sequence[str], legal: Sequence[str], trick: Sequence[tuple[int, str]],
                me: int, trump: str, rank: Mapping[str, int], deck: str, gone: set[str],
                tricks: Mapping[int, int], in_play: Sequence[int], lone: int | None,
                lone_needs_one: bool, voids: Mapping[int, set[str]] | None = None,
                counting: bool = False, general: int | None = None) -> str:
    """Medium's card: plain values only, so rollouts can call it. ``counting``: every
    trick counts (a player wants them all round, defenders deny every one);
    ``general``: the General Rams announcer."""
    if len(legal) == 1:
        return legal[0]

    def kv(c: str) -> int:
        return rank[c] + (20 if c[1] == trump else 0)

    def master(c: str) -> bool:
        return higher_out(c, gone, hand, rank, deck) == 0

    mode, lone = card_goal(me, tricks, lone, lone_needs_one, counting, general)
    if mode == "none":
        return min(legal, key=kv)
    n_play = len(in_play)
    if not trick:
        # leading
        masters = [c for c in legal if master(c)]
        if mode in ("need", "all", "defend"):
            tm = [c for c in masters if c[1] == trump]
            if tm:
                return max(tm, key=kv) if mode == "all" else min(tm, key=kv)
            if masters:
                # a side master is ruffed by a player void in its suit
                if voids:
                    ok = [c for c in masters if not any(
                        c[1] in v and s != me for s, v in voids.items() if s in in_play)]
                    if ok:
                        return max(ok, key=kv)
                return max(masters, key=kv)
            if mode == "all":
                return max(legal, key=kv)
            side = [c for c in legal if c[1] != trump]
            if side:
                return min(side, key=kv)
            return min(legal, key=kv)
        # safe: take tricks away from the needy with strong cards, else give cheaply
        needy = [s for s in in_play if s != me and tricks.get(s, 0) == 0]
        if not needy:
            return min(legal, key=kv)
        if masters:
            return max(masters, key=kv)
        return max(legal, key=kv)
    # following
    best_seat, best = trick[trick_winner([c for _, c in trick], trump, rank)]
    played_seats = {s for s, _ in trick}
    pos = in_play.index(me) if me in in_play else 0
    after = [in_play[(pos + k) % n_play] for k in range(1, n_play)]
    after = [s for s in after if s not in played_seats]
    winners = [c for c in legal if beats(c, best, trump, rank)]
    if mode == "safe":
        if tricks.get(best_seat, 0) == 0 and best_seat != me:
            want = True
        else:
            want = False
            # a needy player still to play could take it: keep the bar high if cheap
    elif mode == "defend":
        want = best_seat == lone or lone in after
        if want and lone in after and best_seat != lone:
            # a partner leads the trick; top it only with a master
            m = [c for c in winners if master(c)]
            if not m or master(best):
                return min(legal, key=kv)
            return min(m, key=kv)
    else:
        want = True
    if not want or not winners:
        return min(legal, key=kv)
    if not after:
        return min(winners, key=kv)
    led = trick[0][1][1]

    def holds(c: str) -> bool:
        if c[1] == trump:
            return master(c)
        if not master(c):
            return False
        if voids:
            for s in after:
                v = voids.get(s)
                if v and led in v and trump not in v:
                    return False
        return True

    sure = [c for c in winners if holds(c)]
    if sure:
        return min(sure, key=kv)
    if mode == "safe":
        return min(winners, key=kv)
    follow = [c for c in winners if c[1] == led]
    if follow:
        return max(follow, key=kv)
    return min(winners, key=kv)


def medium_card(info: Info) -> str:
    return choose_card(info.hand, info.legal, info.trick, info.me, info.trump, info.rank,
                       info.deck, info.gone, info.tricks, info.in_play, info.lone,
                       bool(info.rules.get("lone_needs_one")), info.voids, info.counting,
                       info.general)
