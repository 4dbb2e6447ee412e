"""Challenges over HTTP: a seat kept for a named player waits in their inbox as an invitation;
they take it or decline it (the seat opens again with a new invite link, the creator hears of
it, and nothing of it stays in the decliner's inbox). A challenge reaches the challenged
player's subscribed devices once, by a real RQ worker and a real push receiver, unless it is
gone before the job runs; a profile says whether its player may be challenged."""
import pytest
from rq import Queue

from api.storage.jobs import NOTICE_QUEUE
from api.tables import Tables
from api.tables.notices import NotifyRetry
from worker.runner import PromptWorker

# On the cluster too: a seat kept for a player in their inbox and the lobby.
pytestmark = pytest.mark.cluster

CHALLENGE = {"type": "sixtysix", "players": 2}


def challenge(client, headers, player_id):
    return client.post("/api/v1/games", headers=headers,
                       json={**CHALLENGE, "seats": ["human", {"player": player_id}]})


def inbox(client, headers) -> list[dict]:
    return client.get("/api/v1/players/me/games", headers=headers).get_json()


def test_a_challenge_waits_at_the_top_of_the_inbox_and_is_taken_by_joining(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    earlier = client.post("/api/v1/games", headers=bert_auth, json={
        **CHALLENGE, "seats": ["human", {"bot": "easy"}]}).get_json()
    created = challenge(client, anna_auth, bert["id"])
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    assert game["status"] == "waiting"
    assert game["seats"][1]["name"] == "Bert" and not game["seats"][1]["joined"], \
        "the kept seat shows whom the table waits for"
    [top, below] = inbox(client, bert_auth)
    assert (top["id"], below["id"]) == (game["id"], earlier["id"])
    assert top["invitation"] == {"seat": 1, "from": "Anna"} and below["invitation"] is None
    assert inbox(client, anna_auth)[0]["invitation"] is None

    cecil_auth = new_player("Cecil")[1]
    code = game["invites"][0]["code"]
    kept = client.post(f"/api/v1/games/invites/{code}", headers=cecil_auth)
    assert kept.status_code == 403, "the seat is kept for Bert"
    assert client.post(f"/api/v1/games/{game['id']}/join",
                       headers=cecil_auth).status_code == 403

    taken = client.post(f"/api/v1/games/{game['id']}/join", headers=bert_auth, json={})
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json()["status"] == "active"
    assert inbox(client, bert_auth)[0]["invitation"] is None


def test_an_invite_kept_for_another_player_is_previewed_as_not_open_to_anyone_else(
        client, new_player):
    _, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    _, cecil_auth = new_player("Cecil")
    code = challenge(client, anna_auth, bert["id"]).get_json()["invites"][0]["code"]
    preview = f"/api/v1/games/invites/{code}"
    for headers in ({}, cecil_auth, anna_auth):
        answer = client.get(preview, headers=headers)
        assert answer.status_code == 200, answer.get_json()
        seat = answer.get_json()["seats"][1]
        assert (seat["open"], seat["kept_for_another"]) == (False, True), headers
        assert client.post(preview, headers=cecil_auth).status_code == 403
    seat = client.get(preview, headers=bert_auth).get_json()["seats"][1]
    assert (seat["open"], seat["kept_for_another"]) == (True, False)


def test_declining_opens_the_seat_with_a_new_link_tells_the_creator_and_leaves_no_trace(
        client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    game = challenge(client, anna_auth, bert["id"]).get_json()
    old_code = game["invites"][0]["code"]
    anna_etag = client.get("/api/v1/players/me/games", headers=anna_auth).headers["ETag"]

    assert client.post(f"/api/v1/games/{game['id']}/decline", headers=bert_auth).status_code == 204
    assert [line["id"] for line in inbox(client, bert_auth)] == []
    assert client.get("/api/v1/players/me/games", headers={
        **anna_auth, "If-None-Match": anna_etag}).status_code == 200, "Anna's inbox changed"
    events = client.get(f"/api/v1/games/{game['id']}/events", headers=anna_auth).get_json()
    assert any(event["type"] == "declined" and event["seat"] == 1
               for event in events["events"])
    view = client.get(f"/api/v1/games/{game['id']}", headers=anna_auth).get_json()
    [invite] = view["invites"]
    assert invite["seat"] == 1 and invite["code"] != old_code
    assert view["seats"][1]["name"] is None, "an open seat again, nobody's"
    assert client.post(f"/api/v1/games/invites/{old_code}", headers=bert_auth).status_code == 404
    again = client.post(f"/api/v1/games/{game['id']}/decline", headers=bert_auth)
    assert again.status_code == 404 and again.get_json()["reason"] == "not_found"
    cecil_auth = new_player("Cecil")[1]
    assert client.post(f"/api/v1/games/invites/{invite['code']}",
                       headers=cecil_auth).status_code == 200


def test_a_withdrawn_challenge_leaves_no_trace(client, new_player):
    _, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    game = challenge(client, anna_auth, bert["id"]).get_json()
    assert client.post(f"/api/v1/games/{game['id']}/leave", headers=anna_auth).status_code == 204
    assert inbox(client, bert_auth) == []


def test_a_player_who_blocks_you_cannot_be_challenged(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    client.put(f"/api/v1/players/me/blocks/{anna['id']}", headers=bert_auth)
    refused = challenge(client, anna_auth, bert["id"])
    assert refused.status_code == 403 and refused.get_json()["reason"] == "forbidden"
    assert inbox(client, bert_auth) == [] and inbox(client, anna_auth) == []
    # Nor may Bert challenge Anna, whom he blocks: she could never take the seat.
    mine = challenge(client, bert_auth, anna["id"])
    assert mine.status_code == 409 and "unblock" in mine.get_json()["message"]
    assert inbox(client, bert_auth) == [] and inbox(client, anna_auth) == []


def test_blocking_a_player_withdraws_and_declines_the_challenges_between_you_both_ways(
        client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    _, cecil_auth = new_player("Cecil")
    from_bert = challenge(client, bert_auth, anna["id"]).get_json()
    to_bert = challenge(client, anna_auth, bert["id"]).get_json()
    from_cecil = challenge(client, cecil_auth, anna["id"]).get_json()
    assert {line["id"] for line in inbox(client, anna_auth) if line["invitation"]} == {
        from_bert["id"], from_cecil["id"]}

    assert client.put(f"/api/v1/players/me/blocks/{bert['id']}",
                      headers=anna_auth).status_code == 204
    assert [line["id"] for line in inbox(client, anna_auth) if line["invitation"]] == [
        from_cecil["id"]], "Cecil's challenge stays"
    assert [line["id"] for line in inbox(client, bert_auth) if line["invitation"]] == []
    joined = client.post(f"/api/v1/games/{from_bert['id']}/join", headers=anna_auth, json={})
    assert joined.status_code == 403, joined.get_json()
    assert client.post(f"/api/v1/games/{to_bert['id']}/join", headers=bert_auth,
                       json={}).status_code == 403
    for game in (from_bert, to_bert):
        view = client.get(f"/api/v1/games/{game['id']}", headers=bert_auth
                          if game is from_bert else anna_auth).get_json()
        assert view["status"] == "waiting" and view["seats"][1]["name"] is None
        events = client.get(f"/api/v1/games/{game['id']}/events", headers=bert_auth
                            if game is from_bert else anna_auth).get_json()["events"]
        assert any(event["type"] == "declined" and event["seat"] == 1 for event in events)
    assert client.post(f"/api/v1/games/{from_cecil['id']}/join", headers=anna_auth,
                       json={}).status_code == 200


def test_a_player_may_not_sit_down_with_a_player_they_block(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    lobby_game = client.post("/api/v1/games", headers=bert_auth, json={
        **CHALLENGE, "seats": ["human", "human"], "public": True}).get_json()
    assert client.put(f"/api/v1/players/me/blocks/{bert['id']}",
                      headers=anna_auth).status_code == 204
    joined = client.post(f"/api/v1/games/{lobby_game['id']}/join", headers=anna_auth, json={})
    assert joined.status_code == 409 and "block" in joined.get_json()["message"]


def test_a_profile_says_whether_its_player_may_be_challenged(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")

    def may(player_id, headers=None):
        return client.get(f"/api/v1/players/{player_id}", headers=headers).get_json()[
            "can_challenge"]
    assert may(bert["id"], anna_auth) and may(anna["id"], bert_auth)
    assert not may(anna["id"], anna_auth), "not yourself"
    assert not may(bert["id"]), "not anonymously"
    assert not may("bot-easy", anna_auth), "a bot level takes a bot seat"
    client.put(f"/api/v1/players/me/blocks/{anna['id']}", headers=bert_auth)
    assert not may(bert["id"], anna_auth) and not may(anna["id"], bert_auth)


# --- the notice ---------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def receivers_are_local(monkeypatch):
    """Set before the app is made: the push receiver is on this machine, plain http."""
    monkeypatch.setenv("POYTA_OUTBOUND_HTTP_LOOPBACK", "1")
    monkeypatch.setenv("POYTA_PUSH_HOSTS", "push.example.net")


@pytest.fixture
def pushes(redis):
    """Runs the notices queue in a real RQ worker."""
    return lambda: PromptWorker([Queue(NOTICE_QUEUE, connection=redis)],
                                connection=redis).work(burst=True)


def phone_of(client, push_service, headers, name):
    phone = push_service.browser(name)
    assert client.post("/api/v1/push/subscriptions", headers=headers, json={
        "subscription": push_service.subscription(phone)}).status_code == 201
    return phone


def test_a_challenge_is_pushed_to_the_challenged_players_devices_once(
        client, store, redis, new_player, push_service, pushes):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    annas = phone_of(client, push_service, anna_auth, "annas")
    phone, laptop = (phone_of(client, push_service, bert_auth, name) for name in ("phone", "laptop"))
    game = challenge(client, anna_auth, bert["id"]).get_json()
    pushes()
    assert push_service.errors == []
    expected = {"title": "A challenge", "body": "Anna challenges you to Sixty-six", "url": "/#/",
                "game": game["id"]}
    for device in (phone, laptop):
        [push] = push_service.received(device)
        assert push.payload == expected
        assert bert["token"] not in push.raw.decode() and anna["token"] not in push.raw.decode()
    assert push_service.received(annas) == []
    again = Tables(store, queue_redis=redis).challenges
    assert again.notify(game["id"], 1) == 0, "the job ran twice"
    assert again.notify(game["id"], 0) == 0 and again.notify(game["id"], 5) == 0
    assert again.notify("no-such-game", 1) == 0
    assert len(push_service.received(phone)) == 1


def test_a_challenge_gone_before_its_job_runs_is_not_pushed(client, new_player, push_service,
                                                           pushes):
    anna, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    phone = phone_of(client, push_service, bert_auth, "phone")
    declined = challenge(client, anna_auth, bert["id"]).get_json()["id"]
    assert client.post(f"/api/v1/games/{declined}/decline", headers=bert_auth).status_code == 204
    withdrawn = challenge(client, anna_auth, bert["id"]).get_json()["id"]
    assert client.post(f"/api/v1/games/{withdrawn}/leave", headers=anna_auth).status_code == 204
    challenge(client, anna_auth, bert["id"])
    assert client.put(f"/api/v1/players/me/blocks/{anna['id']}",
                      headers=bert_auth).status_code == 204
    pushes()
    assert push_service.errors == [] and push_service.received(phone) == []


def test_a_push_service_failing_for_now_is_retried_without_pushing_twice(
        client, store, redis, new_player, push_service, pushes):
    _, anna_auth = new_player("Anna")
    bert, bert_auth = new_player("Bert")
    phone = phone_of(client, push_service, bert_auth, "phone")
    busy = phone_of(client, push_service, bert_auth, "busy")
    busy.status = 503
    game_id = challenge(client, anna_auth, bert["id"]).get_json()["id"]
    challenges = Tables(store, queue_redis=redis).challenges
    with pytest.raises(NotifyRetry):
        challenges.notify(game_id, 1)
    busy.status = 201
    assert challenges.notify(game_id, 1) == 1, "RQ's retry sends only what is missing"
    assert challenges.notify(game_id, 1) == 0
    assert len(push_service.received(phone)) == 1 and len(push_service.received(busy)) == 1


def test_bad_named_seats_are_a_clear_422(client, new_player):
    anna, anna_auth = new_player("Anna")
    bert, _ = new_player("Bert")
    for seats in (["human", {"player": anna["id"]}],
                  ["human", {"player": "0123456789abcdef"}],
                  ["human", {"player": "not an id"}],
                  [{"player": bert["id"]}, "human"]):
        answer = client.post("/api/v1/games", headers=anna_auth, json={**CHALLENGE,
                                                                       "seats": seats})
        assert answer.status_code == 422, (seats, answer.get_json())
    three = {"type": "sixnimmt", "players": 3,
             "seats": ["human", {"player": bert["id"]}, {"player": bert["id"]}]}
    assert client.post("/api/v1/games", headers=anna_auth, json=three).status_code == 422
    assert inbox(client, anna_auth) == []
