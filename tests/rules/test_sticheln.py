"""Sticheln: the rule book's clauses and examples, the variants, options and errors."""
from __future__ import annotations

import json
import random

import pytest

from rules.base import DEALT, IllegalAction, InvalidOptions
from rules.sticheln import GAME
from rules.sticheln.cards import (CARD_IDS, CARD_NAMES, deal_cards, deal_score, deck_for,
                                  trick_winner)


# --- helpers (also used by test_sticheln_properties.py) ---------------------------------------
def ids(names: list[str]) -> list[int]:
    return sorted(CARD_IDS[name] for name in names)


def new(players: int = 4, seed: int = 1, **options) -> dict:
    return GAME.new_game(players, GAME.normalise_options(players, options), seed, recording=True)


def in_play(hands: list[list[str]], *, leader: int = 0, pain=None, won=None, **options) -> dict:
    """A position in phase "play": the given hands, seat `leader` to lead a fresh trick."""
    players = len(hands)
    state = new(players, **options)
    state.update({
        "phase": "play",
        "hands": [ids(hand) for hand in hands],
        "pain": [ids(p) for p in pain] if pain else [[] for _ in range(players)],
        "chosen": [not state["options"]["late"]] * players,
        "won": [ids(w) for w in won] if won else [[] for _ in range(players)],
        "leader": leader, "turn": leader, "trick": [],
    })
    state["tricks_played"] = state["tricks_per_deal"] - len(hands[0])
    return state


def play_all(state: dict, cards: list[str]) -> None:
    """Play the cards in order, each by the seat whose turn it is."""
    for card in cards:
        GAME.apply_action(state, state["turn"], {"type": "play", "card": card})


def snapshot(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def choose_all(state: dict) -> None:
    for seat in GAME.to_act(state):
        GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])


# --- setting up -------------------------------------------------------------------------------
@pytest.mark.parametrize("players, top, colours, hand, leftover", [
    (3, 8, 5, 15, 0), (4, 11, 5, 15, 0), (5, 14, 5, 15, 0),
    (6, 14, 6, 15, 0), (7, 17, 6, 15, 3), (8, 18, 6, 14, 2)])
def test_card_table_by_player_count(players, top, colours, hand, leftover):
    deck = deck_for(players)
    assert len(deck) == (top + 1) * colours
    assert max(card % 21 for card in deck) == top
    assert any(CARD_NAMES[c].startswith("purple") for c in deck) == (players >= 6)
    state = new(players)
    assert [len(h) for h in state["hands"]] == [hand] * players
    assert len(state["leftover"]) == leftover
    assert sorted(sum(state["hands"], []) + state["leftover"]) == sorted(deck)


def test_leftover_cards_are_shown_to_everybody_for_the_whole_deal():
    state = new(7)
    shown = [CARD_NAMES[c] for c in state["leftover"]]
    for seat in (0, 3, None):
        assert GAME.view(state, seat)["table"]["leftover"] == shown
    choose_all(state)
    assert GAME.view(state, 5)["table"]["leftover"] == shown


def test_deal_one_dealt_by_last_seat_so_seat_zero_leads_then_dealer_moves_on():
    state = new(4, deals=3)
    assert (state["dealer"], state["leader"]) == (3, 0)
    assert state[DEALT][0]["dealer"] == 3
    for deal, dealer in ((2, 0), (3, 1)):
        finish_current_deal(state)
        assert state["deal"] == deal
        assert (state["dealer"], state["leader"], state["turn"]) == (dealer, dealer + 1, dealer + 1)


def finish_current_deal(state: dict) -> None:
    deal = state["deal"]
    while state["deal"] == deal and GAME.outcome(state) is None:
        for seat in GAME.to_act(state):
            if seat in GAME.to_act(state):
                GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])


def test_same_seed_deals_the_same_cards_and_deals_differ():
    assert new(5, seed=9)["hands"] == new(5, seed=9)["hands"]
    state = new(5, seed=9)
    first = state[DEALT][0]["hands"]
    finish_current_deal(state)
    assert state[DEALT][1]["hands"] != first


