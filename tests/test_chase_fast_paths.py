"""The Chase the Ace fast paths held against the engine.

The solvers (:mod:`game.ai.cfr`, exact, and :mod:`game.ai.mccfr`, sampled) play one
round on card strengths in numpy instead of running the engine: they write the
King's block, the skipped turn after it, the dealer's draw and the lowest card losing
once more. Here both play thousands of random deals against the engine itself
(:meth:`ChaseGame.deal_round_at`), each seat deciding by the same strategy in the same
information set; the engine's seats read their information set from their view as
the levels do (:func:`game.ai.chase_info.situation`) and find their entry by the key
the game looks the solved tables up with (:func:`game.ai.chase_tables.table_key`).
So a rule copy that disagrees with the engine, an information set the levels read
differently from the solvers, or a table key that misses the solvers' entry fails
here. The rules the solvers cannot model are refused by name.

Everything also runs on the one strength scale of :mod:`game.rules.chase_rules`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import permutations
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from game.ai import cfr, mccfr  # noqa: E402
from game.ai.chase_info import situation  # noqa: E402
from game.ai.chase_tables import table_key  # noqa: E402
from game.ai.solver_rules import (  # noqa: E402
    BETWEEN_ROUNDS,
    MODELLED,
    SolverRules,
    UnsupportedRules,
    solver_rules,
)
from game.cards import CUCKOO40, FRENCH52  # noqa: E402
from game.rules.chase import CHASE_RULES, ChaseGame  # noqa: E402
from game.rules.chase_rules import (  # noqa: E402
    FRENCH_ORDER_LOW,
    STRENGTH_STEPS,
    card_scale,
)

# --------------------------------------------------------------------------- the engine's round

#: decide(position, view) -> the move, for a seat the engine asks
Decide = Callable[[int, dict[str, Any]], str]


def engine_losses(rules: SolverRules, cards: list[str], talon: str, decide: Decide,
                  rng: random.Random) -> tuple[list[int], bool]:
    """Play one round in the engine: ``cards[i]`` dealt to position i (0 left of the
    dealer … the dealer last), ``talon`` on top of the talon. The table has a seat or
    two more that are out, and a random dealer. Returns who lost a life, by position,
    and whether the dealer drew."""
    n = len(cards)
    n_seats = max(3, n + rng.randint(0, 2))
    active = sorted(rng.sample(range(n_seats), n))
    dealer = rng.choice(active)
    i = active.index(dealer)
    order = active[i + 1:] + active[:i + 1]
    game = ChaseGame(rules.engine_rules(), n_seats, seed=0, dealer=dealer)
    game.deal_round_at(dealer=dealer, dealt={s: c for s, c in zip(order, cards)},
                       talon=[talon], lives=[5] * n_seats,
                       in_game=[s in active for s in range(n_seats)])
    while (p := game.to_move()) is not None:
        game.apply(p.seat, decide(order.index(p.seat), game.view(p.seat)))
    assert game.round_over
    lost = game.rounds[-1]["lost"]
    drew = any(e["type"] == "draw" for e in game.history[-1])
    return [int(int(lost.get(str(s), 0)) > 0) for s in order], drew


def cards_for(strengths: list[int], scale: Any, rng: random.Random) -> list[str]:
    """A card of the engine's deck for each strength (all different cards)."""
    pool = list(scale.deck)
    rng.shuffle(pool)
    out = []
    for s in strengths:
        card = next(c for c in pool if scale.strength[c] == s)
        pool.remove(card)
        out.append(card)
    return out


def entry_index(keys: list[tuple[int, int, int, str]], rules: SolverRules) -> dict[str, int]:
    """The solvers' information sets by the key their table entry is written under
    (``tools/solve_chase.py``, :func:`game.ai.mccfr.solve_abstract`)."""
    return {f"{p},{rules.rank(d)},{rules.rank(c)},{h}": i for i, (p, d, c, h) in enumerate(keys)}


