"""Chase the Ace (Ranter-Go-Round, Cuckoo): the rules engine of RULES.md §1.

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

from game.cards import CUCKOO40, CUCKOO_VALUES, FRENCH52
from game.rules.base import (
    COMMON_VIEW_GETTERS,
    DealSource,
    EngineViews,
    Event,
    EventLog,
    GameError,
    Key,
    Pending,
    first_dealer_rng,
    seat_seed,
    validate_rules,
)

GAME_ID = "chase"
MIN_SEATS, MAX_SEATS = 3, 20

#: Every rules key of RULES.md §1 with its default and allowed values.
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

FRENCH_ORDER_LOW = "A23456789TJQK"
_SEAT_NAMES = [str(s) for s in range(MAX_SEATS)]
FRENCH_ORDER_HIGH = "23456789TJQKA"


def chase_rules(given: object = None) -> dict[str, Any]:
    """Validate ``given`` (a dict of rules keys) and return every key with its value."""
    return validate_rules(GAME_ID, CHASE_RULES, given)


class CardScale:
    """Card values under the rules in force: ``value[card]`` (1 = lowest), Kings, Queens,
    low cards and printed Aces."""

    def __init__(self, rules: dict[str, Any]) -> None:
        if rules["deck"] == "cuckoo40":
            self.value = {c: i + 1 for i, c in enumerate(CUCKOO_VALUES)}
            self.blockers = frozenset({"Cuckoo"})
            self.queens: frozenset[str] = frozenset()
            self.aces: frozenset[str] = frozenset()
            self.ace_of_spades: str | None = None
            self.deck = CUCKOO40
        else:
            order = FRENCH_ORDER_HIGH if rules["ace_high"] else FRENCH_ORDER_LOW
            self.value = {c: order.index(c[0]) + 1 for c in FRENCH52}
            self.blockers = frozenset(c for c in FRENCH52 if c[0] == "K")
            self.queens = frozenset(c for c in FRENCH52 if c[0] == "Q")
            self.aces = frozenset(c for c in FRENCH52 if c[0] == "A")
            self.ace_of_spades = "AS"
            self.deck = FRENCH52
        self.low = frozenset(c for c, v in self.value.items() if v <= 3)
        self.lowest = frozenset(c for c, v in self.value.items() if v == 1)


def decks_in_play(rules: dict[str, Any], n_seats: int) -> int:
    if rules["decks"] == "auto":
        return 2 if n_seats > 13 else 1
    return int(rules["decks"])


class ChaseGame(EventLog, EngineViews):
    """One game of Chase the Ace, from the first deal to the winner.

    ``seed`` drives every shuffle; ``deals`` (RECORD.md) replaces the shuffles of the
    first rounds; ``dealer`` names the first dealer (else ``first_dealer`` decides).
    """

    game_id = GAME_ID

    def __init__(self, rules: dict[str, Any] | None, n_seats: int, seed: int | None = None,
                 dealer: int | None = None, deals: list[list[str]] | None = None,
                 bot_seed: int = 0) -> None:
        self.rules = chase_rules(rules)
        if not isinstance(n_seats, int) or not MIN_SEATS <= n_seats <= MAX_SEATS:
            raise GameError(f"Chase the Ace needs {MIN_SEATS} to {MAX_SEATS} seats, "
                            f"got {n_seats}", "bad_format")
        if dealer is not None and not 0 <= dealer < n_seats:
            raise GameError(f"dealer {dealer} is not a seat (0 to {n_seats - 1})", "bad_format")
        if seed is None and dealer is None:
            raise GameError("a game needs a seed or a named dealer", "bad_format")
        self.n_seats = n_seats
        self.seed = seed
        self.bot_seed = bot_seed
        self.seat_seeds = [seat_seed(bot_seed, s) for s in range(n_seats)]
        self.given_dealer = dealer
        self.given_deals = [list(d) for d in deals] if deals else []
        self.scale = CardScale(self.rules)
        self.deck = self.scale.deck * decks_in_play(self.rules, n_seats)
        self.deck_set = frozenset(self.deck)
        self.source = DealSource(self.deck, seed, self.given_deals)

        lives = self.rules["lives"]
        self.lives = [lives] * n_seats
        self.in_game = [True] * n_seats       # not eliminated (or a sudden-death contender)
        self.refusals = [True] * n_seats      # Queen refusal still available this game
        self.finished = False
        self.winner: int | list[int] | None = None
        self.sudden_death = False
        self.games_started = 1
        self.pot = self.rules["stake"] * n_seats
        self.round_index = -1
        self.dealer = -1
        self.moves: list[tuple[int, str]] = []
        self.rounds: list[dict[str, Any]] = []
        self.history: list[list[dict[str, Any]]] = []
        self.started = False

        # round state
        self.active: list[int] = []
        self.hands: list[str | None] = [None] * n_seats
        self.faceup: dict[int, str] = {}
        self.talon: list[str] = []            # top card last
        self.discards: list[str] = []
        self.public: list[dict[str, Any]] = []
        self.private: list[list[dict[str, Any]]] = [[] for _ in range(n_seats)]
        self._order: list[int] = []
        self._seatings: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}
        self._pos = 0
        self._done: set[int] = set()
        self._pending: Pending | None = None
        self._ctx: tuple[int, int, str] = (-1, -1, "")   # asker, target, mode
        self._out: list[Event] = []

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
                self._ask(seat, self._left_in_round(seat), "turn")
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
        """The ``stammtisch replay --json`` object of RECORD.md, plus ``pot``,
        ``games_started`` and the sudden-death contenders."""
        out = super().summary()
        out["pot"] = self.pot
        out["games_started"] = self.games_started
        out["sudden_death"] = (sorted(s for s in range(self.n_seats) if self.in_game[s])
                               if self.sudden_death else None)
        return out

    def card_value(self, card: str) -> int:
        """Strength of ``card`` under the rules in force (1 = lowest)."""
        return self.scale.value[card]

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
            self._emit("reshuffle", {"cards": len(self.talon)})
        return self.talon.pop()

    def _discard(self, card: str | None) -> None:
        """Lay ``card`` on the discard pile (kept only where the talon carries over)."""
        if card is not None and self.rules["deck_policy"] == "continue":
            self.discards.append(card)

    def _left_in_round(self, seat: int) -> int:
        order = self._order
        return order[(order.index(seat) + 1) % len(order)]

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
        dealer = self.dealer
        while True:
            card = self.hands[target]
            assert card is not None
            if card in self.scale.blockers:
                self.faceup[target] = card
                self._public("block", {"seat": target, "by": asker, "card": card})
                self._done.add(target)
                if self.rules["blocked_swap_skips"] and target != dealer:
                    target = self._left_in_round(target)
                    if target == asker:   # went all the way round: nobody to ask
                        break
                    continue
                break
            if (card in self.scale.queens and self.rules["queen_refuses_once"]
                    and self.refusals[target]):
                self._ctx = (asker, target, mode)
                self._pending = Pending(target, ("accept", "refuse"), "queen", asker)
                return
            self._exchange(asker, target, mode)
            return
        self._end_turn(asker)

    def _exchange(self, asker: int, target: int, mode: str) -> None:
        hands = self.hands
        gave, got = hands[asker], hands[target]
        assert gave is not None and got is not None
        if self.rules["reveal_low_on_pass"]:
            low = self.scale.low
            if gave in low:
                self._public("show", {"seat": asker, "card": gave})
            if got in low:
                self._public("show", {"seat": target, "card": got})
        self._public("swap", {"seat": asker, "with": target})
        self._private(asker, "exchange", {"with": target, "gave": gave, "got": got})
        self._private(target, "exchange", {"with": asker, "gave": got, "got": gave})
        hands[asker], hands[target] = got, gave
        domino = self.rules["domino"]
        if mode != "domino" and domino != "off" and target != self.dealer:
            triggers = self.scale.low if domino == "low" else self.scale.lowest
            if got in triggers:
                nxt = self._left_in_round(target)
                if nxt != asker:
                    self._ctx = (asker, nxt, "domino")
                    self._pending = Pending(asker, ("keep", "swap"), "domino", nxt)
                    return
        self._end_turn(asker)

    def _dealer_draw(self, dealer: int) -> None:
        self._public("draw", {"seat": dealer})
        own = self.hands[dealer]
        assert own is not None
        if self.rules["talon_king_blocks"]:
            card = self._take_from_talon()
            if card in self.scale.blockers:
                self._discard(card)
                self._public("talon_king", {"seat": dealer, "card": card})
                return
            self._discard(own)
        else:
            self._discard(own)
            card = self._take_from_talon()
        self.hands[dealer] = card
        self._private(dealer, "drew", {"card": card})

    # ------------------------------------------------------------------ showdown

    def _showdown(self) -> None:
        self._pending = None
        hands = self.hands
        value = self.scale.value
        cards = {s: hands[s] for s in self.active}
        names = _SEAT_NAMES
        shown = {names[s]: c for s, c in cards.items()}
        self._public("showdown", {"cards": shown})
        low = min([value[c] for c in cards.values()])  # type: ignore[index]
        losers = [s for s, c in cards.items() if value[c] == low]  # type: ignore[index]
        dealer = self.dealer
        if self.rules["dealer_wins_ties"] and len(losers) > 1 and dealer in losers:
            losers.remove(dealer)
        entry: dict[str, Any] = {"dealer": dealer, "cards": dict(shown)}
        if self.rules["deck_policy"] == "continue":   # the cards are collected
            self.discards.extend(cards.values())  # type: ignore[arg-type]
        self.hands = [None] * self.n_seats
        if self.sudden_death:
            self._settle_sudden_death(losers, entry)
        else:
            self._settle(losers, cards, entry)
        entry.setdefault("lives", list(self.lives))
        entry["index"] = len(self.rounds)
        self.rounds.append(entry)
        self.history.append(self.public)
        if self.finished:
            self._emit("game_over", {"winner": self.winner})
        else:
            self._deal_round(self._next_dealer())

    def _loss(self, seat: int, card: str) -> int:
        amount = 1
        if ((self.rules["aces_double"] and card in self.scale.aces)
                or (self.rules["ace_of_spades_double"] and card == self.scale.ace_of_spades)):
            amount = 2
        return min(amount, self.lives[seat])

    def _settle(self, losers: list[int], cards: dict[int, str | None],
                entry: dict[str, Any]) -> None:
        amounts = {s: self._loss(s, cards[s]) for s in losers}  # type: ignore[arg-type]
        final = len(losers) == len(cards) and all(
            self.lives[s] - a <= 0 for s, a in amounts.items())
        policy = self.rules["final_tie"]
        if final:
            entry["final_tie"] = policy
            self._emit("final_tie", {"policy": policy, "seats": sorted(losers)})
            if policy == "replay":
                entry["lost"] = {}
                entry["replayed"] = True
                self._emit("replay_round", {})
                return
        entry["lost"] = {str(s): a for s, a in amounts.items() if a}
        for s, a in amounts.items():
            self.lives[s] -= a
            self._emit("lose_life", {"seat": s, "amount": a, "lives": self.lives[s]})
        if final:
            if policy == "sudden_death":
                self.sudden_death = True
                self._emit("sudden_death", {"seats": sorted(losers)})
                return
            if policy == "shared":
                self._finish(sorted(losers))
                return
            # restart: the loss is recorded, then every seat is back in with full lives
            # and its Queen refusal
            entry["lives"] = list(self.lives)
            self.games_started += 1
            full = self.rules["lives"]
            self.lives = [full] * self.n_seats
            self.in_game = [True] * self.n_seats
            self.refusals = [True] * self.n_seats
            self._emit("restart", {"lives": full, "games_started": self.games_started})
            return
        for s in losers:
            if self.lives[s] == 0:
                self.in_game[s] = False
                self._emit("out", {"seat": s})
        alive = [s for s in range(self.n_seats) if self.in_game[s]]
        if len(alive) == 1:
            self._finish(alive[0])

    def _settle_sudden_death(self, losers: list[int], entry: dict[str, Any]) -> None:
        entry["lost"] = {}
        entry["sudden_death"] = True
        contenders = [s for s in range(self.n_seats) if self.in_game[s]]
        if len(losers) == len(contenders):
            entry["out"] = []
            entry["replayed"] = True
            self._emit("replay_round", {})
            return
        entry["out"] = sorted(losers)
        for s in losers:
            self.in_game[s] = False
            self._emit("out", {"seat": s})
        alive = [s for s in contenders if self.in_game[s]]
        if len(alive) == 1:
            self._finish(alive[0])

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
    "partner": lambda g, s: g._pending.partner
    if g._pending is not None and g._pending.seat == s else None,
}

#: Keys of a Chase view: BOTS.md's, plus ``decision`` (the pending decision's kind),
#: ``step`` (moves made so far in the game), ``talon`` (cards left, ``continue`` policy
#: only), ``games_started`` (restarts) and ``partner`` (who asked, for a Queen's
#: choice; whom a domino swap would ask).
VIEW_KEYS = tuple(_VIEW_GETTERS)
ChaseGame.VIEW_GETTERS = _VIEW_GETTERS
