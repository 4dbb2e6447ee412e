"""'Your turn' notices: VAPID key, push subscriptions, and the notify job against real receivers."""
import base64
import hashlib
import json

import pytest
from redis import Redis
from rq import Queue

import worker.jobs
from api.storage import connections
from api.storage.jobs import NOTICE_QUEUE, QUEUES
from api.tables import Tables, views
from api.tables.model import Player
from api.tables.notices import NotifyRetry
from worker.runner import PromptWorker
from push_receivers import Webhook

PUBLIC_URL = "https://poyta.example"


@pytest.fixture
def service(store, redis):
    return Tables(store, queue_redis=redis)


@pytest.fixture(autouse=True)
def settings(monkeypatch):
    monkeypatch.setenv("POYTA_PUBLIC_URL", PUBLIC_URL + "/")
    monkeypatch.setenv("POYTA_VAPID_SUBJECT", "mailto:ops@poyta.example")
    monkeypatch.setenv("POYTA_OUTBOUND_HTTP_LOOPBACK", "1")  # the receivers are local, plain http
    monkeypatch.setenv("POYTA_PUSH_HOSTS", "push.example.net")


def subscribe(client, headers, subscription):
    return client.post("/api/v1/push/subscriptions", json={"subscription": subscription},
                       headers=headers)


def two_human_game(client, service, new_player, webhook_url=None):
    """Anna creates a 6 nimmt! game for two, Bert joins: both seats are to act at once."""
    anna, anna_headers = new_player("Anna")
    bert, bert_headers = new_player("Bert")
    created = client.post("/api/v1/games", headers=anna_headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "webhook": webhook_url})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    code = created.get_json()["invites"][0]["code"]
    joined = client.post(f"/api/v1/games/invites/{code}", headers=bert_headers)
    assert joined.status_code == 200, joined.get_json()
    stored = service.games.load(game_id)
    assert stored.to_act() == [0, 1] and stored.meta.webhook == webhook_url
    return stored, (anna, anna_headers), (bert, bert_headers)


# --- the VAPID key ---------------------------------------------------------------------
@pytest.mark.cluster
def test_the_vapid_key_is_made_once_and_served_as_an_uncompressed_point(client, store, store_env):
    first = client.get("/api/v1/push/key")
    assert first.status_code == 200
    key = first.get_json()["public_key"]
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4 and "=" not in key
    assert client.get("/api/v1/push/key").get_json() == {"public_key": key}
    # Another process (another connection) agrees on the same key.
    other = connections.store_client(store_env)
    assert Tables(other).push.public_key() == key
    assert store.get("vapid:private_key").startswith(b"-----BEGIN PRIVATE KEY-----")


@pytest.mark.cluster
def test_concurrent_first_uses_agree_on_one_key(store, store_env):
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(8) as pool:
        keys = set(pool.map(lambda _: Tables(connections.store_client(store_env)).push.public_key(),
                            range(16)))
    assert len(keys) == 1


# --- subscriptions --------------------------------------------------------------------------
@pytest.mark.cluster
def test_subscribe_and_unsubscribe(client, store, new_player, push_service):
    anna, headers = new_player("Anna")
    subscription = push_service.subscription(push_service.browser("phone"))
    answer = subscribe(client, headers, subscription)
    assert answer.status_code == 201
    sub_id = answer.get_json()["id"]
    assert answer.headers["Location"] == f"/api/v1/push/subscriptions/{sub_id}"
    assert sub_id == hashlib.sha256(subscription["endpoint"].encode()).hexdigest()
    stored = json.loads(store.hget(f"player:{{{anna['id']}}}:push", sub_id))
    assert stored["endpoint"] == subscription["endpoint"] and stored["keys"] == subscription["keys"]
    # Subscribing again renews the same entry.
    assert subscribe(client, headers, subscription).get_json() == {"id": sub_id}
    assert store.hlen(f"player:{{{anna['id']}}}:push") == 1

    _, bert_headers = new_player("Bert")
    assert client.delete(f"/api/v1/push/subscriptions/{sub_id}", headers=bert_headers).status_code == 404
    assert client.delete(f"/api/v1/push/subscriptions/{sub_id}").status_code == 401
    assert client.delete(f"/api/v1/push/subscriptions/{sub_id}", headers=headers).status_code == 204
    assert store.hlen(f"player:{{{anna['id']}}}:push") == 0
    gone = client.delete(f"/api/v1/push/subscriptions/{sub_id}", headers=headers)
    assert gone.status_code == 404 and gone.get_json()["message"]


