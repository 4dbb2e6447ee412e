"""Hattrick rules: options, dealing, every trick rule and leader tie break, scoring, errors."""
import json
import random

import pytest

from rules.base import IllegalAction, InvalidOptions
from rules.hattrick import GAME
from rules.hattrick.game import SORT_KEY, deal_score, deck_for, resolve_trick


def new(players=4, seed=7, **options):
    return GAME.new_game(players, GAME.normalise_options(players, options), seed, recording=True)


def position(hands, trick=(), leader=0, piles=None, passed=None):
    """A mid-deal position: `trick` is [(seat, card, passed)] played from `leader` on;
    trick cards are taken out of `hands`, passed ones laid in front of their seat."""
    players = len(hands)
    state = new(players)
    in_trick = {card for _seat, card, _passed in trick}
    state["hands"] = [sorted((c for c in hand if c not in in_trick), key=SORT_KEY.__getitem__)
                      for hand in hands]
    state["trick"] = [[seat, card, was_passed] for seat, card, was_passed in trick]
    state["leader"] = leader
    state["turn"] = (leader + len(trick)) % players
    state["piles"] = piles or [[[], [], []] for _ in range(players)]
    state["passed"] = passed or [[] for _ in range(players)]
    for seat, card, was_passed in trick:
        if was_passed:
            state["passed"][seat].append(card)
    return state


def play(state, seat, card):
    GAME.apply_action(state, seat, {"type": "play", "card": card})


def pass_(state, seat, card):
    GAME.apply_action(state, seat, {"type": "pass", "card": card})


FILLER = [["red-1", "red-2"], ["blue-1", "blue-2"], ["green-1", "green-2"], ["blue-3", "green-3"]]


def hands_with(first_cards, players=4):
    """Hands whose first card is given, padded so no deal ends after one trick."""
    return [[card] + FILLER[seat % 4] for seat, card in enumerate(first_cards)][:players]


# --- options and set-up ---------------------------------------------------------------

def test_options_default_and_validation():
    assert GAME.normalise_options(4, None) == {"deals": 5}
    assert GAME.normalise_options(7, {"deals": 1}) == {"deals": 1}
    for bad in (0, -2, "3", True, 2.5):
        with pytest.raises(InvalidOptions):
            GAME.normalise_options(4, {"deals": bad})
    with pytest.raises(InvalidOptions, match="unknown option"):
        GAME.normalise_options(4, {"rounds": 3})
    for players in (3, 8, "4", None):
        with pytest.raises(InvalidOptions):
            GAME.normalise_options(players, {})


def test_describe():
    described = GAME.describe()
    assert (described["type"], described["min_players"], described["max_players"]) == ("hattrick", 4, 7)
    assert described["lower_score_wins"] is False and described["rules_page"] == "hattrick.md"
    assert [level["name"] for level in described["bot_levels"]] == ["easy", "medium", "hard"]


@pytest.mark.parametrize("players,size", [(4, 15), (5, 12), (6, 10), (7, 9)])
def test_deal_sizes_and_deck(players, size):
    state = new(players)
    assert [len(hand) for hand in state["hands"]] == [size] * players
    dealt = sorted(card for hand in state["hands"] for card in hand)
    assert dealt == sorted(deck_for(players))
    assert len(dealt) == (63 if players == 7 else 60)
    zeros = {"red-0", "blue-0", "green-0"}
    assert (zeros <= set(dealt)) == (players == 7) and (zeros & set(dealt) == set()) == (players != 7)
    for hand in state["hands"]:
        assert hand == sorted(hand, key=SORT_KEY.__getitem__)


def test_same_seed_same_deal_other_seed_other_deal():
    assert new(5, seed=11)["hands"] == new(5, seed=11)["hands"]
    assert new(5, seed=11)["hands"] != new(5, seed=12)["hands"]


def test_deal_one_dealt_by_last_seat_seat_zero_leads():
    state = new(5)
    view = GAME.view(state, 0)
    assert (view["table"]["dealer"], view["table"]["leader"], view["table"]["turn"]) == (4, 0, 0)
    assert GAME.to_act(state) == [0] and view["deal"] == 1 and view["phase"] == "play"


