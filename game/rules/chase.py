"""Chase the Ace (Ranter-Go-Round, Cuckoo): the rules engine of docs/rules.md#chase-the-ace.

A :class:`ChaseGame` is a state machine. ``start()`` finds the first dealer and deals
round 0; then ``to_move()`` names the pending decision and ``apply(seat, move)``
performs it, returning the events it caused. After a showdown the next round is
dealt at once, so the pending decision is always a real choice of some seat.

Decisions (``Pending.decision``):

``turn``    a non-dealer keeps or swaps with the next seat on the left
``dealer``  the dealer keeps or draws from the talon
``queen``   a seat asked while holding a Queen accepts or refuses (``queen_refuses_once``)
``domino``  after receiving a low card the asker keeps or demands one more swap (``domino``)
"""

from __future__ import annotations

from typing import Any

from game.cards import FRENCH52
from game.rules.base import (
    COMMON_VIEW_GETTERS,
    DealSource,
    EngineViews,
    Event,
    EventLog,
    GameError,
    Key,
    Pending,
    TableStart,
    first_dealer_rng,
    seat_seed,
    validate_rules,
)
from game.rules.chase_rules import (
    Settlement,
    dealer_draw,
    decks_in_play,
    domino_partner,
    left_in,
    resolve_ask,
    scale_for,
    settle_showdown,
    shown_before_exchange,
)

GAME_ID = "chase"
MIN_SEATS, MAX_SEATS = 3, 20

#: Every rules key of docs/rules.md#chase-the-ace with its default and allowed values.
CHASE_RULES: dict[str, Key] = {
    "decks": Key("auto", choices=("auto", 1, 2),
                 describe="Two decks shuffled together with more than 13 players"),
    "lives": Key(3, int_range=(1, 5), describe="Lives every player starts with"),
    "stake": Key(0, int_range=(0, 10**9), describe="Stake per player for the pot (0: no pot)"),
    "first_dealer": Key("jack", choices=("jack", "random"),
                        describe="First dealer: deal face up until a Jack, or random"),
    "final_tie": Key("sudden_death", choices=("sudden_death", "replay", "restart", "shared"),
                     describe="When all remaining players would go out together"),
    "deck_policy": Key("fresh", choices=("fresh", "continue"),
                       describe="Fresh deck every round, or the talon carries over"),
    "ace_high": Key(False, boolean=True, describe="Aces rank high; the 2 is lowest"),
    "queen_refuses_once": Key(False, boolean=True,
                              describe="A Queen may refuse one swap per game"),
    "reveal_low_on_pass": Key(False, boolean=True,
                              describe="A low card must be shown before it is passed"),
    "domino": Key("off", choices=("off", "low", "ace"),
                  describe="Receiving a low card allows one more swap"),
    "dealer_wins_ties": Key(False, boolean=True,
                            describe="The dealer never loses a tie for lowest"),
    "ace_of_spades_double": Key(False, boolean=True,
                                describe="A losing Ace of spades costs two lives"),
    "aces_double": Key(False, boolean=True, describe="Any losing Ace costs two lives"),
    "blocked_swap_skips": Key(False, boolean=True,
                              describe="A swap blocked by a King goes on to the next player"),
    "talon_king_blocks": Key(False, boolean=True,
                             describe="A King drawn from the talon is refused"),
    "deck": Key("french52", choices=("french52", "cuckoo40"),
                describe="French 52-card deck or the 40-card Cuckoo deck"),
}

_SEAT_NAMES = [str(s) for s in range(MAX_SEATS)]


def chase_rules(given: object = None) -> dict[str, Any]:
    """Validate ``given`` (a dict of rules keys) and return every key with its value."""
    return validate_rules(GAME_ID, CHASE_RULES, given)


