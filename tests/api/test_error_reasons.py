"""Every error carries a machine-readable `reason` from the documented enum, and a stale
version the game's `current_version`: a program tells refusals apart without reading prose."""
import ast
import json
import re
from pathlib import Path

from api.http.errors import REASONS

REFUSALS = {"ServiceError", "Unauthorized", "Forbidden", "NotFound", "Conflict", "Unprocessable"}
BOTS3 = ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]


def reason(response, status):
    body = response.get_json()
    assert response.status_code == status, body
    assert body["reason"] in REASONS and body["message"]
    return body["reason"]


def test_the_refusals_of_acting_are_told_apart(client, new_player, run_bots):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    view = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 4, "seats": BOTS3}).get_json()
    url = f"/api/v1/games/{view['id']}/actions"
    card = {"type": "play", "card": view["hand"][0]}
    not_in_hand = next(card for card in range(1, 105) if card not in view["hand"])
    assert reason(client.post(url, json={"action": {"type": "play", "card": not_in_hand}},
                              headers=anna), 422) == "illegal_action"
    assert reason(client.post(url, json={"action": {"type": "play", "card": 105}},
                              headers=anna), 422) == "invalid_body"  # the contract's maximum
    stale = client.post(url, json={"action": card, "version": view["version"] - 1}, headers=anna)
    assert reason(stale, 409) == "stale_version"
    assert stale.get_json()["current_version"] == view["version"]
    assert reason(client.post(url, json={"action": card}, headers=eve), 403) == "forbidden"
    assert reason(client.post(url, json={"action": card}), 401) == "unauthorized"
    assert reason(client.post("/api/v1/games/nosuchgame/actions", json={"action": card},
                              headers=anna), 404) == "not_found"
    assert reason(client.post(url, json={"action": card, "x": 1}, headers=anna),
                  422) == "invalid_body"
    assert reason(client.post(url, data=json.dumps({"action": card}), headers=anna),
                  415) == "unsupported_media_type"


def test_out_of_turn_and_a_started_game_are_named(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixtysix", "players": 2, "seats": ["human", "human"], "public": True}).get_json()
    joined = client.post(f"/api/v1/games/{game['id']}/join", json={}, headers=bert).get_json()
    waiting = bert if 0 in joined["to_act"] else anna
    seen = client.get(f"/api/v1/games/{game['id']}",
                      headers=anna if waiting is bert else bert).get_json()
    answer = client.post(f"/api/v1/games/{game['id']}/actions",
                         json={"action": seen["legal_actions"][0]}, headers=waiting)
    assert reason(answer, 422) == "not_your_turn"
    assert reason(client.post(f"/api/v1/games/{game['id']}/leave", headers=anna),
                  409) == "game_started"


def test_the_http_layer_names_its_refusals_too(client, new_player):
    _, anna = new_player()
    assert reason(client.get("/api/v1/games/types?x=1"), 422) == "invalid_query"
    assert reason(client.delete("/api/v1/games/types"), 405) == "method_not_allowed"
    assert reason(client.get("/api/v1/nothing-here"), 404) == "not_found"
    assert reason(client.post("/api/v1/players", data="{not json",
                              headers={"Content-Type": "application/json"}), 400) == "bad_request"
    game = {"type": "sixnimmt", "players": 4, "seats": BOTS3}
    client.post("/api/v1/games", json=game, headers={**anna, "Idempotency-Key": "k1"})
    reused = client.post("/api/v1/games", json={**game, "public": True},
                         headers={**anna, "Idempotency-Key": "k1"})
    assert reason(reused, 422) == "idempotency_key_reused"


def test_a_spent_quota_is_rate_limited_with_retry_after(client, new_player):
    _, anna = new_player()
    game_id = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 4, "seats": BOTS3}).get_json()["id"]
    answers = [client.post(f"/api/v1/games/{game_id}/chat", json={"text": f"hei {n}"},
                           headers=anna) for n in range(6)]
    assert reason(answers[-1], 429) == "rate_limited" and answers[-1].headers["Retry-After"]


def test_the_spec_publishes_the_reasons_and_every_real_status(client):
    spec = client.get("/api/openapi.json").get_json()
    error = spec["components"]["schemas"]["Error"]
    assert error["properties"]["reason"]["enum"] == list(REASONS)
    assert "reason" in error["required"] and "current_version" in error["properties"]
    for name in ("RATE_LIMITED", "UNAVAILABLE"):
        assert "Retry-After" in spec["components"]["responses"][name]["headers"]
    act = spec["paths"]["/api/v1/games/{game_id}/actions"]["post"]["responses"]
    assert {"200", "401", "403", "404", "409", "415", "422", "429", "503"} <= set(act)
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict):
                assert {"422", "429", "503"} <= set(operation["responses"]), (path, method)


def test_the_guide_lists_every_reason():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    table = guide.split("| reason | means |", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))
    assert listed == set(REASONS)


def test_every_reason_the_code_names_is_in_the_enum():
    root = Path(__file__).resolve().parents[2] / "api"
    named = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                refusal = getattr(node.func, "id", None) in REFUSALS
                given = [*(node.args[1:2] if refusal else []),
                         *(kw.value for kw in node.keywords if kw.arg == "reason")]
                named |= {value.value for one in given for value in ast.walk(one)
                          if isinstance(value, ast.Constant) and isinstance(value.value, str)}
    assert named and named <= set(REASONS), named - set(REASONS)
