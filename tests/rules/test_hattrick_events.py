"""Hattrick events: what each action reports, and that no seat learns a card it may not know."""
import json
import random

from hypothesis import given, settings, strategies as st

from rules.hattrick import GAME
from rules.hattrick.game import ALL_CARDS, SORT_KEY

CARD_NAMES = set(ALL_CARDS)


def new(players=4, seed=7, deals=5):
    return GAME.new_game(players, GAME.normalise_options(players, {"deals": deals}), seed)


def position(hands, deals=5):
    """Deal 1 of a 4-player game with the given hands; seat 0 leads."""
    state = new(len(hands), deals=deals)
    state["hands"] = [sorted(hand, key=SORT_KEY.__getitem__) for hand in hands]
    return state


def act(state, seat, kind, card):
    return GAME.apply_action(state, seat, {"type": kind, "card": card})


PADDED = [["red-9", "red-1", "red-2"], ["blue-14", "blue-1", "green-5"],
          ["red-11", "green-1", "green-2"], ["green-20", "blue-3", "green-3"]]


def test_a_played_card_is_one_public_event():
    state = position(PADDED)
    assert act(state, 0, "play", "red-9") == [{"type": "played", "seat": 0, "card": "red-9"}]


def test_a_pass_shows_its_card():
    state = position(PADDED)
    act(state, 0, "play", "red-9")
    act(state, 1, "play", "blue-14")
    act(state, 2, "play", "red-11")
    events = act(state, 3, "pass", "green-20")
    assert events[0] == {"type": "passed", "seat": 3, "card": "green-20"}


def test_the_trick_reports_each_colour_its_taker_and_the_next_leader():
    state = position(PADDED)
    act(state, 0, "play", "red-9")
    act(state, 1, "play", "blue-14")
    act(state, 2, "play", "red-11")
    events = act(state, 3, "pass", "green-20")
    # Red before blue whatever the playing order; the passed green card goes to nobody.
    assert events[1:] == [{"type": "trick_taken", "next_leader": 1, "taken": [
        {"seat": 2, "colour": "red", "cards": ["red-9", "red-11"]},
        {"seat": 1, "colour": "blue", "cards": ["blue-14"]}]}]


def test_the_last_trick_ends_the_deal_shows_the_set_aside_cards_and_deals_again():
    state = position([["red-9", "green-20"], ["blue-14", "green-19"], ["red-11", "green-18"],
                      ["blue-2", "green-17"]])
    state["piles"][0] = [["red-1", "red-2"], [], []]
    for seat, card in enumerate(["red-9", "blue-14", "red-11"]):
        act(state, seat, "play", card)
    events = act(state, 3, "play", "blue-2")
    assert [event["type"] for event in events] == ["played", "trick_taken", "deal_ended", "dealt"]
    assert events[2] == {"type": "deal_ended", "deal": 1,
                         "set_aside": ["green-20", "green-19", "green-18", "green-17"],
                         "scores": [2, 2, 2, 0], "totals": [2, 2, 2, 0]}
    # The new deal names no card: each seat reads its new hand from its own view.
    assert events[3] == {"type": "dealt", "deal": 2, "dealer": 0, "leader": 1, "hand_size": 15}


def test_the_last_deal_ends_the_game_with_the_outcome():
    state = position([["red-9", "green-20"], ["blue-14", "green-19"], ["red-11", "green-18"],
                      ["blue-2", "green-17"]], deals=1)
    for seat, card in enumerate(["red-9", "blue-14", "red-11"]):
        act(state, seat, "play", card)
    events = act(state, 3, "play", "blue-2")
    assert [event["type"] for event in events] == ["played", "trick_taken", "deal_ended", "game_over"]
    assert events[-1] == {"type": "game_over", "scores": [0, 2, 2, 0], "winners": [1, 2]}
    assert events[-1] == {"type": "game_over", **GAME.outcome(state)}


def cards_in(value) -> set[str]:
    """Every card name anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value} & CARD_NAMES
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    return set()


def seat_knowledge(state, seat) -> tuple[dict, set[str], set[str]]:
    """`seat`'s view, the cards it may know of the running deal (its view without the finished
    deal) and the finished deal's cards."""
    view = GAME.view(state, seat)
    previous = view["table"].pop("previous_deal")
    return view, cards_in(view), cards_in(previous)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=4, max_value=7), st.integers(min_value=10**12, max_value=10**15),
       st.integers(min_value=0, max_value=2**32))
def test_no_event_shows_a_seat_a_card_it_could_not_know(players, seed, choice):
    rng = random.Random(choice)
    state = new(players, seed, deals=2)
    before = [seat_knowledge(state, seat) for seat in range(players)]
    while GAME.outcome(state) is None:
        (actor,) = GAME.to_act(state)
        events = GAME.apply_action(state, actor, rng.choice(GAME.legal_actions(state, actor)))
        text = json.dumps(events)
        assert str(seed) not in text
        assert all(isinstance(event["type"], str) for event in events)
        deal_ended = any(event["type"] == "deal_ended" for event in events)
        after = [seat_knowledge(state, seat) for seat in range(players)]
        for seat in range(players):
            # Until "dealt" the events are about the deal that was running: what the seat saw
            # of it before and after the action, or, once it ended, the finished deal as a
            # whole; after "dealt" the only card the seat knows is its new hand.
            view, running, finished = after[seat]
            known = before[seat][1] | (finished if deal_ended else running)
            for event in events:
                if "to" in event and seat not in event["to"]:
                    continue
                if event["type"] == "dealt":
                    known = set(view["hand"])
                leaked = cards_in(event) - known
                assert not leaked, (seat, event, leaked)
        before = after
