"""Requests made on a user's behalf never reach internal addresses, follow no redirect, never hang."""
import time

import pytest

from api import outbound
from http_receivers import Receiver, drip
from api.settings import Settings
from api.tables import Tables
from api.tables.notices import Notice

INTERNAL = ["http://127.0.0.1:9/hook", "https://127.0.0.1/hook", "https://localhost/hook",
            "https://app.localhost/hook", "https://[::1]/hook", "https://10.0.0.5/hook",
            "https://192.168.1.1/hook", "https://169.254.169.254/latest/meta-data",
            "https://[fe80::1]/hook", "https://224.0.0.1/hook", "https://0.0.0.0/hook",
            "https://[::ffff:127.0.0.1]/hook", "https://100.64.0.1/hook",
            "https://user:pw@hooks.example.com/hook", "ftp://hooks.example.com/hook",
            "http://hooks.example.com/hook"]


@pytest.fixture
def receivers():
    started = []

    def start(answer):
        started.append(Receiver(answer))
        return started[-1]
    yield start
    for receiver in started:
        receiver.close()


STRICT = outbound.Policy()


@pytest.fixture
def local_http():
    """The policy the tests' local receivers need: plain http to this machine."""
    return outbound.Policy(loopback=True)


@pytest.mark.parametrize("url", INTERNAL)
def test_internal_destinations_are_refused_when_the_game_is_created(client, new_player, url):
    _, headers = new_player()
    response = client.post("/api/v1/games", headers=headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "webhook": url})
    assert response.status_code == 422, url
    assert "webhook" in response.get_json()["errors"]["json"]
    with pytest.raises(outbound.Refused):
        outbound.post(url, STRICT, json={"text": "hi"})


def test_a_name_that_resolves_to_an_internal_address_is_refused_before_connecting():
    # Not refused by its name alone: the check is on every address the name resolves to.
    outbound.check_url("https://localhost.example.invalid/x", STRICT)
    with pytest.raises(outbound.Refused, match="not a public internet address"):
        outbound.resolve("localhost", 443, STRICT)


def test_redirects_are_never_followed(receivers, local_http):
    target = receivers(lambda handler: (handler.send_response(204), handler.end_headers()))

    def redirect(handler, status):
        handler.send_response(status)
        handler.send_header("Location", target.url + "/internal")
        handler.send_header("Content-Length", "0")
        handler.end_headers()
    for status in (301, 302, 307, 308):
        source = receivers(lambda handler, status=status: redirect(handler, status))
        answer = outbound.post(source.url + "/hook", local_http, json={"text": "hi"})
        assert answer.status_code == status
    assert target.requests == []


def test_a_receiver_that_drips_its_answer_is_cut_off(receivers, local_http, monkeypatch):
    monkeypatch.setattr(outbound, "TOTAL_TIMEOUT", 1.5)

    slow = receivers(lambda handler: drip(handler, lines=20, every=0.5))
    started = time.monotonic()
    with pytest.raises(outbound.Unreachable):
        outbound.post(slow.url + "/hook", local_http, json={"text": "hi"})
    assert time.monotonic() - started < 5  # dripping on would take 10 s


def test_a_push_endpoint_must_be_at_a_push_service(client, new_player, monkeypatch):
    _, headers = new_player()
    keys = {"p256dh": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUY"
                      "IHBQFLXYp5Nksh8U", "auth": "tBHItJI5svbpez7KI4CCXg"}
    for endpoint, status in [("https://attacker.example/collect", 422),
                             ("http://127.0.0.1:9/push", 422),
                             ("https://fcm.googleapis.com/fcm/send/abc", 201),
                             ("https://updates.push.services.mozilla.com/wpush/v2/abc", 201)]:
        response = client.post("/api/v1/push/subscriptions", headers=headers, json={
            "subscription": {"endpoint": endpoint, "keys": keys}})
        assert response.status_code == status, (endpoint, response.get_json())


def test_a_stored_push_endpoint_elsewhere_gets_no_vapid_signature(redis, receivers, monkeypatch):
    """Even a subscription stored before the check (or by another route) is never contacted."""
    collector = receivers(lambda handler: (handler.send_response(201), handler.end_headers()))
    sent = Notice(game_id="g", seat=0, player_id="p", name="Anna", title="Hattrick",
                  link="https://poyta.example/#/game/g")
    subscription = {"endpoint": collector.url + "/push", "keys": {
        "p256dh": "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U",
        "auth": "tBHItJI5svbpez7KI4CCXg"}}
    notices = Tables(redis, settings=Settings()).notices  # the strict outbound policy
    assert notices.send_push(sent, "s1", subscription) == 0
    assert collector.requests == []


@pytest.mark.parametrize("name", ["<!channel>", "<https://evil.example|Anna>", "@everyone",
                                  "[Anna](https://evil.example)", "evil.example/login",
                                  "<@U123>"])
def test_a_name_cannot_mention_or_link_in_chat_text(name):
    slack, discord = outbound.slack_text(name), outbound.discord_text(name)
    assert "<" not in slack and ">" not in slack
    assert "@everyone" not in discord and "](" not in discord
    assert "evil.example" not in slack and "evil.example" not in discord
    assert "https://" not in slack and "https://" not in discord
