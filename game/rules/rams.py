"""Rams: the trick-taking rules engine of docs/rules.md#rams.

A :class:`RamsGame` has the same surface as :class:`game.rules.chase.ChaseGame`:
``start()`` picks the first dealer and deals round 0, ``to_move()`` names the pending
decision, ``apply(seat, move)`` performs a move and returns the events it caused,
``view(seat)`` is what that seat may know (docs/view.md) and ``summary()`` is the
``replay --json`` object (docs/records.md). After the last trick of a round the next round
is dealt at once, so the pending decision is always a real choice of some seat.

Decisions (``Pending.decision``):

``take``     the dealer exchanges a hand card for the turned trump (``take:XX``) or
             declines (``pass_trump``); only with ``dealer_takes_trump``
``declare``  ``play`` or ``drop`` (only ``play`` when a rule forces it); with
             ``general_rams`` also ``general``: General Rams, after which everyone plays
``trick``    a card code to play to the current trick
"""

from __future__ import annotations

from typing import Any

from game.cards import FRENCH52, SKAT32
from game.rules.base import (
    COMMON_VIEW_GETTERS,
    DealSource,
    EngineViews,
    Event,
    EventLog,
    GameError,
    Key,
    Pending,
    Refusal,
    RulesError,
    TableStart,
    first_dealer_rng,
    next_seat,
    validate_rules,
)
from game.rules.errors import TooFewCards
from game.rules.rams_rules import (
    SCORINGS,
    beats,
    best_at_the_end,
    drop_limit_of,
    forced_to_play,
    last_round_of,
    playable,
    rank_table,
    round_leader,
    round_losses,
    round_players,
    sheds,
    trick_winner,
    why_not_card,
)

GAME_ID = "rams"
MIN_SEATS, MAX_SEATS = 3, 10
#: With ``deck: auto`` the 52-card deck is used from this many starting seats on.
FRENCH_FROM_SEATS = 6

#: Every rules key of docs/rules.md#rams with its default and allowed values. The
#: defaults are those of record format 3 (the pub's pace: counters, no drop limit, the
#: dealer plays when everyone before dropped, General Rams); format 1 has "Rams as
#: written" (:data:`AS_WRITTEN`, docs/rams-pace.md).
RAMS_RULES: dict[str, Key] = {
    "deck": Key("auto", choices=("auto", "skat32", "french52"),
                describe="Skat deck up to 5 players, 52 cards from 6 (auto), or fixed"),
    "hand_size": Key(5, int_range=(3, 5), describe="Cards dealt to every player"),
    "lives": Key(3, int_range=(1, 5), describe="Lives every player starts with"),
    "drop_limit": Key("none", choices=("none",), int_range=(1, 5),
                      describe="Rounds in a row a player may drop out (none: no limit)"),
    "must_trump": Key(False, boolean=True,
                      describe="A player void in the suit led must trump if able"),
    "must_beat": Key(False, boolean=True,
                     describe="A player must win the trick if they legally can"),
    "dealer_takes_trump": Key(False, boolean=True,
                              describe="The dealer may exchange a card for the trump card"),
    "lone_needs_one": Key(False, boolean=True,
                          describe="A lone player needs only one trick"),
    "scoring": Key("counters", choices=SCORINGS,
                   describe="Lives lost (002), or counters shed: first to zero wins"),
    "counters": Key(20, int_range=(1, 30),
                    describe="Counters every player starts with (scoring: counters)"),
    "general_rams": Key(True, boolean=True,
                        describe="A player may announce every trick; then nobody drops"),
    "dealer_must_play": Key(True, boolean=True,
                            describe="If everyone before dropped out, the dealer plays"),
    "two_must_play": Key(False, boolean=True,
                         describe="With two players left, nobody may drop out"),
    "last_round": Key(30, choices=("none",), int_range=(10, 100),
                      describe="After this round the best score wins (none: play to the end)"),
}