def test_subscribing_needs_a_token(client, push_service):
    answer = subscribe(client, {}, push_service.subscription(push_service.browser("phone")))
    assert answer.status_code == 401


@pytest.mark.cluster
def test_an_endpoint_belongs_to_the_last_player_who_subscribed_it(client, store, new_player,
                                                                  push_service):
    anna, anna_headers = new_player("Anna")
    bert, bert_headers = new_player("Bert")
    subscription = push_service.subscription(push_service.browser("shared"))
    sub_id = subscribe(client, anna_headers, subscription).get_json()["id"]
    assert subscribe(client, bert_headers, subscription).get_json()["id"] == sub_id
    assert store.hlen(f"player:{{{anna['id']}}}:push") == 0
    assert store.hexists(f"player:{{{bert['id']}}}:push", sub_id)


GOOD_KEYS = {"p256dh": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U",
             "auth": "tBHItJI5svbpez7KI4CCXg"}


def bad(**changes):
    subscription = {"endpoint": "https://push.example.net/v1/abc", "keys": dict(GOOD_KEYS)}
    for path, value in changes.items():
        target, _, name = path.rpartition("__")
        holder = subscription["keys"] if target == "keys" else subscription
        if value is None:
            holder.pop(name)
        else:
            holder[name] = value
    return {"subscription": subscription}


@pytest.mark.parametrize("body, where", [
    (bad(endpoint="not a url"), "endpoint"),
    (bad(endpoint="ftp://push.example.net/x"), "endpoint"),
    (bad(endpoint="/relative/path"), "endpoint"),
    (bad(endpoint="https://push.example.net/" + "x" * 2100), "endpoint"),
    (bad(endpoint=None), "endpoint"),
    (bad(keys__p256dh=GOOD_KEYS["p256dh"][:-4]), "p256dh"),                  # too short
    (bad(keys__p256dh="B" + "A" * 86), "p256dh"),                            # not on the curve
    (bad(keys__p256dh=GOOD_KEYS["p256dh"].replace("-", "+")), "p256dh"),      # not base64url
    (bad(keys__auth=base64.urlsafe_b64encode(b"x" * 15).decode()), "auth"),   # 15 bytes
    (bad(keys__auth="tBHItJI5svbpez7KI4CCX!"), "auth"),
    (bad(keys__auth=None), "auth"),
    (bad(keys__extra="1"), "extra"),
    (bad(browser="chrome"), "browser"),
    ({"subscription": {"endpoint": "https://push.example.net/v1/abc"}}, "keys"),
    ({}, "subscription"),
    ({"subscription": bad()["subscription"], "player": "x"}, "player"),
])
def test_bad_subscriptions_are_422_with_a_message(client, new_player, body, where):
    _, headers = new_player()
    answer = client.post("/api/v1/push/subscriptions", json=body, headers=headers)
    assert answer.status_code == 422, answer.get_json()
    assert where in answer.get_json()["message"]


def test_a_subscription_as_the_browser_serialises_it_is_accepted(client, new_player):
    _, headers = new_player()
    body = bad()
    body["subscription"]["expirationTime"] = None
    assert client.post("/api/v1/push/subscriptions", json=body, headers=headers).status_code == 201