# --- the double trick -----------------------------------------------------------------

def test_leader_plays_any_card_but_may_not_pass():
    state = position(hands_with(["green-9", "red-5", "blue-5", "green-5"]))
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"play"}
    with pytest.raises(IllegalAction, match="only once the trick shows two colours"):
        pass_(state, 0, "green-9")
    play(state, 0, "green-9")
    assert state["trick"] == [[0, "green-9", False]]


def test_one_colour_trick_anything_may_follow_no_pass():
    state = position(hands_with(["red-9", "blue-5", "red-5", "green-5"]), trick=[(0, "red-9", False)])
    assert GAME.legal_actions(state, 1) == [
        {"type": "play", "card": card} for card in ["blue-1", "blue-2", "blue-5"]]
    with pytest.raises(IllegalAction, match="only once the trick shows two colours"):
        pass_(state, 1, "blue-5")
    play(state, 1, "blue-5")
    assert GAME.view(state, 2)["table"]["trick_colours"] == ["red", "blue"]


def test_two_colour_trick_third_colour_may_not_be_played():
    state = position([["red-9", "red-1", "red-2"], ["blue-5", "blue-1", "blue-2"],
                      ["green-5", "red-3", "green-2"], ["green-9", "blue-3", "green-3"]],
                     trick=[(0, "red-9", False), (1, "blue-5", False)])
    with pytest.raises(IllegalAction, match="two colours: play red or blue, or pass"):
        play(state, 2, "green-5")
    assert GAME.legal_actions(state, 2) == [
        {"type": "play", "card": "red-3"}, {"type": "pass", "card": "green-2"},
        {"type": "pass", "card": "green-5"}]


def test_pass_shows_a_third_colour_card_and_lays_it_face_down():
    state = position([["red-9", "red-1", "red-2"], ["blue-5", "blue-1", "blue-2"],
                      ["green-5", "red-3", "green-2"], ["green-9", "blue-3", "green-3"]],
                     trick=[(0, "red-9", False), (1, "blue-5", False)])
    with pytest.raises(IllegalAction, match="third colour, not red"):
        pass_(state, 2, "red-3")
    pass_(state, 2, "green-5")
    assert state["hands"][2] == ["red-3", "green-2"]
    assert state["passed"][2] == ["green-5"]
    table = GAME.view(state, None)["table"]
    assert table["trick"][-1] == {"seat": 2, "card": "green-5", "passed": True}
    assert table["passed"][2] == ["green-5"] and table["passed_counts"] == [0, 0, 1, 0]
    assert table["trick_colours"] == ["red", "blue"]
    assert table["deal_scores"] == [0, 0, -2, 0]


def test_holding_only_third_colour_cards_must_pass():
    state = position([["red-9", "red-1", "red-2"], ["blue-5", "blue-1", "blue-2"],
                      ["green-5", "green-1", "green-2"], ["green-9", "blue-3", "green-3"]],
                     trick=[(0, "red-9", False), (1, "blue-5", False)])
    assert {a["type"] for a in GAME.legal_actions(state, 2)} == {"pass"}
    assert len(GAME.legal_actions(state, 2)) == 3


def test_without_third_colour_cards_no_pass_is_possible():
    state = position([["red-9", "red-1", "red-2"], ["blue-5", "blue-1", "blue-2"],
                      ["red-5", "blue-4", "red-7"], ["green-9", "blue-3", "green-3"]],
                     trick=[(0, "red-9", False), (1, "blue-5", False)])
    assert {a["type"] for a in GAME.legal_actions(state, 2)} == {"play"}


def test_passed_card_does_not_add_a_colour():
    state = position(hands_with(["red-9", "blue-5", "green-5", "green-7"]),
                     trick=[(0, "red-9", False), (1, "blue-5", False), (2, "green-5", True)])
    with pytest.raises(IllegalAction, match="two colours"):
        play(state, 3, "green-7")


