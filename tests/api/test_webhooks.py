"""A player's webhook: set, shown and deleted over the API; the player's events POSTed to a real
receiver on this machine, each signed per Standard Webhooks (verified with `standardwebhooks`),
by a real RQ worker; a 503 retried, a refused event dropped, a process lost after its commit
made up for by the sweeper."""
import json
import random
import threading

import pytest
import requests
from rq import Queue
from standardwebhooks import Webhook

from api import faults
from api.storage import keys
from api.storage.jobs import WEBHOOK_QUEUE
from api.tables import Tables
from api.tables.model import FINISHED
from api.tables.webhooks import WebhookRetry
from http_receivers import Receiver
from test_no_lost_turn import start_api
from test_ratelimits import assert_429
from test_ratings import play_out
from worker.runner import PromptWorker
from worker_processes import start_worker, within

# On the cluster too: the outbox beside the commit, and the sweeper after a lost process.
pytestmark = pytest.mark.cluster

WEBHOOK = "/api/v1/players/me/webhook"


class Hook:
    """A bot's receiver: answers `statuses` in turn, then 204, and keeps every POST."""

    def __init__(self, statuses=()):
        self.statuses, self.answered = list(statuses), []
        lock = threading.Lock()

        def answer(handler):
            with lock:
                status = self.statuses.pop(0) if self.statuses else 204
                self.answered.append(status)
            handler.send_response(status)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        self.receiver = Receiver(answer)
        self.url = self.receiver.url + "/hook"

    def deliveries(self, secret: str) -> list[tuple[int, dict, dict]]:
        """Every POST as (status answered, headers, verified body): each must verify."""
        verifier = Webhook(secret)
        return [(status, headers, verifier.verify(body, headers))
                for status, (headers, body) in zip(self.answered, self.receiver.posts)]

    def accepted(self, secret: str) -> list[dict]:
        return [body for status, _, body in self.deliveries(secret) if status < 300]

    def close(self):
        self.receiver.close()


@pytest.fixture
def loopback(monkeypatch):
    """The receivers are local, plain http."""
    monkeypatch.setenv("POYTA_OUTBOUND_HTTP_LOOPBACK", "1")


@pytest.fixture
def hooks():
    made = []

    def make(statuses=()) -> Hook:
        made.append(Hook(statuses))
        return made[-1]
    yield make
    for hook in made:
        hook.close()


@pytest.fixture
def tables(loopback, store, redis):
    return Tables(store, queue_redis=redis)


def types(bodies: list[dict]) -> list[str]:
    return [body["type"] for body in bodies]


def run_deliveries(redis) -> None:
    PromptWorker([Queue(WEBHOOK_QUEUE, connection=redis)], connection=redis).work(burst=True)


# --- the API ---------------------------------------------------------------------------------
def test_a_webhook_is_set_shown_without_its_secret_and_deleted(loopback, client, new_player,
                                                                hooks):
    hook = hooks()
    _, headers = new_player("Anna")
    assert client.get(WEBHOOK, headers=headers).status_code == 404
    assert client.delete(WEBHOOK, headers=headers).status_code == 404
    assert client.put(WEBHOOK, json={"url": hook.url}).status_code == 401

    answer = client.put(WEBHOOK, json={"url": hook.url}, headers=headers)
    assert answer.status_code == 200, answer.get_json()
    created = answer.get_json()
    assert set(created) == {"url", "secret", "created", "note"} and created["url"] == hook.url
    assert "this machine" in created["note"]  # the receiver is on loopback
    assert created["secret"].startswith("whsec_")
    Webhook(created["secret"])  # a secret the library takes

    shown = client.get(WEBHOOK, headers=headers)
    assert shown.status_code == 200
    assert created["secret"] not in shown.get_data(as_text=True)
    assert shown.get_json() == {"url": hook.url, "created": created["created"], "pending": 0,
                                "failures": 0, "dropped": 0, "undelivered": 0,
                                "last_delivery": None}

    again = client.put(WEBHOOK, json={"url": hook.url + "/2"}, headers=headers).get_json()
    assert again["secret"] != created["secret"], "a new PUT, a new secret"
    assert client.get(WEBHOOK, headers=headers).get_json()["url"] == hook.url + "/2"
    assert client.delete(WEBHOOK, headers=headers).status_code == 204
    assert client.get(WEBHOOK, headers=headers).status_code == 404


