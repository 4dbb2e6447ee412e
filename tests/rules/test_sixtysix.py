"""Sixty-six: options, dealing, and one scenario per rule clause."""
import json
from collections import Counter

import pytest

from rules.base import IllegalAction, InvalidOptions, deal_rng
from rules.sixtysix import GAME
from rules.sixtysix.cards import DECK_24, DECK_32, POINTS, SUIT
from rules.sixtysix.shapes import TABLE


def new(players=2, seed=1, **options):
    return GAME.new_game(players, GAME.normalise_options(players, options), seed, recording=True)


def position(players=2, hands=None, stock=(), trump="S", leader=0, points=None, tricks=None,
             trick=(), scores=None, just_won=None, **options):
    """A constructed mid-hand position: seat `leader` leads unless `trick` is given."""
    state = new(players, **options)
    sides = 2 if players == 4 else players
    state.update({
        "hands": [list(h) for h in hands], "stock": list(stock), "trump": trump,
        "leader": leader, "turn": (leader + len(trick)) % players,
        "trick": [list(p) for p in trick], "just_won": just_won,
        "points": list(points or [0] * sides), "tricks": list(tricks or [0] * sides),
    })
    if scores:
        state["scores"] = list(scores)
    return state


def act(state, seat, **action):
    GAME.apply_action(state, seat, action)
    return state


def play(state, seat, card):
    return act(state, seat, type="play", card=card)


def cards_of(legal):
    return sorted(a["card"] for a in legal if a["type"] == "play")


