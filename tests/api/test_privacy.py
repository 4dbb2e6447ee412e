"""What a caller may see: a revoked device, private games before and after they end."""
import threading

import requests

from long_polls import wait_for_long_polls
from playing import play_out


def player(http, base, name):
    token = http.post(base + "/api/v1/players", json={"name": name}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_a_long_poll_of_a_device_signed_out_meanwhile_gets_401_not_the_hand(live_server, redis):
    http, base = requests.Session(), live_server
    anna, bert = player(http, base, "Anna"), player(http, base, "Bert")
    game = http.post(base + "/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).json()
    http.post(f"{base}/api/v1/games/invites/{game['invites'][0]['code']}", headers=bert)
    code = http.post(base + "/api/v1/players/me/signin-codes", headers=anna).json()["code"]
    phone = {"Authorization": "Bearer " + http.post(
        base + "/api/v1/players/signin", json={"code": code, "device": "phone"}).json()["token"]}
    laptop_device = next(d["id"] for d in http.get(base + "/api/v1/players/me/devices",
                                                   headers=anna).json() if d["current"])
    seen = http.get(f"{base}/api/v1/games/{game['id']}", headers=anna)
    answer = {}

    def wait_on_the_laptop():
        answer["poll"] = requests.get(f"{base}/api/v1/games/{game['id']}?wait=10", timeout=20,
                                      headers={**anna, "If-None-Match": seen.headers["ETag"]})
    poll = threading.Thread(target=wait_on_the_laptop)
    poll.start()
    wait_for_long_polls(redis)
    assert http.delete(f"{base}/api/v1/players/me/devices/{laptop_device}",
                       headers=phone).status_code == 204
    bert_view = http.get(f"{base}/api/v1/games/{game['id']}", headers=bert).json()
    assert http.post(f"{base}/api/v1/games/{game['id']}/actions", headers=bert, json={
        "action": bert_view["legal_actions"][0]}).status_code == 200
    poll.join()
    assert answer["poll"].status_code == 401
    assert "hand" not in answer["poll"].text


def test_a_waiting_private_game_is_seen_and_joined_only_through_its_invite(client, new_player):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    created = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 3, "seats": ["human", "human", "human"]}).get_json()
    game_id = created["id"]
    for response in (client.get(f"/api/v1/games/{game_id}", headers=eve),
                     client.get(f"/api/v1/games/{game_id}"),
                     client.get(f"/api/v1/games/{game_id}/events", headers=eve),
                     client.post(f"/api/v1/games/{game_id}/join", json={}, headers=eve)):
        assert response.status_code == 403 and "private" in response.get_json()["message"]
    assert client.get(f"/api/v1/games/{game_id}", headers=anna).status_code == 200
    joined = client.post(f"/api/v1/games/invites/{created['invites'][0]['code']}", headers=eve)
    assert joined.status_code == 200 and joined.get_json()["your_seat"] == 1
    assert client.get(f"/api/v1/games/{game_id}/events", headers=eve).status_code == 200


def test_records_and_replays_of_private_games_only_to_their_players(client, new_player, run_bots):
    _, anna = new_player("Anna")
    _, eve = new_player("Eve")
    private, public = (play_out(client, anna, run_bots, public) for public in (False, True))
    for path in (f"/api/v1/games/{private}/record", f"/api/v1/games/{private}/replay/1"):
        assert client.get(path, headers=anna).status_code == 200
        for headers in (eve, {}):
            denied = client.get(path, headers=headers)
            assert denied.status_code == 403 and "private" in denied.get_json()["message"]
            assert "hands" not in denied.get_json() and "deals" not in denied.get_json()
    for path in (f"/api/v1/games/{public}/record", f"/api/v1/games/{public}/replay/1"):
        assert client.get(path, headers=eve).status_code == 200
        assert client.get(path).status_code == 200