@pytest.mark.parametrize("body, reason", [
    ({"url": "https://127.0.0.1:8080/hook"}, "this server's own machine"),
    ({"url": "https://localhost/hook"}, "this server's own machine"),
    ({"url": "https://10.1.2.3/hook"}, "not a public internet address"),
    ({"url": "https://169.254.169.254/latest/meta-data"}, "not a public internet address"),
    ({"url": "https://[::ffff:192.168.0.1]/hook"}, "not a public internet address"),
    ({"url": "http://bot.example/hook"}, "must use https"),
    ({"url": "https://user:pw@bot.example/hook"}, "user name or password"),
    ({"url": "ftp://bot.example/hook"}, "url"),
    ({"url": "https://bot.example/" + "x" * 2100}, "url"),
    ({}, "url"),
    ({"url": "https://bot.example/hook", "secret": "mine"}, "secret"),
])
def test_a_bad_or_internal_url_is_422_and_changes_nothing(client, new_player, body, reason):
    _, headers = new_player("Anna")
    first = client.put(WEBHOOK, json={"url": "https://bot.example/poyta"}, headers=headers)
    assert first.status_code == 200
    answer = client.put(WEBHOOK, json=body, headers=headers)
    assert answer.status_code == 422, answer.get_json()
    assert reason in answer.get_json()["message"]
    assert client.get(WEBHOOK, headers=headers).get_json()["url"] == "https://bot.example/poyta"


def test_setting_a_webhook_is_budgeted(store_env, new_player):
    from api.http import create_app
    client = create_app({**store_env, "TESTING": True,
                         "RATE_LIMITS": {"webhook": "2/minute"}}).test_client()
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(2):
        assert client.put(WEBHOOK, json={"url": "https://bot.example/h"},
                          headers=headers).status_code == 200
    assert_429(client.put(WEBHOOK, json={"url": "https://bot.example/h"}, headers=headers))
    assert client.get(WEBHOOK, headers=headers).status_code == 200, "reading is not budgeted"


@pytest.mark.parametrize("env, taken", [
    ({"HOST": "127.0.0.1"}, True),          # `make run`'s default: this machine only
    ({"HOST": "::1"}, True),
    ({"HOST": "0.0.0.0"}, False),           # every interface
    ({"HOST": "192.0.2.7"}, False),
    ({"HOST": "127.0.0.1", "POYTA_PROXY_HOPS": "1"}, False),  # a proxy forwards the world
    ({}, False),                            # not known: a container's, another launcher's
])
def test_only_a_server_on_loopback_sends_to_its_own_machine(monkeypatch, store_env, env, taken):
    from api.http import create_app
    monkeypatch.delenv("POYTA_OUTBOUND_HTTP_LOOPBACK", raising=False)
    monkeypatch.delenv("HOST", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    client = create_app({**store_env, "TESTING": True}).test_client()
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for url in ("http://localhost:8123/hook", "http://127.0.0.1:8123/hook"):
        answer = client.put(WEBHOOK, json={"url": url}, headers=headers)
        if taken:
            assert answer.status_code == 200, answer.get_json()
            assert "listens on this machine only" in answer.get_json()["note"]
        else:
            assert answer.status_code == 422, answer.get_json()
    public = client.put(WEBHOOK, json={"url": "https://bot.example/h"}, headers=headers)
    assert public.status_code == 200 and "note" not in public.get_json()


def test_a_test_ping_is_signed_and_says_what_the_receiver_answered(loopback, client, new_player,
                                                                   hooks):
    hook = hooks([204, 410])
    _, headers = new_player("Anna")
    assert client.post(f"{WEBHOOK}/test", headers=headers).status_code == 404  # none yet
    secret = client.put(WEBHOOK, json={"url": hook.url}, headers=headers).get_json()["secret"]
    tried = client.post(f"{WEBHOOK}/test", headers=headers)
    assert tried.status_code == 200, tried.get_json()
    assert tried.get_json() | {"at": None} == {
        "at": None, "event": tried.get_json()["event"], "type": "ping", "status": 204,
        "delivered": True, "error": None}
    (_, sent, body), = hook.deliveries(secret)
    assert body["type"] == "ping" and sent["webhook-id"] == tried.get_json()["event"]
    refused = client.post(f"{WEBHOOK}/test", headers=headers).get_json()
    assert refused["delivered"] is False and refused["status"] == 410
    assert client.get(WEBHOOK, headers=headers).get_json()["pending"] == 0, "a ping is not kept"


def test_redelivering_sends_the_refused_events_again_in_order(tables, redis, hooks, client):
    from jsonschema import Draft202012Validator
    anna = tables.players.create("Anna")
    hook = hooks([410, 410])
    secret = tables.webhooks.set(anna, hook.url)["secret"]
    tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}], pace="none")
    tables.webhooks.deliver(anna.id, "first")
    shown = tables.webhooks.describe(anna)
    assert shown["dropped"] == 2 and shown["undelivered"] == 2 and shown["pending"] == 0
    refused = [sent["webhook-id"] for _, sent, _ in hook.deliveries(secret)]

    assert tables.webhooks.redeliver(anna) == {"pending": 2}
    assert tables.webhooks.describe(anna)["undelivered"] == 0
    run_deliveries(redis)
    delivered = hook.deliveries(secret)[2:]
    assert [sent["webhook-id"] for _, sent, _ in delivered] == refused
    assert [status for status, _, _ in delivered] == [204, 204]
    assert tables.webhooks.describe(anna)["undelivered"] == 0
    spec = client.get("/api/openapi.json").get_json()
    event = spec["webhooks"]["event"]["post"]["requestBody"]["content"]["application/json"]
    shape = Draft202012Validator({**event["schema"], "components": spec["components"]})
    for _, _, body in delivered:
        shape.validate(body)


