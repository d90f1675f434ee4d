"""What a Rams view says, read once into the shapes the levels use (:class:`Info`).

Cards compare by the rules' own functions (:mod:`game.rules.rams_rules`): the deck's
rank order, which card heads a trick. What a seat can infer from the view is read
here: declarations so far, the voids each seat showed by not following suit (under
``must_trump`` also of trumps), the cards gone, the tricks won, each seat's drop
streak under ``drop_limit``, which seats the rules make play, the scoring (lives, or
counters) and a General Rams announcement.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from game.rules.rams_rules import (
    RANK_ORDER,
    counters_of,
    forced_to_play,
    must_play,
    rank_table,
    voids_shown,
)

View = Mapping[str, Any]


def keep_value(card: str, trump: str, rank: Mapping[str, int]) -> int:
    """How much a card is worth keeping (trumps above everything else)."""
    return rank[card] + (20 if card[1] == trump else 0)


def higher_out(card: str, gone: Iterable[str] | set[str], hand: Iterable[str],
               rank: Mapping[str, int], deck: str) -> int:
    """Cards of the card's suit above it that are neither gone nor in ``hand``."""
    r = rank[card]
    suit = card[1]
    order = RANK_ORDER[deck]
    n = 0
    for k in range(r + 1, len(order)):
        c = order[k] + suit
        if c not in gone and c not in hand:
            n += 1
    return n


class RoundSoFar(NamedTuple):
    """What the round's public events tell (see :func:`read_round`)."""

    declared: dict[int, str]            # seat -> play, drop or general
    took: int | None                    # the seat that took the turned trump card
    played: list[str]                   # every card played, in order
    played_by: dict[int, list[str]]
    voids: dict[int, set[str]]          # suits a seat showed it has none of
    trick: list[tuple[int, str]]        # the trick on the table
    tricks: dict[int, int]              # tricks taken, by seat


def read_round(events: Iterable[Mapping[str, Any]], trump: str,
               must_trump: bool) -> RoundSoFar:
    """Go through the round's events once: declarations, the trump taken, the cards
    played and the voids they show, the tricks."""
    declared: dict[int, str] = {}
    took: int | None = None
    played: list[str] = []
    played_by: dict[int, list[str]] = {}
    voids: dict[int, set[str]] = {}
    trick: list[tuple[int, str]] = []
    tricks: dict[int, int] = {}
    for e in events:
        t = e.get("type")
        if t == "declare":
            declared[e["seat"]] = e["choice"]
        elif t == "take_trump":
            took = e["seat"]
        elif t == "play":
            s, c = e["seat"], e["card"]
            if trick:
                shown = voids_shown(c, trick[0][1][1], trump, must_trump)
                if shown:
                    voids.setdefault(s, set()).update(shown)
            trick.append((s, c))
            played.append(c)
            played_by.setdefault(s, []).append(c)
        elif t == "trick":
            w = e["winner"]
            tricks[w] = tricks.get(w, 0) + 1
            trick = []
    return RoundSoFar(declared, took, played, played_by, voids, trick, tricks)