def rejected(state, seat, action, words):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=words):
        GAME.apply_action(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


# --- options -------------------------------------------------------------------

def test_default_options():
    assert GAME.normalise_options(2, {}) == {"preset": "seed", "deck": 32, "match_points": 7}


@pytest.mark.parametrize("players,options,words", [
    (3, {"deck": 24}, "only for 2 players"),
    (4, {"deck": 24}, "only for 2 players"),
    (2, {"deck": 36}, "deck"),
    (2, {"deck": "24"}, "deck"),
    (2, {"deck": 24.0}, "deck"),
    (2, {"preset": "modern"}, "preset"),
    (2, {"match_points": 0}, "at least 1"),
    (2, {"match_points": "7"}, "whole number"),
    (2, {"jokers": True}, "unknown option"),
    (1, {}, "2 to 4 players"),
    (5, {}, "2 to 4 players"),
])
def test_invalid_options(players, options, words):
    with pytest.raises(InvalidOptions, match=words):
        GAME.normalise_options(players, options)


@pytest.mark.parametrize("players,options,deck_size,hand,stock", [
    (2, {}, 32, 6, 20),
    (2, {"deck": 24}, 24, 6, 12),
    (2, {"preset": "classic"}, 24, 6, 12),
    (3, {}, 32, 7, 11),
    (3, {"preset": "classic"}, 32, 7, 11),
    (4, {}, 48, 7, 20),
    (4, {"preset": "classic"}, 48, 7, 20),
])
def test_deck_and_deal_sizes(players, options, deck_size, hand, stock):
    state = new(players, **options)
    assert state["deck_size"] == deck_size
    assert [len(h) for h in state["hands"]] == [hand] * players
    assert len(state["stock"]) == stock
    everything = Counter(sum(state["hands"], []) + state["stock"])
    if deck_size == 48:
        assert everything == Counter(DECK_24 * 2)
    else:
        assert everything == Counter(DECK_32 if deck_size == 32 else DECK_24)


def test_card_points_total_120_in_every_deck():
    assert sum(POINTS[c] for c in DECK_32) == 120
    assert sum(POINTS[c] for c in DECK_24) == 120


def test_deal_comes_from_the_seed_and_the_face_up_card_is_trump_and_drawn_last():
    state = new(2, seed=42)
    deck = list(DECK_32)
    deal_rng(42, 1).shuffle(deck)
    assert state["hands"] == [deck[:6], deck[6:12]]
    assert state["stock"] == deck[13:] + [deck[12]]
    assert state["trump"] == SUIT[deck[12]]
    assert GAME.view(state, 0)["table"]["trump_card"] == deck[12]
    deal = GAME.record(state)["deals"][0]
    assert deal == {"dealer": 1, "hands": [deck[:6], deck[6:12]],
                    "stock": deck[13:] + [deck[12]], "scores": None}


def test_first_dealer_is_last_seat_and_seat_0_leads():
    state = new(3)
    assert state["dealer"] == 2 and GAME.to_act(state) == [0]


# --- tricks --------------------------------------------------------------------

def test_higher_card_of_led_suit_wins():
    state = position(hands=[["KH", "7C"], ["AH", "8C"]], stock=["9D", "JD"], trump="S")
    play(play(state, 0, "KH"), 1, "AH")
    assert state["last_trick"][0] == 1 and state["points"] == [0, 15]


def test_trump_beats_led_suit_and_other_suits_lose():
    state = position(hands=[["AH", "7C"], ["7S", "8C"]], stock=["9D", "JD"], trump="S")
    play(play(state, 0, "AH"), 1, "7S")
    assert state["last_trick"][0] == 1
    state = position(hands=[["9H", "7C"], ["AD", "8C"]], stock=["9D", "JD"], trump="S")
    play(play(state, 0, "9H"), 1, "AD")
    assert state["last_trick"][0] == 0 and state["points"] == [11, 0]


def test_first_of_two_identical_cards_wins():
    hands = [["AH", "7C"], ["AH", "8C"], ["9H", "JC"], ["KH", "QC"]]
    state = position(4, hands=hands, stock=["9D", "JD", "QD", "KD"], trump="S")
    for seat, card in enumerate(["AH", "AH", "9H", "KH"]):
        play(state, seat, card)
    assert state["last_trick"][0] == 0
    assert state["points"] == [26, 0]


def test_any_card_may_be_played_while_the_stock_is_open():
    state = position(hands=[["AH", "7C"], ["10H", "8C", "7S"]], stock=["9D", "JD"], trump="S")
    play(state, 0, "AH")
    assert cards_of(GAME.legal_actions(state, 1)) == ["10H", "7S", "8C"]


def test_winner_draws_first_then_the_others_and_the_face_up_card_comes_last():
    state = position(hands=[["9H", "7C"], ["AH", "8C"]], stock=["JD", "QS"], trump="S")
    play(play(state, 0, "9H"), 1, "AH")
    assert state["hands"] == [["7C", "QS"], ["8C", "JD"]]
    assert state["stock"] == [] and GAME.to_act(state) == [1]


def test_three_players_set_the_last_stock_cards_aside():
    hands = [["9H", "7C"], ["AH", "8C"], ["JH", "8D"]]
    state = position(3, hands=hands, stock=["JD", "QD", "KD", "10C", "QS"], trump="S")
    play(play(play(state, 0, "9H"), 1, "AH"), 2, "JH")
    assert state["hands"] == [["7C", "KD"], ["8C", "JD"], ["8D", "QD"]]
    table = GAME.view(state, 1)["table"]
    assert table["stock_size"] == 0 and table["set_aside"] == 2 and table["trump_card"] is None
    # Strict play now, and the stock can no longer be closed.
    assert {"type": "close"} not in GAME.legal_actions(state, 1)
    play(state, 1, "8C")
    assert cards_of(GAME.legal_actions(state, 2)) == ["8D", "QD"]
    play(state, 2, "8D")
    assert cards_of(GAME.legal_actions(state, 0)) == ["7C"]


# --- strict play ----------------------------------------------------------------

def strict(hands, trick, players=2, trump="S"):
    return position(players, hands=hands, stock=[], trump=trump,
                    leader=trick[0][0], trick=trick)


def test_strict_must_head_the_trick_in_the_led_suit():
    state = strict([["KH"], ["AH", "10H", "9H", "7S"]], [[0, "KH"]])
    assert cards_of(GAME.legal_actions(state, 1)) == ["10H", "AH"]


def test_strict_follows_suit_lower_if_it_cannot_head():
    state = strict([["AH"], ["9H", "7H", "7S", "AC"]], [[0, "AH"]])
    assert cards_of(GAME.legal_actions(state, 1)) == ["7H", "9H"]


def test_strict_follows_suit_rather_than_trumping():
    state = strict([["AH"], ["7H", "AS"]], [[0, "AH"]])
    assert cards_of(GAME.legal_actions(state, 1)) == ["7H"]


def test_strict_must_trump_without_the_led_suit():
    state = strict([["AH"], ["7S", "10S", "AC"]], [[0, "AH"]])
    assert cards_of(GAME.legal_actions(state, 1)) == ["10S", "7S"]


def test_strict_must_overtrump_if_possible():
    state = strict([["AH"], ["KS"], ["7S", "10S", "AC"]], [[0, "AH"], [1, "KS"]], players=3)
    assert cards_of(GAME.legal_actions(state, 2)) == ["10S"]


def test_strict_any_card_when_the_trump_in_the_trick_cannot_be_beaten():
    state = strict([["AH"], ["AS"], ["7S", "10S", "AC"]], [[0, "AH"], [1, "AS"]], players=3)
    assert cards_of(GAME.legal_actions(state, 2)) == ["10S", "7S", "AC"]


def test_strict_cannot_head_a_trumped_trick_in_suit_so_any_suit_card():
    state = strict([["9H"], ["7S"], ["AH", "JH", "AS"]], [[0, "9H"], [1, "7S"]], players=3)
    assert cards_of(GAME.legal_actions(state, 2)) == ["AH", "JH"]


def test_strict_illegal_card_is_rejected_with_reason_and_nothing_changes():
    state = strict([["KH"], ["AH", "7S"]], [[0, "KH"]])
    rejected(state, 1, {"type": "play", "card": "7S"}, "head the trick")


def test_duplicate_cards_give_one_action():
    hands = [["AH", "AH", "7C"], ["KH"], ["QH"], ["JH"]]
    state = position(4, hands=hands, stock=["9D", "JD", "QD", "KD"], trump="S")
    assert cards_of(GAME.legal_actions(state, 0)) == ["7C", "AH"]


# --- errors ----------------------------------------------------------------------

@pytest.mark.parametrize("seat,action,words", [
    (1, {"type": "play", "card": "AH"}, "not to act"),
    (0, {"type": "play", "card": "AS"}, "not a card in your hand"),
    (0, {"type": "play"}, "needs the field 'card'"),
    (0, {"type": "play", "card": "1S"}, "field 'card': '1S' is not a card name like 'QH'"),
    (0, {"type": "shout"}, "unknown action type"),
    (0, "play AH", "JSON object"),
    (0, {"type": "declare"}, "just won a trick"),
    (0, {"type": "marry", "card": "KH"}, "classic preset"),
    (0, {"type": "exchange"}, "classic preset"),
    (0, {"type": "declare", "card": "KH"}, "just won a trick"),
])
def test_rejected_actions_leave_the_state_unchanged(seat, action, words):
    state = position(hands=[["AH", "KH", "QH"], ["7C", "8C", "9C"]], stock=["9D", "JD"])
    rejected(state, seat, action, words)


def test_close_declare_and_melds_only_before_leading():
    state = position(hands=[["AH", "7C"], ["7H", "8C"]], stock=["9D", "JD"])
    play(state, 0, "AH")
    rejected(state, 1, {"type": "close"}, "before leading")
    rejected(state, 1, {"type": "declare"}, "before leading")


# --- declaring --------------------------------------------------------------------

def won_trick(players=2, points=None, tricks=None, stock=("9D", "JD"), **options):
    """Seat 0 has just won the last trick and is on lead."""
    hands = [["7C", "8C"], ["7D", "8D"], ["9C", "9D"], ["JC", "JD"]][:players]
    return position(players, hands=hands, stock=stock, points=points, tricks=tricks,
                    just_won=0, **options)


@pytest.mark.parametrize("other_points,other_tricks,value", [
    (0, 0, 3), (20, 2, 2), (32, 3, 2), (33, 3, 1), (50, 4, 1),
])
def test_correct_declaration_values(other_points, other_tricks, value):
    state = won_trick(points=[66, other_points], tricks=[4, other_tricks])
    act(state, 0, type="declare")
    assert state["scores"] == [value, 0]
    last = state["last_hand"]
    assert last["ended_by"] == "declare" and last["declarer"] == 0 and last["correct"]
    assert last["game_points"] == [value, 0] and last["points"] == [66, other_points]
    assert state["deal"] == 2  # the next hand starts at once


@pytest.mark.parametrize("other_points,other_tricks,value", [(0, 0, 3), (32, 1, 2), (60, 5, 1)])
def test_false_declaration_gives_the_opponent_the_value(other_points, other_tricks, value):
    state = won_trick(points=[65, other_points], tricks=[4, other_tricks])
    act(state, 0, type="declare")
    assert state["scores"] == [0, value]
    assert state["last_hand"]["correct"] is False


def test_false_declaration_with_three_players_pays_both_opponents():
    state = won_trick(3, points=[40, 30, 10], tricks=[3, 2, 1])
    act(state, 0, type="declare")
    assert state["scores"] == [0, 2, 2]


def test_three_player_correct_declaration_uses_the_best_opponent():
    state = won_trick(3, points=[70, 33, 0], tricks=[5, 2, 0])
    act(state, 0, type="declare")
    assert state["scores"] == [1, 0, 0]


@pytest.mark.parametrize("other_points,value", [(0, 3), (50, 2), (51, 1)])
def test_partnership_target_101_and_half_50(other_points, value):
    tricks = [5, 0 if other_points == 0 else 3]
    state = won_trick(4, points=[101, other_points], tricks=tricks)
    act(state, 0, type="declare")
    assert GAME.view(state, 2)["scores"] == [value, 0, value, 0]


def test_partnership_with_100_points_declares_falsely():
    state = won_trick(4, points=[100, 60], tricks=[5, 3])
    act(state, 0, type="declare")
    assert state["scores"] == [0, 1]


def test_partners_pool_card_points():
    hands = [["AH", "7C"], ["7H", "8C"], ["10H", "9C"], ["8H", "JC"]]
    state = position(4, hands=hands, stock=["9D", "JD", "QD", "KD"])
    for seat, card in enumerate(["AH", "7H", "10H", "8H"]):
        play(state, seat, card)
    assert state["points"] == [21, 0] and state["tricks"] == [1, 0]
    assert GAME.view(state, 2)["table"]["my_points"] == 21
    assert GAME.view(state, 1)["table"]["my_points"] == 0


def test_only_the_trick_winner_may_declare_not_his_partner_or_at_the_first_lead():
    state = new(2)
    assert {"type": "declare"} not in GAME.legal_actions(state, 0)
    state = won_trick(4, points=[101, 0], tricks=[1, 0])
    assert {"type": "declare"} in GAME.legal_actions(state, 0)
    assert GAME.legal_actions(state, 2) == []


def test_declaring_is_lost_once_the_winner_leads_again():
    state = won_trick(points=[70, 0], tricks=[1, 0])
    play(state, 0, "7C")
    assert state["just_won"] is None
    rejected(state, 0, {"type": "declare"}, "not to act")
    play(state, 1, "7D")  # another suit: seat 0 wins again and may declare again
    assert {"type": "declare"} in GAME.legal_actions(state, 0)


# --- closing -------------------------------------------------------------------------

def test_closing_stops_drawing_and_makes_play_strict():
    state = position(hands=[["AH", "7C"], ["7H", "8C", "AS"]], stock=["9D", "JD", "QD", "KS"])
    act(state, 0, type="close")
    assert state["closed_by"] == 0
    table = GAME.view(state, 1)["table"]
    assert table["closed_by"] == 0 and table["stock_size"] == 0 and table["trump_card"] is None
    play(state, 0, "AH")
    assert cards_of(GAME.legal_actions(state, 1)) == ["7H"]
    play(state, 1, "7H")
    assert state["hands"] == [["7C"], ["8C", "AS"]] and len(state["stock"]) == 4
    rejected(state, 0, {"type": "close"}, "already closed")


def test_closing_needs_the_lead():
    state = position(hands=[["AH", "7C"], ["7H", "8C"]], stock=["9D", "JD"])
    rejected(state, 1, {"type": "close"}, "not to act")


def test_closer_declaring_correctly_scores_normally():
    state = won_trick(points=[60, 20], tricks=[3, 2], stock=["9D", "JD"])
    act(state, 0, type="close")
    state["points"][0] = 66
    act(state, 0, type="declare")
    assert state["scores"] == [2, 0]


def test_opponent_declaring_correctly_after_a_close_scores_2():
    state = won_trick(points=[70, 20], tricks=[3, 2], stock=["9D", "JD"])
    state["closed_by"], state["closed_tricks"] = 1, [2, 1]
    act(state, 0, type="declare")
    assert state["scores"] == [2, 0]
    assert state["last_hand"]["correct"] is True


def test_opponent_without_a_trick_at_close_time_scores_3():
    state = won_trick(points=[70, 20], tricks=[3, 2], stock=["9D", "JD"])
    state["closed_by"], state["closed_tricks"] = 1, [0, 1]
    act(state, 0, type="declare")
    assert state["scores"] == [3, 0]


def test_false_declaration_after_a_close_is_a_false_declaration():
    state = won_trick(points=[50, 10], tricks=[3, 1], stock=["9D", "JD"])
    state["closed_by"], state["closed_tricks"] = 1, [0, 1]
    act(state, 0, type="declare")
    assert state["scores"] == [0, 2]


def test_closer_running_out_of_cards_pays_each_opponent_without_last_trick_bonus():
    hands = [["AH"], ["7H"], ["8H"]]
    state = position(3, hands=hands, stock=["9D", "JD", "QD", "KS"], points=[50, 20, 10],
                     tricks=[3, 1, 0])
    state["closed_by"], state["closed_tricks"] = 0, [2, 1, 0]
    for seat, card in enumerate(["AH", "7H", "8H"]):
        play(state, seat, card)
    assert state["last_hand"]["points"] == [61, 20, 10]  # no 10 for the last trick
    assert state["scores"] == [0, 2, 3]
    assert state["last_hand"]["ended_by"] == "cards_out"


def test_closer_reaching_the_target_with_the_last_trick_wins():
    state = position(hands=[["AH"], ["7H"]], stock=["9D", "JD"], points=[55, 20], tricks=[3, 1])
    state["closed_by"], state["closed_tricks"] = 0, [2, 1]
    play(play(state, 0, "AH"), 1, "7H")
    assert state["scores"] == [2, 0]
    assert state["last_hand"]["declarer"] == 0 and state["last_hand"]["correct"] is True


# --- the cards run out -----------------------------------------------------------------

def test_last_trick_earns_10_and_most_points_scores():
    state = position(hands=[["AH"], ["7H"]], points=[50, 40], tricks=[4, 3])
    play(play(state, 0, "AH"), 1, "7H")
    assert state["last_hand"]["points"] == [71, 40]
    assert state["scores"] == [1, 0]


def test_tie_goes_to_the_side_of_the_last_trick():
    hands = [["7H"], ["9H"], ["7C"], ["8H"]]
    state = position(4, hands=hands, points=[125, 115], tricks=[6, 6])
    for seat, card in enumerate(["7H", "9H", "7C", "8H"]):
        play(state, seat, card)
    assert state["last_hand"]["points"] == [125, 125, 125, 125]
    assert state["scores"] == [0, 1]


def test_nobody_reaching_the_target_carries_one_point_which_accumulates():
    state = position(3, hands=[["9H"], ["7H"], ["8H"]], points=[40, 30, 30], tricks=[3, 3, 3])
    state["carry"] = 1
    for seat, card in enumerate(["9H", "7H", "8H"]):
        play(state, seat, card)
    assert state["scores"] == [0, 0, 0] and state["carry"] == 2
    assert GAME.view(state, None)["table"]["carry"] == 2
    assert state["last_hand"]["game_points"] == [0, 0, 0] and state["last_hand"]["carried"] == 0


def test_carried_points_go_to_every_scoring_side():
    state = won_trick(3, points=[40, 30, 10], tricks=[3, 2, 1])
    state["carry"] = 2
    act(state, 0, type="declare")
    assert state["scores"] == [0, 4, 4] and state["carry"] == 0
    assert GAME.record(state)["deals"][0]["scores"] == [0, 4, 4]
    # The result says how much of it was carried over, so a player sees 2 + 2.
    assert state["last_hand"]["game_points"] == [0, 4, 4] and state["last_hand"]["carried"] == 2


# --- the match ---------------------------------------------------------------------------

def test_match_ends_at_match_points_and_outcome_names_the_winner():
    state = won_trick(points=[66, 0], tricks=[1, 0], scores=[5, 6])
    act(state, 0, type="declare")
    assert state["scores"] == [8, 6]
    assert GAME.outcome(state) == {"scores": [8, 6], "winners": [0]}
    assert GAME.to_act(state) == [] and GAME.view(state, 0)["phase"] == "over"
    assert GAME.legal_actions(state, 0) == []
    rejected(state, 0, {"type": "play", "card": "7C"}, "game is over")


def test_several_sides_passing_the_mark_in_one_hand_share_a_tie():
    state = won_trick(3, points=[40, 30, 10], tricks=[3, 2, 1], scores=[0, 5, 5])
    act(state, 0, type="declare")
    assert GAME.outcome(state) == {"scores": [0, 7, 7], "winners": [1, 2]}


def test_partnership_match_scores_per_seat():
    state = won_trick(4, points=[101, 60], tricks=[5, 3], scores=[6, 0], match_points=7)
    act(state, 0, type="declare")
    assert GAME.outcome(state) == {"scores": [7, 0, 7, 0], "winners": [0, 2]}


def test_match_points_option_sets_the_mark():
    state = won_trick(points=[66, 0], tricks=[1, 0], match_points=3)
    act(state, 0, type="declare")
    assert GAME.outcome(state) == {"scores": [3, 0], "winners": [0]}


def test_next_hand_moves_the_dealer_on():
    state = won_trick(3, points=[70, 0, 0], tricks=[1, 0, 0])
    act(state, 0, type="declare")
    assert state["deal"] == 2 and state["dealer"] == 0 and GAME.to_act(state) == [1]
    assert len(GAME.record(state)["deals"]) == 2
    view = GAME.view(state, 2)
    assert view["deal"] == 2 and view["table"]["last_hand"]["deal"] == 1


# --- classic: marriages and the exchange ----------------------------------------------------

def classic(players=2, hands=None, stock=("9D", "JD", "QD", "KD"), **kw):
    hands = hands or [["KH", "QH", "KS", "QS", "7C"], ["7H", "8C", "9C", "AS", "AH"]]
    return position(players, hands=hands, stock=stock, preset="classic", **kw)


def test_marriage_with_a_trick_counts_20_and_leads_the_card():
    state = classic(tricks=[1, 0], points=[10, 0])
    act(state, 0, type="marry", card="QH")
    assert state["points"] == [30, 0] and state["trick"] == [[0, "QH"]]
    assert GAME.view(state, 1)["table"]["marriages"] == [
        {"seat": 0, "suit": "H", "points": 20, "counted": True}]


def test_trump_marriage_counts_40():
    state = classic(tricks=[1, 0])
    act(state, 0, type="marry", card="KS")
    assert state["points"] == [40, 0]


def test_marriage_before_a_trick_counts_when_the_side_takes_its_first_trick():
    state = classic()
    act(state, 0, type="marry", card="QH")
    assert state["points"] == [0, 0]
    play(state, 1, "AH")
    assert state["points"] == [0, 14]
    play(state, 1, "8C")
    assert state["turn"] == 0
    play(state, 0, "KS")  # trump takes the 8C
    assert state["points"] == [24, 14]
    assert state["marriages"][0][3] is True


def test_marriage_never_counts_without_a_trick():
    state = classic(hands=[["KH", "QH"], ["AH", "AS"]], stock=[], tricks=[0, 7], points=[0, 100])
    act(state, 0, type="marry", card="KH")
    play(state, 1, "AH")
    play(state, 1, "AS")
    play(state, 0, "QH")
    assert state["last_hand"]["points"] == [0, 139]
    assert state["scores"] == [0, 3]


def test_declaring_with_a_marriage_counts_it_at_once():
    state = classic(tricks=[2, 1], points=[50, 20], just_won=0)
    assert {"type": "declare", "card": "KH"} in GAME.legal_actions(state, 0)
    act(state, 0, type="declare", card="KH")
    assert state["scores"] == [2, 0]
    assert state["last_hand"]["points"] == [70, 20]


def test_marriage_rules_enforced():
    state = classic(tricks=[1, 0])
    rejected(state, 0, {"type": "marry", "card": "KC"}, "king and queen")
    rejected(state, 0, {"type": "marry", "card": "AH"}, "king or queen")
    rejected(state, 0, {"type": "marry", "card": 5}, "king or queen")
    act(state, 0, type="marry", card="KH")
    rejected(state, 1, {"type": "marry", "card": "KH"}, "before leading")
    state = classic(tricks=[1, 0])
    state["marriages"] = [[0, "H", 20, True]]
    rejected(state, 0, {"type": "marry", "card": "KH"}, "once per hand")


def test_exchange_swaps_the_lowest_trump_for_the_face_up_card():
    state = classic(hands=[["9S", "7C"], ["7H", "8C"]], stock=["9D", "JD", "AS"], tricks=[1, 0])
    assert {"type": "exchange"} in GAME.legal_actions(state, 0)
    act(state, 0, type="exchange")
    assert sorted(state["hands"][0]) == ["7C", "AS"] and state["stock"][-1] == "9S"
    assert GAME.view(state, 1)["table"]["trump_card"] == "9S"
    assert GAME.to_act(state) == [0]


def test_exchange_conditions():
    hands = [["9S", "7C"], ["7H", "8C"]]
    no_trick = classic(hands=hands, stock=["9D", "JD", "AS"])
    rejected(no_trick, 0, {"type": "exchange"}, "exchanging needs")
    two_left = classic(hands=hands, stock=["JD", "AS"], tricks=[1, 0])
    rejected(two_left, 0, {"type": "exchange"}, "exchanging needs")
    closed = classic(hands=hands, stock=["9D", "JD", "AS"], tricks=[1, 0])
    act(closed, 0, type="close")
    rejected(closed, 0, {"type": "exchange"}, "exchanging needs")
    three_players = classic(3, hands=hands + [["8H", "8D"]], stock=["9D", "JD", "AS"],
                            tricks=[1, 0, 0])
    rejected(three_players, 0, {"type": "exchange"}, "7S in hand")
    three_players["hands"][0][0] = "7S"
    act(three_players, 0, type="exchange")
    assert three_players["stock"][-1] == "7S"


def test_seed_preset_has_no_melds():
    state = position(hands=[["KH", "QH", "9S"], ["7H", "8C"]], stock=["9D", "JD", "AS"],
                     tricks=[1, 0], just_won=0)
    kinds = {a["type"] for a in GAME.legal_actions(state, 0)}
    assert kinds == {"play", "close", "declare"}
    rejected(state, 0, {"type": "declare", "card": "KH"}, "classic preset")


# --- views and records ------------------------------------------------------------------

def test_views_show_own_hand_and_side_points_only():
    state = position(hands=[["AH", "7C"], ["7H", "8C"]], stock=["9D", "JD"], points=[20, 30],
                     tricks=[1, 2])
    mine = GAME.view(state, 0)
    assert mine["hand"] == ["AH", "7C"] and mine["table"]["my_points"] == 20
    assert mine["table"]["tricks"] == [1, 2] and mine["table"]["hand_sizes"] == [2, 2]
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None and spectator["table"]["my_points"] is None
    assert set(mine) == {"seat", "phase", "deal", "scores", "hand", "table"}
    text = json.dumps(spectator)
    assert "7H" not in text and "AH" not in text and "9D" not in text


def test_views_never_show_the_seed():
    state = new(4, seed=918273645)
    for seat in (None, 0, 1, 2, 3):
        assert "918273645" not in json.dumps(GAME.view(state, seat))


def test_record_keeps_every_deal_as_dealt():
    state = new(2, seed=7)
    dealt = [list(h) for h in state["hands"]], list(state["stock"])
    state["just_won"], state["points"], state["tricks"] = 0, [70, 0], [1, 0]
    act(state, 0, type="declare")
    record = GAME.record(state)
    assert record["seed"] == 7
    assert (record["deals"][0]["hands"], record["deals"][0]["stock"]) == dealt
    assert record["deals"][0]["scores"] == [3, 0]
    assert record["deals"][1]["scores"] is None


def test_four_players_ignore_deck_32_and_use_the_double_deck():
    assert new(4, deck=32)["deck_size"] == 48


def test_view_table_has_exactly_the_documented_keys():
    documented = {"seat", "players", "preset", "deck_size", "target", "match_points", "side_of",
                  "dealer", "leader", "turn", "trump", "trump_card", "stock_size", "set_aside",
                  "closed_by", "hand_sizes", "trick", "trick_holder", "last_trick", "tricks", "my_points",
                  "marriages", "carry", "last_hand", "played", "closed_tricks", "exchanged",
                  "face_up"}
    state = new(4)
    for key in documented:
        assert TABLE["properties"][key]["description"]
    assert set(GAME.view(state, 1)["table"]) == documented
    assert GAME.view(state, 1)["table"]["side_of"] == [0, 1, 0, 1]


def test_the_view_lists_every_trick_of_the_hand_and_nothing_hidden():
    state = position(hands=[["AH", "7C", "KD"], ["10H", "8C", "9D"]], stock=["9S", "JS", "QS", "KS"],
                     trump="S")
    play(state, 0, "AH")
    play(state, 1, "10H")
    table = GAME.view(state, None)["table"]
    assert table["played"] == [{"leader": 0, "winner": 0, "strict": False,
                                "cards": [{"seat": 0, "card": "AH"}, {"seat": 1, "card": "10H"}]}]
    assert table["closed_tricks"] is None and table["exchanged"] is None
    assert table["face_up"] == {"card": "KS", "drawn_by": None}
    act(state, 0, type="close")
    play(state, 0, "7C")
    play(state, 1, "8C")
    for seat in (None, 0, 1):
        table = GAME.view(state, seat)["table"]
        assert [t["strict"] for t in table["played"]] == [False, True]
        assert table["played"][1] == {"leader": 0, "winner": 1, "strict": True,
                                      "cards": [{"seat": 0, "card": "7C"}, {"seat": 1, "card": "8C"}]}
        assert table["closed_tricks"] == [1, 0]
        assert table["face_up"] == {"card": "KS", "drawn_by": None}
        public = json.dumps({k: table[k] for k in ("played", "closed_tricks", "exchanged", "face_up")})
        # Nothing from a hand or the face-down stock.
        for hidden in ("KD", "9D", "9S", "JS", "QS", "9H", "JH"):
            assert hidden not in public
        assert json.loads(json.dumps(table)) == table


def test_the_view_names_the_seat_holding_the_trick_and_the_last_tricks_points():
    state = position(3, hands=[["9H", "7C", "KD"], ["10H", "8C", "9D"], ["7S", "8D", "QD"]],
                     stock=["9S", "JS", "QS", "KS", "AS", "AD"], trump="S")
    holders = lambda seat, card: [e["holder"] for e in GAME.apply_action(  # noqa: E731
        state, seat, {"type": "play", "card": card}) if e["type"] == "played"]
    assert GAME.view(state, 0)["table"]["trick_holder"] is None
    assert holders(0, "9H") == [0]
    assert holders(1, "10H") == [1]
    for seat in (None, 0, 1, 2):
        table = GAME.view(state, seat)["table"]
        assert table["trick_holder"] == 1
        # Only what every seat saw: the cards on the table, nothing from a hand.
        assert "QD" not in json.dumps({"trick_holder": table["trick_holder"], "trick": table["trick"]})
    assert holders(2, "7S") == [2]  # a trump takes it
    table = GAME.view(state, None)["table"]
    assert table["trick_holder"] is None
    assert table["last_trick"]["winner"] == 2 and table["last_trick"]["points"] == 10


def test_the_drawn_face_up_card_and_the_exchange_are_public():
    state = position(hands=[["AH", "7C"], ["10H", "8C"]], stock=["9S", "JS"], trump="S")
    play(state, 0, "AH")
    play(state, 1, "10H")
    assert state["hands"][1][-1] == "JS"
    for seat in (None, 0, 1):
        assert GAME.view(state, seat)["table"]["face_up"] == {"card": "JS", "drawn_by": 1}
    state = position(hands=[["9H", "9S", "KC"], ["JH", "QC", "AC"]],
                     stock=["JD", "9D", "10D", "QH", "AS"], trump="S", tricks=[1, 0],
                     preset="classic")
    act(state, 0, type="exchange")
    table = GAME.view(state, 1)["table"]
    assert table["exchanged"] == {"seat": 0, "gave": "9S", "took": "AS"}
    assert table["face_up"] == {"card": "9S", "drawn_by": None} and table["trump_card"] == "9S"


def test_a_new_hand_starts_with_no_tricks_played():
    state = position(hands=[["AH"], ["10H"]], stock=[], trump="S")
    play(state, 0, "AH")
    play(state, 1, "10H")
    table = GAME.view(state, 0)["table"]
    assert state["deal"] == 2 and table["played"] == [] and table["exchanged"] is None
    assert table["face_up"]["drawn_by"] is None and table["closed_tricks"] is None
