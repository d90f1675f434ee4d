"""One test (or more) per rule of docs/rules.md#chase-the-ace; each fails if its rule breaks."""

from __future__ import annotations

import pytest

from game.cards import FRENCH52
from game.rules.base import GameError, IllegalMove, RulesError
from game.rules.chase import ChaseGame, chase_rules
from tests.chase_helpers import game_with, play, types

# ----------------------------------------------------------------- setup


def test_rank_order_ace_lowest_king_highest():
    g = game_with(["AS", "2H", "KD"], dealer=2)
    ev = play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 1}
    assert [e.data for e in ev if e.type == "lose_life"] == [{"seat": 0, "amount": 1, "lives": 2}]


def test_suits_do_not_matter_equal_ranks_tie():
    g = game_with(["5S", "5H", "9D"], dealer=2)
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 1, "1": 1}


@pytest.mark.parametrize("n,decks,size", [(3, "auto", 52), (13, "auto", 52), (14, "auto", 104),
                                          (20, "auto", 104), (5, 2, 104), (15, 1, 52)])
def test_deck_count(n, decks, size):
    g = ChaseGame({"decks": decks}, n, seed=1)
    assert len(g.deck) == size


def test_lives_default_and_range():
    assert ChaseGame(None, 4, seed=1).lives == [3, 3, 3, 3]
    assert ChaseGame({"lives": 5}, 3, seed=1).lives == [5, 5, 5]
    for bad in (0, 6, True, "3"):
        with pytest.raises(RulesError) as err:
            chase_rules({"lives": bad})
        assert err.value.kind == "bad_value" and "'lives'" in str(err.value)


def test_player_count_limits():
    for n in (2, 21):
        with pytest.raises(GameError):
            ChaseGame(None, n, seed=1)
    ChaseGame(None, 3, seed=1)
    ChaseGame(None, 20, seed=1)


def test_stake_sets_pot_of_seats_times_stake():
    assert ChaseGame({"stake": 5}, 4, seed=1).pot == 20
    assert ChaseGame(None, 4, seed=1).pot == 0


def test_first_dealer_by_jack():
    for seed in range(20):
        g = ChaseGame(None, 5, seed=seed)
        ev = g.start()
        shown = [e.data for e in ev if e.type == "first_dealer_card"]
        assert shown, "cards are dealt face up to find the dealer"
        assert all(c["card"][0] != "J" for c in shown[:-1])
        assert shown[-1]["card"][0] == "J"
        assert g.dealer == shown[-1]["seat"]
        seats = [c["seat"] for c in shown]
        assert all((b - a) % 5 == 1 for a, b in zip(seats, seats[1:])), "dealt round the table"


def test_first_dealer_random_and_named_and_cuckoo():
    seen = set()
    for s in range(40):
        g = ChaseGame({"first_dealer": "random"}, 6, seed=s)
        ev = g.start()
        assert "first_dealer_card" not in types(ev)
        seen.add(g.dealer)
    assert len(seen) > 3, "a random seat deals first"
    g = ChaseGame(None, 6, seed=3, dealer=4)
    assert "first_dealer_card" not in types(g.start()) and g.dealer == 4
    g = ChaseGame({"deck": "cuckoo40"}, 6, seed=3)
    assert "first_dealer_card" not in types(g.start())


def test_jack_search_does_not_use_the_record_deals():
    a = ChaseGame(None, 5, seed=9)
    a.start()
    b = ChaseGame(None, 5, seed=9, deals=[list(reversed(FRENCH52))])
    b.start()
    assert a.dealer == b.dealer


# ----------------------------------------------------------------- a round


def test_deal_starts_left_of_dealer_dealer_last():
    g = ChaseGame(None, 4, seed=1, dealer=1, deals=[list(FRENCH52)])
    ev = g.start()
    assert [e.data["seat"] for e in ev if e.type == "deal"] == [2, 3, 0, 1]
    assert g.hands[2] == "AC" and g.hands[3] == "2C" and g.hands[0] == "3C" and g.hands[1] == "4C"


def test_each_seat_sees_only_its_own_card():
    g = game_with(["5S", "9H", "KD", "2C"], dealer=3)
    for seat, card in enumerate(["5S", "9H", "KD", "2C"]):
        v = g.view(seat)
        assert v["hand"] == [card]
        assert v["private"] == [{"type": "dealt", "cards": [card]}]
        others = {"5S", "9H", "KD", "2C"} - {card}
        assert not any(c in str(v) for c in others)


