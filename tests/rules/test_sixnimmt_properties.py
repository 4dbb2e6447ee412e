"""6 nimmt!: properties of random whole games, JSON survival, and the easy bot."""
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from rules.sixnimmt import GAME
from rules.sixnimmt.game import ROW_LIMIT, bullheads, default_row

SEEDS = st.integers(min_value=10**9, max_value=2**40)


def start(players, tactical, draft, threshold, seed):
    options = GAME.normalise_options(
        players, {"tactical_deck": tactical, "draft": draft, "threshold": threshold})
    return GAME.new_game(players, options, seed, recording=True)


def random_game(state, rng, check=None, chooser=None):
    """Plays to the end with uniformly random legal actions, calling `check` after each."""
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        action = chooser(state, seat, legal) if chooser else rng.choice(legal)
        GAME.apply_action(state, seat, action)
        if check:
            check(state)
    return state


def cards_everywhere(state):
    pending = [entry["card"] for entry in state["revealed"] or []]
    chosen = [card for card in state["chosen"] if card is not None]
    return (sum(state["hands"], []) + sum(state["rows"], []) + sum(state["taken"], [])
            + state["unused"] + (state["draft_display"] or []) + pending + chosen)


def cards_shown(view):
    """Every card of this round that the view shows, wherever the view shows cards."""
    table = view["table"]
    shown = list(view["hand"] or []) + sum(table["rows"], []) + (table["draft_display"] or [])
    shown += [entry["card"] for entry in table["revealed"] or []]
    # Before the round's first turn is complete, last_turn is the previous round's last turn.
    if table["turn"] > 1 or view["phase"] == "over":
        for placement in table["last_turn"] or []:
            shown += [placement["card"], *placement["took"]]
    for placement in table["played"]:
        shown += [placement["card"], *placement["took"]]
    if table["my_choice"] is not None:
        shown.append(table["my_choice"])
    return shown


def check_invariants(state):
    players = state["players"]
    assert Counter(cards_everywhere(state)) == Counter(range(1, state["cards_in_use"] + 1))
    assert all(len(row) <= ROW_LIMIT for row in state["rows"])
    assert state["round_penalties"] == [bullheads(cards) for cards in state["taken"]]
    assert state["scores"] == [sum(r[seat] for r in state["round_scores"])
                               + (0 if state["phase"] == "over" else state["round_penalties"][seat])
                               for seat in range(players)]
    if state["phase"] in ("choose", "take_row"):
        assert len({len(hand) + (card is not None) for hand, card
                    in zip(state["hands"], state["chosen"])}) == 1
    if state["phase"] == "take_row":
        assert GAME.to_act(state) == [state["revealed"][0]["seat"]]
        assert state["revealed"][0]["card"] < min(row[-1] for row in state["rows"])

    seed = str(state["seed"])
    for viewer in [*range(players), None]:
        view = GAME.view(state, viewer)
        assert seed not in json.dumps(view)
        secret = list(state["unused"])
        for seat in range(players):
            if seat != viewer:
                secret += state["hands"][seat]
                if state["chosen"][seat] is not None:
                    secret.append(state["chosen"][seat])
        assert not set(secret) & set(cards_shown(view))
        assert view["scores"] == state["scores"]
        assert view["hand"] == (None if viewer is None else sorted(state["hands"][viewer]))


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 10), tactical=st.booleans(), draft=st.booleans(),
       threshold=st.integers(1, 80), seed=SEEDS, play_seed=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(players, tactical, draft, threshold, seed, play_seed):
    state = start(players, tactical, draft, threshold, seed)
    check_invariants(state)
    random_game(state, random.Random(play_seed), check_invariants)
    outcome = GAME.outcome(state)
    assert max(outcome["scores"]) >= threshold
    assert outcome["winners"] == [s for s, v in enumerate(outcome["scores"])
                                  if v == min(outcome["scores"])]
    record = GAME.record(state)
    assert record["seed"] == seed
    assert len(record["deals"]) == state["deal"]
    assert [deal["scores"] for deal in record["deals"]] == state["round_scores"]
    for deal in record["deals"]:
        dealt = sum(deal["hands"], []) + deal["rows"] + deal["unused"]
        assert sorted(dealt) == list(range(1, state["cards_in_use"] + 1))
        assert all(len(hand) == 10 for hand in deal["hands"])
        if draft:
            assert sorted(deal["display"]) == sorted(sum(deal["hands"], []) + deal["rows"])


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 10), tactical=st.booleans(), draft=st.booleans(),
       seed=SEEDS, play_seed=st.integers(0, 2**32))
