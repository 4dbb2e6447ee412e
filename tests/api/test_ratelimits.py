"""Budgets per player and per address, and caps on waiting requests: 429 with Retry-After."""
import socket
import threading
import time

import pytest
import requests
from limits import parse

from api.http import create_app
from api.http.budgets import MAX_OPEN_LONG_POLLS
from api.storage import connections
from api.storage.budgets import RateCounters
from long_polls import held_long_polls, wait_for_long_polls
from waiting import wait_until


def assert_429(response):
    assert response.status_code == 429, response.data[:200] if hasattr(response, "data") else ""
    body = response.get_json() if hasattr(response, "get_json") else response.json()
    assert body["code"] == 429 and body["status"] == "Too Many Requests" and body["message"]
    assert int(response.headers["Retry-After"]) >= 1


def test_one_address_cannot_create_players_in_bulk(client):
    statuses = [client.post("/api/v1/players", json={"name": f"P{i}"}).status_code
                for i in range(10)]
    assert statuses == [201] * 10
    assert_429(client.post("/api/v1/players", json={"name": "P11"}))
    other = client.post("/api/v1/players", json={"name": "Far"},
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201


def test_invite_and_sign_in_codes_cannot_be_guessed(client, new_player):
    _, headers = new_player()
    # One budget for guessing either kind of code: splitting the guesses gains nothing.
    for i in range(5):
        assert client.post(f"/api/v1/games/invites/guess{i}", headers=headers).status_code == 404
        assert client.post("/api/v1/players/signin", json={"code": f"guess{i}"}).status_code == 422
    assert_429(client.post("/api/v1/games/invites/guess10", headers=headers))
    assert_429(client.post("/api/v1/players/signin", json={"code": "guess10"}))


@pytest.fixture
def small_budgets_client(redis, store_env):
    app = create_app({**store_env, "TESTING": True, "RATE_LIMITS": {
        "create_game": "3/minute", "act": "4/minute", "create_player": "100/minute"}})
    return app.test_client()


def test_each_player_has_its_own_budgets_for_creating_games_and_acting(small_budgets_client):
    client = small_budgets_client
    anna, bert = ({"Authorization": "Bearer " + client.post(
        "/api/v1/players", json={"name": name}).get_json()["token"]} for name in ("Anna", "Bert"))
    body = {"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"}
    games = [client.post("/api/v1/games", json=body, headers=anna) for _ in range(3)]
    assert [g.status_code for g in games] == [201] * 3
    assert_429(client.post("/api/v1/games", json=body, headers=anna))
    assert client.post("/api/v1/games", json=body, headers=bert).status_code == 201

    game_id = games[0].get_json()["id"]
    for _ in range(4):
        assert client.post(f"/api/v1/games/{game_id}/actions", headers=anna,
                           json={"action": {"type": "nonsense"}}).status_code == 422
    assert_429(client.post(f"/api/v1/games/{game_id}/actions", headers=anna,
                           json={"action": {"type": "nonsense"}}))
    # Resigning and leaving draw on the same budget; the game is left as it was.
    assert_429(client.post(f"/api/v1/games/{game_id}/resign", headers=anna))
    assert_429(client.post(f"/api/v1/games/{games[1].get_json()['id']}/leave", headers=anna))
    assert client.get(f"/api/v1/games/{game_id}", headers=anna).get_json()["status"] == "active"
    # Who is not authenticated learns that first.
    assert client.post(f"/api/v1/games/{game_id}/actions",
                       json={"action": {"type": "x"}}).status_code == 401


def test_long_polls_the_client_dropped_free_their_slots_at_once(live_server, redis):
    http = requests.Session()
    token = http.post(live_server + "/api/v1/players", json={"name": "Anna"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    etag = http.get(live_server + "/api/v1/players/me/games", headers=headers).headers["ETag"]
    host, port = live_server.removeprefix("http://").split(":")
    request = (f"GET /api/v1/players/me/games?wait=30 HTTP/1.1\r\nHost: {host}\r\n"
               f"Authorization: Bearer {token}\r\nIf-None-Match: {etag}\r\n\r\n").encode()
    dropped = [socket.create_connection((host, int(port))) for _ in range(MAX_OPEN_LONG_POLLS)]
    for connection in dropped:
        connection.sendall(request)
    wait_for_long_polls(redis, MAX_OPEN_LONG_POLLS)
    assert held_long_polls(redis) == MAX_OPEN_LONG_POLLS
    for connection in dropped:  # the phone left the page
        connection.close()
    wait_until(lambda: held_long_polls(redis) == 0, "the dropped long-polls' slots freed", 3)
    assert http.get(live_server + "/api/v1/players/me/games?wait=1",
                    headers={**headers, "If-None-Match": etag}).status_code == 304


def test_a_player_holds_only_a_few_long_polls_at_once(live_server, redis):
    http = requests.Session()
    token = http.post(live_server + "/api/v1/players", json={"name": "Anna"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    inbox = http.get(live_server + "/api/v1/players/me/games", headers=headers)
    waiting = {**headers, "If-None-Match": inbox.headers["ETag"]}
    answers = []

    def long_poll():
        answers.append(requests.get(live_server + "/api/v1/players/me/games?wait=4",
                                    headers=waiting, timeout=10).status_code)
    polls = [threading.Thread(target=long_poll) for _ in range(MAX_OPEN_LONG_POLLS)]
    for poll in polls:
        poll.start()
    wait_for_long_polls(redis, MAX_OPEN_LONG_POLLS)
    assert_429(http.get(live_server + "/api/v1/players/me/games?wait=4", headers=waiting))
    assert http.get(live_server + "/api/v1/players/me/games", headers=headers).status_code == 200
    for poll in polls:
        poll.join()
    assert answers == [304] * MAX_OPEN_LONG_POLLS
    assert http.get(live_server + "/api/v1/players/me/games?wait=1",
                    headers=waiting).status_code == 304


def test_quotas_on_hard_bots_lobby_entries_and_open_games(client, new_player, monkeypatch):
    _, anna = new_player("Anna")
    hard = {"bot": "hard"}
    response = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 5, "seats": ["human", hard, hard, hard, hard]})
    assert response.status_code == 422 and "hard bots" in response.get_json()["message"]

    public = {"type": "sixnimmt", "players": 2, "seats": ["human", "human"], "public": True}
    for _ in range(3):
        assert client.post("/api/v1/games", headers=anna, json=public).status_code == 201
    full = client.post("/api/v1/games", headers=anna, json=public)
    assert_429(full)
    assert "lobby" in full.get_json()["message"]
    assert len(client.get("/api/v1/games/lobby").get_json()) == 3

    monkeypatch.setattr("api.tables.quotas.MAX_OPEN_GAMES", 5)
    private = {**public, "public": False}
    assert client.post("/api/v1/games", headers=anna, json=private).status_code == 201
    assert client.post("/api/v1/games", headers=anna, json=private).status_code == 201
    assert_429(client.post("/api/v1/games", headers=anna, json=private))
    _, bert = new_player("Bert")
    assert client.post("/api/v1/games", headers=bert, json=private).status_code == 201


def test_a_player_keeps_only_a_few_open_games_with_hard_bots(client, new_player):
    _, anna = new_player("Anna")
    against_hard = {"type": "sixtysix", "players": 2, "seats": ["human", {"bot": "hard"}]}
    for _ in range(5):
        assert client.post("/api/v1/games", headers=anna, json=against_hard).status_code == 201
    refused = client.post("/api/v1/games", headers=anna, json=against_hard)
    assert_429(refused)
    assert "hard bots" in refused.get_json()["message"]
    easy = {**against_hard, "seats": ["human", {"bot": "easy"}]}
    assert client.post("/api/v1/games", headers=anna, json=easy).status_code == 201


def test_an_operator_sets_budgets_in_the_environment(redis, store_env, monkeypatch):
    monkeypatch.setenv("POYTA_RATE_LIMITS", '{"create_player": "2/minute"}')
    client = create_app({**store_env, "TESTING": True}).test_client()
    for _ in range(2):
        assert client.post("/api/v1/players", json={"name": "Anna"}).status_code == 201
    assert_429(client.post("/api/v1/players", json={"name": "Anna"}))
    monkeypatch.setenv("POYTA_RATE_LIMITS", '{"acting": "2/minute"}')
    with pytest.raises(ValueError, match="acting"):
        create_app({**store_env, "TESTING": True})


def test_waiting_draws_on_the_long_poll_budget_and_a_plain_poll_on_none(redis, store_env):
    client = create_app({**store_env, "TESTING": True, "RATE_LIMITS": {
        "long_poll": "2/minute"}}).test_client()
    headers = {"Authorization": "Bearer " + client.post(
        "/api/v1/players", json={"name": "Anna"}).get_json()["token"]}
    game = client.post("/api/v1/games", headers=headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).get_json()
    url = f"/api/v1/games/{game['id']}"
    waiting = {**headers, "If-None-Match": client.get(url, headers=headers).headers["ETag"]}
    for _ in range(2):
        assert client.get(url + "?wait=1", headers=waiting).status_code == 304
    assert_429(client.get(url + "?wait=1", headers=waiting))
    assert_429(client.get("/api/v1/players/me/games?wait=1", headers={
        **headers, "If-None-Match": '"seen"'}))
    for _ in range(5):
        assert client.get(url, headers=waiting).status_code == 304
        assert client.get("/api/v1/players/me/games", headers=headers).status_code == 200


def test_one_address_keeps_only_so_many_open_games_with_hard_bots(client, new_player,
                                                                   monkeypatch):
    monkeypatch.setattr("api.tables.quotas.MAX_HARD_BOT_GAMES_PER_ADDRESS", 7)
    against_hard = {"type": "sixtysix", "players": 2, "seats": ["human", {"bot": "hard"}]}
    players = [new_player(f"Player {index}")[1] for index in range(3)]
    made = [client.post("/api/v1/games", headers=players[index // 3], json=against_hard)
            for index in range(7)]
    assert [answer.status_code for answer in made] == [201] * 7
    refused = client.post("/api/v1/games", headers=players[2], json=against_hard)
    assert_429(refused)
    assert "network" in refused.get_json()["message"]
    other_address = client.post("/api/v1/games", headers=players[2], json=against_hard,
                                environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other_address.status_code == 201
    game_id = made[0].get_json()["id"]
    assert client.post(f"/api/v1/games/{game_id}/resign", headers=players[0]).status_code == 200
    assert client.post("/api/v1/games", headers=players[2], json=against_hard).status_code == 201


def test_answers_under_a_budget_carry_the_ietf_ratelimit_headers(redis, store_env, monkeypatch):
    monkeypatch.setenv("POYTA_RATE_LIMITS", '{"create_player": "3/minute;50/hour"}')
    client = create_app({**store_env, "TESTING": True}).test_client()
    answers = [client.post("/api/v1/players", json={"name": f"P{index}"}) for index in range(4)]
    assert answers[0].headers["RateLimit-Policy"] == \
        '"create_player-60s";q=3;w=60, "create_player-3600s";q=50;w=3600'
    remaining = [answer.headers["RateLimit"].split(";")[1] for answer in answers]
    assert remaining == ["r=2", "r=1", "r=0", "r=0"]
    assert answers[3].status_code == 429
    seconds = int(answers[3].headers["RateLimit"].split(";t=")[1])
    assert 0 < seconds <= 60 and abs(seconds - int(answers[3].headers["Retry-After"])) <= 1
    assert "RateLimit" not in client.get("/api/v1/games/types").headers


def test_more_requests_at_once_than_connections_wait_for_one_and_all_count(redis, redis_url):
    """The counters share the API's blocking pool: a burst beyond its size waits for a
    connection (redis-py's own pool, which `limits` made before, failed past 100 with 503s)."""
    pool_size, callers = 4, 12
    client = connections.queue_client({"REDIS_URL": redis_url}, max_connections=pool_size,
                                      **connections.COMMAND_OPTIONS)
    counters = RateCounters(client)
    rate = parse("100/minute")
    connected = lambda: redis.info("clients")["connected_clients"]  # noqa: E731
    before = connected()
    results, errors = [], []

    def hit():
        try:
            results.append(counters.spend([(rate, "burst", "anna")])[0].allowed)
        except Exception as error:  # noqa: BLE001 - the test reports whatever a caller met
            errors.append(repr(error))

    redis.client_pause(400, all=False)  # writes wait: every caller holds its connection a while
    threads = [threading.Thread(target=hit) for _ in range(callers)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    during = connected() - before
    for thread in threads:
        thread.join()
    assert errors == [] and results == [True] * callers
    assert during <= pool_size
    assert counters.spend([(rate, "burst", "anna")])[0].remaining == 100 - callers - 1
