"""Playing over days: identity across devices, invites, lobby, inbox, long-poll, deadlines, rematch."""
import threading
import time

import pytest
from rq import Queue

from api.http import create_app
from api.storage import connections
from api.storage.jobs import BOT_QUEUE_ORDER
from api.tables import Tables
from worker.runner import PromptWorker

TWO_HUMANS = ["human", "human", {"bot": "easy"}]


def create(client, headers, seats=TWO_HUMANS, **extra):
    body = {"type": "sixnimmt", "players": len(seats), "seats": seats, **extra}
    response = client.post("/api/v1/games", json=body, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def first_legal(client, headers, game_id):
    view = client.get(f"/api/v1/games/{game_id}", headers=headers).get_json()
    return view, view["legal_actions"][0]


# --- identity ---------------------------------------------------------------------

def test_renaming_changes_the_name_at_the_tables_of_unfinished_games(client, new_player):
    _, anna = new_player("Anna")
    game = create(client, anna)
    assert client.patch("/api/v1/players/me", json={"name": "Anni"}, headers=anna).get_json()["name"] == "Anni"
    seats = client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()["seats"]
    assert seats[0]["name"] == "Anni"
    assert client.patch("/api/v1/players/me", json={"name": " "}, headers=anna).status_code == 422


def test_a_sign_in_code_moves_the_identity_to_another_device_once(client, new_player):
    anna_body, anna = new_player("Anna")
    code = client.post("/api/v1/players/me/signin-codes", headers=anna).get_json()["code"]
    phone = client.post("/api/v1/players/signin", json={"code": code, "device": "phone"})
    assert phone.status_code == 201
    assert phone.get_json()["id"] == anna_body["id"] and phone.get_json()["token"] != anna_body["token"]
    again = client.post("/api/v1/players/signin", json={"code": code})
    assert again.status_code == 422 and "used" in again.get_json()["message"]

    phone_headers = {"Authorization": f"Bearer {phone.get_json()['token']}"}
    devices = client.get("/api/v1/players/me/devices", headers=anna).get_json()
    assert sorted(d["label"] for d in devices) == ["first device", "phone"]
    phone_device = next(d for d in devices if d["label"] == "phone")
    assert client.delete(f"/api/v1/players/me/devices/{phone_device['id']}", headers=anna).status_code == 204
    assert client.get("/api/v1/players/me", headers=phone_headers).status_code == 401
    assert client.get("/api/v1/players/me", headers=anna).status_code == 200
    assert client.delete("/api/v1/players/me/devices/nope", headers=anna).status_code == 404


# --- invites, lobby, spectators ------------------------------------------------------

def test_each_open_seat_has_an_invite_code_for_players_only(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game = create(client, anna, seats=["human", "human", "human"], public=True)
    invites = {entry["seat"]: entry["code"] for entry in game["invites"]}
    assert set(invites) == {1, 2} and len(set(invites.values())) == 2
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["invites"] == []

    joined = client.post(f"/api/v1/games/invites/{invites[2]}", headers=bert).get_json()
    assert joined["your_seat"] == 2 and joined["seats"][2]["name"] == "Bert"
    _, carl = new_player("Carl")
    assert client.post(f"/api/v1/games/invites/{invites[2]}", headers=carl).status_code == 404
    assert [i["seat"] for i in client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()["invites"]] == [1]


@pytest.mark.cluster
def test_the_lobby_lists_public_games_waiting_for_players(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    public = create(client, anna, public=True)
    create(client, anna)
    assert [line["id"] for line in client.get("/api/v1/games/lobby").get_json()] == [public["id"]]
    client.post(f"/api/v1/games/{public['id']}/join", json={}, headers=bert)
    assert client.get("/api/v1/games/lobby").get_json() == []


def test_only_public_games_have_spectators(client, new_player):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    private = create(client, anna, seats=["human", {"bot": "easy"}])
    public = create(client, anna, seats=["human", {"bot": "easy"}], public=True)
    denied = client.get(f"/api/v1/games/{private['id']}", headers=eve)
    assert denied.status_code == 403 and "private" in denied.get_json()["message"]
    assert client.get(f"/api/v1/games/{private['id']}/events").status_code == 403
    watched = client.get(f"/api/v1/games/{public['id']}", headers=eve).get_json()
    assert watched["your_seat"] is None and watched["hand"] is None and watched["legal_actions"] == []


# --- inbox ----------------------------------------------------------------------------

@pytest.mark.cluster
def test_the_inbox_puts_your_turn_first(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    waiting = create(client, anna, seats=["human", "human"])
    mine = create(client, anna, seats=["human", {"bot": "easy"}])
    inbox = client.get("/api/v1/players/me/games", headers=anna).get_json()
    assert [line["id"] for line in inbox] == [mine["id"], waiting["id"]]
    assert inbox[0]["your_turn"] is True and inbox[1]["your_turn"] is False
    assert inbox[1]["status"] == "waiting" and inbox[1]["open_seats"] == 1
    assert [p["name"] for p in inbox[0]["players"]] == ["Anna", "Bot 2 (easy)"]

    _, action = first_legal(client, anna, mine["id"])
    client.post(f"/api/v1/games/{mine['id']}/actions", json={"action": action}, headers=anna)
    client.post(f"/api/v1/games/invites/{waiting['invites'][0]['code']}", headers=bert)
    inbox = client.get("/api/v1/players/me/games", headers=anna).get_json()
    assert [line["id"] for line in inbox] == [waiting["id"], mine["id"]]
    assert client.get("/api/v1/players/me/games").status_code == 401


# --- long-poll -------------------------------------------------------------------------

@pytest.fixture
def live_client(live_server):
    import requests
    return requests.Session(), live_server


def register(session, base, name):
    token = session.post(f"{base}/api/v1/players", json={"name": name}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_long_poll_answers_304_after_the_wait_and_at_once_when_stale(live_client):
    session, base = live_client
    anna = register(session, base, "Anna")
    game = session.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).json()
    etag = session.get(f"{base}/api/v1/games/{game['id']}", headers=anna).headers["ETag"]
    started = time.monotonic()
    unchanged = session.get(f"{base}/api/v1/games/{game['id']}?wait=1",
                            headers={**anna, "If-None-Match": etag})
    assert unchanged.status_code == 304 and 0.9 < time.monotonic() - started < 5
    started = time.monotonic()
    stale = session.get(f"{base}/api/v1/games/{game['id']}?wait=20",
                        headers={**anna, "If-None-Match": '"stale"'})
    assert stale.status_code == 200 and time.monotonic() - started < 2


@pytest.mark.cluster
def test_long_poll_wakes_on_a_move_and_the_inbox_too(live_client):
    session, base = live_client
    anna = register(session, base, "Anna")
    bert = register(session, base, "Bert")
    game = session.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).json()
    session.post(f"{base}/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    game_etag = session.get(f"{base}/api/v1/games/{game['id']}", headers=anna).headers["ETag"]
    inbox_etag = session.get(f"{base}/api/v1/players/me/games", headers=anna).headers["ETag"]
    bert_card = session.get(f"{base}/api/v1/games/{game['id']}", headers=bert).json()["hand"][0]

    answers = {}

    def wait_for(name, url, etag):
        import requests
        started = time.monotonic()
        response = requests.get(url, headers={**anna, "If-None-Match": etag}, timeout=30)
        answers[name] = (response.status_code, time.monotonic() - started)

    waiters = [threading.Thread(target=wait_for, args=(
        "game", f"{base}/api/v1/games/{game['id']}?wait=20", game_etag)),
        threading.Thread(target=wait_for, args=(
            "inbox", f"{base}/api/v1/players/me/games?wait=20", inbox_etag))]
    for waiter in waiters:
        waiter.start()
    time.sleep(0.5)  # the request waits before the change
    session.post(f"{base}/api/v1/games/{game['id']}/actions",
                 json={"action": {"type": "play", "card": bert_card}}, headers=bert)
    for waiter in waiters:
        waiter.join()
    for name in ("game", "inbox"):
        status, took = answers[name]
        assert status == 200 and 0.4 < took < 5, (name, answers)


# --- deadlines and stand-ins ----------------------------------------------------------------

@pytest.fixture
def fast_client(redis, store_env, clock):
    """A pace of one second, on the test's clock."""
    return create_app({**store_env, "PACES": {"1s": 1}}).test_client()


def run_due_jobs(redis, sweep=True):
    """What a worker does: it runs the queued jobs, its sweeper queues the passed deadlines."""
    for sweeping in (False, True)[:1 + sweep]:
        if sweeping:
            # The store under test, as the environment names it to this process's jobs.
            Tables(connections.store_client(connections.settings()), queue_redis=redis).bots.sweep()
        PromptWorker([Queue(name, connection=redis) for name in BOT_QUEUE_ORDER],
                     connection=redis).work(burst=True)


def test_pace_none_is_only_for_games_against_bots(client, new_player):
    _, anna = new_player()
    assert client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "pace": "none"}).status_code == 422
    assert client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"}
                       ).get_json()["seats"][0]["deadline"] is None
    assert client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "pace": "2w"}).status_code == 422