def test_a_game_replays_exactly_from_its_record_and_actions(players, tactical, draft, seed,
                                                             play_seed):
    rng = random.Random(play_seed)
    actions = []

    def remember(state, seat, legal):
        action = rng.choice(legal)
        actions.append((seat, action))
        return action

    played = random_game(start(players, tactical, draft, 30, seed), rng, chooser=remember)
    replay = start(players, tactical, draft, 30, GAME.record(played)["seed"])
    for seat, action in actions:
        GAME.apply_action(replay, seat, action)
    assert replay == played


@settings(max_examples=50, deadline=None)
@given(players=st.integers(2, 10), draft=st.booleans(), seed=SEEDS, play_seed=st.integers(0, 2**32))
def test_state_survives_a_json_round_trip_after_every_action(players, draft, seed, play_seed):
    rng = random.Random(play_seed)
    state = start(players, False, draft, 40, seed)
    twin = start(players, False, draft, 40, seed)
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        GAME.apply_action(state, seat, action)
        state = json.loads(json.dumps(state))
        GAME.apply_action(twin, seat, action)
        assert state == twin
        assert GAME.view(state, seat) == GAME.view(twin, seat)
    assert GAME.outcome(state) == GAME.outcome(twin)


@settings(max_examples=100, deadline=None)
@given(players=st.integers(2, 10), tactical=st.booleans(), draft=st.booleans(),
       seed=SEEDS, play_seed=st.integers(0, 2**32))
def test_easy_bot_always_returns_a_legal_action(players, tactical, draft, seed, play_seed):
    rng = random.Random(play_seed)
    bot_rng = random.Random(play_seed + 1)

    def bot_or_random(state, seat, legal):
        action = GAME.bot_action(GAME.view(state, seat), legal, "easy", bot_rng)
        assert action in legal
        if action["type"] == "take_row":
            assert action["row"] == default_row(state["rows"])
        return action if rng.random() < 0.7 else rng.choice(legal)

    random_game(start(players, tactical, draft, 40, seed), rng, chooser=bot_or_random)


@pytest.mark.parametrize("draft", [False, True])
def test_easy_bot_beats_random_play(draft):
    bot_scores, random_scores = [], []
    for seed in range(40):
        state = start(4, False, draft, 66, 10**9 + seed)
        rng = random.Random(seed)
        bot_seat = seed % 4

        def easy_at_one_seat(state, seat, legal):
            if seat == bot_seat:
                return GAME.bot_action(GAME.view(state, seat), legal, "easy", rng)
            return rng.choice(legal)

        scores = random_game(state, rng, chooser=easy_at_one_seat)["scores"]
        bot_scores.append(scores[bot_seat])
        random_scores += [score for seat, score in enumerate(scores) if seat != bot_seat]
    assert sum(bot_scores) / len(bot_scores) < 0.6 * sum(random_scores) / len(random_scores)


def test_easy_bot_avoids_the_sixth_card_and_takes_the_cheapest_row():
    state = start(2, False, False, 66, 10**9)
    state["rows"] = [[10, 11, 12, 13, 14], [40], [60], [80]]
    state["hands"] = [[15, 42], [90, 91]]
    view = GAME.view(state, 0)
    assert GAME.bot_action(view, GAME.legal_actions(state, 0), "easy", random.Random(1)) == \
        {"type": "play", "card": 42}
    state["rows"] = [[20, 22], [30, 55], [40, 41, 42], [60]]
    state["hands"] = [[5, 99], [90, 91]]
    GAME.apply_action(state, 0, {"type": "play", "card": 5})
    GAME.apply_action(state, 1, {"type": "play", "card": 90})
    action = GAME.bot_action(GAME.view(state, 0), GAME.legal_actions(state, 0), "easy",
                             random.Random(1))
    assert action == {"type": "take_row", "row": 3}