# --- the notify job ----------------------------------------------------------------------
def test_a_turn_is_pushed_once_encrypted_and_without_secrets(client, service, new_player,
                                                             push_service, webhook):
    stored, (anna, anna_headers), (bert, bert_headers) = two_human_game(
        client, service, new_player, webhook.url)
    phone, laptop, annas = (push_service.browser(name) for name in ("phone", "laptop", "annas"))
    for browser in (phone, laptop):
        assert subscribe(client, bert_headers, push_service.subscription(browser)).status_code == 201
    subscribe(client, anna_headers, push_service.subscription(annas))
    turn_since = stored.seats[1].turn_since

    assert service.notices.notify_turn(stored.id, 1, turn_since) == 3    # 2 pushes + webhook
    assert service.notices.notify_turn(stored.id, 1, turn_since) == 0    # the job ran twice
    assert Tables(service.storage.redis).notices.notify_turn(stored.id, 1, turn_since) == 0

    assert push_service.errors == [] and webhook.errors == []
    public_key = client.get("/api/v1/push/key").get_json()["public_key"]
    expected = {"title": "Your turn", "body": "6 nimmt!: it is your turn",
                "url": f"/#/game/{stored.id}", "game": stored.id}
    for browser in (phone, laptop):
        [push] = push_service.received(browser)
        assert push.payload == expected
        assert push.vapid_key == public_key
        assert push.claims["sub"] == "mailto:ops@poyta.example"
        assert int(push.headers["ttl"]) >= 3600
    assert push_service.received(annas) == []     # only the seat whose turn it is
    # Nothing secret: no hand, no card, no token in what leaves the server.
    hand = views.view(service.games.load(stored.id), 1)["hand"]
    text = push_service.received(phone)[0].raw.decode()
    assert "hand" not in text and "card" not in text and bert["token"] not in text
    assert len(hand) == 10
    assert [m["content"] for m in webhook.messages] == [
        f"Bert, it is your turn in 6 nimmt!: {PUBLIC_URL}/#/game/{stored.id}"]
    assert "hand" not in json.dumps(webhook.messages)


def test_stale_or_bot_turns_are_not_notified(client, service, new_player, push_service, webhook):
    stored, _, (bert, bert_headers) = two_human_game(client, service, new_player, webhook.url)
    subscribe(client, bert_headers, push_service.subscription(push_service.browser("phone")))
    turn_since = stored.seats[1].turn_since
    assert service.notices.notify_turn(stored.id, 1, turn_since + 1) == 0     # another turn
    assert service.notices.notify_turn(stored.id, 5, turn_since) == 0         # no such seat
    assert service.notices.notify_turn("no-such-game", 1, turn_since) == 0
    card = views.view(stored, 1)["legal_actions"][0]
    acted = client.post(f"/api/v1/games/{stored.id}/actions", json={"action": card},
                        headers=bert_headers)
    assert acted.status_code == 200, acted.get_json()
    assert service.notices.notify_turn(stored.id, 1, turn_since) == 0         # no longer to act

    anna, _ = new_player("Carl")
    with_bot = service.seating.create_game(Player(anna["id"], "Carl", False), "sixnimmt", 2, {},
                                   ["human", {"bot": "easy"}], webhook=webhook.url)
    assert 1 in with_bot.to_act()
    assert service.notices.notify_turn(with_bot.id, 1, with_bot.version) == 0  # a bot's seat
    assert push_service.pushes == [] and webhook.messages == []


def test_a_gone_subscription_is_deleted_and_the_others_still_served(client, store, service,
                                                                    new_player, push_service):
    stored, _, (bert, bert_headers) = two_human_game(client, service, new_player)
    old, new = push_service.browser("old", status=410), push_service.browser("new")
    old_id = subscribe(client, bert_headers, push_service.subscription(old)).get_json()["id"]
    new_id = subscribe(client, bert_headers, push_service.subscription(new)).get_json()["id"]
    assert service.notices.notify_turn(stored.id, 1, stored.seats[1].turn_since) == 1
    assert push_service.errors == []
    assert len(push_service.received(new)) == 1 and push_service.received(old) == []
    assert not store.hexists(f"player:{{{bert['id']}}}:push", old_id)
    assert store.hexists(f"player:{{{bert['id']}}}:push", new_id)
    assert not store.exists(f"push:owner:{old_id}")


def test_a_failing_webhook_is_retried_without_pushing_twice(client, service, new_player,
                                                            push_service):
    hook = Webhook(statuses=[503])
    try:
        stored, _, (_, bert_headers) = two_human_game(client, service, new_player, hook.url)
        phone = push_service.browser("phone")
        subscribe(client, bert_headers, push_service.subscription(phone))
        turn_since = stored.seats[1].turn_since
        with pytest.raises(NotifyRetry):
            service.notices.notify_turn(stored.id, 1, turn_since)
        assert len(push_service.received(phone)) == 1 and hook.messages == []
        assert service.notices.notify_turn(stored.id, 1, turn_since) == 1     # RQ's retry
        assert len(push_service.received(phone)) == 1 and len(hook.messages) == 1
        assert service.notices.notify_turn(stored.id, 1, turn_since) == 0
    finally:
        hook.close()


