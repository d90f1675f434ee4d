"""What both engines share: events, errors, validated rules, seats and card supply.

Nothing here knows pixels or pygame. Both games are state machines with the same
surface (see :class:`Game`): ``start()`` deals, ``to_move()`` names the pending
decision, ``apply(seat, move)`` changes the state and returns the :class:`Event` list
it caused, ``view(seat)`` is what that seat may know (docs/view.md).
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from game.rules.errors import (  # noqa: F401 - re-exported: the engines' callers import them here
    TAKE,
    GameError,
    IllegalMove,
    MissingDeal,
    Refusal,
    RulesError,
    card_in_move,
    looks_like_card,
    move_error,
    shorten,
)

# --------------------------------------------------------------------------- events

#: Public event types of docs/view.md; these (and only these) appear in a view's ``events``.
VIEW_PUBLIC = frozenset({"keep", "swap", "block", "refuse", "show", "draw", "declare",
                         "take_trump", "play", "trick", "showdown", "talon_king"})
#: Private event types of docs/view.md; they appear in the view's ``private`` of ``to``.
VIEW_PRIVATE = frozenset({"dealt", "exchange", "drew", "discarded"})


class Event:
    """One thing that happened. ``to`` is ``None`` for a public event, else the only
    seat that may see it. Table events that are not part of docs/view.md's vocabulary
    (``round_start``, ``lose_life``, ``out``, ``game_over`` …) are public too; views
    leave them out.
    """

    __slots__ = ("type", "data", "to")

    def __init__(self, type: str, data: dict[str, Any], to: int | None = None) -> None:
        self.type = type
        self.data = data
        self.to = to

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}

    def __repr__(self) -> str:
        who = "public" if self.to is None else f"to {self.to}"
        return f"Event({self.type!r}, {self.data!r}, {who})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Event) and self.type == other.type
                and self.data == other.data and self.to == other.to)

    __hash__ = None  # type: ignore[assignment]


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Key:
    """One rules key: its default and how a value is checked."""

    default: Any
    choices: tuple[Any, ...] | None = None
    int_range: tuple[int, int] | None = None
    boolean: bool = False
    describe: str = ""

    def check(self, name: str, value: Any) -> Any:
        def bad(expected: str) -> RulesError:
            return RulesError(
                f"rules key {shorten(repr(name))}: expected {expected}, "
                f"got {shorten(json.dumps(value))}",
                "bad_value")

        if self.boolean:
            if isinstance(value, bool):
                return value
            raise bad("true or false")
        is_int = isinstance(value, int) and not isinstance(value, bool)
        if self.choices is not None and value in self.choices and (
                is_int or isinstance(value, str)):
            return value
        if self.int_range is not None and is_int:
            lo, hi = self.int_range
            if lo <= value <= hi:
                return value
        parts = []
        if self.int_range is not None:
            lo, hi = self.int_range
            parts.append(f"an integer from {lo} to {hi}" if hi < 10**9
                         else f"an integer of at least {lo}")
        if self.choices is not None:
            parts.append("one of " + ", ".join(str(c) for c in self.choices))
        raise bad(" or ".join(parts))


def validate_rules(game: str, spec: dict[str, Key], given: object) -> dict[str, Any]:
    """Return every key of ``spec`` with its value in force; raise :class:`RulesError`.

    A key ``spec`` does not have is refused, the other game's keys too (docs/records.md).
    """
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise RulesError("rules must be an object of keys and values, "
                         f"got {shorten(json.dumps(given))}", "bad_format")
    for name in given:
        if name not in spec:
            raise RulesError(f"unknown rules key {shorten(repr(name))} for game {game!r}",
                             "unknown_rules_key")
    return {name: (key.check(name, given[name]) if name in given else key.default)
            for name, key in spec.items()}


# --------------------------------------------------------------------------- seats


def next_seat(seat: int, alive: Sequence[bool]) -> int:
    """The next seat clockwise after ``seat`` whose ``alive`` flag is set."""
    n = len(alive)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if alive[s]:
            return s
    raise ValueError("no seat takes part")


@functools.lru_cache(maxsize=256)
def seat_seed(bot_seed: int, seat: int) -> int:
    """The view's ``seed`` for a seat: a one-way hash of the record's ``bot_seed`` and
    the seat, never of cards.

    One-way, so that no seat can work back from its own seed to ``bot_seed`` and on to
    another seat's: a computer player's random numbers are part of what it hides (knowing
    the number behind a mixed strategy's choice would tell more about its card than the
    choice alone). ``bot_seed`` itself is drawn apart from the shuffle
    (:mod:`game.seeds`), so even a seat that guessed it would learn no card.
    """
    digest = hashlib.blake2b(f"{bot_seed}:{seat}".encode(), digest_size=8,
                             person=b"stammtisch/seat").digest()
    return int.from_bytes(digest, "big")


# --------------------------------------------------------------------------- card supply


class DealSource:
    """Stocks for every round: ``deals[i]`` when a record gives it, else a shuffle from
    the game's seed. All shuffles come from one stream seeded once, so a game is
    rebuilt exactly from its seed and moves."""

    def __init__(self, deck: tuple[str, ...], seed: int | None = None,
                 deals: Sequence[Sequence[str]] | None = None) -> None:
        self.deck = deck
        self.seed = seed
        self.deals = [list(d) for d in deals] if deals else []
        self.used = 0
        self._rng = random.Random(seed) if seed is not None else None
        self._work = list(deck)

    def _take(self, what: str) -> int:
        i = self.used
        self.used += 1
        if i >= len(self.deals) and self._rng is None:
            raise MissingDeal(
                f"{what} {i} is needed but the record has only {len(self.deals)} "
                "deal(s) and no seed")
        return i

    def next_stock(self, top: int | None = None) -> list[str]:
        """The stock of the next round, top card first. With ``top``, only that many
        cards from the top are drawn (all a round can use): a uniformly random
        prefix of a shuffle, much cheaper than shuffling the whole deck."""
        i = self._take("deal")
        if i < len(self.deals):
            return list(self.deals[i])
        assert self._rng is not None
        if top is not None and top < len(self.deck):
            # a partial Fisher-Yates shuffle of a working copy of the deck: its first
            # ``top`` cards are a uniformly random draw, whatever order it had before
            work = self._work
            m = len(work)
            rnd = self._rng.random
            for i in range(top):
                j = i + int(rnd() * (m - i))
                work[i], work[j] = work[j], work[i]
            return work[:top]
        stock = list(self.deck)
        self._rng.shuffle(stock)
        return stock

    def fork(self) -> DealSource:
        """A copy that deals the same future stocks without touching this one."""
        twin = object.__new__(DealSource)
        twin.__dict__.update(self.__dict__)
        if self._rng is not None:
            twin._rng = random.Random()
            twin._rng.setstate(self._rng.getstate())
        twin._work = list(self._work)
        return twin

    def reshuffle(self, cards: list[str]) -> list[str]:
        """A new talon from ``cards`` (``continue`` policy): the next deal entry if the
        record has one, else a shuffle of exactly these cards."""
        i = self._take("reshuffle")
        if i < len(self.deals):
            return list(self.deals[i])
        assert self._rng is not None
        stock = list(cards)
        self._rng.shuffle(stock)
        return stock


def first_dealer_rng(seed: int | None) -> random.Random:
    """The first dealer's own random stream, never the record's deals (docs/rules.md)."""
    return random.Random(f"first-dealer/{seed if seed is not None else 0}")


class LazyView(dict):  # type: ignore[type-arg]
    """A view whose keys are computed when first read, then kept.

    Built-in players read a few keys per decision; building the whole view for them
    would dominate a tournament's time. It answers exactly the keys of
    ``view(seat)`` and nothing of the engine (a ``dict`` subclass so that reading a
    key already computed costs a plain dict lookup). Read it at once: it is not a
    snapshot of the moment it was made.
    """

    __slots__ = ("_game", "_seat", "_getters")

    def __init__(self, game: Any, seat: int,
                 getters: dict[str, Callable[[Any, int], Any]]) -> None:
        # dict.__init__ is not called: the mapping starts empty and fills on demand
        self._game = game
        self._seat = seat
        self._getters = getters

    def __missing__(self, key: str) -> Any:
        value = self[key] = self._getters[key](self._game, self._seat)
        return value

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[key] if key in self._getters else default

    def __contains__(self, key: object) -> bool:
        return key in self._getters

    def __iter__(self) -> Iterator[str]:
        return iter(self._getters)

    def __len__(self) -> int:
        return len(self._getters)

    def keys(self) -> Any:  # type: ignore[override]
        return list(self._getters)

    def items(self) -> Any:  # type: ignore[override]
        return [(k, self[k]) for k in self._getters]

    def values(self) -> Any:  # type: ignore[override]
        return [self[k] for k in self._getters]


class Pending(NamedTuple):
    """The decision the game waits for (a tuple: cheap to make, immutable)."""

    seat: int
    legal: tuple[str, ...]
    decision: str
    #: The other seat of the decision, where there is one: the asker for a Queen's
    #: ``accept``/``refuse``, the seat a domino swap would ask.
    partner: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "legal": sorted(self.legal), "decision": self.decision}


class Game(Protocol):
    """The surface both engines offer (structural: no inheritance needed)."""

    game_id: str
    rules: dict[str, Any]
    n_seats: int
    lives: list[int]
    finished: bool
    winner: int | list[int] | None

    def start(self) -> list[Event]: ...
    def to_move(self) -> Pending | None: ...
    def legal_moves(self) -> list[str]: ...
    def apply(self, seat: int, move: str) -> list[Event]: ...
    def view(self, seat: int) -> dict[str, Any]: ...
    def summary(self) -> dict[str, Any]: ...


# --------------------------------------------------------------------------- shared engine parts


class TableStart:
    """The set-up both engines share: the table's checks, what the game was started
    from, and the bookkeeping of a game before its first deal."""

    def _seat_table(self, game_name: str, seats: range, n_seats: object, seed: int | None,
                    dealer: int | None, deals: list[list[str]] | None,
                    bot_seed: int) -> None:
        """Check the table (``seats`` is the range of seat counts the game allows) and
        keep what the game starts from; a bad table is a ``bad_format`` error."""
        if not isinstance(n_seats, int) or n_seats not in seats:
            raise GameError(f"{game_name} needs {seats.start} to {seats.stop - 1} seats, "
                            f"got {n_seats}", "bad_format")
        if dealer is not None and not 0 <= dealer < n_seats:
            raise GameError(f"dealer {dealer} is not a seat (0 to {n_seats - 1})", "bad_format")
        if seed is None and dealer is None:
            raise GameError("a game needs a seed or a named dealer", "bad_format")
        self.n_seats = n_seats
        self.seed = seed
        self.bot_seed = bot_seed
        self.given_dealer = dealer
        self.given_deals = [list(d) for d in deals] if deals else []

    def _blank_game(self) -> None:
        """Nobody has won, nothing is dealt, no move made."""
        self.finished = False
        self.sudden_death = False
        self.round_index = -1
        self.dealer = -1
        self.moves: list[tuple[int, str]] = []
        self.rounds: list[dict[str, Any]] = []
        self.history: list[list[dict[str, Any]]] = []
        self.started = False



class EventLog:
    """Event bookkeeping an engine can mix in: ``_out`` collects the events of the call
    in progress (returned by :meth:`_flush`), ``public`` the round's docs/view.md public
    events and ``private[seat]`` each seat's private ones (both as view dicts).

    The engine owns the three attributes (it resets ``public``/``private`` each round).
    ``emit_events = False`` skips building the table's :class:`Event` objects (nobody
    watches: tournaments, search); views, records and results are the same either way.
    """

    emit_events = True
    _out: list[Event]
    public: list[dict[str, Any]]
    private: list[list[dict[str, Any]]]

    def _emit(self, type_: str, data: dict[str, Any], to: int | None = None) -> None:
        """A table event only (not part of any view)."""
        if self.emit_events:
            self._out.append(Event(type_, data, to))

    def _public(self, type_: str, data: dict[str, Any]) -> None:
        """A public event; docs/view.md types also go to every view's ``events``."""
        if self.emit_events:
            self._out.append(Event(type_, data))
        if type_ in VIEW_PUBLIC:
            self.public.append({"type": type_, **data})

    def _private(self, seat: int, type_: str, data: dict[str, Any]) -> None:
        """An event only ``seat`` sees; docs/view.md types also go to its view's ``private``."""
        if self.emit_events:
            self._out.append(Event(type_, data, seat))
        if type_ in VIEW_PRIVATE:
            self.private[seat].append({"type": type_, **data})

    def _flush(self) -> list[Event]:
        out, self._out = self._out, []
        return out


