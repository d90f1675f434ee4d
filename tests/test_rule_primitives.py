"""The pure rule functions of game/rules/*_rules.py, and the fast paths built on them
checked against the engine on random states.

Each rule is written once (docs/architecture.md): the engines, the search's
play-outs, the coach and the table's "why not?" all call these functions, so these
tests pin the rule itself; the engine tests pin how the state machine uses it.
"""

from __future__ import annotations

import random

import pytest

from game.ai.chase_players import PLAYERS as CHASE_PLAYERS
from game.ai.chase_sampling import read_belief, world_from
from game.ai.rams_cards import beats_bit, deck, legal_mask, suit_index
from game.ai.rams_info import Info
from game.ai.rams_playout import play_out, policy_bit
from game.ai.rams_worlds import start_round
from game.rules.chase import ChaseGame, chase_rules
from game.rules.chase_rules import (
    card_scale,
    dealer_draw,
    domino_partner,
    resolve_ask,
    settle_showdown,
    showdown_losers,
    shown_before_exchange,
)
from game.rules.rams import RamsGame
from game.rules.rams_rules import (
    beats,
    legal_cards,
    must_play,
    rank_table,
    round_losses,
    trick_winner,
    voids_shown,
    why_not_card,
)

RANK = rank_table("skat32")


# --------------------------------------------------------------------------- Rams


def test_beats_same_suit_higher_or_a_trump_over_a_side_card() -> None:
    assert beats("AH", "KH", "C", RANK) and not beats("KH", "AH", "C", RANK)
    assert beats("7C", "AH", "C", RANK)          # any trump over a side card
    assert not beats("AS", "7H", "C", RANK)      # another side suit never heads
    assert not beats("8C", "9C", "C", RANK)      # a lower trump does not


def test_trick_winner_highest_trump_else_highest_of_the_suit_led() -> None:
    assert trick_winner(["9H", "AH", "KS"], "C", RANK) == 1
    assert trick_winner(["9H", "AH", "7C"], "C", RANK) == 2
    assert trick_winner(["9H", "8C", "TC"], "C", RANK) == 2
    assert trick_winner(["9H"], "C", RANK) == 0


def test_legal_cards_follow_suit_else_anything() -> None:
    hand = ["7H", "KH", "8C", "AS"]
    assert set(legal_cards(hand, [], "C", RANK)) == set(hand)          # the lead is free
    assert set(legal_cards(hand, ["9H"], "C", RANK)) == {"7H", "KH"}
    assert set(legal_cards(hand, ["9D"], "C", RANK)) == set(hand)


def test_must_trump_when_void_in_the_suit_led() -> None:
    hand = ["7H", "8C", "AS"]
    assert set(legal_cards(hand, ["9D"], "C", RANK, must_trump=True)) == {"8C"}
    assert set(legal_cards(hand, ["9H"], "C", RANK, must_trump=True)) == {"7H"}
    assert set(legal_cards(["7H", "AS"], ["9D"], "C", RANK, must_trump=True)) == {"7H", "AS"}


def test_must_beat_only_winning_cards_when_one_can_win() -> None:
    hand = ["7H", "KH", "AS"]
    assert set(legal_cards(hand, ["9H", "QH"], "C", RANK, must_beat=True)) == {"KH"}
    # nothing of the suit led wins: the other rules apply
    assert set(legal_cards(["7H", "8H"], ["9H"], "C", RANK, must_beat=True)) == {"7H", "8H"}
    # void in the suit led: a trump that wins is a must
    assert set(legal_cards(["8C", "AS"], ["9H"], "C", RANK, must_beat=True)) == {"8C"}
    # a trump already heads the trick: only a higher trump would win
    assert set(legal_cards(["8C", "AS"], ["9H", "TC"], "C", RANK, must_beat=True)) == {
        "8C", "AS"}


def test_why_not_card_names_the_rule() -> None:
    hand = ["7H", "8C", "AS"]
    assert why_not_card("AS", hand, ["9H"], "C", RANK) == "follow_suit"
    assert why_not_card("AS", hand, ["9D"], "C", RANK, must_trump=True) == "must_trump"
    assert why_not_card("7H", ["7H", "KH"], ["9H"], "C", RANK, must_beat=True) == "must_beat"
    assert why_not_card("QD", hand, ["9H"], "C", RANK) == "not_in_hand"
    assert why_not_card("7H", hand, ["9H"], "C", RANK) is None


