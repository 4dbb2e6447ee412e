"""Resigning and table talk: resigning a two-player game ends it, the other player winning; in a
larger game a bot takes the resigned seat;
short, rate-limited messages per game for its players, kept within bounds."""
import threading
import time

import pytest
import requests

from api.tables.chat import CHAT_KEEP, CHAT_LENGTH, CHAT_RATE

GAME = {"type": "sixnimmt", "players": 3, "seats": ["human", "human", {"bot": "easy"}],
        "options": {"threshold": 1}}


def two_players_at_a_table(client, new_player):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game = client.post("/api/v1/games", json=GAME, headers=anna).get_json()
    client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    return game["id"], anna, bert


def test_a_resigned_seat_is_played_by_a_bot_to_the_end(client, new_player, run_bots):
    game_id, anna, bert = two_players_at_a_table(client, new_player)
    resigned = client.post(f"/api/v1/games/{game_id}/resign", headers=bert)
    assert resigned.status_code == 200
    seat = resigned.get_json()["seats"][1]
    assert seat["resigned"] is True and seat["standin"] is True
    assert seat["standin_level"] == "easy"  # what the phone names the seat by from now on
    assert resigned.get_json()["seats"][0]["standin_level"] is None
    assert resigned.get_json()["legal_actions"] == []
    # Once is enough, there is no taking it back, and only players may resign.
    assert client.post(f"/api/v1/games/{game_id}/resign", headers=bert).status_code == 409
    assert client.post(f"/api/v1/games/{game_id}/takeback", headers=bert).status_code == 409
    _, carl = new_player("Carl")
    assert client.post(f"/api/v1/games/{game_id}/resign", headers=carl).status_code == 403
    events = client.get(f"/api/v1/games/{game_id}/events?after=0", headers=anna).get_json()["events"]
    assert any(e["type"] == "resigned" and e["seat"] == 1 and e["ends_game"] is False for e in events)

    # Anna plays on; the bot plays Bert's seat until the game is over.
    for _ in range(100):
        view = client.get(f"/api/v1/games/{game_id}", headers=anna).get_json()
        if view["status"] == "finished":
            break
        if view["legal_actions"]:
            client.post(f"/api/v1/games/{game_id}/actions", json={"action": view["legal_actions"][0]},
                        headers=anna)
        run_bots()
    assert view["status"] == "finished"
    assert [seat["resigned"] for seat in view["seats"]] == [False, True, False]
    # A finished game cannot be resigned.
    assert client.post(f"/api/v1/games/{game_id}/resign", headers=anna).status_code == 409


def test_resigning_a_two_player_game_ends_it_and_the_other_player_wins(client, new_player, run_bots):
    (_, anna), (_, bert) = new_player("Anna"), new_player("Bert")
    game = client.post("/api/v1/games", json={"type": "sixtysix", "players": 2,
                                              "seats": ["human", "human"]}, headers=anna).get_json()
    client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    game_id = game["id"]
    resigned = client.post(f"/api/v1/games/{game_id}/resign", headers=bert).get_json()
    assert resigned["status"] == "finished"
    assert resigned["outcome"]["winners"] == [0] and resigned["outcome"]["resigned"] == 1
    assert resigned["seats"][1]["resigned"] is True and resigned["seats"][1]["standin"] is False
    events = client.get(f"/api/v1/games/{game_id}/events?after=0", headers=anna).get_json()["events"]
    assert [e for e in events if e["type"] == "resigned"][0]["ends_game"] is True

    # Nobody plays on: Anna has nothing to do, no bot moves for Bert, nothing can be played;
    # the one commit after the end records the results (Bert placed last).
    run_bots()
    view = client.get(f"/api/v1/games/{game_id}", headers=anna).get_json()
    assert view["legal_actions"] == [] and view["to_act"] == [] and view["version"] == resigned["version"] + 1
    assert [seat["place"] for seat in view["results"]["seats"]] == [1, 2]
    after = client.get(f"/api/v1/games/{game_id}/events?after=0", headers=anna).get_json()["events"]
    assert after == events, "and no move"
    refused = client.post(f"/api/v1/games/{game_id}/actions", json={"action": {"type": "play", "card": "A-clubs"}},
                          headers=anna)
    assert refused.status_code == 422 and refused.get_json()["message"] == "the game is over"
    assert client.post(f"/api/v1/games/{game_id}/resign", headers=anna).status_code == 409

    # Each inbox says who won and who resigned; the record is published with the outcome.
    line = client.get("/api/v1/players/me/games", headers=anna).get_json()[0]
    assert line["status"] == "finished" and line["your_place"] == 1
    assert [(p["name"], p["resigned"]) for p in line["players"]] == [("Anna", False), ("Bert", True)]
    assert client.get("/api/v1/players/me/games", headers=bert).get_json()[0]["your_place"] == 2
    record = client.get(f"/api/v1/games/{game_id}/record", headers=anna).get_json()
    assert record["outcome"] == resigned["outcome"]