class EngineViews:
    """``view``, ``lazy_view``, ``view_key`` and the common part of ``summary`` for an
    engine whose class sets ``VIEW_GETTERS`` (key → ``getter(engine, seat)``)."""

    VIEW_GETTERS: dict[str, Callable[[Any, int], Any]] = {}
    game_id: str
    finished: bool
    winner: int | list[int] | None
    lives: list[int]
    rounds: list[dict[str, Any]]
    round_index: int
    dealer: int

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now (docs/view.md); nothing else of the state leaks."""
        return {key: get(self, seat) for key, get in self.VIEW_GETTERS.items()}

    def lazy_view(self, seat: int) -> LazyView:
        """The same view, each key computed when first read (for fast built-in players)."""
        return LazyView(self, seat, self.VIEW_GETTERS)

    def search_view(self, seat: int) -> LazyView:
        """The view as :meth:`lazy_view`, for the project's own players inside a
        search's play-outs: event lists are copied, but the event dicts in them are
        the engine's own, so whoever reads it must not change it (a view handed to
        anybody else comes from :meth:`view` or :meth:`lazy_view`)."""
        cls = type(self)
        getters = cls.__dict__.get("_search_getters")
        if getters is None:
            getters = {**self.VIEW_GETTERS, **_SHALLOW_GETTERS}
            cls._search_getters = getters  # type: ignore[attr-defined]
        return LazyView(self, seat, getters)

    def view_key(self, seat: int, key: str) -> Any:
        """One key of ``view(seat)``."""
        return self.VIEW_GETTERS[key](self, seat)

    _pending: Pending | None = None
    #: The deck whose codes count as cards in moves (``bad_card``), or ``None`` when the
    #: game has no card moves.
    card_moves: frozenset[str] | None = None

    def to_move(self) -> Pending | None:
        """The decision the game waits for; ``None`` once it is over."""
        return self._pending

    def legal_moves(self) -> list[str]:
        """The moves :meth:`to_move`'s seat may make (empty once the game is over)."""
        return list(self._pending.legal) if self._pending else []

    _out: list[Event]
    moves: list[tuple[int, str]]

    def why_illegal(self, seat: int, move: object) -> Refusal | None:
        """Why ``move`` by ``seat`` would be refused now (``None``: it is legal)."""
        p = self._pending
        if p is not None and seat == p.seat and move in p.legal:
            return None
        if self.finished or p is None:
            return Refusal("game_over", {})
        if seat != p.seat:
            return Refusal("not_your_turn", {"seat": p.seat})
        if not isinstance(move, str):
            return Refusal("not_offered", {})
        deck = self.card_moves
        card = card_in_move(move)
        if deck is not None and card is not None and card not in deck:
            return Refusal("bad_card", {})
        return self._why_not(p, move) or Refusal("not_offered", {})

    def _why_not(self, pending: Pending, move: str) -> Refusal | None:
        """A game's own reason for refusing ``move`` at ``pending`` (``None``: generic)."""
        return None

    def _begin_move(self, seat: int, move: str) -> Pending:
        """Accept ``move`` by ``seat``: record it and return the decision it answers.
        If it does not answer the pending decision, raise the :class:`IllegalMove`
        that docs/records.md's fault order names, with the state unchanged."""
        p = self._pending
        if p is None or seat != p.seat or move not in p.legal:
            err = move_error(seat, move, p.legal if p else (), p.seat if p else None,
                             self.finished, self.card_moves)
            err.reason = self.why_illegal(seat, move)
            raise err
        self.moves.append((seat, move))   # ``_out`` is empty: the last call flushed it
        self._pending = None
        return p

    def summary(self) -> dict[str, Any]:
        """The ``stammtisch replay --json`` object of docs/records.md (engines add extras)."""
        p = self.to_move()
        return {
            "finished": self.finished,
            "winner": list(self.winner) if isinstance(self.winner, list) else self.winner,
            "lives": list(self.lives),
            "rounds": [copy_event(r) for r in self.rounds],
            "to_move": p.as_dict() if p is not None else None,
            "game": self.game_id,
            "round": self.round_index,
            "dealer": self.dealer,
        }