def test_voids_shown() -> None:
    assert voids_shown("9H", "H", "C") == frozenset()
    assert voids_shown("9S", "H", "C") == {"H"}
    assert voids_shown("9S", "H", "C", must_trump=True) == {"H", "C"}
    assert voids_shown("9C", "H", "C", must_trump=True) == {"H"}


def test_round_losses() -> None:
    assert round_losses([0, 1, 2], {0: 3, 1: 2, 2: 0}, None, 5) == {2: 1}
    assert round_losses([0, 1, 2], {0: 5}, 0, 5) == {}                  # Rams made
    assert round_losses([0, 1, 2], {0: 4, 1: 1}, 0, 5) == {0: 2}        # Rams failed
    assert round_losses([0, 1, 2], {0: 0, 1: 5}, 0, 5, lone_needs_one=True) == {0: 1}
    assert round_losses([0, 1, 2], {0: 1, 1: 4}, 0, 5, lone_needs_one=True) == {}


def test_drop_limit() -> None:
    assert not must_play(0, 1) and must_play(1, 1) and not must_play(1, 2)
    assert not must_play(99, None)


def test_packed_cards_follow_the_rules() -> None:
    """The search's packed-card rules (legal cards, which card heads a trick) agree with
    the rules' own functions on random hands and tricks, for both decks and every
    variant."""
    rng = random.Random(9)
    for name in ("skat32", "french52"):
        dk = deck(name)
        rank = rank_table(name)
        cards = list(dk.bit)
        for _ in range(1500):
            rng.shuffle(cards)
            hand = cards[:rng.randint(1, 5)]
            trick = cards[5:5 + rng.randint(0, 4)]
            trump = rng.choice("CDHS")
            mt, mb = rng.random() < 0.5, rng.random() < 0.5
            want = set(legal_cards(hand, trick, trump, rank, mt, mb))
            led = dk.bit[trick[0]] >> 4 if trick else -1
            best = dk.bit[trick[trick_winner(trick, trump, rank)]] if trick else -1
            got = legal_mask(dk.mask(hand), led, best, suit_index(trump), dk.above, mt, mb)
            assert set(dk.cards(got)) == want
            if trick:
                for c in hand:
                    assert beats_bit(dk.bit[c], best, suit_index(trump)) == beats(
                        c, trick[trick_winner(trick, trump, rank)], trump, rank)


@pytest.mark.parametrize("rules", [{}, {"must_trump": True}, {"must_beat": True},
                                   {"must_trump": True, "must_beat": True},
                                   {"lone_needs_one": True}, {"dealer_takes_trump": True},
                                   {"scoring": "counters"},
                                   {"scoring": "counters", "counters": 2},
                                   {"general_rams": True, "scoring": "lives"},
                                   {"general_rams": True, "scoring": "counters",
                                    "counters": 3}])
def test_search_playouts_follow_the_engine(rules: dict) -> None:
    """The search's play-out (rams_playout.play_out on packed cards) and the engine agree
    trick by trick and on the round's losses when every seat plays the play-out's card:
    at every step the engine's legal cards equal the packed ones of a round rebuilt
    from the view (tricks won, trick under way, voids, cards gone) and the true hands."""
    rng = random.Random(5)
    checked = 0
    for k in range(40):
        n = rng.choice([3, 4, 5, 6])
        g = RamsGame(rules, n, seed=k, dealer=0)
        g.start()
        while (p := g.to_move()) is not None and p.decision != "trick":
            if p.decision == "take":
                g.apply(p.seat, rng.choice(p.legal))
            else:
                move = "play" if p.seat == 1 or rng.random() < 0.6 else p.legal[0]
                if "general" in p.legal and rng.random() < 0.3:
                    move = "general"
                g.apply(p.seat, move)
        if p is None:
            continue
        counting = g.rules["scoring"] == "counters"
        before = list(g.lives)
        dk = deck(g.deck_name)
        info = Info(g.view(p.seat))
        first = start_round(info, {s: dk.mask(g.hands[s]) for s in g.players})
        assert first.players == list(g.players) and first.lone == g.lone
        assert first.general == g.general and first.counting == counting
        predicted = play_out(first.copy(), p.seat)
        while (p := g.to_move()) is not None and p.decision == "trick":
            info = Info(g.view(p.seat))
            r = start_round(info, {s: dk.mask(g.hands[s]) for s in g.players})
            assert set(dk.cards(r.legal(p.seat))) == set(p.legal)
            g.apply(p.seat, dk.code[policy_bit(r, p.seat)])
        entry = g.rounds[-1]
        assert {int(s): t for s, t in entry["tricks"].items() if int(s) in g.players} == {
            s: predicted.tricks[s] for s in g.players}
        capped = {s: max(a, -before[s]) if counting else min(a, before[s])
                  for s, a in predicted.losses().items()}
        assert entry["lost"] == {str(s): a for s, a in capped.items() if a}
        assert g.finished == (predicted.first_out is not None) or not counting
        if predicted.first_out is not None:
            assert g.winner == predicted.first_out and entry["cut"]
        checked += 1
    assert checked > 30