class ChaseGame(TableStart, EventLog, EngineViews):
    """One game of Chase the Ace, from the first deal to the winner.

    ``seed`` drives every shuffle; ``deals`` (docs/records.md) replaces the shuffles of the
    first rounds; ``dealer`` names the first dealer (else ``first_dealer`` decides).
    """

    game_id = GAME_ID

    def __init__(self, rules: dict[str, Any] | None, n_seats: int, seed: int | None = None,
                 dealer: int | None = None, deals: list[list[str]] | None = None,
                 bot_seed: int = 0) -> None:
        self.rules = chase_rules(rules)
        self._seat_table("Chase the Ace", range(MIN_SEATS, MAX_SEATS + 1), n_seats, seed,
                         dealer, deals, bot_seed)
        self.seat_seeds = [seat_seed(bot_seed, s) for s in range(n_seats)]
        self.scale = scale_for(self.rules)
        self.deck = self.scale.deck * decks_in_play(self.rules, n_seats)
        self.deck_set = frozenset(self.deck)
        self.source = DealSource(self.deck, seed, self.given_deals)

        lives = self.rules["lives"]
        self.lives = [lives] * n_seats
        self.in_game = [True] * n_seats       # not eliminated (or a sudden-death contender)
        self.refusals = [True] * n_seats      # Queen refusal still available this game
        self._blank_game()
        self.winner: int | list[int] | None = None
        self.games_started = 1
        self.pot = self.rules["stake"] * n_seats

        # round state
        self.active: list[int] = []
        self.hands: list[str | None] = [None] * n_seats
        self.faceup: dict[int, str] = {}
        self.talon: list[str] = []            # top card last
        self.discards: list[str] = []
        self.discards_seen: list[str] = []    # the discards everybody saw (``continue``)
        self.public: list[dict[str, Any]] = []
        self.private: list[list[dict[str, Any]]] = [[] for _ in range(n_seats)]
        self._order: list[int] = []
        self._seatings: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}
        self._pos = 0
        self._done: set[int] = set()
        self._pending: Pending | None = None
        self._ctx: tuple[int, int, str] = (-1, -1, "")   # asker, target, mode
        self._out: list[Event] = []
        #: stop after one showdown instead of dealing the next round (play-outs)
        self.single_round = False
        self.round_over = False

    # ------------------------------------------------------------------ public API

    def start(self) -> list[Event]:
        """Find the first dealer and deal round 0; returns the events."""
        if self.started:
            raise GameError("the game has already started")
        self.started = True
        self._out = []
        self.dealer = self._first_dealer()
        self._emit("first_dealer", {"seat": self.dealer})
        if self.rules["deck_policy"] == "continue":
            self.talon = self.source.next_stock()[::-1]
        self._deal_round(self.dealer)
        return self._flush()

    def apply(self, seat: int, move: str) -> list[Event]:
        """Perform ``move`` for ``seat``; raise :class:`IllegalMove` (state unchanged)."""
        p = self._begin_move(seat, move)
        decision = p.decision
        if decision == "turn":
            if move == "keep":
                self._public("keep", {"seat": seat})
                self._end_turn(seat)
            else:
                self._ask(seat, left_in(self._order, seat), "turn")
        elif decision == "dealer":
            if move == "keep":
                self._public("keep", {"seat": seat})
            else:
                self._dealer_draw(seat)
            self._showdown()
        elif decision == "queen":
            asker, target, mode = self._ctx
            if move == "accept":
                self._exchange(asker, target, mode)
            else:
                card = self.hands[target]
                assert card is not None
                self.refusals[target] = False
                self.faceup[target] = card
                self._public("refuse", {"seat": target, "by": asker, "card": card})
                self._end_turn(asker)
        else:  # domino
            asker, target, _ = self._ctx
            if move == "keep":
                self._public("keep", {"seat": seat})
                self._end_turn(asker)
            else:
                self._ask(asker, target, "domino")
        return self._flush()

    def summary(self) -> dict[str, Any]:
        """The ``stammtisch replay --json`` object of docs/records.md, plus ``pot``,
        ``games_started`` and the sudden-death contenders."""
        out = super().summary()
        out["pot"] = self.pot
        out["games_started"] = self.games_started
        out["sudden_death"] = (sorted(s for s in range(self.n_seats) if self.in_game[s])
                               if self.sudden_death else None)
        return out

    # ------------------------------------------------------------------ for play-outs

    def deal_round_at(self, *, dealer: int, dealt: dict[int, str], talon: list[str],
                      lives: list[int], in_game: list[bool], sudden_death: bool = False,
                      refusals: list[bool] | None = None,
                      discards: list[str] | None = None,
                      discards_seen: list[str] | None = None, round_index: int = 0,
                      games_started: int = 1, seed: int = 0) -> None:
        """Put this (new, not started) game at the start of one round, dealt ``dealt``
        (seat -> card for every seat ``in_game``), with ``talon`` (top card first) and,
        for ``deck_policy: continue``, the discard pile. It plays that round only
        (``single_round``): after its showdown ``round_over`` is set and nothing more
        is dealt. Search and the coach play out sampled worlds with it, so every rule
        they meet is the engine's. ``seed`` drives a reshuffle of the discards, should
        the talon run out.
        """
        if self.started:
            raise GameError("the game has already started")
        n_seats = self.n_seats
        self.emit_events = False
        self.single_round = True
        self.started = True
        self.lives = list(lives)
        self.in_game = list(in_game)
        self.sudden_death = sudden_death
        self.games_started = games_started
        if refusals is not None:
            self.refusals = list(refusals)
        self.round_index = round_index - 1
        order = [s for s in ((dealer + k) % n_seats for k in range(1, n_seats + 1))
                 if in_game[s]]
        stock = [dealt[s] for s in order] + list(talon)
        if self.rules["deck_policy"] == "continue":
            self.talon = stock[::-1]
            self.discards = list(discards or ())
            self.discards_seen = list(discards_seen or ())
            self.source = DealSource(self.deck, seed)
        else:
            self.source = DealSource(self.deck, None, [stock])
        self._deal_round(dealer)

    def fork(self) -> ChaseGame:
        """A copy to play on without touching this game (shares nothing it changes)."""
        g = object.__new__(ChaseGame)
        g.__dict__.update(self.__dict__)
        g.lives = list(self.lives)
        g.in_game = list(self.in_game)
        g.refusals = list(self.refusals)
        g.moves = list(self.moves)
        g.rounds = list(self.rounds)
        g.history = list(self.history)
        g.hands = list(self.hands)
        g.faceup = dict(self.faceup)
        g.talon = list(self.talon)
        g.discards = list(self.discards)
        g.discards_seen = list(self.discards_seen)
        g.public = list(self.public)
        g.private = [list(p) for p in self.private]
        g._done = set(self._done)
        g._out = []
        if self.rules["deck_policy"] == "continue":
            g.source = self.source.fork()
        return g

    # ------------------------------------------------------------------ setup

    def _first_dealer(self) -> int:
        if self.given_dealer is not None:
            return self.given_dealer
        rng = first_dealer_rng(self.seed)
        start = rng.randrange(self.n_seats)
        if self.rules["first_dealer"] == "random" or self.rules["deck"] == "cuckoo40":
            return start
        cards = list(FRENCH52)
        rng.shuffle(cards)
        seat = start
        for card in cards:
            seat = (seat + 1) % self.n_seats
            self._emit("first_dealer_card", {"seat": seat, "card": card})
            if card[0] == "J":
                return seat
        raise AssertionError("a French deck always holds a Jack")  # pragma: no cover

    # ------------------------------------------------------------------ a round

    def _deal_round(self, dealer: int) -> None:
        n = self.n_seats
        self.round_index += 1
        self.dealer = dealer
        key = (dealer, *self.in_game)
        seating = self._seatings.get(key)
        if seating is None:
            alive = self.in_game
            order = [s for s in ((dealer + k) % n for k in range(1, n + 1)) if alive[s]]
            seating = self._seatings[key] = (order, sorted(order))
        order = self._order = seating[0]
        self.active = seating[1]
        self.hands = [None] * n
        self.faceup = {}
        self.public = []
        self.private = [[] for _ in range(n)]
        self._pos = 0
        self._done = set()
        watched = self.emit_events
        if watched:
            self._emit("round_start", {"round": self.round_index, "dealer": dealer,
                                       "active": list(self.active),
                                       "sudden_death": self.sudden_death, "pot": self.pot})
            self._emit("shuffle", {"cut_by": order[-2] if len(order) > 1 else dealer})
        if self.rules["deck_policy"] == "fresh":
            stock = self.source.next_stock(top=len(order) + 1)
            if len(stock) < len(order) + 1:
                raise GameError(f"deal {self.source.used - 1} has {len(stock)} cards, "
                                f"the round needs {len(order) + 1}", "bad_format")
            self.talon = stock[::-1]
        hands, private, talon = self.hands, self.private, self.talon
        for seat in order:
            card = talon.pop() if talon else self._take_from_talon()
            talon = self.talon              # a reshuffle replaces the talon
            hands[seat] = card
            private[seat].append({"type": "dealt", "cards": [card]})
            if watched:
                self._emit("deal", {"seat": seat})
                self._emit("dealt", {"cards": [card]}, seat)
        self._next_turn()

    def _take_from_talon(self) -> str:
        if not self.talon:
            if self.rules["deck_policy"] != "continue" or not self.discards:
                raise GameError("the talon ran out of cards", "bad_format")
            self.talon = self.source.reshuffle(self.discards)[::-1]
            self.discards = []
            self.discards_seen = []
            self._emit("reshuffle", {"cards": len(self.talon)})
        return self.talon.pop()

    def _discard(self, card: str | None, public: bool = False) -> None:
        """Lay ``card`` on the discard pile (kept only where the talon carries over);
        ``public``: everybody saw it."""
        if card is not None and self.rules["deck_policy"] == "continue":
            self.discards.append(card)
            if public:
                self.discards_seen.append(card)

    def _next_turn(self) -> None:
        """Offer the next seat in turn order its decision, or go to the showdown."""
        order = self._order
        last = len(order) - 1
        while self._pos < last and order[self._pos] in self._done:
            self._pos += 1
        seat = order[self._pos]
        if self._pos < last:
            self._pending = Pending(seat, ("keep", "swap"), "turn")
        elif seat in self._done:
            self._showdown()
        else:
            self._pending = Pending(seat, ("draw", "keep"), "dealer")

    def _end_turn(self, seat: int) -> None:
        """The turn of ``seat`` (the current one) is over."""
        self._done.add(seat)
        self._pos += 1
        self._next_turn()

    def _ask(self, asker: int, target: int, mode: str) -> None:
        """``asker`` asks ``target`` to exchange (mode ``turn`` or ``domino``)."""
        got = resolve_ask(self.hands, asker, target, self._order, self.dealer, self.rules,
                          self.scale, self.refusals)
        for seat, card in got.blocks:
            self.faceup[seat] = card
            self._public("block", {"seat": seat, "by": asker, "card": card})
            self._done.add(seat)
        if got.outcome == "exchange":
            self._exchange(asker, got.target, mode)
        elif got.outcome == "queen":
            self._ctx = (asker, got.target, mode)
            self._pending = Pending(got.target, ("accept", "refuse"), "queen", asker)
        else:
            self._end_turn(asker)

    def _exchange(self, asker: int, target: int, mode: str) -> None:
        hands = self.hands
        gave, got = hands[asker], hands[target]
        assert gave is not None and got is not None
        show_gave, show_got = shown_before_exchange(gave, got, self.rules, self.scale)
        if show_gave:
            self._public("show", {"seat": asker, "card": gave})
        if show_got:
            self._public("show", {"seat": target, "card": got})
        self._public("swap", {"seat": asker, "with": target})
        self._private(asker, "exchange", {"with": target, "gave": gave, "got": got})
        self._private(target, "exchange", {"with": asker, "gave": got, "got": gave})
        hands[asker], hands[target] = got, gave
        if mode != "domino":
            nxt = domino_partner(got, asker, target, self._order, self.dealer, self.rules,
                                 self.scale)
            if nxt is not None:
                self._ctx = (asker, nxt, "domino")
                self._pending = Pending(asker, ("keep", "swap"), "domino", nxt)
                return
        self._end_turn(asker)

    def _dealer_draw(self, dealer: int) -> None:
        self._public("draw", {"seat": dealer})
        own = self.hands[dealer]
        assert own is not None
        # the own card goes to the discards first, so an empty talon reshuffles it too
        # (unless a drawn King may be refused: then the dealer still holds it)
        refusable = self.rules["talon_king_blocks"]
        if not refusable:
            self._discard(own)
        draw = dealer_draw(own, self._take_from_talon(), self.rules, self.scale)
        if refusable:
            self._discard(draw.laid, public=draw.refused)
        if draw.refused:
            self._public("talon_king", {"seat": dealer, "card": draw.laid})
            return
        self.hands[dealer] = draw.held
        self._private(dealer, "drew", {"card": draw.held})

    # ------------------------------------------------------------------ showdown

    def _showdown(self) -> None:
        self._pending = None
        hands = self.hands
        cards: dict[int, str] = {s: hands[s] for s in self.active}  # type: ignore[misc]
        names = _SEAT_NAMES
        shown = {names[s]: c for s, c in cards.items()}
        self._public("showdown", {"cards": shown})
        entry: dict[str, Any] = {"dealer": self.dealer, "cards": shown}   # never changed
        if self.rules["deck_policy"] == "continue":   # the cards are collected, face up
            self.discards.extend(cards.values())
            self.discards_seen.extend(cards.values())
        self.hands = [None] * self.n_seats
        self._apply_settlement(settle_showdown(cards, self.dealer, self.lives, self.in_game,
                                               self.sudden_death, self.rules, self.scale),
                               entry)
        entry.setdefault("lives", list(self.lives))
        entry["index"] = len(self.rounds)
        self.rounds.append(entry)
        self.history.append(self.public)
        if self.finished:
            self._emit("game_over", {"winner": self.winner})
        elif self.single_round:
            self.round_over = True
        else:
            self._deal_round(self._next_dealer())

    def _apply_settlement(self, st: Settlement, entry: dict[str, Any]) -> None:
        """Carry out what :func:`settle_showdown` decided, with its events."""
        if self.sudden_death:
            entry["lost"] = {}
            entry["sudden_death"] = True
            entry["out"] = list(st.out)
            if st.replayed:
                entry["replayed"] = True
                self._emit("replay_round", {})
        else:
            if st.final_tie is not None:
                entry["final_tie"] = st.final_tie
                self._emit("final_tie", {"policy": st.final_tie, "seats": sorted(st.losers)})
            entry["lost"] = {str(s): a for s, a in st.lost.items()}
            if st.replayed:
                entry["replayed"] = True
                self._emit("replay_round", {})
            for s, a in st.lost.items():
                self.lives[s] -= a
                self._emit("lose_life", {"seat": s, "amount": a, "lives": self.lives[s]})
            if st.sudden_death:
                self.sudden_death = True
                self._emit("sudden_death", {"seats": sorted(st.losers)})
            if st.restart:
                # the loss is recorded, then every seat is back in with full lives and
                # its Queen refusal
                entry["lives"] = list(self.lives)
                self.games_started += 1
                full = self.rules["lives"]
                self.lives = [full] * self.n_seats
                self.in_game = [True] * self.n_seats
                self.refusals = [True] * self.n_seats
                self._emit("restart", {"lives": full, "games_started": self.games_started})
        for s in st.out:
            self.in_game[s] = False
            self._emit("out", {"seat": s})
        if st.winner is not None:
            self._finish(st.winner)

    def _finish(self, winner: int | list[int]) -> None:
        self.finished = True
        self.winner = winner
        self._pending = None

    def _next_dealer(self) -> int:
        n = self.n_seats
        for step in range(1, n + 1):
            s = (self.dealer + step) % n
            if self.in_game[s]:
                return s
        raise AssertionError("no seat left to deal")  # pragma: no cover