def copy_event(event: dict[str, Any]) -> dict[str, Any]:
    """A copy of a view event dict that shares no list or dict with the engine."""
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
            for k, v in event.items()}


def _view_legal(g: Any, seat: int) -> list[str]:
    p = g.to_move()
    return sorted(p.legal) if p is not None and p.seat == seat else []


def _view_decision(g: Any, seat: int) -> str | None:
    p = g.to_move()
    return p.decision if p is not None and p.seat == seat else None


#: Getters of the view keys both games share (docs/view.md, plus ``decision``: the pending
#: decision's kind, and ``step``: moves made so far), ``getter(engine, seat)``. They read
#: the engine attributes ``game_id``, ``rules``, ``n_seats``, ``sudden_death``,
#: ``active``, ``dealer``, ``lives``, ``round_index``, ``public``, ``history``,
#: ``bot_seed``, ``private``, ``moves`` and ``to_move()``; every value is a fresh copy.
#: ``hand`` is each game's own.
COMMON_VIEW_GETTERS: dict[str, Callable[[Any, int], Any]] = {
    "game": lambda g, s: g.game_id,
    "rules": lambda g, s: dict(g.rules),
    "seat": lambda g, s: s,
    "players": lambda g, s: g.n_seats,
    "sudden_death": lambda g, s: g.sudden_death,
    "active": lambda g, s: list(g.active),
    "dealer": lambda g, s: g.dealer,
    "lives": lambda g, s: list(g.lives),
    "round": lambda g, s: g.round_index,
    "legal": _view_legal,
    "decision": _view_decision,
    "events": lambda g, s: [copy_event(e) for e in g.public],
    "history": lambda g, s: [[copy_event(e) for e in r] for r in g.history],
    "seed": lambda g, s: seat_seed(g.bot_seed, s),
    "private": lambda g, s: [copy_event(e) for e in g.private[s]],
    "step": lambda g, s: len(g.moves),
}

#: Event-list getters that share the (never changed) event dicts: for search_view.
_SHALLOW_GETTERS: dict[str, Callable[[Any, int], Any]] = {
    "events": lambda g, s: list(g.public),
    "history": lambda g, s: list(g.history),
    "private": lambda g, s: list(g.private[s]),
}