# --------------------------------------------------------------------------- Chase


def _rules(**kw: object) -> dict:
    return chase_rules(kw)


def test_resolve_ask_king_blocks() -> None:
    r = _rules()
    hands = ["5H", "KS", "3C", "9D"]
    got = resolve_ask(hands, 0, 1, [0, 1, 2, 3], 3, r, card_scale(), [True] * 4)
    assert got.outcome == "blocked" and got.blocks == ((1, "KS"),)
    got = resolve_ask(hands, 1, 2, [0, 1, 2, 3], 3, r, card_scale(), [True] * 4)
    assert got.outcome == "exchange" and got.target == 2 and not got.blocks


def test_resolve_ask_blocked_swap_skips_past_kings_but_not_the_dealer() -> None:
    r = _rules(blocked_swap_skips=True)
    order = [0, 1, 2, 3, 4]
    hands = ["5H", "KS", "KC", "3C", "9D"]
    got = resolve_ask(hands, 0, 1, order, 4, r, card_scale(), [True] * 5)
    assert got.outcome == "exchange" and got.target == 3
    assert got.blocks == ((1, "KS"), (2, "KC"))
    hands = ["5H", "2S", "3C", "KC", "KD"]   # the dealer (4) blocks: the ask fails
    got = resolve_ask(hands, 2, 3, order, 4, r, card_scale(), [True] * 5)
    assert got.outcome == "blocked" and got.blocks == ((3, "KC"), (4, "KD"))


def test_resolve_ask_queen_may_refuse_once() -> None:
    r = _rules(queen_refuses_once=True)
    hands = ["5H", "QS", "3C", "9D"]
    assert resolve_ask(hands, 0, 1, [0, 1, 2, 3], 3, r, card_scale(),
                       [True] * 4).outcome == "queen"
    assert resolve_ask(hands, 0, 1, [0, 1, 2, 3], 3, r, card_scale(),
                       [True, False, True, True]).outcome == "exchange"
    assert resolve_ask(hands, 0, 1, [0, 1, 2, 3], 3, _rules(), card_scale(),
                       [True] * 4).outcome == "exchange"


def test_low_cards_shown_before_passing() -> None:
    r = _rules(reveal_low_on_pass=True)
    assert shown_before_exchange("AH", "3C", r, card_scale()) == (True, True)
    assert shown_before_exchange("4H", "3C", r, card_scale()) == (False, True)
    high = card_scale(ace_high=True)
    assert shown_before_exchange("AH", "4C", _rules(reveal_low_on_pass=True, ace_high=True),
                                 high) == (False, True)
    assert shown_before_exchange("AH", "3C", _rules(), card_scale()) == (False, False)


def test_domino_partner() -> None:
    order = [0, 1, 2, 3]
    low = _rules(domino="low")
    assert domino_partner("3H", 0, 1, order, 3, low, card_scale()) == 2
    assert domino_partner("4H", 0, 1, order, 3, low, card_scale()) is None
    assert domino_partner("3H", 0, 1, order, 3, _rules(domino="ace"), card_scale()) is None
    assert domino_partner("AH", 0, 1, order, 3, _rules(domino="ace"), card_scale()) == 2
    assert domino_partner("AH", 1, 3, order, 3, low, card_scale()) is None   # the dealer
    assert domino_partner("AH", 0, 1, [0, 1], 1, low, card_scale()) is None


