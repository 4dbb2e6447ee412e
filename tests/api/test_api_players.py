"""Players and tokens over HTTP."""
import threading
import time

import pytest
from rq import Queue

from api.http import create_app
from api.storage.jobs import BOT_QUEUE
from redis_servers import store_keys


def test_a_new_player_gets_a_token_that_authenticates(client):
    created = client.post("/api/v1/players", json={"name": "Anna"})
    assert created.status_code == 201
    body = created.get_json()
    assert body["name"] == "Anna" and len(body["token"]) >= 32

    me = client.get("/api/v1/players/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.status_code == 200
    assert me.get_json() == {"id": body["id"], "name": "Anna", "bot": False}


def test_a_program_registers_as_a_bot_and_its_seat_says_so(client):
    bot = client.post("/api/v1/players", json={"name": "Deep Row", "bot": True}).get_json()
    assert bot["bot"] is True
    headers = {"Authorization": f"Bearer {bot['token']}"}
    game = client.post("/api/v1/games", headers=headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]}).get_json()
    assert [seat["automated"] for seat in game["seats"]] == [True, False]


def test_only_the_hash_of_a_token_is_stored(client, store):
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    stored = b"".join(key + b"".join(store.hvals(key)) if store.type(key) == b"hash"
                      else key + (store.get(key) or b"") for key in store_keys(store, "*"))
    assert token.encode() not in stored


def test_wrong_or_missing_tokens_are_401_with_the_error_shape(client):
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        response = client.get("/api/v1/players/me", headers=headers)
        assert response.status_code == 401
        body = response.get_json()
        assert set(body) >= {"code", "status", "message"} and body["code"] == 401
        assert response.headers["WWW-Authenticate"] == "Bearer"


def test_names_are_checked(client):
    for body in ({}, {"name": ""}, {"name": "   "}, {"name": "x" * 41}, {"name": 5},
                 {"name": "Anna", "admin": True}):
        response = client.post("/api/v1/players", json=body)
        assert response.status_code == 422, body
        assert response.get_json()["message"]