def test_resigning_against_a_bot_gives_the_bot_the_win(client, new_player):
    _, anna = new_player("Anna")
    game = client.post("/api/v1/games", json={"type": "sixtysix", "players": 2,
                                              "seats": ["human", {"bot": "easy"}]}, headers=anna).get_json()
    resigned = client.post(f"/api/v1/games/{game['id']}/resign", headers=anna).get_json()
    assert resigned["status"] == "finished" and resigned["outcome"]["winners"] == [1]
    assert client.get("/api/v1/players/me/games", headers=anna).get_json()[0]["your_place"] == 2


def test_players_talk_at_the_table_within_limits(client, new_player):
    game_id, anna, bert = two_players_at_a_table(client, new_player)
    said = client.post(f"/api/v1/games/{game_id}/chat", json={"text": "  Good <b>luck</b>!  "}, headers=anna)
    assert said.status_code == 201
    assert said.get_json()["text"] == "Good <b>luck</b>!"  # kept as typed; the app shows it as text
    heard = client.get(f"/api/v1/games/{game_id}/chat?after=0", headers=bert).get_json()
    assert [(m["seat"], m["name"], m["text"]) for m in heard["messages"]] == [(0, "Anna", "Good <b>luck</b>!")]
    assert client.get(f"/api/v1/games/{game_id}/chat?after={heard['last']}", headers=bert).get_json()["messages"] == []

    # Empty, too long, or not a player: refused in the one error shape, nothing stored.
    for body in ({"text": "   "}, {"text": "x" * (CHAT_LENGTH + 1)}, {}, {"text": 5}):
        answer = client.post(f"/api/v1/games/{game_id}/chat", json=body, headers=anna)
        assert answer.status_code == 422 and answer.get_json()["message"], body
    _, carl = new_player("Carl")
    assert client.post(f"/api/v1/games/{game_id}/chat", json={"text": "hi"}, headers=carl).status_code == 403
    assert client.get(f"/api/v1/games/{game_id}/chat?after=0", headers=carl).status_code == 403
    assert len(client.get(f"/api/v1/games/{game_id}/chat?after=0", headers=anna).get_json()["messages"]) == 1

    # Rate-limited per player: the next message over the limit answers 429 with Retry-After.
    count, seconds = CHAT_RATE
    for n in range(count - 1):
        assert client.post(f"/api/v1/games/{game_id}/chat", json={"text": f"{n}"}, headers=anna).status_code == 201
    too_many = client.post(f"/api/v1/games/{game_id}/chat", json={"text": "more"}, headers=anna)
    assert too_many.status_code == 429 and 0 < int(too_many.headers["Retry-After"]) <= seconds
    assert too_many.get_json()["code"] == 429
    assert client.post(f"/api/v1/games/{game_id}/chat", json={"text": "me too"}, headers=bert).status_code == 201


def test_the_table_keeps_only_the_latest_messages(client, new_player, store):
    game_id, anna, bert = two_players_at_a_table(client, new_player)
    anna_id = client.get("/api/v1/players/me", headers=anna).get_json()["id"]
    for n in range(CHAT_KEEP + 5):
        # Past the rate limit: the bound is tested here.
        store.delete(f"game:{{{game_id}}}:chat-rate:{anna_id}")
        assert client.post(f"/api/v1/games/{game_id}/chat", json={"text": f"line {n}"}, headers=anna).status_code == 201
    heard = client.get(f"/api/v1/games/{game_id}/chat?after=0", headers=bert).get_json()
    assert len(heard["messages"]) == CHAT_KEEP
    assert heard["messages"][-1]["text"] == f"line {CHAT_KEEP + 4}" and heard["last"] == CHAT_KEEP + 5


@pytest.mark.cluster
def test_a_player_leaves_a_waiting_game_and_the_seat_opens_again(client, new_player, store):
    _, anna = new_player("Anna")
    _, bert = new_player("Bert")
    game = client.post("/api/v1/games", json={**GAME, "seats": ["human", "human", "human"]},
                       headers=anna).get_json()
    game_id = game["id"]
    first_code = game["invites"][0]["code"]
    assert client.post(f"/api/v1/games/invites/{first_code}", headers=bert).status_code == 200
    inbox = client.get("/api/v1/players/me/games", headers=bert)
    assert [line["id"] for line in inbox.get_json()] == [game_id]

    left = client.post(f"/api/v1/games/{game_id}/leave", headers=bert)
    assert left.status_code == 204
    # Bert's inbox no longer lists it, and its ETag changed; his seat is open with a new link.
    after = client.get("/api/v1/players/me/games", headers=bert)
    assert after.get_json() == [] and after.headers["ETag"] != inbox.headers["ETag"]
    view = client.get(f"/api/v1/games/{game_id}", headers=anna).get_json()
    assert view["status"] == "waiting" and view["seats"][1]["name"] is None
    codes = {invite["seat"]: invite["code"] for invite in view["invites"]}
    assert set(codes) == {1, 2} and codes[1] != first_code
    assert client.post(f"/api/v1/games/invites/{first_code}", headers=bert).status_code == 404
    # Leaving twice, or a game you are not in: 403 in the one error shape.
    twice = client.post(f"/api/v1/games/{game_id}/leave", headers=bert)
    assert twice.status_code == 403 and twice.get_json()["code"] == 403
    assert client.get(f"/api/v1/games/{game_id}", headers=bert).status_code == 403

    # The new link seats him again; once every seat is taken, leaving is resigning (409).
    assert client.post(f"/api/v1/games/invites/{codes[1]}", headers=bert).status_code == 200
    _, carl = new_player("Carl")
    started = client.post(f"/api/v1/games/invites/{codes[2]}", headers=carl).get_json()
    assert started["status"] == "active"
    refused = client.post(f"/api/v1/games/{game_id}/leave", headers=carl)
    assert refused.status_code == 409 and "resign" in refused.get_json()["message"]
    assert client.get(f"/api/v1/games/{game_id}", headers=carl).get_json()["seats"][2]["name"] == "Carl"


