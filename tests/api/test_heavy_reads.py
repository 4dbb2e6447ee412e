"""Costly reads (record, replay, events, lobby, inbox, the spec) have budgets; a finished game's
record and events are answered once and then from a strong ETag."""
import gzip

import pytest

from api.http import create_app

OTHER_ADDRESS = {"REMOTE_ADDR": "192.0.2.7"}
EASY = {"bot": "easy"}  # three seats: a resigned seat is played to the end by a bot


def assert_429(response):
    assert response.status_code == 429, response.data[:200]
    body = response.get_json()
    assert body["code"] == 429 and body["status"] == "Too Many Requests" and body["message"]
    assert int(response.headers["Retry-After"]) >= 1


@pytest.fixture
def finished_game(client, new_player, run_bots):
    """A public 6 nimmt! game for three its one human resigned, played to the end by bots."""
    _, anna = new_player("Anna")
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", EASY, EASY], "pace": "none",
        "public": True}).get_json()
    assert client.post(f"/api/v1/games/{game['id']}/resign", headers=anna).status_code == 200
    run_bots()
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["status"] == "finished"
    return game["id"], anna


def test_anonymous_readers_of_a_record_have_a_budget_per_address(client, finished_game):
    game_id, anna = finished_game
    record = f"/api/v1/games/{game_id}/record"
    for _ in range(60):
        assert client.get(record).status_code == 200
    assert_429(client.get(record))
    # Another address, and a player signed in on the same one, still read it.
    assert client.get(record, environ_base=OTHER_ADDRESS).status_code == 200
    assert client.get(record, headers=anna).status_code == 200


def test_the_spec_has_a_budget_per_address(client):
    for _ in range(30):
        assert client.get("/api/openapi.json").status_code == 200
    assert_429(client.get("/api/openapi.json"))
    assert client.get("/api/openapi.json", environ_base=OTHER_ADDRESS).status_code == 200


@pytest.mark.parametrize("budget, path", [
    ("read_replay", "/replay/3"), ("read_events", "/events"),
    ("read_history_per_address", "/events"), ("read_lobby", "lobby"), ("read_inbox", "inbox"),
])
def test_each_costly_read_draws_on_its_budget(redis, store_env, budget, path, run_bots):
    client = create_app({**store_env, "TESTING": True, "RATE_LIMITS": {budget: "3/minute"}}
                        ).test_client()
    anna = {"Authorization": "Bearer " + client.post(
        "/api/v1/players", json={"name": "Anna"}).get_json()["token"]}
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", EASY, EASY],
        "pace": "none"}).get_json()
    client.post(f"/api/v1/games/{game['id']}/resign", headers=anna)
    run_bots()
    url = {"lobby": "/api/v1/games/lobby", "inbox": "/api/v1/players/me/games"}.get(
        path, f"/api/v1/games/{game['id']}{path}")
    for _ in range(3):
        assert client.get(url, headers=anna).status_code == 200
    assert_429(client.get(url, headers=anna))


