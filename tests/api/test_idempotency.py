"""Idempotency-Key: a retried POST answers the first answer again and applies nothing twice."""
import threading
import uuid

import pytest
import requests

from api.storage.idempotency import IdempotencyStore

# On the cluster too: a remembered answer kept beside the commit it answered.
pytestmark = pytest.mark.cluster

GAME = {"type": "sixnimmt", "players": 4,
        "seats": ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]}


def keyed(headers, key):
    return {**headers, "Idempotency-Key": key}


def test_a_retried_create_answers_the_first_game_and_makes_no_second(client, new_player):
    _, anna = new_player()
    key = str(uuid.uuid4())
    first = client.post("/api/v1/games", json=GAME, headers=keyed(anna, key))
    again = client.post("/api/v1/games", json=GAME, headers=keyed(anna, key))
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.data == first.data
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert len(client.get("/api/v1/players/me/games", headers=anna).get_json()) == 1
    other = client.post("/api/v1/games", json=GAME, headers=keyed(anna, str(uuid.uuid4())))
    assert other.get_json()["id"] != first.get_json()["id"]


def test_a_retried_action_applies_once_and_a_refusal_is_answered_again(client, new_player):
    _, anna = new_player()
    view = client.post("/api/v1/games", json=GAME, headers=anna).get_json()
    url = f"/api/v1/games/{view['id']}/actions"
    move = {"action": {"type": "play", "card": view["hand"][0]}, "version": view["version"]}
    key = str(uuid.uuid4())
    first = client.post(url, json=move, headers=keyed(anna, key))
    again = client.post(url, json=move, headers=keyed(anna, key))
    assert first.status_code == again.status_code == 200 and again.data == first.data
    seen = client.get(f"/api/v1/games/{view['id']}", headers=anna).get_json()
    assert seen["version"] == view["version"] + 1 and len(seen["hand"]) == 9
    # Without the key the same body is a new request: its version is stale now.
    assert client.post(url, json=move, headers=anna).status_code == 409
    illegal = {"action": {"type": "play", "card": 105}}
    refusal = str(uuid.uuid4())
    refused = client.post(url, json=illegal, headers=keyed(anna, refusal))
    assert refused.status_code == 422
    assert client.post(url, json=illegal, headers=keyed(anna, refusal)).data == refused.data


def test_the_same_key_with_another_body_is_422_and_applies_nothing(client, new_player):
    _, anna = new_player()
    view = client.post("/api/v1/games", json=GAME, headers=anna).get_json()
    url = f"/api/v1/games/{view['id']}/actions"
    key = str(uuid.uuid4())
    first = client.post(url, json={"action": {"type": "play", "card": view["hand"][0]}},
                        headers=keyed(anna, key))
    assert first.status_code == 200
    reused = client.post(url, json={"action": {"type": "play", "card": view["hand"][1]}},
                         headers=keyed(anna, key))
    assert reused.status_code == 422 and "Idempotency-Key" in reused.get_json()["message"]
    elsewhere = client.post("/api/v1/games", json=GAME, headers=keyed(anna, key))
    assert elsewhere.status_code == 422
    after = client.get(f"/api/v1/games/{view['id']}", headers=anna).get_json()
    assert after["version"] == first.get_json()["version"]
    assert len(client.get("/api/v1/players/me/games", headers=anna).get_json()) == 1