def test_dealer_draw_and_talon_king() -> None:
    assert dealer_draw("5H", "KS", _rules(), card_scale()) == ("KS", "5H", False)
    assert dealer_draw("5H", "KS", _rules(talon_king_blocks=True), card_scale()) == (
        "5H", "KS", True)
    assert dealer_draw("5H", "9S", _rules(talon_king_blocks=True), card_scale()) == (
        "9S", "5H", False)


def test_showdown_losers_ties_and_dealer_wins_ties() -> None:
    cards = {0: "3H", 1: "3C", 2: "9D"}
    assert showdown_losers(cards, 2, _rules(), card_scale()) == [0, 1]
    assert showdown_losers(cards, 1, _rules(dealer_wins_ties=True), card_scale()) == [0]
    assert showdown_losers({0: "3H", 1: "9C"}, 0, _rules(dealer_wins_ties=True),
                           card_scale()) == [0]


def test_settle_showdown_double_losses_final_ties_and_sudden_death() -> None:
    sc = card_scale()
    st = settle_showdown({0: "AS", 1: "5C", 2: "9D"}, 2, [3, 3, 3], [True] * 3, False,
                         _rules(ace_of_spades_double=True), sc)
    assert st.lost == {0: 2} and not st.out
    st = settle_showdown({0: "AH", 1: "5C", 2: "9D"}, 2, [1, 3, 3], [True] * 3, False,
                         _rules(aces_double=True), sc)
    assert st.lost == {0: 1} and st.out == (0,)      # capped at the lives left
    tie = {0: "3H", 1: "3C"}
    for policy, check in (("sudden_death", "sudden_death"), ("replay", "replayed"),
                          ("restart", "restart")):
        st = settle_showdown(tie, 1, [1, 1, 0], [True, True, False], False,
                             _rules(final_tie=policy), sc)
        assert st.final_tie == policy and getattr(st, check)
    st = settle_showdown(tie, 1, [1, 1, 0], [True, True, False], False,
                         _rules(final_tie="shared"), sc)
    assert st.winner == [0, 1]
    # sudden death: the lowest go out, unless that would leave nobody
    st = settle_showdown({0: "3H", 1: "5C", 2: "9D"}, 2, [0, 0, 0], [True] * 3, True,
                         _rules(), sc)
    assert st.out == (0,) and not st.lost and st.winner is None
    st = settle_showdown({0: "3H", 1: "3C"}, 1, [0, 0, 0], [True, True, False], True,
                         _rules(), sc)
    assert st.replayed


CHASE_VARIANTS = [{}, {"blocked_swap_skips": True}, {"final_tie": "replay"},
                  {"deck_policy": "continue"}, {"domino": "low"},
                  {"queen_refuses_once": True}, {"dealer_wins_ties": True},
                  {"aces_double": True}, {"talon_king_blocks": True},
                  {"reveal_low_on_pass": True}, {"deck": "cuckoo40"},
                  {"domino": "ace", "queen_refuses_once": True, "reveal_low_on_pass": True,
                   "blocked_swap_skips": True, "deck_policy": "continue"}]


@pytest.mark.parametrize("rules", CHASE_VARIANTS, ids=lambda r: ",".join(r) or "default")
def test_coach_worlds_replay_the_true_round(rules: dict) -> None:
    """The coach's worlds are set up from a view and replayed by the engine: given the
    true cards, the replay reaches exactly the view's decision (same events, same
    private knowledge, same legal moves), with a positive weight."""
    hard = CHASE_PLAYERS["hard"]()
    checked = 0
    for k in range(12):
        g = ChaseGame(rules, 4 + k % 3, seed=100 + k, bot_seed=k)
        g.start()
        while (p := g.to_move()) is not None and g.round_index < 8:
            view = g.view(p.seat)
            belief = read_belief(view)
            now = {s: g.hands[s] for s in view["active"]}
            talon = g.talon[::-1]
            pile = view.get("discard_pile")
            hidden = list(g.discards)
            for c in (pile or {}).get("seen", ()):
                hidden.remove(c)
            policies = dict.fromkeys(view["active"], hard)
            got = world_from(belief, now, talon if talon else [], hidden, policies, seed=k)
            assert got is not None, (rules, k, view["events"])
            weight, replayed = got
            assert weight > 0
            again = replayed.view(p.seat)
            for key in ("events", "private", "hand", "legal", "faceup", "decision"):
                assert again[key] == view[key], key
            checked += 1
            g.apply(p.seat, hard.choose(view))
    assert checked > 50