def looked_up(view: dict[str, Any], n: int, index: dict[str, int], rules: SolverRules) -> int:
    """The entry the game reads for this view: the level's situation, the table's key."""
    sit = situation(view)
    assert sit.n == n
    key = table_key(n, sit.pos, sit.dealt, sit.current, sit.hist, rules.ace_high, sit.blocker)
    assert key in index, f"the game looks up {key!r}, which the solvers never wrote"
    return index[key]


def holds_king(view: dict[str, Any]) -> bool:
    """The solvers' seat holding the King keeps (it has no entry)."""
    return view["hand"][0] in card_scale("french52").blockers


RULES = [pytest.param(SolverRules(False), id="default"),
         pytest.param(SolverRules(True), id="ace_high")]


# --------------------------------------------------------------------------- the exact solver


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_exact_solver_plays_every_deal_as_the_engine(rules: SolverRules, n: int) -> None:
    """Random pure strategies; for random deals, each position's loss in the solver
    (the talon's card averaged over, as the solver does) equals the engine's (the
    round played once per talon strength, weighted by the cards left)."""
    rng = random.Random(n * 2 + rules.ace_high)
    tree = cfr.RoundTree(n, rules)
    index = entry_index(tree.lay.keys, rules)
    row = {tuple(int(x) for x in v): i for i, v in enumerate(tree.V)}
    scale = rules.scale
    checked = 0
    for _ in range(4):
        strat = (np.random.default_rng(rng.getrandbits(32)).random(tree.lay.size) < 0.5
                 ).astype(float)
        losses = tree.losses(strat)

        def decide(pos: int, view: dict[str, Any], strat: Any = strat) -> str:
            yes = "draw" if view["decision"] == "dealer" else "swap"
            if holds_king(view):
                return "keep"
            return yes if strat[looked_up(view, n, index, rules)] else "keep"

        for _ in range(250):
            strengths = [rng.randint(1, STRENGTH_STEPS) for _ in range(n)]
            if any(strengths.count(s) > scale.strength_counts[s] for s in strengths):
                continue
            cards = cards_for(strengths, scale, rng)
            rest = [c for c in scale.deck if c not in cards]
            got, drew = engine_losses(rules, cards, rng.choice(rest), decide, rng)
            expected = np.array(got, dtype=float)
            if drew:   # the solver averages over the talon's card
                expected = np.zeros(n)
                for s in range(1, STRENGTH_STEPS + 1):
                    left = [c for c in rest if scale.strength[c] == s]
                    if left:
                        lost, _ = engine_losses(rules, cards, left[0], decide, rng)
                        expected += len(left) / len(rest) * np.array(lost, dtype=float)
            assert losses[row[tuple(strengths)]] == pytest.approx(expected, abs=1e-12), (
                strengths, cards)
            checked += 1
    assert checked >= 900


@pytest.mark.parametrize("n", [2, 3])
def test_the_exact_solver_deals_as_the_engine_deck(n: int) -> None:
    """Every strength tuple's probability is its share of the ordered deals of the
    engine's deck (counted card by card)."""
    rules = SolverRules()
    V, P = cfr.deals(n, rules)
    strength = rules.scale.strength
    counted: dict[tuple[int, ...], int] = {}
    total = 0
    for cards in permutations(rules.scale.deck, n):
        key = tuple(strength[c] for c in cards)
        counted[key] = counted.get(key, 0) + 1
        total += 1
    assert len(V) == len(counted)
    for v, p in zip(V, P):
        assert p == pytest.approx(counted[tuple(int(x) for x in v)] / total, rel=1e-12)


