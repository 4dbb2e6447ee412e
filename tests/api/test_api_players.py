"""Players and tokens over HTTP."""
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