#: The keys record format 1 does not know (docs/records.md#record-formats): a
#: format-1 record may not name them, and they take their "as written" values there.
NEW_IN_FORMAT_3 = ("scoring", "counters", "general_rams", "dealer_must_play",
                   "two_must_play", "last_round")
#: "Rams as written": seed 002's rules as docs/rules.md#rams reads them (lives, the drop limit
#: of 1), the defaults of record format 1. Only the keys whose value differs from the
#: defaults of today (format 3), and the new keys.
AS_WRITTEN: dict[str, Any] = {"scoring": "lives", "drop_limit": 1, "general_rams": False,
                              "dealer_must_play": False, "two_must_play": False,
                              "last_round": "none"}
#: Named rule sets: the pub's pace (today's defaults) and Rams as written.
PRESETS: dict[str, dict[str, Any]] = {"pub": {}, "as_written": dict(AS_WRITTEN)}


def format_1_rules(given: dict[str, Any]) -> dict[str, Any]:
    """The rules of a format-1 record (docs/records.md) in today's terms: the keys it names
    over the "as written" defaults; a key format 1 does not know is refused."""
    for k in given:
        if k in NEW_IN_FORMAT_3:
            raise RulesError(f"unknown rules key {k!r} for game 'rams' in record format 1 "
                             "(it is a key of format 3)", "unknown_rules_key")
    return {**AS_WRITTEN, **given}


def format_1_or_none(given: dict[str, Any]) -> dict[str, Any] | None:
    """``given`` (today's terms: a missing key takes today's default) written as the
    rules of a format-1 record, or ``None`` if format 1 cannot say it (a key of format
    3 away from its "as written" value)."""
    full = rams_rules(given)
    if any(full[k] != AS_WRITTEN.get(k, RAMS_RULES[k].default) for k in NEW_IN_FORMAT_3
           if k != "counters"):
        return None
    out = {k: v for k, v in given.items() if k not in NEW_IN_FORMAT_3}
    for k in AS_WRITTEN:
        if k not in NEW_IN_FORMAT_3 and k not in out:
            out[k] = full[k]         # today's default differs from format 1's: say it
    return out

#: the order setups and rules screens list the keys in: the scoring first
RAMS_RULES = {k: RAMS_RULES[k] for k in (
    "scoring", "counters", "lives", "deck", "hand_size", "general_rams", "dealer_must_play",
    "drop_limit", "two_must_play", "last_round", "must_trump", "must_beat",
    "dealer_takes_trump", "lone_needs_one")}

PLAY_OR_DROP = ("drop", "play")
PLAY_ONLY = ("play",)
#: General Rams: the announcement (a declaration) and the legal moves with it
GENERAL = "general"


def rams_rules(given: object = None) -> dict[str, Any]:
    """Validate ``given`` (a dict of rules keys) and return every key with its value."""
    return validate_rules(GAME_ID, RAMS_RULES, given)


def deck_name(rules: dict[str, Any], n_seats: int) -> str:
    """The deck in use (``skat32`` or ``french52``), fixed by the starting seat count."""
    if rules["deck"] == "auto":
        return "french52" if n_seats >= FRENCH_FROM_SEATS else "skat32"
    return str(rules["deck"])