# --------------------------------------------------------------------------- the sampled solver


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("n", [6, 7, 8, 10])
def test_the_sampled_solver_plays_every_deal_as_the_engine(rules: SolverRules, n: int) -> None:
    """A random mixed strategy over the abstraction and one random number per seat
    (a seat swaps when its number is below its entry's p_swap): the simulator's
    losses, and those with one position's action forced (its regrets), equal the
    engine's for every deal."""
    rng = random.Random(100 + n * 2 + rules.ace_high)
    ab = mccfr.Abstract(n, rules)
    sim = mccfr.Simulator(ab)
    index = entry_index(ab.keys, rules)
    scale = rules.scale
    m = 500
    hands = [cards_for([scale.strength[c] for c in rng.sample(scale.deck, n + 1)], scale, rng)
             for _ in range(m)]
    D = np.array([[scale.strength[c] for c in h] for h in hands], dtype=np.int64)
    R = np.random.default_rng(rng.getrandbits(32)).random((m, n))
    strat = np.random.default_rng(rng.getrandbits(32)).random(ab.size)
    res = sim.run(strat, D, R, record=True)
    forced = [(rng.randrange(n), rng.randrange(2)) for _ in range(m)]
    for k in range(m):
        def decide(pos: int, view: dict[str, Any], k: int = k, force: Any = None) -> str:
            yes = "draw" if view["decision"] == "dealer" else "swap"
            if holds_king(view):
                return "keep"
            if force is not None and pos == force[0]:
                return yes if force[1] else "keep"
            return yes if R[k, pos] < strat[looked_up(view, n, index, rules)] else "keep"

        got, _ = engine_losses(rules, hands[k][:n], hands[k][n], decide, rng)
        assert list(res["loss"][k]) == got, (k, hands[k])
        pos, action = forced[k]
        got, _ = engine_losses(rules, hands[k][:n], hands[k][n],
                               lambda p, v, k=k, f=forced[k]: decide(p, v, k, f), rng)
        assert res["alt"][pos][2 + action][k] == got[pos], (k, hands[k], pos, action)


def test_the_sampled_solver_draws_from_the_engine_deck() -> None:
    for rules in (SolverRules(False), SolverRules(True)):
        ab = mccfr.Abstract(4, rules)
        assert sorted(ab.deck.tolist()) == sorted(rules.scale.strength[c]
                                                  for c in rules.scale.deck)
        D = mccfr.sample_deals(np.random.default_rng(1), 2000, 4, ab.deck)
        # never more cards of a strength in one deal than the deck holds
        for s in range(1, STRENGTH_STEPS + 1):
            assert (D == s).sum(axis=1).max() <= rules.counts[s]


# --------------------------------------------------------------------------- what they refuse


def test_the_solvers_model_the_default_rules_and_ace_high() -> None:
    assert solver_rules(None) == SolverRules(False)
    assert solver_rules({"ace_high": True}) == SolverRules(True)
    # keys between rounds do not change one round
    assert solver_rules({"lives": 1, "stake": 5, "first_dealer": "random",
                         "final_tie": "shared", "decks": 1}) == SolverRules(False)


VARIANTS = {"queen_refuses_once": True, "reveal_low_on_pass": True, "domino": "low",
            "dealer_wins_ties": True, "ace_of_spades_double": True, "aces_double": True,
            "blocked_swap_skips": True, "talon_king_blocks": True, "deck": "cuckoo40",
            "deck_policy": "continue", "decks": 2}


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_the_solvers_refuse_every_variant_they_do_not_model(key: str) -> None:
    with pytest.raises(UnsupportedRules, match=key):
        solver_rules({key: VARIANTS[key]})


def test_every_rules_key_is_either_modelled_or_refused() -> None:
    assert set(CHASE_RULES) == set(MODELLED) | set(BETWEEN_ROUNDS) | set(VARIANTS)


# --------------------------------------------------------------------------- the one scale


@pytest.mark.parametrize("deck,ace_high", [("french52", False), ("french52", True),
                                           ("cuckoo40", False)])