def test_a_finished_record_has_a_strong_etag_and_a_long_cache_life(client, finished_game):
    game_id, anna = finished_game
    record = client.get(f"/api/v1/games/{game_id}/record")
    etag = record.headers["ETag"]
    assert record.status_code == 200 and not etag.startswith("W/")
    assert record.headers["Cache-Control"] == "public, max-age=86400, immutable"
    again = client.get(f"/api/v1/games/{game_id}/record", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.data
    # The player's own record is the same document, with the same tag.
    assert client.get(f"/api/v1/games/{game_id}/record", headers=anna).headers["ETag"] == etag
    # A client that takes gzip gets the same document so, under a tag of its own.
    packed = client.get(f"/api/v1/games/{game_id}/record", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["ETag"] != etag
    assert gzip.decompress(packed.data) == record.data
    assert client.get(f"/api/v1/games/{game_id}/record", headers={
        "Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]}).status_code == 304
    step = client.get(f"/api/v1/games/{game_id}/replay/2")
    assert step.status_code == 200 and not step.headers["ETag"].startswith("W/")
    assert client.get(f"/api/v1/games/{game_id}/replay/2", headers={
        "If-None-Match": step.headers["ETag"]}).status_code == 304
    assert client.get(f"/api/v1/games/{game_id}/replay/3", headers={
        "If-None-Match": step.headers["ETag"]}).status_code == 200


def test_a_finished_game_s_events_are_tagged_and_a_seat_s_own_are_private(client, new_player,
                                                                         run_bots):
    _, anna = new_player("Anna")
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", EASY, EASY], "pace": "none",
        "public": True}).get_json()
    url = f"/api/v1/games/{game['id']}/events"
    assert "ETag" not in client.get(url).headers, "a game in play has no lasting answer"
    client.post(f"/api/v1/games/{game['id']}/resign", headers=anna)
    run_bots()
    public, own = client.get(url), client.get(url, headers=anna)
    assert public.headers["Cache-Control"].startswith("public, ")
    assert own.headers["Cache-Control"].startswith("private, ")
    assert public.headers["ETag"] != own.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": public.headers["ETag"]}).status_code == 304
    assert client.get(url, headers={**anna, "If-None-Match": public.headers["ETag"]}
                      ).status_code == 200, "a spectator's tag is not the seat's answer"


@pytest.mark.parametrize("finish", [False, True])
def test_events_come_a_page_at_a_time_and_the_pages_add_up_to_the_log(client, new_player,
                                                                      run_bots, finish):
    _, anna = new_player("Anna")
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", EASY, EASY], "pace": "none",
        "public": True}).get_json()
    url = f"/api/v1/games/{game['id']}/events"
    for _ in range(3):  # a few rounds of cards
        run_bots()
        view = client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()
        if view["legal_actions"] and 0 in view["to_act"]:
            client.post(f"/api/v1/games/{game['id']}/actions", headers=anna,
                        json={"action": view["legal_actions"][-1]})
    if finish:
        client.post(f"/api/v1/games/{game['id']}/resign", headers=anna)
        run_bots()
    whole = client.get(url, headers=anna).get_json()
    assert whole["next"] is None and whole["last"] >= len(whole["events"]) >= 5
    pages, after = [], 0
    while after is not None:
        page = client.get(f"{url}?after={after}&limit=2", headers=anna).get_json()
        assert len(page["events"]) <= 2
        pages.append(page)
        after = page["next"]
        assert after is None or after == page["last"]
    assert [event for page in pages for event in page["events"]] == whole["events"]
    assert pages[-1]["last"] == whole["last"]
    for limit in (0, 2001):
        assert client.get(f"{url}?limit={limit}").status_code == 422


@pytest.mark.cluster
def test_a_game_ends_when_its_log_is_full_and_the_log_grows_no_further(
        redis, store_env, monkeypatch, run_bots):
    """A long option (here the default game under a small cap) cannot grow a log without
    bound: the action that fills it ends the game, scored as it stands."""
    monkeypatch.setenv("POYTA_MAX_GAME_ACTIONS", "30")
    app = create_app({**store_env, "TESTING": True})
    client = app.test_client()
    anna = {"Authorization": "Bearer " + client.post(
        "/api/v1/players", json={"name": "Anna"}).get_json()["token"]}
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 4, "seats": ["human"] + [{"bot": "easy"}] * 3,
        "pace": "none", "public": True}).get_json()
    client.post(f"/api/v1/games/{game['id']}/resign", headers=anna)
    run_bots()
    view = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert view["status"] == "finished"
    scores = [seat["score"] for seat in view["seats"]]
    assert view["outcome"] == {"scores": scores,
                               "winners": [i for i, s in enumerate(scores) if s == min(scores)]}
    record = client.get(f"/api/v1/games/{game['id']}/record").get_json()
    assert len(record["actions"]) == 30 and record["outcome"] == view["outcome"]
    events = client.get(f"/api/v1/games/{game['id']}/events").get_json()["events"]
    assert {"type": "ended", "reason": "log_full", "actions": 30}.items() <= events[-1].items()
    assert client.get(f"/api/v1/games/{game['id']}/replay/30").status_code == 200