class RamsGame(TableStart, EventLog, EngineViews):
    """One game of Rams, from the first deal to the winner.

    ``seed`` drives every shuffle and the first dealer; ``deals`` (docs/records.md) replaces
    the shuffles of the first rounds; ``dealer`` names the first dealer.
    """

    game_id = GAME_ID

    def __init__(self, rules: dict[str, Any] | None, n_seats: int, seed: int | None = None,
                 dealer: int | None = None, deals: list[list[str]] | None = None,
                 bot_seed: int = 0) -> None:
        self.rules = rams_rules(rules)
        self._seat_table("Rams", range(MIN_SEATS, MAX_SEATS + 1), n_seats, seed, dealer,
                         deals, bot_seed)
        self.deck_name = deck_name(self.rules, n_seats)
        self.deck: tuple[str, ...] = SKAT32 if self.deck_name == "skat32" else FRENCH52
        self.hand_size: int = self.rules["hand_size"]
        if self.hand_size * n_seats + 1 > len(self.deck):
            raise TooFewCards(self.deck_name, len(self.deck), n_seats, self.hand_size)
        self.deck_set = frozenset(self.deck)
        self.card_moves = self.deck_set   # a move that is a card code of another deck: bad_card
        #: strength of every card within its suit (higher wins)
        self.rank: dict[str, int] = rank_table(self.deck_name)
        self._must_trump: bool = self.rules["must_trump"]
        self._must_beat: bool = self.rules["must_beat"]
        self.drop_limit: int | None = drop_limit_of(self.rules)
        #: ``counters`` scoring: ``lives`` holds each seat's counters, the first at zero wins
        self.counting: bool = self.rules["scoring"] == "counters"
        #: the number (from 1) of the round after which the best score wins, or ``None``
        self.last_round: int | None = last_round_of(self.rules)

        self.source = DealSource(self.deck, seed, self.given_deals)

        self.lives = [self.rules["counters" if self.counting else "lives"]] * n_seats
        self.in_game = [True] * n_seats
        self.drops = [0] * n_seats          # rounds in a row each seat dropped out
        self._blank_game()                  # ``sudden_death`` stays False: a Chase rule
        self.winner: int | None = None

        # round state
        self.active: list[int] = []
        self.order: list[int] = []          # dealt-in seats, left of the dealer first
        self.hands: list[list[str]] = [[] for _ in range(n_seats)]
        self.stock: list[str] = []          # top first: the turned trump card, then the rest
        self.trump = ""
        self.trump_card = ""
        self.under: str | None = None       # the card the dealer laid under the stock
        self.declared: dict[int, str] = {}
        self.lone: int | None = None
        self.general: int | None = None     # the seat that announced General Rams
        self.players: list[int] = []        # seats in the trick play, clockwise
        self.trick: list[tuple[int, str]] = []
        self.tricks: dict[int, int] = {}
        self.taken: list[str] = []          # cards of the finished tricks of this round
        self.public: list[dict[str, Any]] = []
        self.private: list[list[dict[str, Any]]] = [[] for _ in range(n_seats)]
        self._pos = 0                       # declaring seat's index in ``order``
        self._turns: list[int] = []         # play order of the current trick
        self._best = 0                      # index in ``trick`` of the card heading it
        self._pending: Pending | None = None
        self._out = []

    # ------------------------------------------------------------------ public API

    def start(self) -> list[Event]:
        """Pick the first dealer and deal round 0; returns the events."""
        if self.started:
            raise GameError("the game has already started")
        self.started = True
        self._out = []
        if self.given_dealer is not None:
            first = self.given_dealer
        else:
            first = first_dealer_rng(self.seed).randrange(self.n_seats)
        self._emit("first_dealer", {"seat": first})
        self._deal_round(first)
        return self._flush()

    def apply(self, seat: int, move: str) -> list[Event]:
        """Perform ``move`` for ``seat``; raise :class:`IllegalMove` (state unchanged)."""
        p = self._begin_move(seat, move)
        decision = p.decision
        if decision == "trick":
            self._play(seat, move)
        elif decision == "declare":
            self._declare(seat, move)
        else:  # take
            if move != "pass_trump":
                self._take_trump(seat, move[5:])
            else:
                self._emit("pass_trump", {"seat": seat})
            self._next_declaration()
        return self._flush()

    def beats(self, card: str, best: str) -> bool:
        """Whether ``card`` takes the lead from ``best`` (the card heading a trick)."""
        return beats(card, best, self.trump, self.rank)

    def _why_not(self, pending: Pending, move: str) -> Refusal | None:
        if pending.decision == "declare" and move == "drop":
            reason = self._forced(pending.seat) or "must_play"
            return Refusal(reason, {"limit": self.drop_limit} if reason == "must_play"
                           else {})
        if pending.decision == "trick":
            trick = self.trick_cards()
            code = why_not_card(move, self.hands[pending.seat], trick, self.trump,
                                self.rank, self._must_trump, self._must_beat)
            if code == "follow_suit":
                return Refusal(code, {"suit": trick[0][1]})
            if code == "must_trump":
                return Refusal(code, {"suit": self.trump})
            if code == "must_beat":
                return Refusal(code, {"card": trick[trick_winner(trick, self.trump,
                                                                  self.rank)]})
            if code is not None:
                return Refusal(code, {})
        return None

    def trick_cards(self) -> list[str]:
        """The cards of the current trick, in play order."""
        return [c for _, c in self.trick]

    # ------------------------------------------------------------------ a round

    def _deal_round(self, dealer: int) -> None:
        n = self.n_seats
        self.round_index += 1
        self.dealer = dealer
        alive = self.in_game
        order = [s for s in ((dealer + k) % n for k in range(1, n + 1)) if alive[s]]
        self.order = order
        self.active = sorted(order)
        self.hands = [[] for _ in range(n)]
        self.declared = {}
        self.lone = None
        self.general = None
        self.players = []
        self.trick = []
        self.tricks = {}
        self.taken = []
        self.under = None
        self.public = []
        self.private = [[] for _ in range(n)]
        self._pos = 0
        self._emit("round_start", {"round": self.round_index, "dealer": dealer,
                                   "active": list(self.active), "sudden_death": False,
                                   "pot": 0})
        self._emit("shuffle", {"cut_by": order[-2] if len(order) > 1 else dealer})
        need = self.hand_size * len(order) + 1
        stock = self.source.next_stock(top=need)
        if len(stock) < need:
            raise GameError(f"deal {self.source.used - 1} has {len(stock)} cards, "
                            f"the round needs {need}", "bad_format")
        m = len(order)
        i = self.hand_size * m
        hands = self.hands
        for k, seat in enumerate(order):
            hands[seat] = stock[k:i:m]
        if self.emit_events:
            # one card at a time round the table; events are never changed by those who
            # read them, so each seat's deal event is the same object every time round
            self._out += [Event("deal", {"seat": seat}) for seat in order] * self.hand_size
        for seat in order:
            self._private(seat, "dealt", {"cards": list(hands[seat])})
        self.stock = stock[i:]
        card = self.stock[0]
        self.trump_card = card
        self.trump = card[1]
        self._emit("trump", {"card": card, "suit": self.trump})
        if self.rules["dealer_takes_trump"]:
            self._pending = Pending(
                dealer, tuple("take:" + c for c in hands[dealer]) + ("pass_trump",), "take")
        else:
            self._next_declaration()

    def _take_trump(self, dealer: int, card: str) -> None:
        hand = self.hands[dealer]
        hand[hand.index(card)] = self.stock.pop(0)
        self.stock.append(card)
        self.under = card
        self._public("take_trump", {"seat": dealer, "card": self.trump_card})
        self._private(dealer, "discarded", {"card": card})

    def _forced(self, seat: int) -> str | None:
        """Why ``seat`` may not drop out now (:func:`forced_to_play`), or ``None``."""
        rules = self.rules
        order = self.order
        return forced_to_play(
            self.drops[seat], self.drop_limit, dealer=seat == order[-1],
            nobody_plays=all(c != "play" for c in self.declared.values()),
            seats=len(order), dealer_must_play=rules["dealer_must_play"],
            two_must_play=rules["two_must_play"])

    def _next_declaration(self) -> None:
        order = self.order
        if self._pos < len(order):
            seat = order[self._pos]
            legal = PLAY_ONLY if self._forced(seat) else PLAY_OR_DROP
            if self.rules["general_rams"]:
                legal += (GENERAL,)
            self._pending = Pending(seat, legal, "declare")
            return
        players, lone, _ = round_players(order, self.declared)
        if not players:
            self._emit("void_round", {})
            self._end_round()
            return
        if lone is not None:
            self.lone = lone
            self._emit("rams", {"seat": lone})
        self.players = players
        self.tricks = {s: 0 for s in players}
        self._start_trick(round_leader(players, None))

    def _declare(self, seat: int, choice: str) -> None:
        self.declared[seat] = choice
        self.drops[seat] = self.drops[seat] + 1 if choice == "drop" else 0
        self._public("declare", {"seat": seat, "choice": choice})
        self._pos += 1
        if choice == GENERAL:
            self._general_rams(seat)
            return
        self._next_declaration()

    def _general_rams(self, seat: int) -> None:
        """General Rams: every seat dealt in plays (those who dropped take their cards
        back, those still to declare are not asked) and the announcer leads."""
        order = self.order
        self.players, _, self.general = round_players(order, self.declared)
        for s in order[self._pos:]:
            self.drops[s] = 0               # they play this round
        self._emit("general_rams", {"seat": seat})
        self.tricks = {s: 0 for s in order}
        self._start_trick(round_leader(self.players, self.general))

    def _start_trick(self, leader: int) -> None:
        players = self.players
        k = players.index(leader)
        self._turns = players[k:] + players[:k]
        self.trick = []
        self._emit("lead", {"seat": leader})
        self._pending = Pending(leader, tuple(self.hands[leader]), "trick")

    def _legal_cards(self, seat: int) -> tuple[str, ...]:
        """Cards ``seat`` may add to the current (begun) trick."""
        trick = self.trick
        return playable(self.hands[seat], trick[0][1][1], trick[self._best][1], self.trump,
                        self.rank, self._must_trump, self._must_beat)

    def _play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        trick = self.trick
        trick.append((seat, card))
        if self.emit_events:
            self._out.append(Event("play", {"seat": seat, "card": card}))
        self.public.append({"type": "play", "seat": seat, "card": card})
        n = len(trick)
        if n == 1 or beats(card, trick[self._best][1], self.trump, self.rank):
            self._best = n - 1      # the card heading the trick (trick_winner, as it goes)
        turns = self._turns
        if n < len(turns):
            nxt = turns[n]
            self._pending = Pending(nxt, self._legal_cards(nxt), "trick")
            return
        winner = trick[self._best][0]
        self.tricks[winner] += 1
        self.taken += [c for _, c in trick]
        self._public("trick", {"winner": winner,
                               "cards": {str(s): c for s, c in trick}})
        if self.counting and sheds(winner, self.tricks, self.lone, self.general,
                                   self.hand_size) >= self.lives[winner]:
            self.trick = []
            self._end_round(cut_by=winner)
        elif self.hands[winner]:
            self._start_trick(winner)
        else:
            self.trick = []
            self._end_round()

    # ------------------------------------------------------------------ scoring

    def _end_round(self, cut_by: int | None = None) -> None:
        """Score the round and deal the next. ``cut_by``: under ``counters`` the seat
        whose trick just brought its counters to zero; it wins at once, and the round
        ends there with every seat's tricks so far shed and no penalty."""
        self._pending = None
        lone = self.lone
        if self.counting:
            lost = self._count(cut_by)
        else:
            lost = self._lose_lives()
        tricks = self.tricks
        general = self.general
        played = (sorted(self.players) if general is not None else
                  sorted(s for s, c in self.declared.items() if c == "play"))
        entry: dict[str, Any] = {
            "dealer": self.dealer,
            "tricks": {str(s): tricks.get(s, 0) for s in self.active},
            "played": played,
            "trump": self.trump,
            "lost": {str(s): a for s, a in lost.items() if a},
            "lives": list(self.lives),
            "index": len(self.rounds),
            "void": not self.players,
            "lone": lone,
            "trump_card": self.trump_card,
        }
        if general is not None:
            entry["general"] = general
        if cut_by is not None:
            entry["cut"] = True
        last = self.last_round is not None and len(self.rounds) + 1 >= self.last_round
        if last:
            entry["last"] = True
        self.rounds.append(entry)
        self.history.append(self.public)
        if self.counting:
            winner = cut_by if cut_by is not None else next(
                (s for s in self.order if self.lives[s] == 0), None)
            if winner is not None:
                self._over(winner)
                return
        else:
            alive = [s for s in range(self.n_seats) if self.in_game[s]]
            if len(alive) <= 1:
                self._over(alive[0] if alive else None)
                return
        if last:
            self._over(best_at_the_end(self.lives, [s for s in range(self.n_seats)
                                                    if self.in_game[s]], self.counting))
            return
        self._deal_round(next_seat(self.dealer, self.in_game))

    def _over(self, winner: int | None) -> None:
        self.finished = True
        self.winner = winner
        self._emit("game_over", {"winner": winner})

    def _lose_lives(self) -> dict[int, int]:
        """Lives lost by the round (capped at the lives left); seats at 0 go out."""
        lost = round_losses(self.players, self.tricks, self.lone, self.hand_size,
                            self.rules["lone_needs_one"], general=self.general)
        lives = self.lives
        out = []
        for s in sorted(lost):
            amount = min(lost[s], lives[s])
            lost[s] = amount
            if amount:
                lives[s] -= amount
                self._emit("lose_life", {"seat": s, "amount": amount, "lives": lives[s]})
                if lives[s] == 0:
                    out.append(s)
        for s in out:
            self.in_game[s] = False
            self._emit("out", {"seat": s})
        return lost

    def _count(self, cut_by: int | None) -> dict[int, int]:
        """``counters``: each seat's change (never below zero counters). Cut short by
        ``cut_by``: the tricks so far are shed, nobody adds a penalty."""
        if cut_by is None:
            change = round_losses(self.players, self.tricks, self.lone, self.hand_size,
                                  counters=True, general=self.general)
        else:
            change = {s: -sheds(s, self.tricks, self.lone, self.general, self.hand_size)
                      for s in self.players}
        counters = self.lives
        for s in sorted(change):
            amount = max(change[s], -counters[s])
            change[s] = amount
            if amount:
                counters[s] += amount
                self._emit("score", {"seat": s, "amount": amount, "counters": counters[s]})
        return change


