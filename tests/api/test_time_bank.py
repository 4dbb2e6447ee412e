"""A table time bank instead of a fixed time per move: each seat starts with its bank, a move
draws on it and earns a little back, up to a most; shown as time left per seat."""
from datetime import datetime

import pytest

DAY, HOUR = 86400, 3600
BANK = {"initial": 3 * DAY, "per_move": 12 * HOUR, "most": 5 * DAY}


def instant(text):
    return datetime.fromisoformat(text).timestamp()


@pytest.fixture
def anna(clocked_client):
    token = clocked_client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    return {"Authorization": f"Bearer {token}"}


def create(client, headers, **extra):
    return client.post("/api/v1/games", headers=headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], **extra})


@pytest.mark.parametrize("extra, reason", [
    ({"time_bank": BANK, "pace": "1d"}, "either a pace or a time bank"),
    ({"time_bank": {**BANK, "initial": 60}}, "time_bank.initial must be whole seconds from 3600"),
    ({"time_bank": {**BANK, "per_move": -1}}, "time_bank.per_move"),
    ({"time_bank": {**BANK, "most": 2 * DAY}}, "most must be at least time_bank.initial"),
    ({"time_bank": {"initial": DAY}}, "time_bank.per_move"),
    ({"time_bank": {**BANK, "initial": 1.5}}, "time_bank.initial"),
])
def test_a_bad_time_bank_is_422_and_no_game(clocked_client, anna, extra, reason):
    refused = create(clocked_client, anna, **extra)
    assert refused.status_code == 422 and reason in refused.get_json()["message"]
    assert clocked_client.get("/api/v1/players/me/games", headers=anna).get_json() == []


def play(client, headers, game_id, run_worker):
    view = client.get(f"/api/v1/games/{game_id}", headers=headers).get_json()
    moved = client.post(f"/api/v1/games/{game_id}/actions",
                        json={"action": view["legal_actions"][0]}, headers=headers)
    assert moved.status_code == 200
    run_worker()
    return client.get(f"/api/v1/games/{game_id}", headers=headers).get_json()


def test_each_move_draws_on_the_bank_and_earns_its_allowance_back(clocked_client, clock, anna,
                                                                  run_worker):
    game = create(clocked_client, anna, time_bank=BANK).get_json()
    assert game["pace"] == "bank"
    assert game["seats"][0]["time_left"] == 3 * DAY and game["seats"][1]["time_left"] is None
    assert instant(game["seats"][0]["deadline"]) == pytest.approx(clock.now() + 3 * DAY, abs=1)
    run_worker()   # the bot's card

    clock.advance(DAY)
    view = play(clocked_client, anna, game["id"], run_worker)
    assert view["seats"][0]["time_left"] == 2 * DAY + 12 * HOUR
    if 0 in view["to_act"]:  # the next turn runs on what is left
        assert instant(view["seats"][0]["deadline"]) == pytest.approx(
            clock.now() + 2.5 * DAY, abs=1)
    for _ in range(6):   # quick moves: the bank fills up to its most, no further
        view = play(clocked_client, anna, game["id"], run_worker)
    assert view["seats"][0]["time_left"] == 5 * DAY


def test_a_bank_run_out_leaves_the_allowance_of_one_move(clocked_client, clock, anna,
                                                         run_worker):
    game = create(clocked_client, anna, time_bank=BANK).get_json()
    run_worker()
    clock.advance(3 * DAY + 1)
    run_worker()
    view = clocked_client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()
    assert view["seats"][0]["timeouts"] == 1 and view["seats"][0]["time_left"] == 12 * HOUR
