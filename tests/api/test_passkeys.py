"""Passkeys over HTTP with a software authenticator: register, sign in on another device,
list, rename and remove; a wrong origin, a replayed challenge and another player's or a
forged credential are refused and change nothing."""
import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from api.http import create_app
from api.settings import Settings
from api.storage import keys
from api.tables.passkeys import CHALLENGE_SECONDS, MOST_PASSKEYS
from authenticator import Authenticator, Credential

# On the cluster too: credentials indexed apart from their player.
pytestmark = pytest.mark.cluster

PASSKEYS = "/api/v1/players/me/passkeys"
SIGNIN = "/api/v1/players/passkey-signin"
REGISTRATION_OPTIONS = "/api/v1/players/me/passkey-registration/options"


@pytest.fixture
def site(app):
    passkeys = app.extensions["poyta"].passkeys
    return passkeys.origin, passkeys.rp_id


def register(client, headers, authenticator, origin, name="My phone"):
    options = client.post(REGISTRATION_OPTIONS, headers=headers)
    assert options.status_code == 200, options.get_json()
    credential = authenticator.create(options.get_json(), origin)
    return client.post(PASSKEYS, headers=headers, json={"credential": credential, "name": name})


def sign_in(client, authenticator, origin, **choice):
    options = client.post(f"{SIGNIN}/options")
    assert options.status_code == 200, options.get_json()
    assertion = authenticator.get(options.get_json(), origin, **choice)
    return client.post(SIGNIN, json={"credential": assertion, "device": "new phone"}), assertion


def devices(client, headers):
    return client.get("/api/v1/players/me/devices", headers=headers).get_json()


def test_a_passkey_signs_a_new_device_in_as_the_same_player(app, client, new_player, site):
    origin, rp_id = site
    anna, headers = new_player("Anna")
    options = client.post(REGISTRATION_OPTIONS, headers=headers).get_json()
    assert options["rp"]["id"] == rp_id and options["user"]["name"] == "Anna"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    authenticator = Authenticator()
    added = register(client, headers, authenticator, origin)
    assert added.status_code == 201, added.get_json()
    passkey = added.get_json()
    assert passkey["name"] == "My phone" and passkey["last_used"] is None
    assert added.headers["Location"].endswith(f"{PASSKEYS}/{passkey['id']}")

    # Another device, with no token: the passkey alone says who it is.
    other_device = app.test_client()
    signed_in, _ = sign_in(other_device, authenticator, origin)
    assert signed_in.status_code == 201, signed_in.get_json()
    body = signed_in.get_json()
    assert (body["id"], body["name"]) == (anna["id"], "Anna") and body["token"] != anna["token"]
    new_headers = {"Authorization": f"Bearer {body['token']}"}
    assert other_device.get("/api/v1/players/me", headers=new_headers).get_json()["id"] == anna["id"]
    assert sorted(device["label"] for device in devices(client, headers)) == [
        "first device", "new phone"]
    assert client.get(PASSKEYS, headers=headers).get_json()[0]["last_used"] is not None

    # The next registration leaves out the passkeys already there.
    again = client.post(REGISTRATION_OPTIONS, headers=headers).get_json()
    assert [entry["id"] for entry in again["excludeCredentials"]] == [passkey["id"]]


def test_passkeys_are_listed_renamed_and_removed(app, client, new_player, site):
    origin, _ = site
    _, headers = new_player("Anna")
    phone, laptop = Authenticator(), Authenticator()
    first = register(client, headers, phone, origin, "Phone").get_json()
    second = register(client, headers, laptop, origin, "Laptop").get_json()
    assert [entry["name"] for entry in client.get(PASSKEYS, headers=headers).get_json()] == [
        "Phone", "Laptop"]

    renamed = client.patch(f"{PASSKEYS}/{first['id']}", headers=headers, json={"name": "Old phone"})
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Old phone"
    assert client.delete(f"{PASSKEYS}/{second['id']}", headers=headers).status_code == 204
    assert [entry["name"] for entry in client.get(PASSKEYS, headers=headers).get_json()] == [
        "Old phone"]

    # A removed passkey signs nobody in.
    refused, _ = sign_in(app.test_client(), laptop, origin)
    assert refused.status_code == 422 and refused.get_json()["reason"] == "invalid_request"
    assert len(devices(client, headers)) == 1
    for method in (client.patch, client.delete):
        missing = method(f"{PASSKEYS}/{second['id']}", headers=headers, json={"name": "x"})
        assert missing.status_code == 404


