"""6 nimmt!: the rule book's examples, one scenario per rule clause, errors and options."""
import json

import pytest

from rules import GAMES
from rules.base import IllegalAction, InvalidOptions, deal_rng
from rules.sixnimmt import GAME
from rules.sixnimmt.game import BULLHEADS, bullheads, default_row, target_row

SEED = 987654321


def new(players=4, **options):
    return GAME.new_game(players, GAME.normalise_options(players, options), SEED, recording=True)


def position(rows, hands, players=None, **options):
    """A game in the choose phase with exactly these rows and hands."""
    state = new(players or len(hands), **options)
    state["rows"] = [list(row) for row in rows]
    state["hands"] = [sorted(hand) for hand in hands]
    return state


def play(state, cards):
    """Every seat in turn chooses the card given for it."""
    for seat, card in enumerate(cards):
        GAME.apply_action(state, seat, {"type": "play", "card": card})


def rejected(state, seat, action, reason):
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply_action(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


# --- cards --------------------------------------------------------------------

def test_bullheads_of_every_card():
    expected = {55: 7, 11: 5, 22: 5, 33: 5, 44: 5, 66: 5, 77: 5, 88: 5, 99: 5}
    expected.update({card: 3 for card in range(10, 101, 10)})
    expected.update({card: 2 for card in range(5, 105, 10) if card != 55})
    for card in range(1, 105):
        assert BULLHEADS[card] == expected.get(card, 1), card
    assert len(BULLHEADS) == 105
    assert sum(BULLHEADS) == 171
    assert bullheads([55, 10, 5, 1]) == 13


def test_game_is_registered_with_its_description():
    assert GAMES["sixnimmt"] is GAME
    described = GAME.describe()
    assert described["title"] == "6 nimmt!"
    assert (described["min_players"], described["max_players"]) == (2, 10)
    assert described["lower_score_wins"] is True
    assert described["rules_page"] == "sixnimmt.md"
    assert [b["name"] for b in described["bot_levels"]] == ["easy", "medium", "hard"]


# --- the rule book's three examples, in sequence -----------------------------

def test_rule_book_examples_in_sequence():
    state = position(rows=[[12], [37], [43], [58]],
                     hands=[[14, 26, 3], [15, 21, 9], [55, 30, 68], [61, 36, 83]])

    # Example 1: 14 and 15 follow 12, 55 follows 43 (closest), 61 follows 58.
    play(state, [14, 15, 55, 61])
    assert state["rows"] == [[12, 14, 15], [37], [43, 55], [58, 61]]
    assert [(p["seat"], p["card"], p["row"], p["took"]) for p in state["last_turn"]] == [
        (0, 14, 0, []), (1, 15, 0, []), (2, 55, 2, []), (3, 61, 3, [])]
    assert state["scores"] == [0, 0, 0, 0]

    # Example 2: 21 and 26 fill the first row to five; 30 is its sixth card and takes it.
    play(state, [26, 21, 30, 36])
    assert state["rows"] == [[30, 36], [37], [43, 55], [58, 61]]
    assert state["last_turn"][2] == {"seat": 2, "card": 30, "row": 0,
                                     "took": [12, 14, 15, 21, 26]}
    assert state["taken"][2] == [12, 14, 15, 21, 26]
    assert state["round_penalties"] == [0, 0, 6, 0]
    assert state["scores"] == [0, 0, 6, 0]

    # Example 3: 3 is too low for every row; its player takes the second row (one card).
    play(state, [3, 9, 68, 83])
    assert state["phase"] == "take_row"
    assert GAME.to_act(state) == [0]
    assert state["rows"] == [[30, 36], [37], [43, 55], [58, 61]]
    GAME.apply_action(state, 0, {"type": "take_row", "row": 1})
    assert state["rows"] == [[30, 36], [3, 9], [43, 55], [58, 61, 68, 83]]
    assert state["taken"][0] == [37]
    assert state["scores"] == [1, 0, 6, 0]
    assert [(p["seat"], p["card"], p["row"], p["took"]) for p in state["last_turn"]] == [
        (0, 3, 1, [37]), (1, 9, 1, []), (2, 68, 3, []), (3, 83, 3, [])]
    assert state["phase"] == "choose"
    assert state["turn"] == 4


def test_the_view_lists_every_card_played_this_round_turn_by_turn():
    state = position(rows=[[12], [37], [43], [58]],
                     hands=[[14, 26, 3], [15, 21, 9], [55, 30, 68], [61, 36, 83]])
    assert GAME.view(state, 0)["table"]["played"] == []
    play(state, [14, 15, 55, 61])
    play(state, [26, 21, 30, 36])
    play(state, [3, 9, 68, 83])
    GAME.apply_action(state, 0, {"type": "take_row", "row": 1})
    for viewer in (0, 3, None):
        played = GAME.view(state, viewer)["table"]["played"]
        assert [(p["turn"], p["seat"], p["card"], p["row"], p["took"]) for p in played] == [
            (1, 0, 14, 0, []), (1, 1, 15, 0, []), (1, 2, 55, 2, []), (1, 3, 61, 3, []),
            (2, 1, 21, 0, []), (2, 0, 26, 0, []), (2, 2, 30, 0, [12, 14, 15, 21, 26]),
            (2, 3, 36, 0, []),
            (3, 0, 3, 1, [37]), (3, 1, 9, 1, []), (3, 2, 68, 3, []), (3, 3, 83, 3, [])]


def test_a_new_round_starts_with_no_cards_played():
    state = new(3)
    for _ in range(10):
        play(state, [state["hands"][seat][0] for seat in range(3)])
        while state["phase"] == "take_row":
            GAME.apply_action(state, state["row_chooser"], {"type": "take_row", "row": 0})
    assert state["deal"] == 2
    assert GAME.view(state, 0)["table"]["played"] == []
    assert GAME.view(state, 0)["table"]["last_turn"] is not None


# --- rule clauses ------------------------------------------------------------

def test_target_row_is_the_closest_lower_end():
    rows = [[12], [37], [43], [58]]
    assert target_row(rows, 14) == 0
    assert target_row(rows, 42) == 1
    assert target_row(rows, 55) == 2
    assert target_row(rows, 104) == 3
    assert target_row(rows, 11) is None


def test_rule_1_a_card_only_goes_after_a_lower_end():
    state = position(rows=[[50], [60], [70], [80]], hands=[[65, 1], [90, 2]])
    play(state, [65, 90])
    assert state["rows"] == [[50], [60, 65], [70], [80, 90]]


def test_rule_2_the_smallest_difference_wins_whatever_the_row_order():
    state = position(rows=[[40], [10], [30], [20]], hands=[[33, 1], [45, 2]])
    play(state, [33, 45])
    assert state["rows"] == [[40, 45], [10], [30, 33], [20]]


def test_fifth_card_stays_in_the_row():
    state = position(rows=[[1, 2, 3, 4], [50], [60], [70]], hands=[[5, 99], [80, 98]])
    play(state, [5, 80])
    assert state["rows"][0] == [1, 2, 3, 4, 5]
    assert state["scores"] == [0, 0]


def test_rule_3_the_sixth_card_takes_the_five_and_starts_the_row():
    state = position(rows=[[1, 2, 3, 4, 5], [50], [60], [70]], hands=[[10, 99], [80, 98]])
    play(state, [10, 80])
    assert state["rows"] == [[10], [50], [60], [70, 80]]
    assert state["taken"] == [[1, 2, 3, 4, 5], []]
    assert state["round_penalties"] == [6, 0]
    assert state["scores"] == [6, 0]


def test_rule_3_a_row_can_fill_and_be_taken_within_one_turn():
    state = position(rows=[[10, 11, 12, 13], [50], [60], [70]],
                     hands=[[14, 1], [15, 2], [16, 3]])
    play(state, [14, 15, 16])
    assert state["rows"][0] == [15, 16]
    assert state["taken"] == [[], [10, 11, 12, 13, 14], []]
    assert state["scores"] == [0, 3 + 5 + 1 + 1 + 1, 0]


def test_rule_4_too_low_waits_for_the_owner_to_choose_a_row():
    state = position(rows=[[20, 21], [30], [40, 44, 45], [50]], hands=[[60, 1], [5, 2]])
    play(state, [60, 5])
    assert state["phase"] == "take_row"
    assert state["row_chooser"] == 1
    assert GAME.to_act(state) == [1]
    assert GAME.legal_actions(state, 0) == []
    assert GAME.legal_actions(state, 1) == [{"type": "take_row", "row": r} for r in range(4)]
    assert state["rows"] == [[20, 21], [30], [40, 44, 45], [50]]
    for viewer in (0, 1, None):
        table = GAME.view(state, viewer)["table"]
        assert table["revealed"] == [{"seat": 1, "card": 5}, {"seat": 0, "card": 60}]
        assert table["row_chooser"] == 1
        assert GAME.view(state, viewer)["phase"] == "take_row"
    # Any row may be taken, not only the cheapest.
    GAME.apply_action(state, 1, {"type": "take_row", "row": 2})
    assert state["rows"] == [[20, 21], [30], [5], [50, 60]]
    assert state["taken"] == [[], [40, 44, 45]]
    assert state["scores"] == [0, 3 + 5 + 2]
    assert GAME.view(state, 0)["table"]["revealed"] is None
    assert GAME.view(state, 0)["table"]["row_chooser"] is None


def test_rule_4_taking_a_full_row_takes_all_five():
    state = position(rows=[[20, 21, 22, 23, 24], [30], [40], [50]], hands=[[3, 90], [4, 91]])
    play(state, [3, 4])
    GAME.apply_action(state, 0, {"type": "take_row", "row": 0})
    assert state["rows"][0] == [3, 4]
    assert state["taken"][0] == [20, 21, 22, 23, 24]
    assert state["scores"] == [3 + 1 + 5 + 1 + 1, 0]


def test_rule_4_every_later_card_fits_after_the_new_row():
    state = position(rows=[[50], [60], [70], [80]], hands=[[1, 99], [2, 98], [3, 97]])
    play(state, [1, 2, 3])
    GAME.apply_action(state, 0, {"type": "take_row", "row": 3})
    assert state["rows"] == [[50], [60], [70], [1, 2, 3]]
    assert state["taken"] == [[80], [], []]


def test_choices_are_secret_and_changeable_until_everyone_has_chosen():
    state = position(rows=[[10], [20], [30], [40]], hands=[[11, 12], [21, 22], [31, 32]])
    assert GAME.to_act(state) == [0, 1, 2]
    GAME.apply_action(state, 1, {"type": "play", "card": 22})
    assert GAME.to_act(state) == [0, 2]
    assert state["hands"][1] == [21]
    assert state["rows"] == [[10], [20], [30], [40]]
    for viewer in (0, 2, None):
        view = GAME.view(state, viewer)
        assert view["table"]["chosen"] == [False, True, False]
        assert view["table"]["my_choice"] is None
        assert view["table"]["revealed"] is None
        assert all(22 not in row for row in view["table"]["rows"])
    assert GAME.view(state, 1)["table"]["my_choice"] == 22
    assert GAME.view(state, 1)["hand"] == [21]
    assert GAME.view(state, 1)["table"]["hand_sizes"] == [2, 1, 2]
    assert GAME.legal_actions(state, 1) == [{"type": "play", "card": 21}]
    rejected(state, 1, {"type": "play", "card": 22}, "not in your hand")
    assert GAME.apply_action(state, 1, {"type": "play", "card": 21}) == [
        {"type": "chose", "seat": 1, "changed": True}]
    assert state["hands"][1] == [22] and GAME.view(state, 1)["table"]["my_choice"] == 21
    assert GAME.to_act(state) == [0, 2]
    GAME.apply_action(state, 0, {"type": "play", "card": 11})
    GAME.apply_action(state, 2, {"type": "play", "card": 31})
    assert state["rows"] == [[10, 11], [20, 21], [30, 31], [40]]
    assert GAME.view(state, 0)["table"]["chosen"] == [False, False, False]
    assert GAME.to_act(state) == [0, 1, 2]


def test_a_round_is_ten_turns_then_the_next_deal_moves_the_dealer():
    state = new(3, threshold=200)
    assert state["dealer"] == 2 and GAME.view(state, 0)["table"]["dealer"] == 2
    for turn in range(1, 11):
        assert state["turn"] == turn and state["deal"] == 1
        play(state, [state["hands"][seat][0] for seat in range(3)])
        while state["phase"] == "take_row":
            GAME.apply_action(state, state["row_chooser"], {"type": "take_row", "row": 0})
    assert state["deal"] == 2 and state["turn"] == 1
    assert state["dealer"] == 0
    assert [len(hand) for hand in state["hands"]] == [10, 10, 10]
    assert state["round_penalties"] == [0, 0, 0]
    assert state["taken"] == [[], [], []]
    assert state["round_scores"][0] == state["scores"]
    assert sum(state["scores"]) > 0
    assert state["last_turn"] is not None
    record = GAME.record(state)
    assert record["deals"][0]["scores"] == state["scores"]
    assert record["deals"][1]["scores"] is None
    assert record["deals"][1]["dealer"] == 0


def finish_round_with(state, scores_before, final_cards):
    """Set up the last turn of a round with these running scores, then play it."""
    state["turn"] = 10
    state["scores"] = list(scores_before)
    play(state, final_cards)


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_threshold():
    state = position(rows=[[1, 2, 3, 4, 5], [50], [60], [70]], hands=[[10], [80]], threshold=66)
    finish_round_with(state, [60, 3], [10, 80])
    assert state["scores"] == [66, 3]
    assert state["phase"] == "over"
    assert GAME.to_act(state) == []
    assert GAME.outcome(state) == {"scores": [66, 3], "winners": [1]}
    assert GAME.view(state, None)["phase"] == "over"
    assert GAME.legal_actions(state, 0) == []
    rejected(state, 0, {"type": "play", "card": 10}, "the game is over")


def test_reaching_the_threshold_mid_round_does_not_end_the_game_early():
    state = position(rows=[[1, 2, 3, 4, 5], [50], [60], [70]], hands=[[10, 11], [80, 81]])
    state["scores"] = [65, 0]
    play(state, [10, 80])
    assert state["scores"] == [71, 0]
    assert state["phase"] == "choose"
    assert GAME.outcome(state) is None


def test_below_the_threshold_a_new_round_starts():
    state = position(rows=[[1, 2, 3, 4, 5], [50], [60], [70]], hands=[[10], [80]], threshold=67)
    finish_round_with(state, [60, 3], [10, 80])
    assert state["phase"] == "choose" and state["deal"] == 2
    assert GAME.outcome(state) is None


def test_tied_lowest_scores_share_the_win():
    state = position(rows=[[1, 2, 3, 4, 5], [50], [60], [70]], hands=[[10], [80], [90]],
                     threshold=20)
    finish_round_with(state, [0, 6, 20], [10, 80, 90])
    assert GAME.outcome(state) == {"scores": [6, 6, 20], "winners": [0, 1]}


def test_threshold_option_changes_the_end():
    state = position(rows=[[1, 2, 3, 4, 5], [50], [60], [70]], hands=[[10], [80]], threshold=5)
    finish_round_with(state, [0, 0], [10, 80])
    assert GAME.outcome(state) == {"scores": [6, 0], "winners": [1]}
    assert GAME.view(state, 0)["table"]["threshold"] == 5


# --- dealing --------------------------------------------------------------------

def test_deal_uses_the_seeded_shuffle_and_records_every_card():
    state = new(4)
    deck = list(range(1, 105))
    deal_rng(SEED, 1).shuffle(deck)
    deal = GAME.record(state)["deals"][0]
    assert deal["hands"] == [deck[0:10], deck[10:20], deck[20:30], deck[30:40]]
    assert deal["rows"] == deck[40:44]
    assert deal["unused"] == deck[44:]
    assert deal["dealer"] == 3 and deal["scores"] is None and "display" not in deal
    assert state["rows"] == [[card] for card in deck[40:44]]
    assert state["hands"] == [sorted(hand) for hand in deal["hands"]]
    assert GAME.view(state, 2)["hand"] == sorted(deck[20:30])
    assert GAME.view(state, 2)["table"]["cards_in_use"] == 104


def test_tactical_deck_uses_only_ten_per_player_plus_four():
    state = new(3, tactical_deck=True)
    deal = GAME.record(state)["deals"][0]
    cards = sorted(sum(deal["hands"], []) + deal["rows"])
    assert cards == list(range(1, 35))
    assert deal["unused"] == []
    assert GAME.view(state, None)["table"]["cards_in_use"] == 34


def test_ten_players_use_the_whole_deck():
    state = new(10)
    assert state["unused"] == []
    assert sorted(sum(state["hands"], []) + [row[0] for row in state["rows"]]) == list(range(1, 105))


def test_dealer_of_each_deal_rotates():
    state = new(3, threshold=200)
    for deal in (2, 3, 4):
        state["turn"] = 10
        state["rows"] = [[1, 2, 3, 4, 5], [50], [60], [70]]
        state["hands"] = [[10], [80], [90]]
        play(state, [10, 80, 90])
        assert state["deal"] == deal
        assert state["dealer"] == (3 - 1 + deal - 1) % 3


# --- the draft ----------------------------------------------------------------

def draft_all(state):
    while state["phase"] == "draft":
        seat = GAME.to_act(state)[0]
        GAME.apply_action(state, seat, {"type": "draft", "card": state["draft_display"][0]})


def test_draft_display_is_the_first_cards_of_the_shuffle_and_the_rest_stay_hidden():
    state = new(3, draft=True)
    deck = list(range(1, 105))
    deal_rng(SEED, 1).shuffle(deck)
    deal = GAME.record(state)["deals"][0]
    assert deal["display"] == deck[:34]
    assert deal["unused"] == deck[34:]
    assert deal["hands"] is None and deal["rows"] is None
    view = GAME.view(state, None)
    assert view["phase"] == "draft"
    assert view["table"]["draft_display"] == sorted(deck[:34])
    assert view["table"]["rows"] == [[], [], [], []]
    assert GAME.to_act(state) == [0]
    assert GAME.legal_actions(state, 0) == [{"type": "draft", "card": c} for c in sorted(deck[:34])]
    assert GAME.legal_actions(state, 1) == []


def test_draft_takes_turns_until_each_has_ten_and_the_four_left_start_the_rows():
    state = new(3, draft=True)
    order = []
    while state["phase"] == "draft":
        seat = GAME.to_act(state)[0]
        order.append(seat)
        card = state["draft_display"][-1]
        GAME.apply_action(state, seat, {"type": "draft", "card": card})
        assert card in state["hands"][seat]
        assert card not in (state["draft_display"] or [])
    assert order == [0, 1, 2] * 10
    assert [len(hand) for hand in state["hands"]] == [10, 10, 10]
    display = GAME.record(state)["deals"][0]["display"]
    lowest_four = sorted(display)[:4]
    assert state["rows"] == [[card] for card in lowest_four]
    assert state["phase"] == "choose" and GAME.to_act(state) == [0, 1, 2]
    deal = GAME.record(state)["deals"][0]
    assert deal["rows"] == lowest_four
    assert deal["hands"] == state["hands"]
    assert GAME.view(state, 0)["table"]["draft_display"] is None
    assert GAME.view(state, 0)["table"]["draft_turn"] is None


def test_draft_of_a_later_round_starts_with_the_next_seat():
    state = new(3, draft=True, threshold=200)
    draft_all(state)
    state["turn"] = 10
    state["rows"] = [[1, 2, 3, 4, 5], [50], [60], [70]]
    state["hands"] = [[10], [80], [90]]
    play(state, [10, 80, 90])
    assert state["deal"] == 2 and state["phase"] == "draft"
    assert GAME.to_act(state) == [1]
    assert GAME.view(state, 2)["table"]["draft_turn"] == 1


def test_draft_with_tactical_deck_lays_out_every_card():
    state = new(2, draft=True, tactical_deck=True)
    assert state["draft_display"] == list(range(1, 25))
    assert state["unused"] == []


# --- errors -------------------------------------------------------------------

def test_illegal_actions_are_rejected_with_a_reason_and_change_nothing():
    state = position(rows=[[10], [20], [30], [40]], hands=[[11, 12], [21, 22]])
    rejected(state, 0, {"type": "play", "card": 21}, "card 21 is not in your hand")
    rejected(state, 0, {"type": "play", "card": "11"}, "field 'card': '11' is not a card number")
    rejected(state, 0, {"type": "play", "card": True}, "field 'card': True is not a card number")
    rejected(state, 0, {"type": "play", "card": 105}, "from 1 to 104")
    rejected(state, 0, {"type": "play"}, "needs the field 'card'")
    rejected(state, 0, {"type": "take_row", "row": 0}, "time for 'play', not 'take_row'")
    rejected(state, 0, {"type": "draft", "card": 11}, "time for 'play', not 'draft'")
    rejected(state, 0, {"type": "pass"}, "unknown action type")
    rejected(state, 0, ["play", 11], "must be a JSON object")
    rejected(state, 5, {"type": "play", "card": 11}, "seat 5 is not to act now")


def test_illegal_row_choices_are_rejected():
    state = position(rows=[[10], [20], [30], [40]], hands=[[1, 12], [21, 22]])
    play(state, [1, 21])
    rejected(state, 1, {"type": "take_row", "row": 0}, "seat 1 is not to act now")
    rejected(state, 0, {"type": "take_row", "row": 4}, "field 'row': 4 is not a whole number from 0 to 3")
    rejected(state, 0, {"type": "take_row", "row": -1}, "field 'row': -1 is not")
    rejected(state, 0, {"type": "take_row", "row": "1"}, "field 'row': '1' is not")
    rejected(state, 0, {"type": "take_row", "row": False}, "field 'row': False is not")
    rejected(state, 0, {"type": "play", "card": 12}, "time for 'take_row', not 'play'")


def test_illegal_draft_picks_are_rejected():
    state = new(2, draft=True)
    missing = next(card for card in range(1, 105) if card not in state["draft_display"])
    rejected(state, 0, {"type": "draft", "card": missing}, f"card {missing} is not in the display")
    rejected(state, 1, {"type": "draft", "card": state["draft_display"][0]}, "seat 1 is not to act")
    rejected(state, 0, {"type": "play", "card": state["draft_display"][0]}, "time for 'draft'")


# --- options ------------------------------------------------------------------

def test_option_defaults():
    assert GAME.normalise_options(4, None) == {"tactical_deck": False, "draft": False,
                                                "threshold": 66}


@pytest.mark.parametrize("players, options, reason", [
    (1, {}, "2 to 10 players"),
    (11, {}, "2 to 10 players"),
    (True, {}, "whole number"),
    (4, {"threshold": 0}, "at least 1"),
    (4, {"threshold": 201}, "at most 200"),
    (4, {"threshold": "66"}, "whole number"),
    (4, {"threshold": True}, "whole number"),
    (4, {"tactical_deck": 1}, "true or false"),
    (4, {"draft": "yes"}, "true or false"),
    (4, {"bullheads": 7}, "unknown option"),
])
def test_invalid_options(players, options, reason):
    with pytest.raises(InvalidOptions, match=reason):
        GAME.normalise_options(players, options)


# --- the stand-in row choice ------------------------------------------------------

def test_default_row_prefers_fewest_bullheads_then_fewest_cards_then_lowest_number():
    assert default_row([[55], [1, 2, 3], [10], [4]]) == 3
    assert default_row([[5], [1, 2], [10], [3, 4]]) == 0
    assert default_row([[1, 2], [3], [4], [6]]) == 1
    assert default_row([[11], [22], [33], [44]]) == 0


# --- view shape ----------------------------------------------------------------

TABLE_KEYS = {"rows", "row_bullheads", "chosen", "my_choice", "revealed", "row_chooser",
              "last_turn", "played", "round_penalties", "round_scores", "taken_counts", "hand_sizes",
              "draft_display", "draft_turn", "dealer", "round", "turn", "threshold",
              "cards_in_use"}


def test_view_has_exactly_the_documented_keys():
    state = position(rows=[[12, 55], [37], [44], [58]], hands=[[14, 1], [15, 2]])
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert set(view) == {"seat", "phase", "deal", "scores", "hand", "table"}
        assert set(view["table"]) == TABLE_KEYS
        assert view["table"]["row_bullheads"] == [8, 1, 5, 1]
        assert str(SEED) not in json.dumps(view)
    assert GAME.view(state, None)["hand"] is None
    assert GAME.view(state, 1)["hand"] == [2, 15]
