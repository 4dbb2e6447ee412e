"""Hattrick's search bots: legal, blind to hidden cards, within budget, repeatable, and
built on a compact simulator that agrees with the rules engine."""
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hattrick import GAME
from rules.hattrick.game import SORT_KEY
from rules.hattrick.search import Deal, Seen, distinct_candidates, name, target_colour
from rules.search import Budget

SEARCH_LEVELS = ("medium", "hard")


def random_position(players: int, deals: int, seed: int) -> dict:
    """A state some random moves into the match, possibly past the first deal."""
    rng = random.Random(seed)
    state = GAME.new_game(players, GAME.normalise_options(players, {"deals": deals}), seed)
    for _ in range(rng.randrange(players * 9 * deals)):
        seat = GAME.to_act(state)[0]
        GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if GAME.outcome(state) is not None:
            return random_position(players, deals, seed + 1000)
    return state


def positions(count: int):
    for index in range(count):
        players = 4 + index % 4
        yield random_position(players, deals=1 + index % 2, seed=index)


def decide(state: dict, level: str, budget: Budget, seed: int = 5) -> dict:
    seat = GAME.to_act(state)[0]
    return GAME.bot_action(GAME.view(state, seat), GAME.legal_actions(state, seat), level,
                           random.Random(seed), budget)


def actions_as_names(moves) -> set:
    return {("pass" if is_pass else "play", name(colour, value)) for is_pass, colour, value in moves}


@pytest.mark.parametrize("seed", range(40))
def test_the_simulator_agrees_with_the_rules_to_the_end_of_the_deal(seed):
    state = random_position(4 + seed % 4, deals=1, seed=seed)
    seat = GAME.to_act(state)[0]
    hidden = {other: list(hand) for other, hand in enumerate(state["hands"]) if other != seat}
    deal = Seen.of(GAME.view(state, seat)).deal_with(hidden)
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        assert deal.turn == GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, deal.turn)
        assert actions_as_names(deal.legal()) == {(a["type"], a["card"]) for a in legal}
        action = rng.choice(legal)
        GAME.apply_action(state, deal.turn, action)
        colour, value = action["card"].split("-")
        deal.apply(action["type"] == "pass", ("red", "blue", "green").index(colour), int(value))
    assert deal.over()
    assert deal.scores() == state["sheet"][-1]


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_search_bots_only_choose_legal_actions(level):
    for state in positions(48):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert decide(state, level, Budget(iterations=12)) in legal


def swap_hidden_cards(state: dict, seat: int, rng: random.Random) -> dict:
    """The same state but for one card swapped between two other seats' hands."""
    swapped = {**state, "hands": [list(hand) for hand in state["hands"]]}
    first, second = rng.sample([s for s in range(state["players"]) if s != seat], 2)
    a, b = rng.choice(swapped["hands"][first]), rng.choice(swapped["hands"][second])
    for owner, gives, gets in ((first, a, b), (second, b, a)):
        hand = swapped["hands"][owner]
        hand.remove(gives)
        hand.append(gets)
        hand.sort(key=SORT_KEY.__getitem__)
    return swapped


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_the_search_sees_nothing_beyond_the_view(level):
    rng = random.Random(11)
    for state in positions(16):
        seat = GAME.to_act(state)[0]
        other = swap_hidden_cards(state, seat, rng)
        assert other["hands"] != state["hands"]
        assert GAME.view(other, seat) == GAME.view(state, seat)
        budget = Budget(iterations=60)
        assert decide(other, level, budget) == decide(state, level, budget)


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_an_iteration_budget_makes_the_choice_repeatable(level):
    for state in positions(8):
        budget = Budget(iterations=80)
        choices = {str(decide(state, level, budget, seed=3)) for _ in range(3)}
        assert len(choices) == 1


def test_the_time_budget_is_kept():
    for state in positions(5):
        for level in SEARCH_LEVELS:
            started = time.process_time()
            decide(state, level, Budget(seconds=0.2))
            assert time.process_time() - started <= 0.22


def last_seat_facing_a_big_red_trick(hand: list[str]) -> dict:
    """Seat 3 has collected blue; seats 0-2 played three reds in the deal's last trick."""
    state = GAME.new_game(4, GAME.normalise_options(4, {"deals": 1}), 1)
    state["hands"] = [["green-1"], ["green-3"], ["green-5"], hand]
    state["trick"] = [[0, "red-10", False], [1, "red-12", False], [2, "red-14", False]]
    state["piles"] = [[[], [], []], [[], [], []], [[], [], []],
                      [[], ["blue-1", "blue-2", "blue-3", "blue-4"], []]]
    state["leader"], state["turn"] = 0, 3
    return state


@pytest.mark.parametrize("level", SEARCH_LEVELS)
@pytest.mark.parametrize("hand, best", [
    (["red-3", "red-20"], "red-3"),      # ducking costs nothing, taking costs 4
    (["green-9", "red-20"], "green-9"),  # opening green costs 1, taking red 4
])
def test_the_search_avoids_taking_an_unwanted_colour(level, hand, best):
    choice = decide(last_seat_facing_a_big_red_trick(hand), level, Budget(iterations=20))
    assert choice == {"type": "play", "card": best}


def test_cards_with_nothing_live_between_them_count_once():
    state = last_seat_facing_a_big_red_trick(
        ["red-3", "red-4", "red-13", "red-15", "red-16", "green-9"])
    seen = Seen.of(GAME.view(state, 3))
    assert "red-11" in seen.unseen
    kept = distinct_candidates(seen, GAME.legal_actions(state, 3))
    # red-3/red-4 are alike; red-13 and red-15 differ by the red-14 in the trick;
    # red-15/red-16 are alike; the green is a card of its own.
    assert [action["card"] for action in kept] == ["red-3", "red-13", "red-15", "green-9"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=3, max_size=3),
       st.lists(st.integers(0, 7), min_size=3, max_size=3))
def test_the_playout_target_is_the_colour_most_taken_then_most_held(piles, held):
    hand = [list(range(1, count + 1)) for count in held]
    deal = Deal(4, [hand, [[], [], []], [[], [], []], [[], [], []]],
                [piles, [0, 0, 0], [0, 0, 0], [0, 0, 0]], [0] * 4, [], 0)
    weights = [3 * taken + count for taken, count in zip(piles, held)]
    # The first colour of the highest weight: ties go to red, then blue.
    assert target_colour(deal, 0) == weights.index(max(weights))


def test_the_search_reads_the_match_totals_of_finished_deals():
    state = random_position(4, deals=3, seed=11)
    while state["deal"] < 2:
        seat = GAME.to_act(state)[0]
        GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
    seat = GAME.to_act(state)[0]
    seen = Seen.of(GAME.view(state, seat))
    assert seen.totals == state["match"] and any(seen.totals)
