"""Reminders before a move's time runs out, and the daily digest, sent to a real push receiver
and a real webhook receiver by real RQ workers, once each, with the clock under the test's
control."""
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from rq import Queue
from rq.job import Job

from api.storage.jobs import NOTICE_QUEUE, RETRY, reminder_job_id
from api.tables import Tables
from worker.runner import PromptWorker
from push_receivers import Webhook

# On the cluster too: the due set and the digests, swept.
pytestmark = pytest.mark.cluster

DAY = 86400
HELSINKI = ZoneInfo("Europe/Helsinki")


@pytest.fixture(autouse=True)
def receivers_are_local(monkeypatch):
    monkeypatch.setenv("POYTA_OUTBOUND_HTTP_LOOPBACK", "1")  # plain http on this machine
    monkeypatch.setenv("POYTA_PUSH_HOSTS", "push.example.net")


@pytest.fixture
def player(clocked_client, push_service):
    """A player whose phone is subscribed to pushes: (headers, the phone)."""
    def register(name):
        token = clocked_client.post("/api/v1/players", json={"name": name}).get_json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        phone = push_service.browser(name)
        assert clocked_client.post("/api/v1/push/subscriptions", headers=headers, json={
            "subscription": push_service.subscription(phone)}).status_code == 201
        return headers, phone
    return register


def two_players(client, anna, bert, **extra):
    game = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], **extra}).get_json()
    assert client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}",
                       headers=bert).status_code == 200
    return game["id"]


def reminders(push_service, phone):
    return [push.payload["body"] for push in push_service.received(phone)
            if push.payload["title"] == "Your move is waiting"]


def hooked(webhook, name):
    return [m["content"] for m in webhook.messages
            if m["content"].startswith(f"{name},") and "left for your move" in m["content"]]


def test_a_turn_is_reminded_at_80_percent_and_an_hour_before_once_each(
        clocked_client, clock, player, push_service, webhook, run_worker):
    (anna, anna_phone), (bert, bert_phone) = player("Anna"), player("Bert")
    game_id = two_players(clocked_client, anna, bert, webhook=webhook.url)
    start = clock.now()
    run_worker()
    assert [p.payload["title"] for p in push_service.received(bert_phone)] == ["Your turn"]

    clock.set(start + 0.8 * DAY - 60)
    run_worker()
    assert reminders(push_service, bert_phone) == [] and hooked(webhook, "Bert") == []
    for late in (1, 600, 3600):   # however often the workers look: once
        clock.set(start + 0.8 * DAY + late)
        run_worker()
    link = f"http://127.0.0.1:8000/#/game/{game_id}"
    for name, phone in (("Anna", anna_phone), ("Bert", bert_phone)):
        assert reminders(push_service, phone) == ["6 nimmt!: 5 h of your time left"]
        assert hooked(webhook, name) == [f"{name}, 5 h left for your move in 6 nimmt!: {link}"]

    for late in (1, 1200):
        clock.set(start + DAY - 3600 + late)
        run_worker()
    assert reminders(push_service, bert_phone) == ["6 nimmt!: 5 h of your time left",
                                                   "6 nimmt!: 1 h of your time left"]
    assert len(hooked(webhook, "Bert")) == 2
    assert push_service.errors == [] and webhook.errors == []


def test_a_reminder_never_comes_at_night(clocked_client, clock, player, push_service,
                                         run_worker):
    clock.set(datetime(2030, 1, 15, 21, 50, tzinfo=HELSINKI).timestamp())
    (anna, _), (bert, bert_phone) = player("Anna"), player("Bert")
    clocked_client.patch("/api/v1/players/me/clock", headers=bert, json={
        "time_zone": "Europe/Helsinki", "waking": {"from": "08:00", "to": "22:00"}})
    # An hour's pace is 35 minutes of a 14-hour day: 10 tonight, 25 from 08:00 tomorrow.
    game_id = two_players(clocked_client, anna, bert, pace="1h")
    run_worker()
    for hour, minute in ((23, 0), (3, 0), (8, 17)):
        day = 15 if hour == 23 else 16
        clock.set(datetime(2030, 1, day, hour, minute, tzinfo=HELSINKI).timestamp())
        run_worker()
        assert reminders(push_service, bert_phone) == []
    clock.set(datetime(2030, 1, 16, 8, 19, tzinfo=HELSINKI).timestamp())
    run_worker()
    assert reminders(push_service, bert_phone) == ["6 nimmt!: 6 min of your time left"]
    view = clocked_client.get(f"/api/v1/games/{game_id}", headers=bert).get_json()
    assert view["seats"][1]["deadline"] == "2030-01-16T06:25:00+00:00"


def test_a_reminder_that_cannot_be_sent_is_not_tried_forever(clocked_client, clock, player,
                                                             redis, store):
    failing = Webhook(statuses=[503] * 100)
    try:
        (anna, _), (bert, _) = player("Anna"), player("Bert")
        game_id = two_players(clocked_client, anna, bert, webhook=failing.url)
        start = clock.now()
        tables = Tables(store, queue_redis=redis)
        notices = Queue(NOTICE_QUEUE, connection=redis)
        notices.empty()
        clock.set(start + 0.8 * DAY + 1)
        tables.bots.sweep()
        job_id = reminder_job_id(game_id, 1, tables.games.load(game_id).seats[1].turn_since,
                                 "used")
        assert job_id in notices.job_ids
        PromptWorker([notices], connection=redis).work(burst=True)
        failed = Job.fetch(job_id, connection=redis)
        # A few retries of its own (RQ's, at growing intervals), no more...
        assert failed.get_status() == "scheduled" and failed.retries_left == RETRY.max - 1
        for late in (60, 600, 3600):   # ...and the later looks do not queue it again.
            clock.set(start + 0.8 * DAY + late)
            tables.bots.sweep()
            assert job_id not in notices.job_ids
    finally:
        failing.close()


def test_the_daily_digest_lists_the_games_waiting_once_a_day_but_not_on_vacation(
        clocked_client, clock, player, push_service, run_worker):
    clock.set(datetime(2030, 6, 3, 7, 30, tzinfo=HELSINKI).timestamp())
    (anna, _), (bert, bert_phone) = player("Anna"), player("Bert")
    for _ in range(2):
        two_players(clocked_client, anna, bert)
    clocked_client.patch("/api/v1/players/me/clock", headers=bert,
                         json={"time_zone": "Europe/Helsinki", "digest_hour": 8})

    def digests():
        return [p.payload["body"] for p in push_service.received(bert_phone)
                if p.payload["title"] == "Your daily digest"]
    run_worker()
    assert digests() == []
    for minute in (0, 5, 50):
        clock.set(datetime(2030, 6, 3, 8, minute, tzinfo=HELSINKI).timestamp())
        run_worker()
    assert digests() == ["2 games wait for your move: 6 nimmt!, 6 nimmt!"]
    clock.set(datetime(2030, 6, 4, 8, 1, tzinfo=HELSINKI).timestamp())
    run_worker()
    assert len(digests()) == 2
    clocked_client.post("/api/v1/players/me/vacation", json={"days": 2}, headers=bert)
    clock.set(datetime(2030, 6, 5, 8, 1, tzinfo=HELSINKI).timestamp())
    run_worker()
    assert len(digests()) == 2, "none while away"
