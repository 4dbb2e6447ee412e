"""What every game in the registry must do, whatever its rules."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rules import GAMES, IllegalAction, InvalidOptions
from rules.base import DEALT
from rules.search import Budget

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)


# Every game's action types and fields, so one game is also tried with another's actions.
DECLARED_TYPES = sorted({action.type for game in GAMES.values() for action in game.actions})
DECLARED_FIELDS = sorted({field.name for game in GAMES.values() for action in game.actions
                          for field in action.fields})


def action_like(game_name):
    """Mostly well-shaped actions with wrong values, sometimes anything at all."""
    types = st.sampled_from([*DECLARED_TYPES, "nope"])
    fields = st.sampled_from(DECLARED_FIELDS)
    shaped = st.builds(lambda t, extra: {"type": t, **extra}, types,
                       st.dictionaries(fields, json_values, max_size=2))
    return shaped | json_values


def random_game(game, players, seed):
    # Seeds are large in service, and a long seed can be searched for in views.
    return game.new_game(players, game.normalise_options(players, {}), 10**15 + seed,
                         recording=True)


def step_randomly(game, state, rng):
    seat = rng.choice(game.to_act(state))
    legal = game.legal_actions(state, seat)
    assert legal, "a seat to act must have a legal action"
    events = game.apply_action(state, seat, rng.choice(legal))
    assert isinstance(events, list) and all(isinstance(e["type"], str) for e in events)
    for event in events:
        assert set(event.get("to", [])) <= set(range(len(game.view(state, None)["scores"])))
    json.dumps(events)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_end_and_survive_json_round_trips(name):
    game = GAMES[name]
    for players in range(game.min_players, game.max_players + 1):
        rng = random.Random(players)
        state = random_game(game, players, seed=players)
        steps = 0
        while game.outcome(state) is None:
            step_randomly(game, state, rng)
            state = json.loads(json.dumps(state))
            steps += 1
            assert steps < 20_000
        outcome = game.outcome(state)
        assert len(outcome["scores"]) == players and outcome["winners"]
        assert game.to_act(state) == []
        assert len(game.record(state)["deals"]) >= 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_state_in_play_keeps_no_deals_and_plays_as_a_recording_one(name):
    """The server plays without recording: the same events and views, and a state that does
    not grow with the deals played (the record is rebuilt by replaying)."""
    game = GAMES[name]
    players = min(game.min_players + 1, game.max_players)
    options = game.normalise_options(players, {})
    recording = game.new_game(players, options, 10**15 + 7, recording=True)
    playing = game.new_game(players, options, 10**15 + 7)
    rng = random.Random(7)
    largest, deals = 0, set()
    while game.outcome(recording) is None:
        seat = rng.choice(game.to_act(recording))
        action = rng.choice(game.legal_actions(recording, seat))
        assert game.apply_action(playing, seat, action) == game.apply_action(recording, seat, action)
        assert playing == {key: value for key, value in recording.items() if key != DEALT}
        for viewer in [None, *range(players)]:
            assert game.view(playing, viewer) == game.view(recording, viewer)
        largest = max(largest, len(json.dumps(playing)))
        deals.add(game.view(playing, None)["deal"])
    assert len(deals) > 1, "the game played more than one deal"
    assert largest <= 8 * 1024


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 60), data=st.data())
def test_malformed_actions_are_rejected_with_a_reason_and_change_nothing(name, seed, steps, data):
    game = GAMES[name]
    rng = random.Random(seed)
    state = random_game(game, game.min_players + seed % (game.max_players - game.min_players + 1), seed)
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        step_randomly(game, state, rng)
    before = json.dumps(state, sort_keys=True)
    action = data.draw(action_like(name))
    seat = data.draw(st.integers(-1, game.max_players + 1))
    legal = game.legal_actions(state, seat) if 0 <= seat < len(state_seats(game, state)) else []
    if action in legal:
        return
    with pytest.raises(IllegalAction) as rejected:
        game.apply_action(state, seat, action)
    assert str(rejected.value)
    assert json.dumps(state, sort_keys=True) == before


def state_seats(game, state):
    return game.view(state, None)["scores"]


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 200))
def test_views_hide_the_seed_and_the_bot_picks_a_legal_action(name, seed, steps):
    game = GAMES[name]
    rng = random.Random(seed)
    players = game.min_players + seed % (game.max_players - game.min_players + 1)
    state = random_game(game, players, seed)
    for _ in range(steps):
        if game.outcome(state) is not None:
            return
        step_randomly(game, state, rng)
    for seat in [None, *range(players)]:
        view = game.view(state, seat)
        assert set(view) == {"seat", "phase", "deal", "scores", "hand", "table"}
        assert str(state["seed"]) not in json.dumps(view)
        assert view["seat"] == seat
        assert (view["hand"] is None) == (seat is None)
    for seat in game.to_act(state):
        legal = game.legal_actions(state, seat)
        for level in game.bot_levels:
            choice = game.bot_action(game.view(state, seat), legal, level.name, random.Random(seed),
                                     Budget(iterations=8))
            assert choice in legal


@pytest.mark.parametrize("name", sorted(GAMES))
def test_player_counts_and_option_types_are_checked(name):
    game = GAMES[name]
    described = game.describe()
    assert described["type"] == name and described["bot_levels"]
    defaults = game.normalise_options(game.min_players, {})
    assert defaults == {o["name"]: o["default"] for o in described["options"]}
    for players in (game.min_players - 1, game.max_players + 1, "4", True):
        with pytest.raises(InvalidOptions):
            game.normalise_options(players, {})
    with pytest.raises(InvalidOptions):
        game.normalise_options(game.min_players, {"no_such_option": 1})
    for option in game.options:
        wrong = "yes" if option.type != "choice" else "no such choice"
        with pytest.raises(InvalidOptions):
            game.normalise_options(game.min_players, {option.name: wrong})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_table_benches_and_tests_play_is_one_the_game_seats(name):
    game = GAMES[name]
    assert game.min_players <= game.typical_players <= game.max_players
    for players in range(game.min_players, game.max_players + 1):
        assert game.normalise_options(players, game.quick_options).items() >= \
            game.quick_options.items()


def undescribed(shape, where):
    """The fields of a shape, nested ones too, that have no description."""
    for name, field in shape.get("properties", {}).items():
        if "const" in field:
            continue  # an event's type, told by the event's own description
        if "description" not in field:
            yield f"{where}.{name}"
        yield from undescribed(field, f"{where}.{name}")
    for inner in ("items", "additionalProperties"):
        if isinstance(shape.get(inner), dict):
            yield from undescribed(shape[inner], f"{where}[]")
    for alternative in shape.get("anyOf", []):
        yield from undescribed(alternative, where)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_table_and_every_event_describe_every_field(name):
    game = GAMES[name]
    assert game.table_shape["description"]
    missing = list(undescribed(game.table_shape, "table"))
    for shape in game.event_shapes:
        assert shape["description"]
        missing += undescribed(shape, shape["properties"]["type"]["const"])
    assert missing == []
