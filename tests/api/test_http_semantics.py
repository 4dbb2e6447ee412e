"""HTTP as an integrator's client library expects it: 415 for a body that is not JSON, 422 for
a query parameter nobody declared, a Location on every 201."""
import json

import pytest

from redis_servers import store_keys

GAME = {"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]}


def error_shape(response, status):
    body = response.get_json()
    assert response.status_code == status, body
    assert body["code"] == status and body["status"] and body["message"]
    return body


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          None, "application/xml"])
def test_json_sent_as_another_media_type_is_415_and_changes_nothing(
        client, new_player, store, content_type):
    _, anna = new_player()
    before = sorted(store_keys(store, "*"))
    headers = {**anna, **({"Content-Type": content_type} if content_type else {})}
    answer = client.post("/api/v1/games", data=json.dumps(GAME), headers=headers)
    body = error_shape(answer, 415)
    assert "application/json" in body["message"]
    assert sorted(store_keys(store, "*")) == before
    refused = client.post("/api/v1/players", data='{"name": "Bert"}',
                          headers={"Content-Type": "text/plain"})
    error_shape(refused, 415)
    assert client.post("/api/v1/games", json=GAME, headers=anna).status_code == 201
    as_json_variant = client.post("/api/v1/games", data=json.dumps(GAME),
                                  headers={**anna, "Content-Type": "application/json; charset=utf-8"})
    assert as_json_variant.status_code == 201


def test_a_post_without_a_body_needs_no_content_type(client, new_player):
    _, anna = new_player()
    assert client.post("/api/v1/players/me/signin-codes", headers=anna).status_code == 201


@pytest.mark.parametrize("path", ["/api/v1/games/lobby?sort=new", "/api/v1/games/types?x=1",
                                  "/api/v1/players/me/games?wiat=30",
                                  "/api/v1/players/me?fields=name"])
def test_unknown_query_parameters_are_422_as_unknown_body_fields_are(client, new_player, path):
    _, anna = new_player()
    body = error_shape(client.get(path, headers=anna), 422)
    name = path.split("?")[1].split("=")[0]
    assert body["errors"] == {"query": {name: ["Unknown field."]}}
    assert f"query.{name}" in body["message"]
    unknown_body_field = client.patch("/api/v1/players/me", json={"name": "A", "x": 1},
                                      headers=anna)
    assert error_shape(unknown_body_field, 422)["errors"] == {"json": {"x": ["Unknown field."]}}


def test_a_game_poll_with_an_unknown_parameter_is_422_not_a_view(client, new_player):
    """The fast path answers only the bare poll: an unknown parameter reaches the schema."""
    _, anna = new_player()
    game_id = client.post("/api/v1/games", json=GAME, headers=anna).get_json()["id"]
    for query in ("wait=0&foo=1", "wiat=5", "foo"):
        body = error_shape(client.get(f"/api/v1/games/{game_id}?{query}", headers=anna), 422)
        assert "query" in body["errors"]
    assert client.get(f"/api/v1/games/{game_id}?wait=0", headers=anna).status_code == 200
    assert client.get(f"/api/v1/games/{game_id}/events?after=0", headers=anna).status_code == 200


def test_every_201_names_what_it_created_in_location(client, new_player):
    created = client.post("/api/v1/players", json={"name": "Anna"})
    anna = {"Authorization": f"Bearer {created.get_json()['token']}"}
    assert created.status_code == 201
    assert client.get(created.headers["Location"], headers=anna).get_json()["name"] == "Anna"

    game = client.post("/api/v1/games", json=GAME, headers=anna)
    assert game.status_code == 201
    assert game.headers["Location"] == f"/api/v1/games/{game.get_json()['id']}"
    assert client.get(game.headers["Location"], headers=anna).get_json()["id"] == \
        game.get_json()["id"]

    said = client.post(f"/api/v1/games/{game.get_json()['id']}/chat", json={"text": "hei"},
                       headers=anna)
    assert said.status_code == 201
    listed = client.get(said.headers["Location"], headers=anna).get_json()
    assert [message["text"] for message in listed["messages"]] == ["hei"]

    code = client.post("/api/v1/players/me/signin-codes", headers=anna)
    assert code.status_code == 201
    assert code.headers["Location"] == f"/#/signin/{code.get_json()['code']}"
    signed_in = client.post("/api/v1/players/signin",
                            json={"code": code.get_json()["code"], "device": "phone"})
    assert signed_in.status_code == 201 and signed_in.headers["Location"] == "/api/v1/players/me"


def test_the_spec_declares_415_422_location_and_the_views_etag(client):
    spec = client.get("/api/openapi.json").get_json()
    operations = {operation["operationId"]: operation for path in spec["paths"].values()
                  for operation in path.values() if isinstance(operation, dict)}
    for name, operation in operations.items():
        assert "422" in operation["responses"], name
        if "requestBody" in operation:
            assert operation["responses"]["415"] == {
                "$ref": "#/components/responses/UNSUPPORTED_MEDIA_TYPE"}, name
        if "201" in operation["responses"]:
            assert "Location" in operation["responses"]["201"]["headers"], name
    assert "415" not in operations["takeBack"]["responses"]  # it takes no body
    for name in ("act", "joinGame", "takeBack", "resign", "getGame"):
        assert "ETag" in operations[name]["responses"]["200"]["headers"], name
    assert "ETag" in operations["createGame"]["responses"]["201"]["headers"]
    assert spec["components"]["responses"]["UNSUPPORTED_MEDIA_TYPE"]["content"]