def test_the_contract_describes_every_delivery(client):
    spec = client.get("/api/openapi.json").get_json()
    assert set(spec["webhooks"]) == {"event", "ping", "gameTurn"}
    for name, item in spec["webhooks"].items():
        post = item["post"]
        assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"], name
        assert {"2XX", "default"} <= set(post["responses"]), name
    signed = {parameter["name"] for parameter in spec["webhooks"]["event"]["post"]["parameters"]}
    assert signed == {"webhook-id", "webhook-timestamp", "webhook-signature"}
    operations = {operation["operationId"] for path in spec["paths"].values()
                  for operation in path.values() if isinstance(operation, dict)}
    assert {"testWebhook", "redeliverWebhook"} <= operations


# --- what is delivered -------------------------------------------------------------------------
def test_each_player_is_told_what_their_own_stream_tells_signed(tables, redis, hooks):
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    anna_hook, bert_hook = hooks(), hooks()
    anna_secret = tables.webhooks.set(anna, anna_hook.url)["secret"]
    bert_secret = tables.webhooks.set(bert, bert_hook.url)["secret"]
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", "human"])
    tables.seating.accept_invite(game.seats[1].invite, bert)
    tables.chat.say(game.id, bert, "hello")
    run_deliveries(redis)

    for player, hook, secret, seat in ((anna, anna_hook, anna_secret, 0),
                                       (bert, bert_hook, bert_secret, 1)):
        bodies = hook.accepted(secret)
        _, stream = tables.streams.start(player, 0.0)
        assert [body["data"] for body in bodies] == stream, "exactly the stream's events"
        assert types(bodies) == ["chat", "game_started", "your_turn"]
        assert {body["data"]["seat"] for body in bodies if body["type"] != "chat"} == {seat}
        assert "hand" not in json.dumps(bodies)
        ids = [headers["webhook-id"] for _, headers, _ in hook.deliveries(secret)]
        assert len(set(ids)) == len(ids) == 3


def test_a_webhook_set_during_a_game_hears_its_next_move(tables, store, redis, hooks):
    """A game marks only the players it knows to have a webhook (none: no mark at all); one
    set later is learnt at the game's next commit."""
    anna, bert = tables.players.create("Anna"), tables.players.create("Bert")
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", "human"])
    tables.seating.accept_invite(game.seats[1].invite, bert)
    assert store.hget(keys.game(game.id), "hooked") == b"[]"
    stored = tables.games.load(game.id)
    tables.play.act(game.id, bert, stored.game.legal_actions(stored.state, 1)[0], None)
    assert Queue(WEBHOOK_QUEUE, connection=redis).count == 0
    tables.webhooks.set(bert, hooks().url)
    run_deliveries(redis)  # the first look
    stored = tables.games.load(game.id)
    tables.play.act(game.id, anna, stored.game.legal_actions(stored.state, 0)[0], None)
    assert store.hget(keys.game(game.id), "hooked") == json.dumps([bert.id]).encode()
    queued = Queue(WEBHOOK_QUEUE, connection=redis).jobs
    assert [job.args[0] for job in queued] == [bert.id], "Bert's delivery of the next turn"


def test_a_burst_of_changes_queues_one_delivery_run(tables, redis, hooks):
    anna = tables.players.create("Anna")
    hook = hooks()
    secret = tables.webhooks.set(anna, hook.url)["secret"]
    run_deliveries(redis)  # the first look: no games yet
    game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}],
                                      pace="none")
    for number in range(3):
        tables.chat.say(game.id, anna, f"line {number}")
    assert Queue(WEBHOOK_QUEUE, connection=redis).count == 1
    run_deliveries(redis)
    bodies = hook.accepted(secret)
    # One look saw it all: as on the stream, a game's talk comes before its move.
    assert types(bodies) == ["chat", "chat", "chat", "game_started", "your_turn"]
    assert [body["data"]["number"] for body in bodies[:3]] == [1, 2, 3]