def test_keys_are_each_callers_own(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    key = "same-key"
    made = [client.post("/api/v1/games", json=GAME, headers=keyed(caller, key)).get_json()
            for caller in (anna, bert)]
    assert made[0]["id"] != made[1]["id"]


@pytest.mark.parametrize("key", ["", "x" * 256, "bad key", "ä"])
def test_a_malformed_key_is_422(client, new_player, key):
    _, anna = new_player()
    answer = client.post("/api/v1/games", json=GAME, headers=keyed(anna, key))
    assert answer.status_code == 422 and "Idempotency-Key" in answer.get_json()["message"]


def test_concurrent_retries_against_the_real_server_apply_once(live_server):
    session = requests.Session()
    token = session.post(f"{live_server}/api/v1/players", json={"name": "Anna"}).json()["token"]
    anna = {"Authorization": f"Bearer {token}"}
    key = str(uuid.uuid4())
    answers = [None] * 8
    start = threading.Barrier(len(answers))

    def create(index):
        start.wait()
        answers[index] = requests.post(f"{live_server}/api/v1/games", json=GAME,
                                       headers=keyed(anna, key), timeout=30)

    threads = [threading.Thread(target=create, args=(i,)) for i in range(len(answers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in answers] == [201] * len(answers)
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert sum(answer.headers.get("Idempotent-Replayed") == "true" for answer in answers) == 7
    games = session.get(f"{live_server}/api/v1/players/me/games", headers=anna).json()
    assert len(games) == 1

    view = answers[0].json()
    move = {"action": {"type": "play", "card": view["hand"][0]}, "version": view["version"]}
    act_key = str(uuid.uuid4())
    acted = [None] * 6
    start = threading.Barrier(len(acted))

    def act(index):
        start.wait()
        acted[index] = requests.post(f"{live_server}/api/v1/games/{view['id']}/actions",
                                     json=move, headers=keyed(anna, act_key), timeout=30)

    threads = [threading.Thread(target=act, args=(i,)) for i in range(len(acted))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [answer.status_code for answer in acted] == [200] * len(acted)
    assert len({answer.content for answer in acted}) == 1
    events = session.get(f"{live_server}/api/v1/games/{view['id']}/events",
                         headers=anna).json()["events"]
    assert sum(event["type"] == "chose" and event["seat"] == 0 for event in events) == 1


def test_kept_answers_are_bounded_by_count_and_by_time(store):
    kept = IdempotencyStore(store, ttl=100, most=3, pending_seconds=10)
    for number in range(4):
        assert kept.claim("anna", f"k{number}", "fp", now=1000 + number) is None
        kept.keep("anna", f"k{number}", "fp", {"status": 201, "headers": {}, "body": "{}"})
    assert kept.find("anna", "k0") is None  # the oldest went for the fourth
    assert kept.find("anna", "k3").answer["status"] == 201
    assert kept.claim("anna", "k1", "fp", now=1050).answer["status"] == 201  # replayed
    assert kept.claim("anna", "k1", "fp", now=1200) is None  # past its time: a new request
    assert kept.find("anna", "k2") is None and kept.find("anna", "k3") is None


def test_a_first_request_that_died_is_taken_over(store):
    kept = IdempotencyStore(store, ttl=100, most=3, pending_seconds=10)
    assert kept.claim("anna", "k", "fp", now=1000) is None
    assert kept.claim("anna", "k", "fp", now=1005).answer is None  # still running: wait
    assert kept.claim("anna", "k", "fp", now=1011) is None  # it died: this one answers


def test_the_spec_offers_the_key_on_every_post(client):
    spec = client.get("/api/openapi.json").get_json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "post":
                names = [parameter["name"] for parameter in operation.get("parameters", [])]
                assert "Idempotency-Key" in names, path


def test_calls_that_hand_out_a_credential_never_keep_it(client, new_player, store):
    key = {"Idempotency-Key": str(uuid.uuid4())}
    made = [client.post("/api/v1/players", json={"name": "Anna"}, headers=key) for _ in range(2)]
    tokens = [answer.get_json()["token"] for answer in made]
    assert [answer.status_code for answer in made] == [201, 201] and tokens[0] != tokens[1]
    assert "Idempotent-Replayed" not in made[1].headers
    anna = {"Authorization": f"Bearer {tokens[0]}"}
    codes = [client.post("/api/v1/players/me/signin-codes", headers={**anna, **key})
             for _ in range(2)]
    assert codes[0].get_json()["code"] != codes[1].get_json()["code"]
    kept = b"".join(store.dump(name) or b"" for name in store.scan_iter("idempotency:*"))
    secret = tokens[0].split(".")[1].encode()
    assert secret not in kept and codes[1].get_json()["code"].encode() not in kept
