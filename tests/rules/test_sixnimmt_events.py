"""6 nimmt!'s events: what a phone may animate and log, and nothing it may not know."""
import json
import random

from hypothesis import given, settings, strategies as st

from rules.sixnimmt import GAME


def new(players, **options):
    return GAME.new_game(players, GAME.normalise_options(players, options), 10**12 + players)


def test_a_turn_tells_who_chose_then_reveals_and_places():
    state = new(2)
    state.update(rows=[[10], [20], [30], [40]], hands=[[11, 12], [41, 42]])
    assert GAME.apply_action(state, 0, {"type": "play", "card": 12}) == [
        {"type": "chose", "seat": 0, "changed": False}]
    events = GAME.apply_action(state, 1, {"type": "play", "card": 41})
    assert events == [
        {"type": "chose", "seat": 1, "changed": False},
        {"type": "revealed", "cards": [{"seat": 0, "card": 12}, {"seat": 1, "card": 41}]},
        {"type": "placed", "seat": 0, "card": 12, "row": 0, "took": []},
        {"type": "placed", "seat": 1, "card": 41, "row": 3, "took": []},
    ]


def test_a_too_low_card_asks_for_a_row_then_tells_what_was_taken():
    state = new(2)
    state.update(rows=[[10], [20, 21], [30], [40]], hands=[[5, 6], [41, 42]])
    GAME.apply_action(state, 1, {"type": "play", "card": 41})
    events = GAME.apply_action(state, 0, {"type": "play", "card": 5})
    assert events[-1] == {"type": "row_choice", "seat": 0}
    assert GAME.apply_action(state, 0, {"type": "take_row", "row": 1}) == [
        {"type": "placed", "seat": 0, "card": 5, "row": 1, "took": [20, 21]},
        {"type": "placed", "seat": 1, "card": 41, "row": 3, "took": []},
    ]


def test_the_last_turn_of_a_round_tells_the_penalties_and_the_new_deal():
    state = new(2, threshold=200)
    while state["turn"] < 10 or state["hands"][0]:
        events = []
        for seat in (0, 1):
            events += GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
        if state["phase"] == "take_row":
            events += GAME.apply_action(state, state["row_chooser"], {"type": "take_row", "row": 0})
        if state["deal"] == 2:
            break
    assert events[-2]["type"] == "round_over" and events[-2]["round"] == 1
    assert events[-1] == {"type": "dealt", "round": 2}


def test_drafting_is_public_because_the_display_is_face_up():
    state = new(2, draft=True)
    card = state["draft_display"][0]
    assert GAME.apply_action(state, 0, {"type": "draft", "card": card}) == [
        {"type": "drafted", "seat": 0, "card": card}]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), draft=st.booleans())
def test_no_event_names_a_card_still_secret(seed, players, draft):
    rng = random.Random(seed)
    state = new(players, draft=draft, threshold=20)
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        events = GAME.apply_action(state, seat, action)
        json.dumps(events)
        assert all("to" not in event for event in events)
        if state["phase"] == "choose" and state["chosen"][seat] is not None:
            # The turn is still open, so the only news is that this seat chose: no card at all.
            assert events == [{"type": "chose", "seat": seat, "changed": events[0]["changed"]}]
