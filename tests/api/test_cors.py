"""Browser apps on the origins named in POYTA_CORS_ORIGINS may call the API; no other origin,
and none at all by default."""
import pytest

from api.http import create_app

ALLOWED = "https://bots.example"
PREFLIGHT = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"}


@pytest.fixture
def cors_client(redis, store_env, monkeypatch):
    monkeypatch.setenv("POYTA_CORS_ORIGINS", f"{ALLOWED}, https://other.example/")
    return create_app({**store_env, "TESTING": True}).test_client()


def test_a_preflight_from_an_allowed_origin_passes_and_is_cached(cors_client):
    answer = cors_client.options("/api/v1/games", headers={"Origin": ALLOWED, **PREFLIGHT})
    assert answer.status_code == 204
    assert answer.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in answer.headers["Access-Control-Allow-Methods"]
    allowed = answer.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= set(allowed.split(", "))
    assert int(answer.headers["Access-Control-Max-Age"]) >= 600
    assert "Access-Control-Allow-Credentials" not in answer.headers


def test_the_call_itself_is_readable_with_its_etag_and_location(cors_client):
    created = cors_client.post("/api/v1/players", json={"name": "Anna"},
                               headers={"Origin": ALLOWED})
    assert created.status_code == 201
    assert created.headers["Access-Control-Allow-Origin"] == ALLOWED
    exposed = created.headers["Access-Control-Expose-Headers"]
    assert "ETag" in exposed and "Location" in exposed and "Retry-After" in exposed
    assert "Access-Control-Allow-Credentials" not in created.headers


@pytest.mark.parametrize("origin", ["https://evil.example", "https://bots.example.evil.net",
                                    "http://bots.example"])
def test_a_preflight_from_any_other_origin_gets_no_allow_origin(cors_client, origin):
    answer = cors_client.options("/api/v1/games", headers={"Origin": origin, **PREFLIGHT})
    assert "Access-Control-Allow-Origin" not in answer.headers
    call = cors_client.get("/api/v1/games/types", headers={"Origin": origin})
    assert call.status_code == 200 and "Access-Control-Allow-Origin" not in call.headers


def test_a_preflight_for_a_method_the_url_does_not_serve_fails(cors_client):
    wrong = cors_client.options("/api/v1/games/types", headers={
        "Origin": ALLOWED, "Access-Control-Request-Method": "DELETE"})
    assert wrong.status_code == 405


def test_no_origin_is_allowed_by_default(client):
    answer = client.options("/api/v1/games", headers={"Origin": ALLOWED, **PREFLIGHT})
    assert answer.status_code == 405 and "Access-Control-Allow-Origin" not in answer.headers
    call = client.get("/api/v1/games/types", headers={"Origin": ALLOWED})
    assert "Access-Control-Allow-Origin" not in call.headers