def test_a_wrong_origin_is_refused_and_changes_nothing(app, client, new_player, site):
    origin, _ = site
    _, headers = new_player("Anna")
    authenticator = Authenticator()
    phished = register(client, headers, authenticator, "https://poyta.example.evil")
    assert phished.status_code == 422 and "origin" in phished.get_json()["message"].lower()
    assert client.get(PASSKEYS, headers=headers).get_json() == []

    assert register(client, headers, authenticator, origin).status_code == 201
    refused, _ = sign_in(app.test_client(), authenticator, "https://poyta.example.evil")
    assert refused.status_code == 422
    assert len(devices(client, headers)) == 1


def test_a_replayed_challenge_is_refused(app, client, new_player, site):
    origin, _ = site
    _, headers = new_player("Anna")
    authenticator = Authenticator()
    options = client.post(REGISTRATION_OPTIONS, headers=headers).get_json()
    credential = authenticator.create(options, origin)
    assert client.post(PASSKEYS, headers=headers, json={"credential": credential}).status_code == 201
    replayed = client.post(PASSKEYS, headers=headers, json={"credential": credential})
    assert replayed.status_code == 422 and "registration" in replayed.get_json()["message"]

    signed_in, assertion = sign_in(app.test_client(), authenticator, origin)
    assert signed_in.status_code == 201
    replay = app.test_client().post(SIGNIN, json={"credential": assertion})
    assert replay.status_code == 422 and "used" in replay.get_json()["message"]
    assert len(devices(client, headers)) == 2


def test_another_players_or_a_forged_credential_is_refused(app, client, new_player, site):
    origin, rp_id = site
    anna, anna_headers = new_player("Anna")
    bob, bob_headers = new_player("Bob")
    annas, bobs = Authenticator(), Authenticator()
    annas_passkey = register(client, anna_headers, annas, origin).get_json()
    assert register(client, bob_headers, bobs, origin).status_code == 201

    # Anna's passkey claiming to be Bob's: not one of Bob's credentials.
    claimed, _ = sign_in(app.test_client(), annas, origin, user_handle=bob["id"].encode())
    assert claimed.status_code == 422
    # A key of the attacker's own under Anna's credential id: the signature does not verify.
    forged = Credential(annas.credentials[0].id, rp_id, anna["id"].encode(),
                        ec.generate_private_key(ec.SECP256R1()), sign_count=100)
    refused, _ = sign_in(app.test_client(), annas, origin, credential=forged)
    assert refused.status_code == 422 and "verify" in refused.get_json()["message"]
    assert len(devices(client, anna_headers)) == len(devices(client, bob_headers)) == 1

    # Bob cannot see, rename or remove Anna's passkey.
    assert [entry["id"] for entry in client.get(PASSKEYS, headers=bob_headers).get_json()] != [
        annas_passkey["id"]]
    for method in (client.patch, client.delete):
        assert method(f"{PASSKEYS}/{annas_passkey['id']}", headers=bob_headers,
                      json={"name": "mine"}).status_code == 404
    assert client.get(PASSKEYS, headers=anna_headers).get_json()[0]["name"] == "My phone"


def test_a_credential_id_one_player_registered_is_refused_to_another(app, client, new_player,
                                                                       site):
    origin, _ = site
    anna, anna_auth = new_player("Anna")
    _, bert_auth = new_player("Bert")
    phone = Authenticator()
    passkey = register(client, anna_auth, phone, origin).get_json()
    seen_id = phone.credentials[0].id

    def register_as_bert():
        options = client.post(REGISTRATION_OPTIONS, headers=bert_auth).get_json()
        credential = Authenticator().create(options, origin, credential_id=seen_id)
        return client.post(PASSKEYS, headers=bert_auth, json={"credential": credential,
                                                               "name": "Copied"})
    refused = register_as_bert()
    assert refused.status_code == 409, refused.get_json()
    assert refused.get_json()["reason"] == "conflict" and refused.get_json()["message"]
    assert client.get(PASSKEYS, headers=bert_auth).get_json() == []
    signed_in, _ = sign_in(app.test_client(), phone, origin)
    assert signed_in.get_json()["id"] == anna["id"]

    assert client.delete(f"{PASSKEYS}/{passkey['id']}", headers=anna_auth).status_code == 204
    assert register_as_bert().status_code == 201, "a removed passkey's id is free again"