def test_the_last_player_leaving_deletes_the_game(client, new_player, store):
    _, anna = new_player("Anna")
    game = client.post("/api/v1/games", json={**GAME, "public": True}, headers=anna).get_json()
    game_id = game["id"]
    assert [line["id"] for line in client.get("/api/v1/games/lobby").get_json()] == [game_id]
    assert client.post(f"/api/v1/games/{game_id}/leave", headers=anna).status_code == 204

    assert client.get(f"/api/v1/games/{game_id}", headers=anna).status_code == 404
    assert client.get("/api/v1/players/me/games", headers=anna).get_json() == []
    assert client.get("/api/v1/games/lobby").get_json() == []
    assert not store.keys(f"*{game_id}*"), store.keys(f"*{game_id}*")
    _, bert = new_player("Bert")
    gone = client.post(f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    assert gone.status_code == 404 and gone.get_json()["code"] == 404
    assert client.post(f"/api/v1/games/{game_id}/leave", headers=anna).status_code == 404


@pytest.mark.cluster
def test_a_dropped_rematch_lets_the_players_ask_again(client, new_player, store, run_bots):
    game_id, anna, bert = two_players_at_a_table(client, new_player)
    for _ in range(200):
        view = client.get(f"/api/v1/games/{game_id}", headers=anna).get_json()
        if view["status"] == "finished":
            break
        for player in (anna, bert):
            mine = client.get(f"/api/v1/games/{game_id}", headers=player).get_json()
            if mine["legal_actions"]:
                client.post(f"/api/v1/games/{game_id}/actions", json={"action": mine["legal_actions"][0]},
                            headers=player)
        run_bots()
    assert view["status"] == "finished"
    rematch = client.post(f"/api/v1/games/{game_id}/rematch", headers=anna).get_json()["id"]
    assert client.post(f"/api/v1/games/{rematch}/leave", headers=anna).status_code == 204
    assert client.get(f"/api/v1/games/{game_id}", headers=bert).get_json()["rematch"] is None
    again = client.post(f"/api/v1/games/{game_id}/rematch", headers=bert)
    assert again.status_code == 200 and again.get_json()["id"] != rematch


@pytest.mark.cluster
def test_a_waiting_reader_hears_a_message_as_soon_as_it_is_said(live_server):
    http = requests.Session()
    anna = {"Authorization": f"Bearer {http.post(live_server + '/api/v1/players', json={'name': 'Anna'}).json()['token']}"}
    bert = {"Authorization": f"Bearer {http.post(live_server + '/api/v1/players', json={'name': 'Bert'}).json()['token']}"}
    game = http.post(live_server + "/api/v1/games", json=GAME, headers=anna).json()
    http.post(live_server + f"/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    chat = f"{live_server}/api/v1/games/{game['id']}/chat"
    heard = {}

    def listen():
        started = time.monotonic()
        heard["answer"] = requests.get(f"{chat}?after=0&wait=20", headers=bert, timeout=30).json()
        heard["seconds"] = time.monotonic() - started
    listener = threading.Thread(target=listen)
    listener.start()
    time.sleep(0.5)  # the request waits before the change
    assert "answer" not in heard  # nothing said yet: it waits
    assert http.post(chat, json={"text": "Hi!"}, headers=anna).status_code == 201
    listener.join()
    assert [m["text"] for m in heard["answer"]["messages"]] == ["Hi!"]
    assert heard["seconds"] < 20  # woken by the message, not by the end of its wait
    # Nothing newer: it waits its time and answers with no message; bad input changes nothing.
    assert requests.get(f"{chat}?after=1&wait=1", headers=bert, timeout=10).json()["messages"] == []
    assert requests.get(f"{chat}?after=0&wait=61", headers=bert, timeout=10).status_code == 422