def test_tough_redeals_a_hand_of_a_single_colour():
    class SortedFirst(random.Random):
        calls = 0

        def shuffle(self, deck):
            self.calls += 1
            deck.sort() if self.calls == 1 else super().shuffle(deck)

    rng = SortedFirst(3)
    hands, _ = deal_cards(rng, 8, two_colours=True)
    assert rng.calls == 2
    assert all(len({c // 21 for c in hand}) > 1 for hand in hands)
    rng = SortedFirst(3)
    hands, _ = deal_cards(rng, 8, two_colours=False)
    assert rng.calls == 1 and {c // 21 for c in hands[0]} == {0}


@pytest.mark.parametrize("players, options, tricks", [
    (4, {}, 14), (8, {}, 13), (4, {"tough": True}, 13), (8, {"tough": True}, 12),
    (4, {"late": True}, 15), (8, {"late": True}, 14), (5, {"late": True, "tough": True}, 15)])
def test_tricks_per_deal_follow_from_hand_size_and_cards_put_down(players, options, tricks):
    state = new(players, seed=4, **options)
    assert GAME.view(state, 0)["table"]["tricks_per_deal"] == tricks
    finish_current_deal(state)
    assert state["previous"]["deal"] == 1
    assert sum(len(w) for w in state["previous"]["won"]) == tricks * players


# --- options ----------------------------------------------------------------------------------
def test_default_options():
    assert GAME.normalise_options(4, None) == {
        "deals": 5, "reverse": False, "mild": False, "tough": False, "dark": False, "late": False}


@pytest.mark.parametrize("players, raw, words", [
    (2, {}, "3 to 8"), (9, {}, "3 to 8"), (4, {"deals": 0}, "at least 1"),
    (4, {"deals": "5"}, "whole number"), (4, {"reverse": 1}, "true or false"),
    (4, {"trumps": True}, "unknown option"),
    (4, {"late": True, "dark": True}, "cannot be combined")])
def test_invalid_options(players, raw, words):
    with pytest.raises(InvalidOptions, match=words):
        GAME.normalise_options(players, raw)


def test_every_other_variant_combination_is_accepted():
    for mask in range(32):
        raw = {name: bool(mask >> i & 1) for i, name in enumerate(("reverse", "mild", "tough",
                                                                   "dark", "late"))}
        if raw["late"] and raw["dark"]:
            continue
        assert GAME.normalise_options(3, raw)["deals"] == 5


# --- choosing the pain colour -----------------------------------------------------------------
def test_pain_choice_is_simultaneous_and_secret_until_all_have_chosen():
    state = new(3)
    assert GAME.to_act(state) == [0, 1, 2]
    card = state["hands"][1][0]
    GAME.apply_action(state, 1, {"type": "choose_pain", "card": CARD_NAMES[card]})
    assert GAME.to_act(state) == [0, 2]
    assert card not in state["hands"][1]
    # Still open to change until all have chosen: the other cards of the (whole) hand.
    assert [a["card"] for a in GAME.legal_actions(state, 1)] == GAME.view(state, 1)["hand"]
    for seat in (0, 2, None):
        table = GAME.view(state, seat)["table"]
        assert table["chosen"] == [False, True, False]
        assert table["pain"][1] == [] and table["pain_colors"][1] is None
        assert CARD_NAMES[card] not in json.dumps(GAME.view(state, seat))
    assert GAME.view(state, 1)["table"]["pain"][1] == [CARD_NAMES[card]]
    for seat in (0, 2):
        GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
    assert state["phase"] == "play" and GAME.to_act(state) == [0]
    for seat in (0, 1, 2, None):
        assert GAME.view(state, seat)["table"]["pain"][1] == [CARD_NAMES[card]]


def test_the_pain_card_scores_as_a_collected_pain_card():
    state = in_play([["blue-3"], ["blue-1"], ["blue-2"]], pain=[["red-8"], ["red-0"], ["green-1"]])
    play_all(state, ["blue-3", "blue-1", "blue-2"])
    assert state["deal_scores"][0] == [3 - 8, 0, -1]


def test_several_players_may_share_a_pain_colour():
    state = new(3)
    reds = [[c for c in hand if c // 21 == 1] for hand in state["hands"]]
    for seat in range(3):
        GAME.apply_action(state, seat, {"type": "choose_pain", "card": CARD_NAMES[reds[seat][0]]})
    assert GAME.view(state, None)["table"]["pain_colors"] == [["red"]] * 3


def test_choose_pain_legal_actions_offer_every_hand_card():
    state = new(4)
    assert [a["card"] for a in GAME.legal_actions(state, 2)] == GAME.view(state, 2)["hand"]


# --- who wins the trick -----------------------------------------------------------------------
TRICKS = [
    # (cards in playing order from seat 0, winner seat, reverse)
    (["red-3", "red-9", "red-5", "red-0"], 1, False),      # only led colour: highest
    (["red-3", "blue-0", "red-7", "green-0"], 2, False),   # others only zeros: highest led
    (["red-9", "blue-2", "red-10", "green-1"], 1, False),  # a trump: highest trump
    (["red-5", "blue-7", "green-7", "yellow-3"], 1, False),  # equal trumps: first played
    (["red-0", "blue-0", "green-0", "yellow-0"], 0, False),  # all zeros: first zero
    (["blue-0", "red-0", "blue-4", "green-0"], 2, False),  # a led zero is a led-colour card
    (["red-0", "green-2", "red-11", "blue-0"], 1, False),  # zero lead, one trump
    (["red-3", "red-9", "red-5", "red-0"], 0, True),       # reverse: lowest led, zero never wins
    (["red-7", "blue-0", "red-4", "green-0"], 2, True),
    (["red-2", "blue-6", "red-1", "green-3"], 3, True),    # reverse: lowest trump
    (["red-5", "blue-3", "green-3", "yellow-8"], 1, True),  # equal lowest trumps: first played
    (["red-0", "blue-0", "green-0", "yellow-0"], 0, True),  # all zeros: first zero
    (["red-0", "blue-0", "red-6", "green-0"], 2, True),    # led zero cannot win
    (["red-0", "blue-9", "red-1", "green-0"], 1, True),
]


@pytest.mark.parametrize("cards, winner, reverse", TRICKS)
def test_trick_winner(cards, winner, reverse):
    assert trick_winner(ids_in_order(cards), reverse) == winner


def ids_in_order(names: list[str]) -> list[int]:
    return [CARD_IDS[name] for name in names]


@pytest.mark.parametrize("cards, winner, reverse", TRICKS)
def test_trick_is_collected_by_its_winner_who_leads_next(cards, winner, reverse):
    leader = 2
    hands = [[f"brown-{seat + 1}"] for seat in range(4)]
    for offset, card in enumerate(cards):
        hands[(leader + offset) % 4].insert(0, card)
    state = in_play(hands, leader=leader, reverse=reverse)
    play_all(state, cards[:3])
    before = snapshot(state)
    assert GAME.view(state, 0)["table"]["led_color"] == cards[0].split("-")[0]
    GAME.apply_action(state, (leader + 3) % 4, {"type": "play", "card": cards[3]})
    taker = (leader + winner) % 4
    assert snapshot(state) != before
    assert sorted(state["won"][taker]) == ids(cards)
    assert all(not state["won"][s] for s in range(4) if s != taker)
    assert GAME.to_act(state) == [taker] and state["leader"] == taker
    table = GAME.view(state, None)["table"]
    assert table["last_trick"] == {
        "cards": [{"seat": (leader + i) % 4, "card": c} for i, c in enumerate(cards)],
        "winner": taker}
    assert table["trick"] == [] and table["led_color"] is None
    assert table["tricks_played"] == table["tricks_per_deal"] - 1


def test_no_duty_to_follow_any_card_may_be_played():
    state = in_play([["red-3", "blue-2"], ["red-5", "green-7"], ["red-1", "yellow-4"]])
    play_all(state, ["red-3"])
    assert {a["card"] for a in GAME.legal_actions(state, 1)} == {"red-5", "green-7"}
    play_all(state, ["green-7"])
    assert state["turn"] == 2


# --- scoring ----------------------------------------------------------------------------------
OTHERS = [f"blue-{v}" for v in range(1, 11)] + ["green-1"]


def test_rule_book_scoring_example():
    """Pain red 4; collected red 2, red 5 and 14 other cards: 14 - 11 = 3."""
    state = in_play([["red-5"], ["blue-0"], ["green-0"], ["yellow-0"]],
                    pain=[["red-4"], ["brown-3"], ["brown-4"], ["brown-5"]],
                    won=[["red-2"] + OTHERS, [], [], []])
    play_all(state, ["red-5", "blue-0", "green-0", "yellow-0"])
    assert state["deal_scores"] == [[3, -3, -4, -5]]
    assert state["scores"] == [3, -3, -4, -5]
    assert deal_score(ids(["red-4", "red-2", "red-5"] + OTHERS + ["blue-0", "green-0", "yellow-0"]),
                      [1], {"mild": False, "reverse": False}) == 3


def last_trick_scores(pain, won, **options) -> list[int]:
    """Seat 0 takes a last trick of red-9, blue-0, green-0 from seats 0, 1, 2."""
    state = in_play([["red-9"], ["blue-0"], ["green-0"]], pain=pain, won=won, **options)
    play_all(state, ["red-9", "blue-0", "green-0"])
    return state["deal_scores"][-1]


def test_mild_every_pain_card_costs_five_zeros_too():
    assert last_trick_scores([["red-1"], ["blue-7"], ["green-3"]], [["red-0", "yellow-2"], [], []],
                             mild=True) == [-5 - 5 - 5 + 1 + 1 + 1, -5, -5]


def test_reverse_lucky_cards_score_face_value_others_minus_one():
    assert last_trick_scores([["red-1"], ["blue-7"], ["green-3"]], [["red-0", "yellow-2"], [], []],
                             reverse=True) == [1 + 0 + 9 - 1 - 1 - 1, 7, 3]


def test_reverse_and_mild_lucky_cards_score_five_each():
    assert last_trick_scores([["red-1"], ["blue-7"], ["green-3"]], [["red-0", "yellow-2"], [], []],
                             reverse=True, mild=True) == [5 + 5 + 5 - 3, 5, 5]


def test_tough_two_pain_colours_both_hurt():
    assert last_trick_scores([["red-1", "green-4"], ["blue-7", "red-2"], ["green-3", "yellow-1"]],
                             [["green-5", "yellow-2"], [], []],
                             tough=True) == [-1 - 4 - 5 - 9 + 1 + 1 - 0, -7 - 2, -3 - 1]


def test_reverse_and_tough_two_lucky_colours():
    assert last_trick_scores([["red-1", "green-4"], ["blue-7", "red-2"], ["green-3", "yellow-1"]],
                             [["green-5", "yellow-2"], [], []],
                             tough=True, reverse=True) == [1 + 4 + 5 + 9 + 0 - 1 - 1, 9, 4]


def test_deal_end_adds_to_the_match_score_and_deals_again():
    state = in_play([["red-5"], ["blue-0"], ["green-0"], ["yellow-0"]],
                    pain=[["red-4"], ["brown-3"], ["brown-4"], ["brown-5"]],
                    won=[["red-2"] + OTHERS, [], [], []])
    state["scores"] = [10, 20, 30, 40]
    play_all(state, ["red-5", "blue-0", "green-0", "yellow-0"])
    assert state["scores"] == [13, 17, 26, 35]
    assert state["deal"] == 2 and state["phase"] == "choose" and GAME.to_act(state) == [0, 1, 2, 3]
    assert state[DEALT][-2]["scores"] == [3, -3, -4, -5] and state[DEALT][-1]["scores"] is None
    table = GAME.view(state, 1)["table"]
    assert table["deal_scores"] == [[3, -3, -4, -5]]
    assert table["previous_deal"]["scores"] == [3, -3, -4, -5]
    assert table["previous_deal"]["pain"] == [["red-4"], ["brown-3"], ["brown-4"], ["brown-5"]]
    assert table["previous_deal"]["collected"][0]["red"] == ["red-2", "red-5"]
    assert table["previous_deal"]["last_trick"]["winner"] == 0
    assert table["last_trick"] is None and all(n == 0 for n in table["collected_count"])


def test_game_ends_after_the_last_deal_and_ties_share_the_win():
    state = in_play([["red-5"], ["blue-0"], ["green-0"]], pain=[["red-1"], ["red-2"], ["red-3"]],
                    won=[[], ["blue-4", "blue-6"], ["green-4"]], deals=1)
    state["scores"] = [0, 4, 3]
    play_all(state, ["red-5", "blue-0", "green-0"])
    # seat 0: -1 -5 +2 = -4; seat 1: -2 +2 = 0; seat 2: -3 +1 = -2
    assert state["phase"] == "over" and GAME.to_act(state) == []
    assert GAME.outcome(state) == {"scores": [-4, 4, 1], "winners": [1]}
    state["scores"] = [4, 4, 1]
    assert GAME.outcome(state)["winners"] == [0, 1]
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply_action(state, 0, {"type": "play", "card": "red-5"})
    assert GAME.legal_actions(state, 0) == []


def test_running_deal_score_in_view():
    state = in_play([["red-5", "blue-1"], ["blue-0", "blue-2"], ["green-0", "green-2"]],
                    pain=[["red-4"], ["blue-3"], ["green-3"]], won=[["red-2", "yellow-1"], [], []])
    assert GAME.view(state, 2)["table"]["deal_score"] == [-4 - 2 + 1, -3, -3]
    assert GAME.view(state, 2)["table"]["collected_count"] == [2, 0, 0]


# --- tough ------------------------------------------------------------------------------------
def test_tough_puts_down_two_cards_of_different_colours():
    state = new(3, tough=True)
    state["hands"] = [ids(["red-1", "red-2", "blue-3"]), ids(["red-3", "green-4", "green-5"]),
                      ids(["yellow-1", "brown-2", "brown-3"])]
    assert [a["cards"] for a in GAME.legal_actions(state, 0)] == [
        ["blue-3", "red-1"], ["blue-3", "red-2"]]
    for action, words in [({"type": "choose_pain", "card": "red-1"}, "two cards"),
                          ({"type": "choose_pain", "cards": ["red-1"]}, "list of 2 values"),
                          ({"type": "choose_pain", "cards": ["red-1", "red-2"]},
                           "different colours"),
                          ({"type": "choose_pain", "cards": ["red-1", "green-4"]},
                           "do not hold green-4"),
                          ({"type": "choose_pain", "cards": "red-1"}, "list of 2 values"),
                          ({"type": "choose_pain", "card": "red-1", "cards": ["red-1", "blue-3"]},
                           "exactly one of the fields")]:
        before = snapshot(state)
        with pytest.raises(IllegalAction, match=words):
            GAME.apply_action(state, 0, action)
        assert snapshot(state) == before
    GAME.apply_action(state, 0, {"type": "choose_pain", "cards": ["red-2", "blue-3"]})
    assert state["hands"][0] == ids(["red-1"])
    assert GAME.view(state, 0)["table"]["pain"][0] == ["blue-3", "red-2"]
    assert GAME.view(state, 0)["table"]["pain_colors"][0] == ["blue", "red"]


# --- dark -------------------------------------------------------------------------------------
def test_dark_hides_pain_cards_from_the_others_until_the_deal_ends():
    state = new(3, seed=5, dark=True, deals=2)
    chosen = {}
    for seat in range(3):
        action = GAME.legal_actions(state, seat)[seat]
        chosen[seat] = action["card"]
        GAME.apply_action(state, seat, action)
    assert state["phase"] == "play"
    for viewer in (0, 1, 2, None):
        table = GAME.view(state, viewer)["table"]
        assert table["chosen"] == [True, True, True]
        for seat in range(3):
            if seat == viewer:
                assert table["pain"][seat] == [chosen[seat]]
                assert table["deal_score"][seat] is not None
            else:
                assert table["pain"][seat] == [] and table["pain_colors"][seat] is None
                assert table["deal_score"][seat] is None
                assert f'"{chosen[seat]}"' not in json.dumps(GAME.view(state, viewer))
    finish_current_deal(state)
    previous = GAME.view(state, None)["table"]["previous_deal"]
    assert previous["pain"] == [[chosen[s]] for s in range(3)]


def test_dark_reveals_everything_when_the_game_is_over():
    state = in_play([["red-5"], ["blue-0"], ["green-0"]], pain=[["red-1"], ["red-2"], ["red-3"]],
                    dark=True, deals=1)
    assert GAME.view(state, 1)["table"]["pain"] == [[], ["red-2"], []]
    play_all(state, ["red-5", "blue-0", "green-0"])
    assert GAME.view(state, 1)["table"]["pain"] == [["red-1"], ["red-2"], ["red-3"]]


# --- late -------------------------------------------------------------------------------------
def late_position(**options) -> dict:
    """Seat 0 takes the last trick; seat 2 has won nothing at all."""
    return in_play([["red-9"], ["blue-0"], ["green-0"]],
                   won=[["red-2", "yellow-4", "yellow-5"], ["blue-6", "brown-7"], []],
                   late=True, **options)


def test_late_no_card_is_put_down_and_play_starts_at_once():
    state = new(4, late=True)
    assert state["phase"] == "play" and GAME.to_act(state) == [0]
    assert [len(h) for h in state["hands"]] == [15] * 4


def test_late_players_name_a_won_colour_secretly_after_the_last_trick():
    state = late_position()
    play_all(state, ["red-9", "blue-0", "green-0"])
    assert state["phase"] == "name"
    assert GAME.to_act(state) == [0, 1]  # seat 2 won nothing: nothing to name
    assert [a["color"] for a in GAME.legal_actions(state, 0)] == ["blue", "red", "green", "yellow"]
    assert GAME.legal_actions(state, 2) == []
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="won no brown card"):
        GAME.apply_action(state, 0, {"type": "name_pain", "color": "brown"})
    with pytest.raises(IllegalAction, match="not a colour"):
        GAME.apply_action(state, 0, {"type": "name_pain", "color": "pink"})
    with pytest.raises(IllegalAction, match="not to act"):
        GAME.apply_action(state, 2, {"type": "name_pain", "color": "blue"})
    assert snapshot(state) == before
    GAME.apply_action(state, 0, {"type": "name_pain", "color": "yellow"})
    assert GAME.to_act(state) == [1]
    for viewer in (1, 2, None):
        table = GAME.view(state, viewer)["table"]
        assert table["chosen"][0] is True and table["pain_colors"][0] is None
        assert "yellow" not in json.dumps(table["pain_colors"])
    assert GAME.view(state, 0)["table"]["pain_colors"][0] == ["yellow"]
    GAME.apply_action(state, 1, {"type": "name_pain", "color": "brown"})
    # seat 0: red-2 red-9 blue-0 green-0 +4, yellow -9; seat 1: blue +1, brown -7; seat 2: nothing
    assert state["deal_scores"] == [[-5, -6, 0]]
    assert GAME.view(state, None)["table"]["previous_deal"]["pain_colors"] == [
        ["yellow"], ["brown"], None]


def test_late_and_reverse_name_a_lucky_colour():
    state = late_position(reverse=True)
    play_all(state, ["red-9", "blue-0", "green-0"])
    GAME.apply_action(state, 0, {"type": "name_pain", "color": "red"})
    GAME.apply_action(state, 1, {"type": "name_pain", "color": "brown"})
    assert state["deal_scores"] == [[11 - 4, 7 - 1, 0]]


def test_late_and_mild_named_cards_cost_five():
    state = late_position(mild=True)
    play_all(state, ["red-9", "blue-0", "green-0"])
    GAME.apply_action(state, 0, {"type": "name_pain", "color": "yellow"})
    GAME.apply_action(state, 1, {"type": "name_pain", "color": "blue"})
    assert state["deal_scores"] == [[4 - 10, -5 + 1, 0]]


def test_late_and_tough_name_two_colours_or_the_only_one():
    state = in_play([["red-9"], ["blue-0"], ["green-0"]],
                    won=[["red-2", "yellow-4"], ["brown-6", "brown-7"], []], late=True, tough=True)
    play_all(state, ["red-9", "blue-0", "green-0"])
    assert GAME.legal_actions(state, 1) == [{"type": "name_pain", "colors": ["brown"]}]
    assert len(GAME.legal_actions(state, 0)) == 6  # two of blue, red, green, yellow
    before = snapshot(state)
    for seat, action, words in [
            (0, {"type": "name_pain", "color": "red"}, r"name 2 colour"),
            (0, {"type": "name_pain", "colors": ["red", "red"]}, "different"),
            (0, {"type": "name_pain", "colors": ["red", "brown"]}, "won no brown"),
            (1, {"type": "name_pain", "colors": ["brown", "red"]}, r"name 1 colour")]:
        with pytest.raises(IllegalAction, match=words):
            GAME.apply_action(state, seat, action)
        assert snapshot(state) == before
    GAME.apply_action(state, 0, {"type": "name_pain", "colors": ["yellow", "red"]})
    GAME.apply_action(state, 1, {"type": "name_pain", "colors": ["brown"]})
    assert state["deal_scores"] == [[-4 - 2 - 9 + 2, -13, 0]]


# --- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("seat, action, words", [
    (0, "play", "JSON object"),
    (0, {"card": "red-5"}, "unknown action type"),
    (0, {"type": "pass"}, "unknown action type"),
    (1, {"type": "play", "card": "blue-0"}, "seat 1 is not to act"),
    (0, {"type": "play", "card": "blue-0"}, "do not hold blue-0"),
    (0, {"type": "play", "card": "red-21"}, "not a card name"),
    (0, {"type": "play", "card": 5}, "not a card name"),
    (0, {"type": "play"}, "needs the field 'card'"),
    (0, {"type": "choose_pain", "card": "red-5"}, "time for 'play'"),
    (0, {"type": "name_pain", "color": "red"}, "time for 'play'"),
])
def test_illegal_plays_are_rejected_and_change_nothing(seat, action, words):
    state = in_play([["red-5", "blue-1"], ["blue-0", "blue-2"], ["green-0", "green-2"]])
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=words):
        GAME.apply_action(state, seat, action)
    assert snapshot(state) == before


@pytest.mark.parametrize("action, words", [
    ({"type": "play", "card": "red-5"}, "time for 'choose_pain'"),
    ({"type": "choose_pain"}, "exactly one of the fields 'card', 'cards'"),
    ({"type": "choose_pain", "cards": ["red-5", "blue-1"]}, "put down one card"),
    ({"type": "choose_pain", "card": "purple-1"}, "do not hold purple-1"),
])
def test_illegal_choices_are_rejected_and_change_nothing(action, words):
    state = new(4)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=words):
        GAME.apply_action(state, 0, action)
    assert snapshot(state) == before
    GAME.apply_action(state, 0, GAME.legal_actions(state, 0)[0])
    with pytest.raises(IllegalAction, match="do not hold"):
        GAME.apply_action(state, 0, GAME.legal_actions(state, 1)[0])


# --- views and record -------------------------------------------------------------------------
def test_view_shape_and_spectator():
    state = new(6, seed=12345678901)
    view = GAME.view(state, None)
    assert set(view) == {"seat", "phase", "deal", "scores", "hand", "table"}
    assert view["hand"] is None and view["deal"] == 1 and view["phase"] == "choose"
    assert set(view["table"]) == {
        "seat", "dealer", "leader", "turn", "to_act", "tricks_played", "tricks_per_deal", "trick",
        "led_color", "last_trick", "leftover", "chosen", "pain", "pain_colors", "collected",
        "collected_count", "deal_score", "deal_scores", "deals", "variants", "previous_deal",
        "tricks"}
    assert "12345678901" not in json.dumps(view)
    own = GAME.view(state, 2)
    assert own["hand"] == [CARD_NAMES[c] for c in state["hands"][2]]
    assert own["table"]["seat"] == 2
    assert set(own["table"]["collected"][0]) == {"blue", "red", "green", "yellow", "purple",
                                                 "brown"}
    assert set(GAME.view(new(5), 0)["table"]["collected"][0]) == {"blue", "red", "green", "yellow",
                                                                  "brown"}


def test_view_lists_variants():
    assert GAME.view(new(3, reverse=True, late=True), 0)["table"]["variants"] == ["reverse", "late"]


def test_record_holds_every_deal_as_dealt_with_its_scores():
    state = new(7, seed=3, deals=2)
    dealt = [[CARD_NAMES[c] for c in hand] for hand in state["hands"]]
    leftover = [CARD_NAMES[c] for c in state["leftover"]]
    finish_current_deal(state)
    record = GAME.record(state)
    assert record["seed"] == 3
    assert record["deals"][0] == {"dealer": 6, "hands": dealt, "leftover": leftover,
                                  "scores": state["deal_scores"][0]}
    assert record["deals"][1]["dealer"] == 0 and record["deals"][1]["scores"] is None
    json.dumps(record)


def test_unknown_bot_level_is_refused():
    state = new(3)
    with pytest.raises(ValueError, match="no bot level"):
        GAME.bot_action(GAME.view(state, 0), GAME.legal_actions(state, 0), "grandmaster", random.Random(1))


@pytest.mark.parametrize("players, seed, options", [(3, 1, {}), (4, 2, {"dark": True}),
                                                    (6, 3, {"late": True, "tough": True})])
def test_the_view_lists_every_trick_of_the_deal_as_it_was_played(players, seed, options):
    """Who played what, trick by trick: every card was played face up, so a player may
    remember it; the events, which everyone sees, are the witness. A new deal starts afresh."""
    rng = random.Random(seed)
    state = new(players, seed, deals=2, **options)
    tricks = []
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        for event in GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat))):
            if event["type"] == "trick_won":
                tricks.append({"cards": event["cards"], "winner": event["winner"]})
            elif event["type"] == "dealt":
                tricks = []
        for viewer in (None, *range(players)):
            table = GAME.view(state, viewer)["table"]
            assert table["tricks"] == tricks
            assert len(tricks) == table["tricks_played"]
    assert tricks