def test_the_spec_types_seats_paces_and_the_new_token(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]

    def resolved(schema: dict) -> dict:
        return schemas[schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema
    create = schemas["GameCreate"]["properties"]
    bot, named, human = (resolved(seat) for seat in create["seats"]["items"]["anyOf"])
    assert human["const"] == "human" and human["type"] == "string"
    assert bot["required"] == ["bot"]
    assert named["required"] == ["player"]
    levels = {level["name"] for game in client.get("/api/v1/games/types").get_json()
              for level in game["bot_levels"]}
    assert set(resolved(bot["properties"]["bot"])["enum"]) == levels
    assert resolved(create["pace"])["enum"] == ["none", "5m", "1h", "1d", "3d"]
    assert "token" in schemas["NewPlayer"]["required"]


def test_every_const_and_enum_in_the_spec_says_its_type(client):
    """A bare `const` in a union made openapi-python-client give up on the union's other
    members; a typed one is a member like the others."""
    untyped = []

    def walk(tree, where: str) -> None:
        if isinstance(tree, dict):
            if ("const" in tree or "enum" in tree) and "type" not in tree:
                untyped.append(where)
            for key, value in tree.items():
                walk(value, f"{where}/{key}")
        elif isinstance(tree, list):
            for index, value in enumerate(tree):
                walk(value, f"{where}/{index}")
    walk(client.get("/api/openapi.json").get_json(), "")
    assert untyped == []


def test_the_spec_names_the_seats_paces_and_statuses_a_client_spells(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert {"HumanSeat", "BotSeat", "ReservedSeat", "Pace", "BotLevelName",
            "GameStatus"} <= set(schemas)
    assert dict(zip(schemas["Pace"]["enum"], schemas["Pace"]["x-enum-varnames"])) == {
        "none": "NONE", "5m": "FIVE_MINUTES", "1h": "ONE_HOUR", "1d": "ONE_DAY",
        "3d": "THREE_DAYS"}


def test_the_spec_declares_every_status_an_operation_answers(client):
    spec = client.get("/api/openapi.json").get_json()
    operations = {operation["operationId"]: operation for path in spec["paths"].values()
                  for operation in path.values() if isinstance(operation, dict)}
    for name, operation in operations.items():
        assert "414" in operation["responses"], name  # any URL may be too long
        if "requestBody" in operation:
            assert {"400", "413"} <= set(operation["responses"]), name
    assert "412" in operations["act"]["responses"]
    assert any(parameter["name"] == "If-Match" for parameter in operations["act"]["parameters"])
    for stream in ("streamEvents", "streamGame"):
        assert "400" in operations[stream]["responses"], stream
        content = operations[stream]["responses"]["200"]["content"]
        ndjson, sse = content["application/x-ndjson"], content["text/event-stream"]["schema"]
        assert ndjson["schema"]["type"] == "string"  # text that never ends, a line an event
        assert ndjson["x-item-schema"]["$ref"].endswith("Event")
        event, whole = sse["anyOf"]  # OpenAPI 3.1 describes a stream by its events
        assert event["properties"]["data"]["contentSchema"]["$ref"].endswith("Event")
        assert whole["type"] == "string"  # what a generated client reads


def test_an_action_that_breaks_its_schema_is_invalid_body(client, new_player):
    _, anna = new_player()
    view = client.post("/api/v1/games", headers=anna, json={
        "type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}]}).get_json()
    url = f"/api/v1/games/{view['id']}/actions"
    for action in ({"type": "play", "card": "2X"}, {"type": "play", "card": 10},
                   {"type": "play"}, {"type": "play", "card": "QH", "x": 1}, {"type": "dance"}):
        body = error_shape(client.post(url, json={"action": action}, headers=anna), 422)
        assert body["reason"] == "invalid_body", (action, body)
        assert body["errors"]["json"]["action"], body
    held = next(card for card in ("AS", "AH", "AD", "AC", "10S", "10H", "10D", "10C", "KS",
                                  "KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH", "JD",
                                  "JC", "9S", "9H", "9D", "9C") if card not in view["hand"])
    refused = error_shape(client.post(url, json={"action": {"type": "play", "card": held}},
                                      headers=anna), 422)
    assert refused["reason"] in ("illegal_action", "not_your_turn"), refused


def test_if_match_on_act_is_412_once_the_view_changed(client, new_player):
    _, anna = new_player()
    view = client.post("/api/v1/games", headers=anna, json=GAME).get_json()
    url = f"/api/v1/games/{view['id']}"
    etag = client.get(url, headers=anna).headers["ETag"]
    card = {"type": "play", "card": view["hand"][0]}
    for sent in ('"nonsense"', 'W/"nonsense"', "garbage"):
        body = error_shape(client.post(f"{url}/actions", json={"action": card},
                                       headers={**anna, "If-Match": sent}), 412)
        assert body["reason"] == "precondition_failed"
    assert client.get(url, headers=anna).get_json()["version"] == view["version"]  # unchanged
    acted = client.post(f"{url}/actions", json={"action": card},
                        headers={**anna, "If-Match": etag})
    assert acted.status_code == 200, acted.get_json()
    again = client.post(f"{url}/actions", json={"action": {"type": "play",
                                                          "card": view["hand"][1]}},
                        headers={**anna, "If-Match": etag})
    assert again.status_code in (412, 422), again.get_json()
