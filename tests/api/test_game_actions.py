"""A move answered before Flask (`api.http.game_actions`) answers as Flask's `Actions.post`
does: the same status, body and headers for an accepted move and for each refusal; what it
does not settle alone reaches Flask."""
import pytest

from api.http import create_app
from api.http.game_actions import plainly_valid
from api.http.resources.games.schemas import ActionRequestSchema

VARYING = {"X-Request-Id", "RateLimit", "ETag", "Content-Length"}


@pytest.fixture
def table(client, new_player):
    """Anna and Bert at a 6 nimmt! table, both to choose a card."""
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    view = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).get_json()
    client.post(f"/api/v1/games/invites/{view['invites'][0]['code']}", headers=bert)
    return f"/api/v1/games/{view['id']}/actions", anna, bert, view["hand"]


@pytest.fixture
def reaching_flask(app) -> list[str]:
    """The paths of the requests the fast path hands on to Flask."""
    reached, layer = [], app.wsgi_app
    flask = layer.flask_wsgi_app

    def counted(environ, start_response):
        reached.append(environ["PATH_INFO"])
        return flask(environ, start_response)
    layer.flask_wsgi_app = counted
    return reached


def through_flask(client, url, headers, body, key):
    """The same request as Flask answers it: an Idempotency-Key is left to Flask's hooks."""
    return client.post(url, headers={**headers, "Idempotency-Key": key}, json=body)


def same_answer(fast, flask) -> None:
    assert fast.status_code == flask.status_code
    assert fast.get_json() == flask.get_json() or fast.status_code == 200
    assert set(fast.headers.keys()) == set(flask.headers.keys())
    for name, value in fast.headers.items():
        if name not in VARYING:
            assert flask.headers[name] == value, name
    assert fast.headers["RateLimit"].split(";")[0] == flask.headers["RateLimit"].split(";")[0]


@pytest.mark.parametrize("body, reason", [
    ({"action": {"type": "play", "card": "not in the hand"}}, "illegal_action"),
    ({"action": {"type": "play", "card": 105}}, "invalid_body"),
    ({"action": {"type": "take", "row": 0}}, "invalid_body"),
    ({"action": {"type": "play", "card": "7"}}, "invalid_body"),
    ({"action": {"type": "play"}, "version": 0}, "stale_version"),
])
def test_a_refusal_is_the_one_flask_gives(client, table, body, reason):
    url, anna, _, hand = table
    if body["action"].get("card") == "not in the hand":
        body = {"action": {"type": "play", "card": min(set(range(1, 105)) - set(hand))}}
    fast = client.post(url, headers=anna, json=body)
    assert fast.get_json()["reason"] == reason, fast.get_json()
    same_answer(fast, through_flask(client, url, anna, body, f"k-{reason}"))


def test_an_accepted_move_is_answered_as_flask_answers_it(client, table, reaching_flask):
    url, anna, _, hand = table
    fast = client.post(url, headers=anna, json={"action": {"type": "play", "card": hand[0]}})
    assert reaching_flask == []
    flask = through_flask(client, url, anna, {"action": {"type": "play", "card": hand[1]}}, "k1")
    assert reaching_flask == [url]
    same_answer(fast, flask)
    view = client.get(url.rsplit("/", 1)[0], headers=anna)
    assert view.get_json() == flask.get_json() and view.headers["ETag"] == flask.headers["ETag"]
    assert fast.get_json()["version"] + 1 == flask.get_json()["version"]


def test_what_it_does_not_settle_reaches_flask(client, table, reaching_flask):
    url, anna, _, hand = table
    action = {"action": {"type": "play", "card": hand[0]}}
    assert client.post(url, headers={"Authorization": "Bearer nobody.x"},
                       json=action).status_code == 401
    assert client.post(url + "?x=1", headers=anna, json=action).get_json()["reason"] == (
        "invalid_query")
    assert client.post(url, headers=anna, data="{", content_type="application/json"
                       ).get_json()["reason"] == "bad_request"
    assert client.post(url, headers=anna, data="card=1").status_code == 415
    assert client.post(url, headers={**anna, "If-Match": '"stale"'},
                       json=action).status_code == 412
    assert client.post(url, headers=anna, json={**action, "extra": 1}
                       ).get_json()["errors"] == {"json": {"extra": ["Unknown field."]}}
    assert reaching_flask == [url] * 6


def test_beyond_the_budget_it_answers_429_with_retry_after(store_env, new_player):
    client = create_app({**store_env, "TESTING": True,
                         "RATE_LIMITS": {"act": "2/minute"}}).test_client()
    anna = {"Authorization": "Bearer " + client.post(
        "/api/v1/players", json={"name": "Anna"}).get_json()["token"]}
    url = "/api/v1/games/nosuchgame/actions"
    answers = [client.post(url, headers=anna, json={"action": {"type": "play"}})
               for _ in range(3)]
    assert [answer.status_code for answer in answers] == [404, 404, 429]
    refused = answers[-1]
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.get_json()["reason"] == "rate_limited"
    assert refused.headers["RateLimit"].startswith('"act-60s";r=0;')


@pytest.mark.parametrize("body", [
    {"action": {"type": "play", "card": 3}}, {"action": {}, "version": 4},
    {"action": {"type": "play"}, "version": True}, {"action": {"type": "play"}, "version": 1.0},
    {"action": "play"}, {"version": 2}, {"action": {}, "extra": 1}, [], None, 3,
])
def test_it_takes_only_bodies_the_schema_loads_unchanged(body):
    if plainly_valid(body):
        assert ActionRequestSchema().load(body) == body
    else:
        assert body not in ({"action": {"type": "play", "card": 3}}, {"action": {}, "version": 4})