def test_everyone_acts_once_then_the_trick_ends():
    state = position(hands_with(["red-9", "red-5", "red-12", "red-3"]))
    for seat, card in enumerate(["red-9", "red-5", "red-12"]):
        play(state, seat, card)
        assert len(state["trick"]) == seat + 1
    play(state, 3, "red-3")
    assert state["trick"] == []
    assert [len(hand) for hand in state["hands"]] == [2, 2, 2, 2]


def test_one_colour_trick_goes_to_highest_card_who_leads():
    state = position(hands_with(["red-9", "red-5", "red-12", "red-3"]))
    for seat, card in enumerate(["red-9", "red-5", "red-12", "red-3"]):
        play(state, seat, card)
    assert state["piles"][2][0] == ["red-9", "red-5", "red-12", "red-3"]
    assert state["leader"] == state["turn"] == 2
    last = GAME.view(state, 0)["table"]["last_trick"]
    assert last["taken"] == {"red": 2} and last["next_leader"] == 2
    assert [entry["card"] for entry in last["cards"]] == ["red-9", "red-5", "red-12", "red-3"]


def test_each_colour_goes_to_its_highest_card_higher_winner_leads():
    state = position(hands_with(["red-9", "blue-14", "red-11", "blue-2"]))
    for seat, card in enumerate(["red-9", "blue-14", "red-11", "blue-2"]):
        play(state, seat, card)
    assert state["piles"][2] == [["red-9", "red-11"], [], []]
    assert state["piles"][1] == [[], ["blue-14", "blue-2"], []]
    assert state["leader"] == 1
    assert GAME.view(state, 3)["table"]["last_trick"]["taken"] == {"red": 2, "blue": 1}


def test_passed_cards_go_to_nobody():
    state = position(hands_with(["red-9", "blue-14", "green-20", "blue-2"]),
                     trick=[(0, "red-9", False), (1, "blue-14", False), (2, "green-20", True)])
    play(state, 3, "blue-2")
    assert state["piles"][0] == [["red-9"], [], []]
    assert state["piles"][1] == [[], ["blue-14", "blue-2"], []]
    assert state["piles"][2] == [[], [], []] and state["passed"][2] == ["green-20"]
    assert state["leader"] == 1


def test_twenty_always_wins():
    state = position(hands_with(["red-19", "red-20", "blue-19", "red-18"]))
    for seat, card in enumerate(["red-19", "red-20", "blue-19", "red-18"]):
        play(state, seat, card)
    assert state["piles"][1][0] == ["red-19", "red-20", "red-18"] and state["leader"] == 1


# --- leader tie breaks (direct on complete tricks) ---------------------------------------

def trick(*entries):
    """A complete trick led by seat 0; a leading "~" marks a passed card."""
    return [[seat, card.lstrip("~"), card.startswith("~")] for seat, card in enumerate(entries)]


def test_equal_winners_next_highest_card_leads_even_if_it_took_nothing():
    taken, leader = resolve_trick(trick("red-15", "blue-15", "red-14", "blue-3"))
    assert taken == {0: 0, 1: 1} and leader == 2


def test_equal_winners_highest_of_the_other_played_cards_leads():
    _taken, leader = resolve_trick(trick("red-15", "blue-15", "blue-2", "red-3", "blue-9"))
    assert leader == 4
    _taken, leader = resolve_trick(trick("red-15", "blue-15", "blue-2", "red-3"))
    assert leader == 3


def test_equal_winners_passed_cards_do_not_count_as_next_highest():
    _taken, leader = resolve_trick(trick("red-15", "blue-15", "~green-19", "red-4"))
    assert leader == 3


def test_equal_next_highest_cards_go_by_colour():
    _taken, leader = resolve_trick(trick("blue-15", "red-15", "blue-7", "red-7", "red-2"))
    assert leader == 3  # red-7 before blue-7
    _taken, leader = resolve_trick(trick("green-15", "blue-15", "green-7", "blue-7"))
    assert leader == 3  # blue-7 before green-7


def test_equal_winners_and_no_other_card_go_by_colour():
    assert resolve_trick(trick("blue-15", "red-15", "~green-3", "~green-9"))[1] == 1
    assert resolve_trick(trick("green-8", "blue-8", "~red-3", "~red-9"))[1] == 1
    assert resolve_trick(trick("green-8", "red-8", "~blue-3", "~blue-9"))[1] == 1
    assert resolve_trick(trick("red-8", "green-8", "~blue-3", "~blue-9"))[1] == 0


