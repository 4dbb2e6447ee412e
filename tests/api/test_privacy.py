"""What a caller may see: a revoked device, private games before and after they end."""
import threading
import time

import requests


def player(http, base, name):
    token = http.post(base + "/api/v1/players", json={"name": name}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


def test_a_long_poll_of_a_device_signed_out_meanwhile_gets_401_not_the_hand(live_server):
    http, base = requests.Session(), live_server
    anna, bert = player(http, base, "Anna"), player(http, base, "Bert")
    game = http.post(base + "/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).json()
    http.post(f"{base}/api/v1/games/{game['id']}/join", headers=bert, json={})
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
    time.sleep(0.5)
    assert http.delete(f"{base}/api/v1/players/me/devices/{laptop_device}",
                       headers=phone).status_code == 204
    bert_view = http.get(f"{base}/api/v1/games/{game['id']}", headers=bert).json()
    assert http.post(f"{base}/api/v1/games/{game['id']}/actions", headers=bert, json={
        "action": bert_view["legal_actions"][0]}).status_code == 200
    poll.join()
    assert answer["poll"].status_code == 401
    assert "hand" not in answer["poll"].text