def test_bad_input_is_a_4xx_in_the_error_shape(client, new_player):
    _, headers = new_player("Anna")
    assert client.post(REGISTRATION_OPTIONS).status_code == 401
    assert client.get(PASSKEYS).status_code == 401
    for body in ({}, {"credential": {"id": "x"}}, {"credential": "nope"},
                 {"credential": {"id": "a", "rawId": "a", "type": "public-key",
                                 "response": {"clientDataJSON": "!!", "attestationObject": "a"}}}):
        response = client.post(PASSKEYS, headers=headers, json=body)
        assert response.status_code == 422, body
        assert response.get_json()["message"]
    # Well formed but no registration under way, or no sign-in: refused.
    well_formed = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
                   "response": {"clientDataJSON": "e30", "attestationObject": "oA"}}
    assert client.post(PASSKEYS, headers=headers,
                       json={"credential": well_formed}).status_code == 422
    garbage = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
               "response": {"clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA"}}
    refused = client.post(SIGNIN, json={"credential": garbage})
    assert refused.status_code == 422 and refused.get_json()["reason"] == "invalid_request"


def test_passkey_signins_are_budgeted_per_address(redis, store_env):
    client = create_app({**store_env, "TESTING": True,
                         "RATE_LIMITS": {"passkey_signin": "3/minute"}}).test_client()
    for _ in range(3):
        assert client.post(f"{SIGNIN}/options").status_code == 200
    spent = client.post(f"{SIGNIN}/options")
    assert spent.status_code == 429 and int(spent.headers["Retry-After"]) >= 1
    assert client.post(SIGNIN, json={}).status_code == 429


def test_passkey_registration_options_are_budgeted_per_player(redis, store_env):
    client = create_app({**store_env, "TESTING": True}).test_client()
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    answers = [client.post(REGISTRATION_OPTIONS, headers=headers) for _ in range(40)]
    statuses = [answer.status_code for answer in answers]
    assert statuses[:5] == [200] * 5 and statuses[-1] == 429, statuses
    spent = answers[-1]
    assert int(spent.headers["Retry-After"]) >= 1 and spent.get_json()["code"] == 429


def test_the_relying_party_and_origin_come_from_settings(redis, store_env, monkeypatch):
    assert (Settings.from_env({"POYTA_PUBLIC_URL": "https://play.poyta.example:8443/"}).rp_id,
            Settings.from_env({"POYTA_PUBLIC_URL": "https://play.poyta.example:8443/"}).origin) == (
        "play.poyta.example", "https://play.poyta.example:8443")
    given = Settings.from_env({"POYTA_PUBLIC_URL": "https://play.poyta.example",
                               "POYTA_RP_ID": "poyta.example", "POYTA_ORIGIN": "https://poyta.example/"})
    assert (given.rp_id, given.origin) == ("poyta.example", "https://poyta.example")

    monkeypatch.setenv("POYTA_PUBLIC_URL", "https://play.poyta.example")
    client = create_app({**store_env, "TESTING": True}).test_client()
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    authenticator = Authenticator()
    assert register(client, headers, authenticator, "http://127.0.0.1:8000").status_code == 422
    assert authenticator.credentials[-1].rp_id == "play.poyta.example"
    assert register(client, headers, authenticator, "https://play.poyta.example").status_code == 201


def test_challenges_are_short_lived_and_a_player_holds_at_most_20_passkeys(
        redis, store_env, new_player, site, store):
    origin, _ = site
    # Each passkey is a registration: a budget too large to meet for 21 of them.
    client = create_app({**store_env, "TESTING": True, "RATE_LIMITS": {
        "passkey_registration": "1000/minute"}}).test_client()
    anna, headers = new_player("Anna")
    client.post(REGISTRATION_OPTIONS, headers=headers)
    assert 0 < store.ttl(keys.passkey_registration(anna["id"])) <= CHALLENGE_SECONDS
    challenge = client.post(f"{SIGNIN}/options").get_json()["challenge"]
    assert 0 < store.ttl(keys.passkey_signin(challenge)) <= CHALLENGE_SECONDS

    for _ in range(MOST_PASSKEYS):
        assert register(client, headers, Authenticator(), origin).status_code == 201
    full = register(client, headers, Authenticator(), origin)
    assert full.status_code == 409 and "remove one" in full.get_json()["message"]
    assert len(client.get(PASSKEYS, headers=headers).get_json()) == MOST_PASSKEYS
    assert 0 < store.ttl(keys.passkeys(anna["id"]))