class Info:
    """What a Rams view says, in the shapes the levels use."""

    def __init__(self, view: View, memory: bool = True) -> None:
        self.view = view
        self.me: int = view["seat"]
        self.rules = view["rules"]
        self.deck: str = view.get("deck") or ("skat32" if view["players"] <= 5 else "french52")
        if self.deck not in RANK_ORDER:
            self.deck = "skat32"
        self.rank = rank_table(self.deck)
        self.trump: str = view["trump"]
        self.trump_card: str = view.get("trump_card") or ""
        self.hand: list[str] = list(view["hand"])
        self.legal: list[str] = list(view["legal"])
        self.decision = view.get("decision")
        self.lives: list[int] = list(view["lives"])
        self.dealer: int = view["dealer"]
        self.active: list[int] = list(view["active"])
        n = view["players"]
        self.n = n
        # seats dealt in, left of the dealer first (the declaration order)
        order = [s for s in ((self.dealer + k) % n for k in range(1, n + 1))
                 if s in self.active]
        self.order = order
        self.hand_size: int = int(view.get("hand_size") or self.rules.get("hand_size", 5))
        #: the drop limit in force (``None``: none), as the engine says it in the view
        self.limit: int | None = view["drop_limit"]
        #: ``scoring: counters``: ``lives`` are counters, brought down to zero to win
        self.counting: bool = counters_of(self.rules)
        self.events = view["events"]
        so_far = read_round(self.events, self.trump, bool(self.rules.get("must_trump")))
        declared = so_far.declared
        took = so_far.took
        self.declared = declared
        self.took = took
        self.played = so_far.played if memory else []
        self.played_by = so_far.played_by
        self.voids = so_far.voids if memory else {}
        self.trick = so_far.trick
        self.tricks = so_far.tricks
        playing = [s for s in order if declared.get(s) == "play"]
        self.general: int | None = view.get("general")
        if self.general is None:
            self.general = next((s for s, c in declared.items() if c == "general"), None)
        self.lone: int | None = view.get("lone")
        if (self.lone is None and self.general is None and self.decision in ("trick",)
                and len(playing) == 1):
            self.lone = playing[0]
        if self.decision == "trick":
            self.in_play = (order if self.lone is not None or self.general is not None
                            else playing)
        else:
            self.in_play = playing
        gone = set(self.played)
        if self.trump_card and took is None:
            gone.add(self.trump_card)     # lies on the stock
        for p in view.get("private", ()):
            if p.get("type") == "discarded":
                gone.add(p["card"])
        self.gone = gone
        self.drops_before = drops_before(view, order, declared)

    def forced(self, seat: int) -> bool:
        """Whether the rules make ``seat`` play this round whatever the others do (the
        drop limit; ``two_must_play`` with two seats dealt in). The dealer of
        ``dealer_must_play`` depends on the others: see :meth:`dealer_forced`."""
        return forced_to_play(self.drops_before.get(seat, 0), self.limit,
                              seats=len(self.order),
                              two_must_play=bool(self.rules.get("two_must_play"))) is not None

    def forced_after_drop(self, seat: int) -> bool:
        """Whether a drop by ``seat`` this round makes the drop limit force it to play
        next round (its streak with this drop, :func:`must_play`)."""
        return must_play(self.drops_before.get(seat, 0) + 1, self.limit)

    def dealer_forced(self, seat: int, declared: dict[int, str]) -> bool:
        """Whether ``dealer_must_play`` makes ``seat`` (if it is the dealer) play after
        the declarations ``declared`` before it."""
        return (bool(self.rules.get("dealer_must_play")) and seat == self.order[-1]
                and not any(c == "play" for c in declared.values()))


def drops_before(view: View, seats: Iterable[int],
                 declared: Mapping[int, str]) -> dict[int, int]:
    """Rounds in a row each seat dropped out before this round: the view's ``drops``
    (the engine's count) for a seat still to declare, one less for a seat that dropped
    now; for a seat that played now the view no longer says it, and its streak is read
    from ``history`` (:func:`streak_in_history`)."""
    drops = view["drops"]
    out: dict[int, int] = {}
    for s in seats:
        choice = declared.get(s)
        if choice is None:
            out[s] = drops[s]
        elif choice == "drop":
            out[s] = drops[s] - 1
        else:
            out[s] = streak_in_history(view.get("history") or [], s)
    return out


def streak_in_history(history: Sequence[Sequence[Mapping[str, Any]]], seat: int) -> int:
    """Rounds in a row ``seat`` dropped out at the end of ``history``, as the engine
    counts them: a round it played (or was not asked in, after someone announced
    General Rams: then everyone plays) ends the streak."""
    k = 0
    for rnd in reversed(history):
        choice = None
        general = False
        for e in rnd:
            if e.get("type") == "declare":
                if e.get("seat") == seat:
                    choice = e.get("choice")
                    break
                general = general or e.get("choice") == "general"
        if choice is None and not general:
            continue        # a round it was not dealt in (it cannot come back: none)
        if choice != "drop":
            break
        k += 1
    return k