def test_turn_order_left_of_dealer_first_dealer_last():
    g = game_with(["5S", "9H", "QD", "2C"], dealer=1)
    order = []
    while g.round_index == 0:
        p = g.to_move()
        order.append((p.seat, p.decision))
        g.apply(p.seat, "keep")
    assert order == [(2, "turn"), (3, "turn"), (0, "turn"), (1, "dealer")]


def test_swap_exchanges_with_next_seat_left():
    g = game_with(["2S", "9H", "QD"], dealer=2)
    ev = play(g, "swap")
    assert g.hands[:2] == ["9H", "2S"]
    assert [e.data for e in ev if e.type == "swap"] == [{"seat": 0, "with": 1}]
    privates = {e.to: e.data for e in ev if e.type == "exchange"}
    assert privates == {0: {"with": 1, "gave": "2S", "got": "9H"},
                        1: {"with": 0, "gave": "9H", "got": "2S"}}
    assert g.to_move().seat == 1


def test_swap_skips_eliminated_seats():
    nxt = ["9S", "3H", "7D"] + [c for c in FRENCH52 if c not in ("9S", "3H", "7D")]
    g = game_with(["AS", "2H", "KD", "5C"], dealer=3, rules={"lives": 1}, more=[nxt])
    play(g, "keep", "keep", "keep", "keep")   # seat 0 (Ace) out
    assert g.in_game == [False, True, True, True]
    # round 1: the deal passes to seat 1 (seat 0 is out); order 2, 3, 1
    assert g.dealer == 1 and g.to_move().seat == 2
    assert g.hands[1:] == ["7D", "9S", "3H"]
    play(g, "keep", "swap")                    # seat 3 asks its left: seat 1, not seat 0
    assert g.hands[1] == "3H" and g.hands[3] == "7D"
    assert {"type": "swap", "seat": 3, "with": 1} in g.public


def test_king_blocks_swap_and_ends_holders_turn():
    g = game_with(["2S", "KH", "QD", "5C"], dealer=3)
    ev = play(g, "swap")
    assert g.hands[0] == "2S" and g.hands[1] == "KH"
    assert [e.data for e in ev if e.type == "block"] == [{"seat": 1, "by": 0, "card": "KH"}]
    assert g.faceup == {1: "KH"}
    assert g.to_move().seat == 2, "the King holder's own turn is over"


def test_dealer_king_blocks_and_dealer_does_not_draw():
    g = game_with(["5S", "9H", "2D", "KC"], dealer=3)
    play(g, "keep", "keep", "swap")
    assert g.round_index == 1, "no dealer decision: straight to the showdown"
    assert g.rounds[0]["cards"] == {"0": "5S", "1": "9H", "2": "2D", "3": "KC"}


def test_each_seat_asks_once_and_is_asked_once():
    g = game_with(["2S", "3H", "4D", "9C"], dealer=3)
    assert g.to_move().legal == ("keep", "swap")
    play(g, "swap")            # 0 asks 1
    p = g.to_move()
    assert p.seat == 1 and p.decision == "turn"  # seat 0 has no second ask
    play(g, "swap")            # 1 asks 2
    assert g.to_move().seat == 2


def test_dealer_draw_discards_and_takes_top_of_talon():
    g = game_with(["5S", "9H", "2D"], dealer=2, talon=["7C"])
    ev = play(g, "keep", "keep", "draw")
    assert g.rounds[0]["cards"]["2"] == "7C"
    assert [(e.type, e.to) for e in ev if e.type in ("draw", "drew")] == [("draw", None),
                                                                          ("drew", 2)]


def test_talon_king_is_kept_by_default():
    g = game_with(["5S", "9H", "2D"], dealer=2, talon=["KC"])
    play(g, "keep", "keep", "draw")
    assert g.rounds[0]["cards"]["2"] == "KC"


def test_three_way_tie_all_three_lose():
    g = game_with(["5S", "5H", "5D"], dealer=2)
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 1, "1": 1, "2": 1}
    assert g.lives == [2, 2, 2]


def test_zero_lives_out_and_next_round_without_them():
    g = game_with(["AS", "9H", "QD", "5C"], dealer=3, rules={"lives": 1})
    ev = play(g, "keep", "keep", "keep", "keep")
    assert {"seat": 0} in [e.data for e in ev if e.type == "out"]
    assert 0 not in g.active and len(g.active) == 3