@pytest.mark.cluster
def test_a_passed_deadline_lets_a_bot_move_and_repeated_ones_hand_it_the_seat(fast_client, redis,
                                                                             clock):
    client = fast_client
    anna = {"Authorization": "Bearer " + client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]}
    game = create(client, anna, seats=["human", {"bot": "easy"}], pace="1s")
    assert game["seats"][0]["deadline"] is not None
    run_due_jobs(redis, sweep=False)  # the bot's choice
    for timeout in (1, 2, 3):
        clock.advance(2.1)  # the 1 s pace, rounded up to the scheduler's whole second
        run_due_jobs(redis)
        view = client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()
        assert view["seats"][0]["timeouts"] == timeout
        events = client.get(f"/api/v1/games/{game['id']}/events", headers=anna).get_json()["events"]
        assert [e["seat"] for e in events if e["type"] == "timeout"] == [0] * timeout
    assert view["seats"][0]["standin"] is True and view["legal_actions"] == []
    # With the seat handed over, the worker plays it like any bot seat, to the end.
    run_due_jobs(redis)
    assert client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()["status"] == "finished"
    refused = client.post(f"/api/v1/games/{game['id']}/actions",
                          json={"action": {"type": "play", "card": 1}}, headers=anna)
    assert refused.status_code == 422 and "take it back" in refused.get_json()["message"]

    back = client.post(f"/api/v1/games/{game['id']}/takeback", headers=anna).get_json()
    assert back["seats"][0]["standin"] is False and back["seats"][0]["timeouts"] == 0
    assert client.post(f"/api/v1/games/{game['id']}/takeback", headers=anna).status_code == 409