def test_seven_players_zero_is_an_ordinary_lowest_card():
    taken, leader = resolve_trick(trick("red-0", "blue-0", "~green-3", "~green-4", "~green-5",
                                        "~green-6", "~green-7"))
    assert taken == {0: 0, 1: 1} and leader == 0
    taken, leader = resolve_trick(trick("red-0", "red-1", "blue-0", "~green-3", "~green-4",
                                        "~green-5", "~green-6"))
    assert taken == {0: 1, 1: 2} and leader == 1


def test_leader_tie_break_through_apply_action():
    state = position(hands_with(["blue-15", "red-15", "red-14", "blue-3"]))
    for seat, card in enumerate(["blue-15", "red-15", "red-14", "blue-3"]):
        play(state, seat, card)
    assert state["leader"] == state["turn"] == 2
    assert GAME.view(state, 2)["table"]["last_trick"] == {
        "cards": [{"seat": 0, "card": "blue-15", "passed": False},
                  {"seat": 1, "card": "red-15", "passed": False},
                  {"seat": 2, "card": "red-14", "passed": False},
                  {"seat": 3, "card": "blue-3", "passed": False}],
        "taken": {"blue": 0, "red": 1}, "next_leader": 2}


def test_trick_may_start_with_any_leader_and_wraps_round():
    state = position(hands_with(["red-1", "red-5", "blue-6", "blue-7"]), leader=2)
    state["hands"][0] = ["red-1", "red-11", "green-4"]
    for seat, card in [(2, "blue-6"), (3, "blue-7"), (0, "red-11"), (1, "red-5")]:
        assert GAME.to_act(state) == [seat]
        play(state, seat, card)
    assert state["leader"] == 0  # red-11 beats blue-7


# --- scoring and the end of a deal ----------------------------------------------------------

def test_rule_book_scoring_example():
    piles = [[f"red-{v}" for v in range(1, 10)], ["blue-1", "blue-2"], [f"green-{v}" for v in range(1, 5)]]
    assert deal_score(piles, ["green-20"]) == 9 - 2 - 4 - 2 == 1


def test_scoring_ties_between_best_colours_and_empty_piles():
    assert deal_score([["red-1", "red-2"], ["blue-1", "blue-2"], ["green-3"]], []) == 2 - 2 - 1
    assert deal_score([[], [], []], []) == 0
    assert deal_score([[], [], []], ["red-1", "blue-2"]) == -4
    assert deal_score([[], ["blue-4"], []], []) == 1


def test_last_card_is_set_aside_unscored_and_next_deal_starts():
    # Four players with two cards each: one trick, then the last card is set aside.
    state = position([["red-9", "green-20"], ["blue-14", "green-19"], ["red-11", "green-18"],
                      ["blue-2", "green-17"]])
    state["piles"][0] = [["red-1", "red-2"], [], []]
    for seat, card in enumerate(["red-9", "blue-14", "red-11", "blue-2"]):
        play(state, seat, card)
    assert state["deal"] == 2 and state["sheet"] == [[2, 2, 2, 0]] and state["match"] == [2, 2, 2, 0]
    view = GAME.view(state, 3)
    assert view["scores"] == [2, 2, 2, 0]
    end = view["table"]["previous_deal"]
    assert end["deal"] == 1 and end["set_aside"] == ["green-20", "green-19", "green-18", "green-17"]
    assert end["scores"] == [2, 2, 2, 0]
    assert end["piles"][0] == {"red": ["red-1", "red-2"], "blue": [], "green": []}
    assert end["last_trick"]["next_leader"] == 1
    # Deal 2: dealt by seat 0, seat 1 leads, fresh piles, full hands.
    assert (view["table"]["dealer"], view["table"]["leader"], GAME.to_act(state)) == (0, 1, [1])
    assert view["table"]["last_trick"] is None and view["table"]["deal_scores"] == [0, 0, 0, 0]
    assert view["table"]["hand_sizes"] == [15] * 4
    assert GAME.record(state)["deals"][0]["scores"] == [2, 2, 2, 0]