#: Keys of a Rams view: the shared ones, docs/view.md's Rams keys (``trump``, ``trump_card``,
#: ``trick``, ``tricks``) and extras: ``hand_size``, ``deck`` (deck in use),
#: ``declared`` (seat → play/drop so far this round), ``lone`` (the Rams player or
#: null), ``in_play`` (seats taking part in the tricks, clockwise from the first
#: leader), ``drops`` (rounds in a row each seat dropped out) and ``drop_limit``
#: (null: none), ``general`` (the seat that announced General Rams, or null). All of it
#: is public. Under ``scoring: counters``, ``lives`` holds every seat's counters.
_VIEW_GETTERS: dict[str, Any] = {
    **COMMON_VIEW_GETTERS,
    "hand": lambda g, s: list(g.hands[s]),
    "trump": lambda g, s: g.trump,
    "trump_card": lambda g, s: g.trump_card,
    "trick": lambda g, s: [{"seat": p, "card": c} for p, c in g.trick],
    "tricks": lambda g, s: {str(p): n for p, n in g.tricks.items()},
    "hand_size": lambda g, s: g.hand_size,
    "deck": lambda g, s: g.deck_name,
    "declared": lambda g, s: {str(p): c for p, c in g.declared.items()},
    "lone": lambda g, s: g.lone,
    "general": lambda g, s: g.general,
    "in_play": lambda g, s: list(g.players),
    "drops": lambda g, s: list(g.drops),
    "drop_limit": lambda g, s: g.drop_limit,
}
VIEW_KEYS = tuple(_VIEW_GETTERS)
RamsGame.VIEW_GETTERS = _VIEW_GETTERS