def _legal(g: ChaseGame, seat: int) -> list[str]:
    p = g._pending
    return list(p.legal) if p is not None and p.seat == seat else []  # kept sorted


def _hand(g: ChaseGame, seat: int) -> list[str]:
    hand = g.hands[seat]
    return [hand] if hand is not None else []


_VIEW_GETTERS: dict[str, Any] = {
    **COMMON_VIEW_GETTERS,
    "legal": _legal,
    "seed": lambda g, s: g.seat_seeds[s],
    "hand": _hand,
    "faceup": lambda g, s: {str(k): c for k, c in g.faceup.items()},
    "talon": lambda g, s: len(g.talon) if g.rules["deck_policy"] == "continue" else None,
    "games_started": lambda g, s: g.games_started,
    "discard_pile": lambda g, s: {"count": len(g.discards), "seen": list(g.discards_seen)}
    if g.rules["deck_policy"] == "continue" else None,
    "refusals": lambda g, s: list(g.refusals) if g.rules["queen_refuses_once"] else None,
    "partner": lambda g, s: g._pending.partner
    if g._pending is not None and g._pending.seat == s else None,
}

#: Keys of a Chase view: docs/view.md's, plus ``decision`` (the pending decision's kind),
#: ``step`` (moves made so far in the game), ``talon`` (cards left, ``continue`` policy
#: only), ``discard_pile`` (``continue`` only: how many cards lie on it and those of
#: them everybody saw, the showdown cards and refused talon Kings, since the last
#: reshuffle), ``refusals`` (``queen_refuses_once`` only: which seats may still refuse),
#: ``games_started`` (restarts) and ``partner`` (who asked, for a Queen's choice; whom
#: a domino swap would ask).
VIEW_KEYS = tuple(_VIEW_GETTERS)
ChaseGame.VIEW_GETTERS = _VIEW_GETTERS