def test_malformed_json_is_a_400(client):
    response = client.post("/api/v1/players", data="{not json",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert "Invalid JSON" in response.get_json()["message"]


@pytest.mark.cluster
def test_a_rename_shows_at_the_tables_of_unfinished_games_without_a_commit(
        app, client, new_player, redis):
    """Friends see the new name at once (the ETags change and long-polls wake), no game's
    version moves and no job is queued; a finished game keeps the name as played."""
    service = app.extensions["poyta"]
    anna_body, anna = new_player("Anna")
    _, bert = new_player("Bert")
    finished = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}],
        "options": {"threshold": 1}}).get_json()["id"]
    while client.get(f"/api/v1/games/{finished}", headers=anna).get_json()["status"] != "finished":
        service.bots.play_due(finished)
        view = client.get(f"/api/v1/games/{finished}", headers=anna).get_json()
        if view["legal_actions"]:
            client.post(f"/api/v1/games/{finished}/actions", headers=anna,
                        json={"action": view["legal_actions"][0]})
    together = {}
    for type_ in ("sixnimmt", "hattrick"):  # two games, on two slots of a cluster
        created = client.post("/api/v1/games", headers=anna, json={
            "type": type_, "players": 4, "seats": ["human", "human", {"bot": "easy"},
                                                   {"bot": "easy"}]}).get_json()
        game_id = created["id"]
        client.post(f"/api/v1/games/invites/{created['invites'][0]['code']}", headers=bert)
        service.bots.play_due(game_id)
        together[game_id] = client.get(f"/api/v1/games/{game_id}", headers=bert)
    inbox = client.get("/api/v1/players/me/games", headers=bert)
    queue = Queue(BOT_QUEUE, connection=redis)
    jobs = len(queue)
    game_id = next(iter(together))
    assert together[game_id].status_code == 200, together[game_id].get_json()
    etag = together[game_id].headers["ETag"]

    woken = []
    other = create_app({**app.config, "TESTING": True}).test_client()
    waiting = threading.Thread(target=lambda: woken.append(other.get(
        f"/api/v1/games/{game_id}?wait=20", headers={**bert, "If-None-Match": etag})))
    waiting.start()
    time.sleep(0.5)  # the request waits before the change
    started = time.monotonic()
    renamed = client.patch("/api/v1/players/me", json={"name": "Anni"}, headers=anna)
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Anni"
    waiting.join(20)
    assert woken and woken[0].status_code == 200 and time.monotonic() - started < 5
    assert woken[0].get_json()["seats"][0]["name"] == "Anni"

    for game_id, before in together.items():
        seen = client.get(f"/api/v1/games/{game_id}",
                          headers={**bert, "If-None-Match": before.headers["ETag"]})
        assert seen.status_code == 200, "the old ETag no longer matches"
        assert seen.get_json()["seats"][0]["name"] == "Anni"
        assert seen.get_json()["version"] == before.get_json()["version"], "no commit"
    assert len(queue) == jobs, "a rename queues nothing"
    lines = client.get("/api/v1/players/me/games",
                       headers={**bert, "If-None-Match": inbox.headers["ETag"]})
    assert lines.status_code == 200
    assert all(line["players"][0]["name"] == "Anni" for line in lines.get_json())

    assert client.get(f"/api/v1/games/{finished}", headers=anna).get_json()["seats"][0]["name"] == "Anna"
    assert client.get(f"/api/v1/games/{finished}/record", headers=anna).get_json()["seats"][0]["name"] == "Anna"
    assert client.get("/api/v1/players/me", headers=anna).get_json()["name"] == "Anni"

    # The name stays when the game moves on, and a later rename wins.
    game_id = next(iter(together))
    view = client.get(f"/api/v1/games/{game_id}", headers=bert).get_json()
    client.post(f"/api/v1/games/{game_id}/actions", headers=bert,
                json={"action": view["legal_actions"][0]})
    assert client.get(f"/api/v1/games/{game_id}", headers=bert).get_json()["seats"][0]["name"] == "Anni"
    client.patch("/api/v1/players/me", json={"name": "Anna B."}, headers=anna)
    assert [client.get(f"/api/v1/games/{game_id}", headers=bert).get_json()["seats"][0]["name"]
            for game_id in together] == ["Anna B.", "Anna B."]
    assert anna_body["id"] == client.get("/api/v1/players/me", headers=anna).get_json()["id"]


def test_a_player_who_renamed_and_left_takes_no_old_name_to_the_seat(client, new_player):
    """The changed name goes with the player who leaves: whoever takes the seat next, the
    player themself with yet another name included, shows their own."""
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    _, cleo = new_player("Cleo")
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", "human"]}).get_json()
    url = f"/api/v1/games/{game['id']}"
    client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    client.patch("/api/v1/players/me", json={"name": "Bertta"}, headers=bert)
    client.patch("/api/v1/players/me", json={"name": "Anni"}, headers=anna)
    assert [s["name"] for s in client.get(url, headers=anna).get_json()["seats"]] == [
        "Anni", "Bertta", None]
    assert client.post(f"{url}/leave", headers=bert).status_code == 204
    client.patch("/api/v1/players/me", json={"name": "Bertil"}, headers=bert)
    invites = client.get(url, headers=anna).get_json()["invites"]
    client.post(f"/api/v1/games/invites/{invites[0]['code']}", headers=cleo)
    assert [s["name"] for s in client.get(url, headers=anna).get_json()["seats"]] == [
        "Anni", "Cleo", None]
    assert client.post(f"{url}/leave", headers=cleo).status_code == 204
    invites = client.get(url, headers=anna).get_json()["invites"]
    client.post(f"/api/v1/games/invites/{invites[0]['code']}", headers=bert)
    assert [s["name"] for s in client.get(url, headers=anna).get_json()["seats"]] == [
        "Anni", "Bertil", None]