def test_leader_moves_one_seat_each_deal_and_game_ends_after_the_deals():
    state = new(4, deals=3)
    leaders = []
    while GAME.outcome(state) is None:
        if not state["trick"] and len(state["hands"][0]) == 15:
            leaders.append((state["deal"], state["dealer"], state["turn"]))
        seat = GAME.to_act(state)[0]
        GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
    assert leaders == [(1, 3, 0), (2, 0, 1), (3, 1, 2)]
    outcome = GAME.outcome(state)
    assert outcome["scores"] == [sum(deal[s] for deal in state["sheet"]) for s in range(4)]
    best = max(outcome["scores"])
    assert outcome["winners"] == [s for s, score in enumerate(outcome["scores"]) if score == best]
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, 0) == []
    view = GAME.view(state, 0)
    assert view["phase"] == "over" and view["table"]["turn"] is None and view["hand"] == []
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply_action(state, 0, {"type": "play", "card": "red-1"})


def test_shared_win():
    state = new(4, deals=1)
    state["phase"], state["match"] = "over", [3, 5, 5, -1]
    assert GAME.outcome(state) == {"scores": [3, 5, 5, -1], "winners": [1, 2]}


# --- rejected actions leave the state untouched -----------------------------------------------

@pytest.mark.parametrize("seat,action,reason", [
    (1, {"type": "play", "card": "blue-1"}, "seat 1 is not to act now"),
    (0, ["play", "red-1"], "must be a JSON object"),
    (0, {"type": "discard", "card": "red-1"}, "unknown action type"),
    (0, {"type": "play"}, "needs the field 'card'"),
    (0, {"type": "play", "card": 5}, "is not a card name"),
    (0, {"type": "play", "card": "purple-3"}, "is not a card name"),
    (0, {"type": "play", "card": "red-21"}, "is not a card name"),
    (0, {"type": "play", "card": "blue-9"}, "not in your hand"),
    (0, {"type": "play", "card": "red-9", "row": 1}, "unexpected field"),
    (0, {"type": "pass", "card": "red-9"}, "only once the trick shows two colours"),
])
def test_illegal_actions_are_explained_and_change_nothing(seat, action, reason):
    state = position(hands_with(["red-9", "blue-5", "green-5", "green-7"]))
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply_action(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before


def test_illegal_pass_and_play_in_two_colour_trick_change_nothing():
    state = position([["red-9", "red-1", "red-2"], ["blue-5", "blue-1", "blue-2"],
                      ["green-5", "red-3", "green-2"], ["green-9", "blue-3", "green-3"]],
                     trick=[(0, "red-9", False), (1, "blue-5", False)])
    before = json.dumps(state, sort_keys=True)
    for action in ({"type": "play", "card": "green-5"}, {"type": "pass", "card": "red-3"}):
        with pytest.raises(IllegalAction):
            GAME.apply_action(state, 2, action)
        assert json.dumps(state, sort_keys=True) == before


# --- views and records -------------------------------------------------------------------------

def test_view_shape_and_privacy_at_start():
    state = new(6, seed=918273645546372819)
    own = GAME.view(state, 2)
    assert set(own) == {"seat", "phase", "deal", "scores", "hand", "table"}
    assert own["hand"] == state["hands"][2]
    assert set(own["table"]) == {"deals", "dealer", "leader", "turn", "hand_sizes", "trick",
                                 "trick_colours", "piles", "passed", "passed_counts", "deal_scores",
                                 "sheet", "last_trick", "tricks", "previous_deal"}
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None
    for view in (own, spectator):
        text = json.dumps(view)
        assert "918273645546372819" not in text and "seed" not in text
        hidden = [card for seat, hand in enumerate(state["hands"]) if view["hand"] != hand for card in hand]
        assert not any(f'"{card}"' in text for card in hidden)


def test_view_is_a_copy():
    state = position(hands_with(["red-9", "blue-5", "green-5", "green-7"]))
    play(state, 0, "red-9")
    play(state, 1, "blue-5")
    pass_(state, 2, "green-5")
    play(state, 3, "blue-3")
    before = json.dumps(state, sort_keys=True)
    view = GAME.view(state, 0)
    view["hand"].clear()
    view["table"]["piles"][0]["red"].append("x")
    view["table"]["last_trick"]["cards"].clear()
    view["table"]["passed"][2].append("x")
    assert json.dumps(state, sort_keys=True) == before


def test_record_holds_each_deal_as_dealt():
    state = new(5, seed=99, deals=2)
    first_hands = [list(hand) for hand in state["hands"]]
    record = GAME.record(state)
    assert record == {"seed": 99, "deals": [{"dealer": 4, "hands": first_hands, "scores": None}]}


# --- the easy bot ----------------------------------------------------------------------------

def bot_choice(state):
    seat = GAME.to_act(state)[0]
    return GAME.bot_action(GAME.view(state, seat), GAME.legal_actions(state, seat), "easy",
                           random.Random(1))


def test_bot_passes_rather_than_take_many_unwanted_cards():
    hands = [["red-10", "red-1"], ["blue-5", "blue-1"], ["red-3", "red-2"], ["blue-2", "blue-3"],
             ["red-4", "red-5"], ["red-20", "green-1"]]
    piles = [[[], [], []] for _ in range(6)]
    piles[5] = [[], ["blue-6", "blue-7", "blue-8", "blue-9", "blue-10"], []]
    state = position(hands, piles=piles, trick=[(0, "red-10", False), (1, "blue-5", False),
                                                (2, "red-3", False), (3, "blue-2", False),
                                                (4, "red-4", False)])
    assert bot_choice(state) == {"type": "pass", "card": "green-1"}


def test_bot_takes_its_own_colour_when_it_surely_wins():
    piles = [[[], [], []] for _ in range(4)]
    piles[3] = [["red-11", "red-12", "red-13"], [], []]
    state = position([["red-1", "red-5"], ["blue-1", "blue-9"], ["red-7", "red-3"],
                      ["red-8", "red-2", "green-1"]], piles=piles,
                     trick=[(0, "red-5", False), (1, "blue-9", False), (2, "red-7", False)])
    assert bot_choice(state) == {"type": "play", "card": "red-8"}


def test_bot_ducks_another_colour_with_its_highest_losing_card():
    piles = [[[], [], []] for _ in range(4)]
    piles[3] = [["red-11", "red-12", "red-13"], [], []]
    state = position([["blue-1", "blue-15"], ["blue-3", "green-9"], ["blue-4", "blue-5"],
                      ["blue-2", "blue-14", "blue-16", "green-3"]], piles=piles,
                     trick=[(0, "blue-15", False), (1, "green-9", False), (2, "blue-4", False)])
    assert bot_choice(state) == {"type": "play", "card": "blue-14"}


def test_bot_rejects_unknown_level():
    state = new()
    with pytest.raises(ValueError, match="no bot level"):
        GAME.bot_action(GAME.view(state, 0), GAME.legal_actions(state, 0), "grandmaster", random.Random(1))


@pytest.mark.parametrize("players, seed", [(4, 1), (5, 2), (7, 3)])
def test_the_view_lists_every_trick_of_the_deal_as_it_was_played(players, seed):
    """Who played (or passed) what, trick by trick: all of it was shown, so a player may
    remember it; the events, which everyone sees, are the witness. A new deal starts afresh."""
    rng = random.Random(seed)
    state = new(players, seed, deals=2)
    tricks, current = [], []
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        events = GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for event in events:
            if event["type"] in ("played", "passed"):
                current.append({"seat": event["seat"], "card": event["card"],
                                "passed": event["type"] == "passed"})
            elif event["type"] == "trick_taken":
                tricks.append({"cards": current, "next_leader": event["next_leader"],
                               "taken": {taken["colour"]: taken["seat"] for taken in event["taken"]}})
                current = []
            elif event["type"] == "dealt":
                tricks = []
        for viewer in (None, *range(players)):
            table = GAME.view(state, viewer)["table"]
            assert table["tricks"] == tricks
            assert table["last_trick"] == (tricks[-1] if tricks else None)
    assert tricks
