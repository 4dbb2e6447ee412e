"""Bounded inputs: every oversized, malformed or hostile request is a 4xx in the one error shape."""
import json

import pytest
import requests

from rules import GAMES

SHAPE = {"code", "status", "message"}


def error_of(response, status):
    assert response.status_code == status, response.data[:300]
    body = response.get_json()
    assert set(body) >= SHAPE and body["code"] == status, body
    return body


def post_raw(client, path, text, headers=None):
    return client.post(path, data=text, headers={"Content-Type": "application/json",
                                                 **(headers or {})})


@pytest.fixture
def anna(new_player):
    return new_player("Anna")[1]


@pytest.fixture
def bot_game(client, anna):
    response = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"})
    assert response.status_code == 201
    return response.get_json()["id"]


# The six inputs that answered 500 (issue: "six inputs give a 500").
def test_json_nested_a_thousand_deep_is_a_400_even_without_a_token(client, anna):
    deep = "[" * 1000 + "]" * 1000
    assert "32 levels" in error_of(post_raw(client, "/api/v1/players", deep), 400)["message"]
    inside = '{"type":"sixnimmt","players":2,"seats":' + "[" * 40 + "]" * 40 + "}"
    error_of(post_raw(client, "/api/v1/games", inside, anna), 400)
    # Brackets inside strings are text, not nesting.
    assert client.post("/api/v1/players", json={"name": "[" * 30}).status_code == 201


def test_a_lone_surrogate_in_a_name_is_a_400(client):
    body = error_of(post_raw(client, "/api/v1/players", '{"name": "\\ud800"}'), 400)
    assert "surrogate" in body["message"]


def test_a_five_thousand_digit_integer_is_a_400(client, anna):
    text = '{"type": "sixnimmt", "players": %s, "seats": ["human", "human"]}' % ("9" * 5000)
    assert "digits" in error_of(post_raw(client, "/api/v1/games", text, anna), 400)["message"]


@pytest.mark.parametrize("level", [{"x": 1}, ["easy"], 3, None])
def test_a_bot_seat_whose_level_is_not_a_name_is_a_422(client, anna, level):
    response = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": level}]})
    error_of(response, 422)


@pytest.mark.parametrize("kind", [[], {}, 5, None])
def test_an_action_whose_type_is_not_a_name_is_a_422(client, anna, bot_game, kind):
    response = client.post(f"/api/v1/games/{bot_game}/actions", headers=anna,
                           json={"action": {"type": kind}})
    assert "unknown action type" in error_of(response, 422)["message"]


@pytest.mark.parametrize("after", ["9223372036854775808", str(2**31 + 1), "-1"])
def test_events_after_beyond_the_range_is_a_422(client, anna, bot_game, after):
    error_of(client.get(f"/api/v1/games/{bot_game}/events?after={after}", headers=anna), 422)
    assert client.get(f"/api/v1/games/{bot_game}/events?after={2**31}",
                      headers=anna).status_code == 200


# Sizes.
def test_a_body_over_64_kb_is_a_413(client, anna):
    webhook = "https://hooks.example.com/" + "x" * (9 * 1024 * 1024)
    response = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "webhook": webhook})
    error_of(response, 413)


def test_a_webhook_url_over_2_kb_is_a_422(client, anna):
    response = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"],
        "webhook": "https://hooks.example.com/" + "x" * 2100})
    assert "webhook" in error_of(response, 422)["errors"]["json"]


def test_a_url_over_2_kb_is_a_414(client):
    error_of(client.get("/api/v1/games/lobby?x=" + "a" * 2100), 414)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_numeric_options_beyond_their_documented_range_are_a_422(client, anna, game):
    players = GAMES[game].min_players
    described = {t["type"]: t for t in client.get("/api/v1/games/types").get_json()}
    for option in described[game]["options"]:
        if option["type"] != "int":
            continue
        assert "maximum" in option, (game, option["name"])
        for beyond in (option["maximum"] + 1, 10**18):
            response = client.post("/api/v1/games", headers=anna, json={
                "type": game, "players": players, "options": {option["name"]: beyond},
                "seats": ["human"] * players})
            assert "at most" in error_of(response, 422)["message"]


# Names.
@pytest.mark.parametrize("name", [
    "An\x00na", "Anna\u202e", "\u2066Anna", "Anna\u200b", "A" + "\u0301" * 5,
    "x\u0300\u0301\u0302\u0303\u0304" * 3,
    "Ann\u2028a", "\ue000", "x" * 41, "  ", "\u0301" * 5,
])
def test_hostile_names_are_refused(client, anna, name):
    error_of(client.post("/api/v1/players", json={"name": name}), 422)
    error_of(client.patch("/api/v1/players/me", json={"name": name}, headers=anna), 422)


@pytest.mark.parametrize("given, stored", [
    ("  Anna  ", "Anna"), ("Ame\u0301lie", "Amélie"), ("Tiê\u0323n", "Tiệ n".replace(" ", "")),
    ("अक्षि", "अक्षि"), ("👩\u200d💻 Eva", "👩\u200d💻 Eva"), ("é" * 40, "é" * 40),
])
def test_names_are_normalised_and_real_names_pass(client, given, stored):
    response = client.post("/api/v1/players", json={"name": given})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["name"] == stored


# Order and shape.
def test_authentication_comes_before_the_body_is_read(client):
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        error_of(client.post("/api/v1/games", json={"type": 5}, headers=headers), 401)
        error_of(client.patch("/api/v1/players/me", json={"name": ""}, headers=headers), 401)
        error_of(client.get("/api/v1/players/me/games?wait=999", headers=headers), 401)
    error_of(client.get("/api/v1/games/nope/events?after=-1", headers={
        "Authorization": "Bearer wrong"}), 401)


def test_405_is_json_and_says_what_is_allowed(client):
    response = client.delete("/api/v1/games/lobby")
    error_of(response, 405)
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "HEAD"}


def test_errors_are_json_everywhere(client):
    for path in ("/api/v1/nothing", "/api/nothing", "/no-such-file.js"):
        error_of(client.get(path), 404)
    assert json.loads(client.get("/api/v1/nothing").data)["status"] == "Not Found"


def chunks(kilobytes):
    yield b'{"name": "'
    for _ in range(kilobytes):
        yield b"x" * 1024
    yield b'"}'


def test_a_chunked_body_over_64_kb_is_a_413_and_a_small_one_is_read(live_server):
    url = live_server + "/api/v1/players"
    json_type = {"Content-Type": "application/json"}
    over = requests.post(url, data=chunks(100), headers=json_type)
    assert over.status_code == 413 and over.json()["code"] == 413, over.text[:200]
    # A chunked body within the limit is read whole: the name is too long for a name.
    within = requests.post(url, data=chunks(1), headers=json_type)
    assert within.status_code == 422 and "name" in within.json()["errors"]["json"]
    named = requests.post(url, data=iter([b'{"name": ', b'"Anna"}']), headers=json_type)
    assert named.status_code == 201 and named.json()["name"] == "Anna"