def test_moving_in_time_resets_the_count_of_timeouts(fast_client, redis, clock):
    client = fast_client
    anna = {"Authorization": "Bearer " + client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]}
    game = create(client, anna, seats=["human", {"bot": "easy"}], pace="1s")
    clock.advance(2.1)  # the 1 s pace, rounded up to the scheduler's whole second
    run_due_jobs(redis)
    view = client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()
    assert view["seats"][0]["timeouts"] == 1
    run_due_jobs(redis)
    view = client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()
    client.post(f"/api/v1/games/{game['id']}/actions", json={"action": view["legal_actions"][0]},
                headers=anna)
    assert client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()["seats"][0]["timeouts"] == 0


# --- rematch --------------------------------------------------------------------------------

@pytest.mark.cluster
def test_a_rematch_keeps_seats_and_options_and_waits_for_the_others(client, new_player, run_bots):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game = create(client, anna, seats=["human", "human", {"bot": "easy"}], options={"threshold": 5})
    client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    for _ in range(500):
        run_bots()
        finished = True
        for headers in (anna, bert):
            view = client.get(f"/api/v1/games/{game['id']}", headers=headers).get_json()
            finished = view["status"] == "finished"
            if view["legal_actions"]:
                client.post(f"/api/v1/games/{game['id']}/actions",
                            json={"action": view["legal_actions"][0]}, headers=headers)
        if finished:
            break
    assert view["status"] == "finished"

    rematch = client.post(f"/api/v1/games/{game['id']}/rematch", headers=bert).get_json()
    assert rematch["your_seat"] == 1 and rematch["status"] == "waiting"
    assert rematch["options"]["threshold"] == 5 and rematch["rematch_of"] == game["id"]
    assert [s["bot"] for s in rematch["seats"]] == [None, None, "easy"]
    assert client.post(f"/api/v1/games/{game['id']}/rematch", headers=anna).get_json()["id"] == rematch["id"]
    assert client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()["rematch"] == rematch["id"]
    _, eve = new_player("Eve")
    assert client.post(f"/api/v1/games/{rematch['id']}/join", json={}, headers=eve).status_code == 403
    accepted = client.post(f"/api/v1/games/{rematch['id']}/join", json={}, headers=anna).get_json()
    assert accepted["your_seat"] == 0 and accepted["status"] == "active"


def test_a_rematch_needs_a_finished_game_and_a_seat(client, new_player):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    game = create(client, anna)
    assert client.post(f"/api/v1/games/{game['id']}/rematch", headers=anna).status_code == 409
    assert client.post(f"/api/v1/games/{game['id']}/rematch", headers=eve).status_code == 403