def test_one_strength_scale_orders_cards_as_the_engine(deck: str, ace_high: bool) -> None:
    scale = card_scale(deck, ace_high)
    cards = sorted(set(scale.deck))
    for a in cards:
        for b in cards:
            va, vb = scale.value[a], scale.value[b]
            sa, sb = scale.strength[a], scale.strength[b]
            assert (sa < sb) <= (va < vb) and (va < vb) <= (sa <= sb)
    assert {scale.strength[c] for c in scale.blockers} == {scale.blocker_strength}
    assert scale.blocker_strength == (12 if ace_high else STRENGTH_STEPS)
    assert sum(scale.strength_counts) == len(scale.deck)
    assert set(scale.strength.values()) <= set(range(1, STRENGTH_STEPS + 1))


@pytest.mark.parametrize("ace_high", [False, True])
def test_rank_numbers_are_bots_numbering_of_the_strengths(ace_high: bool) -> None:
    """docs/view.md numbers ranks 1 (Ace) … 13 (King) whatever the rules; a card's rank
    number and its strength convert both ways."""
    scale = card_scale("french52", ace_high)
    for card in FRENCH52:
        rank = FRENCH_ORDER_LOW.index(card[0]) + 1
        assert scale.rank_number(scale.strength[card]) == rank
        assert scale.strength_of_rank(rank) == scale.strength[card]
    cuckoo = card_scale("cuckoo40")
    assert all(cuckoo.rank_number(cuckoo.strength[c]) == cuckoo.strength[c] for c in CUCKOO40)


# --------------------------------------------------------------------------- what levels read


DOMINO_RULES = [{"domino": "low"}, {"domino": "ace"}, {"domino": "low", "blocked_swap_skips": True},
                {"domino": "low", "queen_refuses_once": True, "reveal_low_on_pass": True},
                {}, {"blocked_swap_skips": True}, {"deck": "cuckoo40", "domino": "low"}]


def test_a_lower_card_the_levels_count_on_is_where_they_think() -> None:
    """``known_lower``: the right neighbour took our dealt card, lower than the one we
    hold, and its turn is over -- the showdown shows it there, under every variant
    that moves cards (domino swaps pass a card on)."""
    rng = random.Random(5)
    seen = 0
    for k in range(400):
        rules = DOMINO_RULES[k % len(DOMINO_RULES)]
        g = ChaseGame(rules, rng.randint(3, 8), seed=k, bot_seed=k)
        g.start()
        claims: list[tuple[int, str]] = []      # (right neighbour, our dealt card)
        rounds = len(g.rounds)
        while g.to_move() is not None and len(g.rounds) == rounds:
            p = g.to_move()
            view = g.view(p.seat)
            sit = situation(view)
            if sit.known_lower:
                dealt = next(e["cards"][0] for e in view["private"] if e["type"] == "dealt")
                claims.append((sit.order[sit.pos - 1], dealt))
            # swap whenever offered: the domino swaps that move cards come up often
            g.apply(p.seat, "swap" if "swap" in p.legal else rng.choice(p.legal))
        if len(g.rounds) == rounds:
            continue
        cards = g.rounds[rounds]["cards"]
        for right, dealt in claims:
            assert cards[str(right)] == dealt, (rules, k, right, dealt, cards)
            seen += 1
    assert seen > 100


def test_a_domino_swap_looks_at_the_seat_it_would_ask() -> None:
    """With ``blocked_swap_skips`` the ask passes two Kings and exchanges further on;
    the domino swap then asks the seat after that one, which shows no King: the
    levels take it (not the seat two to the left, which shows a King)."""
    from game.ai.registry import make_player
    from tests.chase_helpers import game_with, play

    g = game_with(["5C", "KD", "KH", "AS", "9C", "QD", "8S"], dealer=6,
                  rules={"domino": "low", "blocked_swap_skips": True})
    play(g, "swap")
    p = g.to_move()
    view = g.view(0)
    assert p.decision == "domino" and view["partner"] == 4 and view["faceup"]["2"] == "KH"
    for level in ("medium", "hard", "expert"):
        assert make_player("chase", level).choose(view) == "swap", level