def test_last_player_with_lives_wins():
    g = game_with(["AS", "9H", "QD"], dealer=2, rules={"lives": 1},
                  more=[["2C", "KH", "3D"] + [c for c in FRENCH52 if c not in ("2C", "KH", "3D")]])
    play(g, "keep", "keep", "keep")      # seat 0 out
    # round 1: dealer 1 … wait, dealer passes to seat 1: order 2, 1
    assert g.dealer == 1
    while not g.finished:
        play(g, "keep")
    assert g.winner in (1, 2) and g.finished and g.to_move() is None
    assert sum(1 for x in g.lives if x > 0) == 1


def test_dealer_passes_left_every_round():
    g = ChaseGame({"lives": 5}, 5, seed=4, dealer=3)
    g.start()
    dealers = [g.dealer]
    while g.round_index < 4:
        play(g, "keep")
        if g.round_index == len(dealers):
            dealers.append(g.dealer)
    assert dealers == [3, 4, 0, 1, 2]


def test_loss_is_capped_at_lives_left():
    g = game_with(["AS", "9H", "QD"], dealer=2, rules={"lives": 1, "aces_double": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 1} and g.lives[0] == 0


# ----------------------------------------------------------------- final ties


def _final_tie(policy: str, **extra):
    rules = {"lives": 1, "final_tie": policy, **extra}
    return game_with(["5S", "5H", "5D"], dealer=2, rules=rules)


def test_final_tie_sudden_death():
    g = _final_tie("sudden_death")
    ev = play(g, "keep", "keep", "keep")
    assert g.lives == [0, 0, 0] and not g.finished and g.sudden_death
    assert "sudden_death" in types(ev)
    assert g.rounds[0]["lost"] == {"0": 1, "1": 1, "2": 1}
    assert g.dealer == 0 and g.active == [0, 1, 2]
    while not g.finished:
        play(g, "keep")
    assert isinstance(g.winner, int)
    sd = [r for r in g.rounds[1:]]
    assert all(r["lost"] == {} and "out" in r for r in sd)


def test_sudden_death_all_tied_is_replayed():
    more = [["7S", "7H", "7D"] + [c for c in FRENCH52 if c not in ("7S", "7H", "7D")]]
    g = _final_tie("sudden_death")
    g.source.deals.extend(more)
    play(g, "keep", "keep", "keep")
    play(g, "keep", "keep", "keep")
    assert g.rounds[1]["out"] == [] and g.rounds[1]["replayed"] is True
    assert not g.finished


def test_final_tie_replay_undoes_the_round():
    g = _final_tie("replay")
    ev = play(g, "keep", "keep", "keep")
    assert g.lives == [1, 1, 1]
    assert g.rounds[0]["lost"] == {} and g.rounds[0]["replayed"] is True
    assert "replay_round" in types(ev) and g.round_index == 1
    assert g.dealer == 0, "the deal passes on after a replayed round"


def test_final_tie_restart_gives_full_lives_and_pays_pot_again():
    g = _final_tie("restart", stake=2)
    ev = play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lives"] == [0, 0, 0], "the loss is recorded"
    assert g.lives == [1, 1, 1] and g.games_started == 2 and g.pot == 6
    assert "restart" in types(ev)


def test_restart_brings_eliminated_seats_back():
    g = game_with(["AS", "5H", "5D", "5C"], dealer=3, rules={"lives": 1, "final_tie": "restart"},
                  more=[["7S", "7H", "7D"] + [c for c in FRENCH52 if c not in ("7S", "7H", "7D")]])
    play(g, "keep", "keep", "keep", "keep")      # seat 0 out
    play(g, "keep", "keep", "keep")              # 1, 2, 3 all tie with 1 life: restart
    assert g.in_game == [True] * 4 and g.lives == [1] * 4 and len(g.active) == 4


def test_final_tie_shared():
    g = _final_tie("shared")
    play(g, "keep", "keep", "keep")
    assert g.finished and g.winner == [0, 1, 2]


def test_dealer_wins_ties_makes_no_final_tie():
    g = _final_tie("sudden_death", dealer_wins_ties=True)
    play(g, "keep", "keep", "keep")
    assert g.finished and g.winner == 2 and g.lives == [0, 0, 1]


def test_partial_tie_is_no_final_tie():
    g = game_with(["5S", "5H", "9D"], dealer=2, rules={"lives": 1})
    play(g, "keep", "keep", "keep")
    assert g.finished and g.winner == 2


# ----------------------------------------------------------------- card supply


def test_fresh_deck_every_round():
    # the same four cards are dealt in round 0 and round 1: only a fresh deck allows it
    top = ["AS", "2S", "3S", "4S", "5S"]
    stock = top + [c for c in FRENCH52 if c not in top]
    g = ChaseGame(None, 4, seed=2, dealer=3, deals=[stock, stock])
    g.start()
    play(g, "keep", "keep", "keep", "draw")
    assert g.rounds[0]["cards"]["3"] == "5S", "the dealer drew the talon's top card"
    assert sorted(c for c in g.hands if c) == ["2S", "3S", "4S", "AS"]
    assert g.discards == [], "a fresh deck every round keeps no discard pile"


def test_continue_policy_talon_carries_over_and_reshuffles():
    g = ChaseGame({"deck_policy": "continue", "lives": 5}, 5, seed=3, dealer=0)
    ev = g.start()
    assert len(g.talon) == 52 - 5
    total = 52
    reshuffled = False
    while not g.finished and g.round_index < 20:
        held = [c for c in g.hands if c is not None]
        assert len(held) + len(g.talon) + len(g.discards) == total
        ev = play(g, "draw" if "draw" in g.to_move().legal else "keep")
        reshuffled |= "reshuffle" in types(ev)
    assert reshuffled, "the discards become a new talon once the talon runs out"


def test_continue_remaining_talon_dealt_before_reshuffle():
    # 3 seats, talon of 2 cards left: two seats get them, then a reshuffle deals the third
    hands = {0: "9S", 1: "9H", 2: "9D"}
    from tests.chase_helpers import stock_for
    stock = stock_for(hands, 3, 2)
    g = ChaseGame({"deck_policy": "continue"}, 3, seed=1, dealer=2, deals=[stock])
    g.start()
    g.talon = g.talon[-2:]           # leave two cards in the talon
    top_two = list(reversed(g.talon))
    g.discards = ["2C", "3C", "4C"]
    play(g, "keep", "keep", "keep")  # showdown, next round dealt
    dealt = [g.hands[s] for s in (1, 2, 0)]   # dealer 0 now: order 1, 2, 0
    assert dealt[:2] == top_two


# ----------------------------------------------------------------- variants


def test_ace_high():
    g = game_with(["AS", "2H", "KD"], dealer=2, rules={"ace_high": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"1": 1}
    g = game_with(["2S", "KH", "QD"], dealer=2, rules={"ace_high": True})
    play(g, "swap")
    assert g.hands[0] == "2S", "the King still blocks"


def test_queen_refuses_once_per_game():
    g = game_with(["2S", "QH", "9D"], dealer=2, rules={"queen_refuses_once": True})
    play(g, "swap")
    p = g.to_move()
    assert p.seat == 1 and p.decision == "queen" and p.legal == ("accept", "refuse")
    assert p.partner == 0 and g.view(1)["partner"] == 0
    ev = play(g, "refuse")
    assert g.hands[:2] == ["2S", "QH"] and g.faceup == {1: "QH"}
    assert [e.data for e in ev if e.type == "refuse"] == [{"seat": 1, "by": 0, "card": "QH"}]
    assert g.to_move().seat == 1 and g.to_move().decision == "turn", "refuser keeps its turn"
    assert g.refusals[1] is False


def test_queen_accept_exchanges():
    g = game_with(["2S", "QH", "9D"], dealer=2, rules={"queen_refuses_once": True})
    play(g, "swap", "accept")
    assert g.hands[:2] == ["QH", "2S"]


def test_queen_refusal_used_up_then_no_choice():
    more = [["9S", "2H", "QC"] + [c for c in FRENCH52 if c not in ("9S", "2H", "QC")]]
    g = game_with(["2S", "QH", "9D"], dealer=2, rules={"queen_refuses_once": True}, more=more)
    play(g, "swap", "refuse", "keep", "keep")
    # round 1: dealer 0; order 1, 2, 0 → seat 1 holds 2H... deal: 1←9S, 2←2H, 0←QC
    assert g.dealer == 0 and g.hands[1] == "9S"
    play(g, "keep", "swap")           # seat 2 asks dealer 0 (Queen, refusal unused)
    assert g.to_move().decision == "queen" and g.to_move().seat == 0


def test_queen_refusal_offered_to_dealer():
    g = game_with(["5S", "2H", "QD"], dealer=2, rules={"queen_refuses_once": True})
    play(g, "keep", "swap")
    p = g.to_move()
    assert (p.seat, p.decision) == (2, "queen")
    play(g, "refuse")
    assert g.to_move().decision == "dealer", "the dealer still acts after refusing"


def test_no_queen_choice_without_the_variant():
    g = game_with(["2S", "QH", "9D"], dealer=2)
    play(g, "swap")
    assert g.hands[:2] == ["QH", "2S"]


def test_reveal_low_on_pass_shows_low_cards():
    g = game_with(["2S", "AH", "9D"], dealer=2, rules={"reveal_low_on_pass": True})
    ev = play(g, "swap")
    assert [e.data for e in ev if e.type == "show"] == [{"seat": 0, "card": "2S"},
                                                        {"seat": 1, "card": "AH"}]
    g = game_with(["4S", "AH", "9D"], dealer=2, rules={"reveal_low_on_pass": True})
    ev = play(g, "swap")
    assert [e.data for e in ev if e.type == "show"] == [{"seat": 1, "card": "AH"}]
    g = game_with(["2S", "4H", "9D"], dealer=2, rules={"reveal_low_on_pass": True,
                                                       "ace_high": True})
    ev = play(g, "swap")
    assert [e.data["card"] for e in ev if e.type == "show"] == ["2S", "4H"]


def test_no_show_without_variant():
    g = game_with(["2S", "AH", "9D"], dealer=2)
    assert "show" not in types(play(g, "swap"))


def test_domino_ace_offers_one_more_swap():
    g = game_with(["9S", "AH", "5D", "KC"], dealer=3, rules={"domino": "ace"})
    play(g, "swap")
    p = g.to_move()
    assert (p.seat, p.decision, p.partner) == (0, "domino", 2)
    play(g, "swap")
    assert g.hands[0] == "5D" and g.hands[2] == "AH"
    assert g.to_move().seat == 1, "it never chains"


def test_domino_low_and_ace_trigger_sets():
    g = game_with(["9S", "3H", "5D", "KC"], dealer=3, rules={"domino": "ace"})
    play(g, "swap")
    assert g.to_move().decision == "turn"
    g = game_with(["9S", "3H", "5D", "KC"], dealer=3, rules={"domino": "low"})
    play(g, "swap")
    assert g.to_move().decision == "domino"


def test_domino_not_offered_when_partner_is_dealer():
    g = game_with(["9S", "8H", "5D", "AC"], dealer=3, rules={"domino": "low"})
    play(g, "keep", "keep", "swap")
    assert g.to_move().decision == "dealer"


def test_domino_keep_declines():
    g = game_with(["9S", "AH", "5D", "KC"], dealer=3, rules={"domino": "ace"})
    play(g, "swap", "keep")
    assert g.hands[0] == "AH" and g.to_move().seat == 1


def test_domino_blocked_by_king():
    g = game_with(["9S", "AH", "KD", "5C"], dealer=3, rules={"domino": "ace"})
    ev = play(g, "swap", "swap")
    assert [e.data for e in ev if e.type == "block"] == [{"seat": 2, "by": 0, "card": "KD"}]
    assert g.hands[0] == "AH"


def test_dealer_wins_ties_but_loses_alone():
    g = game_with(["5S", "9H", "5D"], dealer=2, rules={"dealer_wins_ties": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 1}
    g = game_with(["5S", "9H", "2D"], dealer=2, rules={"dealer_wins_ties": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"2": 1}


def test_ace_of_spades_double():
    g = game_with(["AS", "9H", "QD"], dealer=2, rules={"ace_of_spades_double": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 2}
    g = game_with(["AH", "9H", "QD"], dealer=2, rules={"ace_of_spades_double": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 1}


def test_aces_double():
    g = game_with(["AH", "AD", "QD"], dealer=2, rules={"aces_double": True})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"0": 2, "1": 2}


def test_blocked_swap_skips_past_kings_to_next():
    g = game_with(["2S", "KH", "9D", "5C"], dealer=3, rules={"blocked_swap_skips": True})
    ev = play(g, "swap")
    assert types(ev)[:2] == ["block", "swap"]
    assert g.hands[0] == "9D" and g.hands[2] == "2S"
    assert g.to_move().seat == 2


def test_blocked_swap_skips_never_passes_dealer():
    g = game_with(["9S", "2H", "KD", "KC"], dealer=3, rules={"blocked_swap_skips": True})
    ev = play(g, "keep", "swap")
    assert [e.data["seat"] for e in ev if e.type == "block"] == [2, 3]
    assert g.round_index == 1, "dealer blocked: no draw, showdown"
    assert g.rounds[0]["cards"]["1"] == "2H" and "swap" not in types(ev)


def test_talon_king_blocks():
    g = game_with(["5S", "9H", "2D"], dealer=2, talon=["KC"], rules={"talon_king_blocks": True})
    ev = play(g, "keep", "keep", "draw")
    assert g.rounds[0]["cards"]["2"] == "2D"
    assert [e.data for e in ev if e.type == "talon_king"] == [{"seat": 2, "card": "KC"}]


def test_cuckoo_deck():
    rules = {"deck": "cuckoo40", "queen_refuses_once": True, "aces_double": True}
    g = game_with(["Fool", "Cuckoo", "Inn"], dealer=2, rules=rules)
    play(g, "swap")
    assert g.hands[0] == "Fool", "the Cuckoo blocks"
    play(g, "keep")
    assert g.rounds[0]["lost"] == {"0": 1}, "the Fool is lowest; aces_double does not apply"
    g = game_with(["Zero", "Lion", "10"], dealer=2, rules={"deck": "cuckoo40"})
    play(g, "keep", "keep", "keep")
    assert g.rounds[0]["lost"] == {"1": 1}
    assert len(ChaseGame({"deck": "cuckoo40"}, 4, seed=1).deck) == 40


# ----------------------------------------------------------------- bad input


def test_illegal_move_names_move_seat_and_legal_moves_and_changes_nothing():
    g = game_with(["2S", "9H", "QD"], dealer=2)
    before = (g.summary(), [g.view(s) for s in range(3)], list(g.hands))
    with pytest.raises(IllegalMove) as err:
        g.apply(0, "draw")
    msg = str(err.value)
    assert "'draw'" in msg and "seat 0" in msg and "keep, swap" in msg
    assert err.value.kind == "illegal_move"
    with pytest.raises(IllegalMove) as err:
        g.apply(1, "keep")
    assert err.value.kind == "wrong_seat" and "seat 0's turn" in str(err.value)
    assert (g.summary(), [g.view(s) for s in range(3)], list(g.hands)) == before


def test_move_after_game_over_is_refused():
    g = game_with(["AS", "9H", "QD"], dealer=2, rules={"lives": 1, "final_tie": "shared"},
                  more=[["2C", "5H", "3D"] + [c for c in FRENCH52 if c not in ("2C", "5H", "3D")]])
    while not g.finished:
        play(g, "keep")
    with pytest.raises(IllegalMove) as err:
        g.apply(1, "keep")
    assert err.value.kind == "game_over"


def test_unknown_key_and_bad_values_refused():
    with pytest.raises(RulesError) as err:
        chase_rules({"trumps": True})
    assert err.value.kind == "unknown_rules_key" and "'trumps'" in str(err.value)
    with pytest.raises(RulesError) as err:
        chase_rules({"must_trump": True})
    assert err.value.kind == "unknown_rules_key", "a Rams key is no Chase key"
    for key, bad in [("decks", 3), ("stake", -1), ("first_dealer", "queen"),
                     ("final_tie", "coin"), ("deck_policy", "sometimes"), ("ace_high", 1),
                     ("domino", True), ("deck", "skat32")]:
        with pytest.raises(RulesError) as err:
            chase_rules({key: bad})
        assert err.value.kind == "bad_value" and repr(key) in str(err.value)


def test_every_rules_key_has_a_default_matching_rules_md():
    r = chase_rules({})
    assert r == {"decks": "auto", "lives": 3, "stake": 0, "first_dealer": "jack",
                 "final_tie": "sudden_death", "deck_policy": "fresh", "ace_high": False,
                 "queen_refuses_once": False, "reveal_low_on_pass": False, "domino": "off",
                 "dealer_wins_ties": False, "ace_of_spades_double": False,
                 "aces_double": False, "blocked_swap_skips": False,
                 "talon_king_blocks": False, "deck": "french52"}


def test_engine_does_not_import_pygame():
    import subprocess
    import sys

    code = ("import sys; import game.rules.chase, game.rules.rams, game.records, "
            "game.ai.tournament; assert 'pygame' not in sys.modules, 'pygame imported'")
    subprocess.run([sys.executable, "-c", code], check=True)