def test_a_transient_failure_keeps_the_event_and_a_refusal_drops_it(tables, redis, hooks):
    anna = tables.players.create("Anna")
    hook = hooks([503, 204, 410])
    secret = tables.webhooks.set(anna, hook.url)["secret"]
    tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}], pace="none")
    with pytest.raises(WebhookRetry, match="503"):
        tables.webhooks.deliver(anna.id, "first")
    shown = tables.webhooks.describe(anna)
    assert shown["pending"] == 2 and shown["failures"] == 1
    assert shown["last_delivery"]["status"] == 503
    assert shown["last_delivery"]["outcome"] == "retrying"
    assert redis.zscore(keys.WEBHOOKS_DUE, f"{anna.id}:first"), "the sweeper tries later"

    assert tables.webhooks.deliver(anna.id, "first") == 1   # RQ's retry: 204, then 410
    (_, first, _), (_, retried, body), (_, refused, _) = hook.deliveries(secret)
    assert first["webhook-id"] == retried["webhook-id"] and body["type"] == "game_started"
    shown = tables.webhooks.describe(anna)
    assert shown["pending"] == 0 and shown["failures"] == 0 and shown["dropped"] == 1
    assert shown["last_delivery"] | {"at": None} == {
        "at": None, "event": refused["webhook-id"], "type": "your_turn", "status": 410,
        "outcome": "dropped", "error": "the receiver answered 410"}
    assert redis.zcard(keys.WEBHOOKS_DUE) == 0, "nothing owed"
    assert tables.webhooks.deliver(anna.id, "again") == 0 and len(hook.answered) == 3


# --- with a real worker -----------------------------------------------------------------------
def test_a_games_events_reach_a_bot_signed_and_a_503_is_retried_once(
        tables, redis, redis_url, processes, hooks):
    anna = tables.players.create("Anna")
    hook = hooks([503])
    secret = tables.webhooks.set(anna, hook.url)["secret"]
    start_worker(processes, redis, redis_url, queues=(WEBHOOK_QUEUE,), scheduler=True)
    game = tables.seating.create_game(anna, "sixnimmt", 2, {"threshold": 1},
                                      ["human", {"bot": "easy"}], pace="none")
    within(15, lambda: types(hook.accepted(secret)) == ["game_started", "your_turn"])
    failed, retried = hook.deliveries(secret)[:2]
    assert failed[0] == 503 and retried[0] == 204, "RQ's retry sent it again"
    assert failed[1]["webhook-id"] == retried[1]["webhook-id"] and failed[2] == retried[2]

    play_out(tables, game.id, {0: anna}, random.Random(4))
    assert tables.games.load(game.id).status() == FINISHED
    within(15, lambda: "game_finished" in types(hook.accepted(secret)))
    bodies = hook.accepted(secret)
    ids = [headers["webhook-id"] for status, headers, _ in hook.deliveries(secret)
           if status < 300]
    assert len(ids) == len(set(ids)), "each event once"
    assert types(bodies)[-1] == "game_finished"
    assert bodies[-1]["data"]["your_place"] in (1, 2)
    turns = [body["data"]["since"] for body in bodies if body["type"] == "your_turn"]
    assert turns == sorted(set(turns)) and len(turns) >= 2
    assert {body["data"]["game"] for body in bodies} == {game.id}
    assert "hand" not in json.dumps(bodies)
    # The receiver has the last event before the worker has its answer and clears the outbox.
    within(5, lambda: tables.webhooks.describe(anna)["pending"] == 0)
    assert tables.webhooks.describe(anna)["last_delivery"]["outcome"] == "delivered"


def test_a_delivery_lost_with_its_process_after_the_commit_is_made_by_the_sweeper(
        tables, client, store, redis, redis_url, processes, hooks):
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    hook = hooks()
    secret = client.put(WEBHOOK, json={"url": hook.url}, headers=headers).get_json()["secret"]
    run_deliveries(redis)  # the first look: no games yet
    base = start_api(processes, **faults.armed(faults.AFTER_COMMIT))
    with pytest.raises(requests.ConnectionError):
        requests.post(f"{base}/api/v1/games", headers=headers, timeout=30, json={
            "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}],
            "pace": "none"})
    processes[-1].wait(10)
    assert Queue(WEBHOOK_QUEUE, connection=redis).count == 0, "its delivery was never queued"
    assert redis.zcard(keys.WEBHOOKS_DUE) == 1, "but marked before the commit"

    start_worker(processes, redis, redis_url, queues=(WEBHOOK_QUEUE,))
    within(15, lambda: types(hook.accepted(secret)) == ["game_started", "your_turn"])
    within(5, lambda: redis.zcard(keys.WEBHOOKS_DUE) == 0)
