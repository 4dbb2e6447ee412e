"""The published contract: a valid OpenAPI document whose per-game schemas fit what the
games really show, act on and log."""
import json
import random

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from api.http.contract import example_view, prefix
from rules import GAMES


@pytest.fixture(scope="module")
def spec(redis_url):
    """Read once: the spec has a budget, counted on the queue's Redis."""
    from api.http import create_app
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    return app.test_client().get("/api/openapi.json").get_json()


def validator(spec, name):
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": spec["components"]})


def test_the_spec_is_valid_openapi_with_named_tagged_operations(spec):
    validate(spec)
    names = [(path, method, op.get("operationId"), op.get("tags"))
             for path, item in spec["paths"].items() for method, op in item.items()
             if isinstance(op, dict) and "responses" in op]
    assert all(name and tags for _, _, name, tags in names)
    assert len({name for _, _, name, _ in names}) == len(names)
    assert {"createPlayer", "createGame", "getGame", "act", "getEvents", "getInbox"} <= {
        name for _, _, name, _ in names}


def test_games_are_told_apart_by_type_then_actions_by_type(spec):
    schemas = spec["components"]["schemas"]
    assert schemas["GameView"]["discriminator"]["mapping"] == {
        name: f"#/components/schemas/{prefix(game)}GameView" for name, game in GAMES.items()}
    for game in GAMES.values():
        union = schemas[f"{prefix(game)}Action"]
        assert set(union["discriminator"]["mapping"]) == {a.type for a in game.actions}
    action = schemas["ActionRequest"]["properties"]["action"]
    assert len(action["anyOf"]) == len(GAMES)
    hattrick_play = {"type": "play", "card": "red-5"}
    assert validator(spec, "HattrickAction").is_valid(hattrick_play)
    assert validator(spec, "StichelnAction").is_valid(hattrick_play)
    assert not validator(spec, "SixNimmtAction").is_valid(hattrick_play)
    assert not validator(spec, "HattrickAction").is_valid({"type": "play", "card": "purple-5"})
    assert not validator(spec, "SixNimmtAction").is_valid({"type": "take_row", "row": 4})
    assert not validator(spec, "StichelnAction").is_valid(
        {"type": "choose_pain", "card": "red-1", "cards": ["red-1", "blue-2"]})


def test_every_example_fits_its_schema(spec):
    for game in GAMES.values():
        name = prefix(game)
        for example in spec["components"]["schemas"][f"{name}GameView"]["examples"]:
            validator(spec, "GameView").validate(example)
        for action in game.actions:
            validator(spec, f"{name}Action").validate(action.example_action())
    act = spec["paths"]["/api/v1/games/{game_id}/actions"]["post"]
    for example in act["requestBody"]["content"]["application/json"]["examples"].values():
        validator(spec, "ActionRequest").validate(example["value"])


# Matches of a few deals, shorter than these games' default; any other game plays its default.
SHORT = {"sixnimmt": {"threshold": 20}, "sixtysix": {"match_points": 3},
         "sticheln": {"deals": 2}, "hattrick": {"deals": 2}}


def configurations(game):
    short = SHORT.get(game.name, {})
    yield game.min_players, short
    options = {option.name: True for option in game.options if option.type == "bool"}
    if game.name == "sticheln":
        options.pop("dark")  # cannot be combined with 'late'
    if game.name == "sixtysix":
        options = {"preset": "classic"}
    yield game.max_players, {**options, **short}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_views_actions_and_events_of_whole_games_fit_the_schemas(spec, name):
    game = GAMES[name]
    prefixed = prefix(game)
    table, hand, action, event = (validator(spec, prefixed + part)
                                  for part in ("Table", "Hand", "Action", "Event"))
    declared_keys = set(spec["components"]["schemas"][prefixed + "Table"]["properties"])
    seen_events = set()
    for players, raw in configurations(game):
        options = game.normalise_options(players, raw)
        state = game.new_game(players, options, 10**15 + players)
        rng = random.Random(players)
        for step in range(3000):
            if game.outcome(state) is not None:
                break
            # Views are checked now and then: validating is far slower than playing.
            seats = [None, *range(players)] if step % 40 == 0 else (
                game.to_act(state)[:1] if step % 8 == 0 else [])
            for seat in seats:
                seen = game.view(state, seat)
                table.validate(seen["table"])
                assert set(seen["table"]) <= declared_keys
                hand.validate(seen["hand"])
                if seat is not None:
                    for legal in game.legal_actions(state, seat):
                        action.validate(legal)
            seat = rng.choice(game.to_act(state))
            for number, raised in enumerate(game.apply_action(
                    state, seat, rng.choice(game.legal_actions(state, seat)))):
                served = {key: value for key, value in raised.items() if key != "to"}
                event.validate({**served, "number": number + 1, "version": step + 1})
                seen_events.add(raised["type"])
    declared = {shape["properties"]["type"]["const"] for shape in game.event_shapes}
    assert seen_events <= declared
    json.dumps(example_view(game))


def test_the_guide_lists_every_games_actions_as_the_spec_says(spec):
    from pathlib import Path
    from runpy import run_path

    examples = Path(__file__).resolve().parents[2] / "examples"
    guide = (examples / "README.md").read_text(encoding="utf-8")
    block = guide.split("<!-- actions from the spec -->\n")[1].split("<!-- end of")[0]
    assert block == run_path(str(examples / "spec_actions.py"))["markdown"](spec)