def test_an_unreachable_webhook_does_not_keep_the_push_back(client, service, new_player,
                                                            push_service):
    closed = Webhook()
    closed.close()       # nothing listens on its port any more
    stored, _, (_, bert_headers) = two_human_game(client, service, new_player, closed.url)
    phone = push_service.browser("phone")
    subscribe(client, bert_headers, push_service.subscription(phone))
    with pytest.raises(NotifyRetry, match="webhook"):
        service.notices.notify_turn(stored.id, 1, stored.seats[1].turn_since)
    assert len(push_service.received(phone)) == 1 and push_service.errors == []


def test_a_failing_push_service_does_not_keep_the_webhook_back(client, service, new_player,
                                                               push_service, webhook):
    stored, _, (_, bert_headers) = two_human_game(client, service, new_player, webhook.url)
    phone = push_service.browser("phone", status=500)
    subscribe(client, bert_headers, push_service.subscription(phone))
    turn_since = stored.seats[1].turn_since
    with pytest.raises(NotifyRetry, match="push"):
        service.notices.notify_turn(stored.id, 1, turn_since)
    assert len(webhook.messages) == 1
    phone.status = 201
    assert service.notices.notify_turn(stored.id, 1, turn_since) == 1
    assert len(push_service.received(phone)) == 1 and len(webhook.messages) == 1


@pytest.mark.skipif(not hasattr(worker.jobs, "notify_turn"),
                    reason="worker/jobs.py has no notify_turn job yet")
@pytest.mark.cluster
def test_the_real_worker_notifies_both_players_once(client, service, redis, new_player,
                                                    push_service, webhook):
    anna_phone, bert_phone = push_service.browser("anna"), push_service.browser("bert")
    anna, anna_headers = new_player("Anna")
    subscribe(client, anna_headers, push_service.subscription(anna_phone))
    stored = service.seating.create_game(Player(anna["id"], "Anna", False), "sixnimmt", 2, {},
                                 ["human", "human"], webhook=webhook.url)
    bert, bert_headers = new_player("Bert")
    subscribe(client, bert_headers, push_service.subscription(bert_phone))
    assert client.post(f"/api/v1/games/invites/{stored.seats[1].invite}",
                       headers=bert_headers).status_code == 200
    PromptWorker([Queue(NOTICE_QUEUE, connection=redis)], connection=redis).work(burst=True)
    assert push_service.errors == [] and webhook.errors == []
    assert len(push_service.received(anna_phone)) == 1
    assert len(push_service.received(bert_phone)) == 1
    assert sorted(m["content"].split(",")[0] for m in webhook.messages) == ["Anna", "Bert"]
    # Re-running the same jobs by hand sends nothing more.
    for seat in (0, 1):
        assert service.notices.notify_turn(stored.id, seat,
                                  service.games.load(stored.id).seats[seat].turn_since) == 0


def test_a_table_matchmaking_formed_tells_each_seeker_it_started(client, service, redis,
                                                                 new_player, push_service):
    seekers = [new_player(name) for name in ("Anna", "Bert", "Cecil", "Dora")]
    browsers = {}
    for (player, headers) in seekers:
        browsers[player["id"]] = push_service.browser(player["id"])
        assert subscribe(client, headers, push_service.subscription(
            browsers[player["id"]])).status_code == 201
    made = []
    for (player, _) in seekers:
        seeker = service.players.for_token(player["token"])
        made.append((seeker, service.seeks.create(seeker, [{"type": "hattrick"}],
                                                  {"min": 4, "max": 4}, ["1d"])))
    queues = [Queue(name, connection=redis) for name in QUEUES]
    PromptWorker(queues, connection=redis).work(burst=True)   # the pairing, then the notices

    [game_id] = {service.seeks.get(seeker, seek["id"])["game"] for seeker, seek in made}
    stored = service.games.load(game_id)
    first = set(stored.to_act())
    assert push_service.errors == [] and len(first) == 1
    for player_id, seat in stored.seated().items():
        [push] = push_service.received(browsers[player_id])
        if seat in first:
            assert push.payload["title"] == "Your turn"
        else:
            assert push.payload == {"title": "Game started",
                                    "body": "Hattrick: every seat is taken",
                                    "url": f"/#/game/{game_id}", "game": game_id}
