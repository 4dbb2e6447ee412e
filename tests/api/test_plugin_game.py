"""A game installed as a plug-in joins the server through the `poyta.games` entry point alone:
High card (tests/plugin_game), installed as pip leaves a distribution, is listed, published in
the contract and played to its end by a real API process and a real RQ worker.

Runs once, on the single server: what is tested is how a game joins, not the store."""
import os
import random
import time

import pytest
import requests
from jsonschema import Draft202012Validator
from redis import Redis

from redis_servers import store_settings
from test_no_lost_turn import start_api
from tests.plugin_game.install import HIGHCARD, install_distribution
from worker_processes import start_worker

PREFIX = "HighCard"  # the contract's prefix: the game's class name


@pytest.fixture
def plugin_path(tmp_path):
    """PYTHONPATH for processes that have High card installed beside the project."""
    install_distribution(tmp_path, "poyta-highcard", {"highcard": "poyta_highcard:GAME"},
                         packages=(HIGHCARD,))
    return os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))


@pytest.fixture
def server(redis_url, request, processes, plugin_path):
    """The API process and a bot worker, both with the plug-in installed."""
    settings = store_settings("single", redis_url, request)
    queue = Redis.from_url(redis_url)
    queue.flushdb()
    start_worker(processes, queue, redis_url, PYTHONPATH=plugin_path, **settings)
    yield start_api(processes, PYTHONPATH=plugin_path, **settings)
    queue.close()


@pytest.fixture
def highcard(monkeypatch):
    """The plug-in's own rules, for replaying its record here."""
    monkeypatch.syspath_prepend(str(HIGHCARD.parent))
    from poyta_highcard import GAME
    return GAME


def validator(spec: dict, name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}",
                                 "components": spec["components"]})


def test_a_plugin_game_is_listed_published_and_played_to_its_end(server, highcard):
    api = f"{server}/api/v1"
    types = requests.get(f"{api}/games/types", timeout=10).json()
    assert [t["type"] for t in types][-1] == "highcard"
    assert types[-1]["bot_levels"] == [{"name": "easy", "description":
                                        highcard.bot_levels[0].description}]

    spec = requests.get(f"{server}/api/openapi.json", timeout=30).json()
    schemas = spec["components"]["schemas"]
    assert schemas["GameView"]["discriminator"]["mapping"]["highcard"].endswith(
        f"{PREFIX}GameView")
    assert set(schemas[f"{PREFIX}Action"]["discriminator"]["mapping"]) == {"play"}
    view_shape, events_shape = (validator(spec, f"{PREFIX}{part}")
                                for part in ("GameView", "Events"))
    assert not validator(spec, f"{PREFIX}Action").is_valid({"type": "play", "card": 21})

    token = requests.post(f"{api}/players", json={"name": "Anna"}, timeout=10).json()["token"]
    anna = {"Authorization": f"Bearer {token}"}
    created = requests.post(f"{api}/games", headers=anna, timeout=10, json={
        "type": "highcard", "players": 2, "seats": ["human", {"bot": "easy"}],
        "options": {"deals": 2}, "pace": "none"})
    assert created.status_code == 201, created.text
    view = created.json()
    game_id, rng, played = view["id"], random.Random(3), 0
    deadline = time.monotonic() + 60
    while view["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish: is the bot playing?"
        view_shape.validate(view)
        assert view["seats"][1]["bot"] == "easy" and "seed" not in view["table"]
        if 0 in view["to_act"]:
            answer = requests.post(f"{api}/games/{game_id}/actions", headers=anna, timeout=10,
                                   json={"action": rng.choice(view["legal_actions"]),
                                         "version": view["version"]})
            assert answer.status_code == 200, answer.text
            view, played = answer.json(), played + 1
        else:
            time.sleep(0.05)
            view = requests.get(f"{api}/games/{game_id}", headers=anna, timeout=10).json()
    view_shape.validate(view)
    assert played == 10, "two deals of five tricks, one card of Anna's in each"
    assert view["outcome"]["scores"][0] + view["outcome"]["scores"][1] == 10

    log = requests.get(f"{api}/games/{game_id}/events?after=0", headers=anna, timeout=10).json()
    events_shape.validate(log)
    assert [e["type"] for e in log["events"]].count("dealt") == 1
    assert log["events"][-1]["type"] == "game_over"

    # The record replays with the plug-in's own rules, and the server replays it step by step.
    record = requests.get(f"{api}/games/{game_id}/record", headers=anna, timeout=10).json()
    state = highcard.new_game(2, record["options"], record["seed"], recording=True)
    for entry in record["actions"]:
        highcard.apply_action(state, entry["seat"], entry["action"])
    assert highcard.outcome(state) == record["outcome"] == view["outcome"]
    assert highcard.record(state)["deals"] == record["deals"]
    assert len(record["deals"]) == 2 and len(record["actions"]) == 20
    last = requests.get(f"{api}/games/{game_id}/replay/20", headers=anna, timeout=10).json()
    assert last["view"]["scores"] == record["outcome"]["scores"]
    assert last["hands"] == [[], []]
    # Its rules page comes from its own package.
    page = requests.get(f"{api}/games/types/highcard/rules", timeout=10).json()
    assert page["type"] == "highcard" and "High card" in page["markdown"]
