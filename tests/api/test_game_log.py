"""A finished game packs its log: every game type fits its bounds, and what readers get of a
finished game (events, record, replay) is what they got while it was played."""
import random

import pytest

from redis_servers import store_keys
from rules import GAMES

# On the cluster too: the finishing commit packs the log; the sizes of a game's keys.
pytestmark = pytest.mark.cluster

STATE_IN_PLAY = 8 * 1024    # bytes of state, whatever the number of deals played
FINISHED_GAME = 16 * 1024   # bytes a finished 4-player game keeps in Redis with its log
SEATS = ["human", "human", {"bot": "easy"}, {"bot": "easy"}]


class Reader:
    """A phone reading the log on and on from the `last` it was given."""

    def __init__(self, client, headers):
        self.client, self.headers = client, headers
        self.collected, self.last = [], 0

    def read(self, game_id):
        answer = self.client.get(f"/api/v1/games/{game_id}/events?after={self.last}",
                                 headers=self.headers)
        assert answer.status_code == 200
        body = answer.get_json()
        self.collected += body["events"]
        self.last = body["last"]

    def everything(self, game_id):
        """The whole log from the start, page after page."""
        whole = {"events": [], "next": 0}
        while whole["next"] is not None:
            page = self.client.get(f"/api/v1/games/{game_id}/events?after={whole['next']}",
                                   headers=self.headers).get_json()
            whole = {**page, "events": whole["events"] + page["events"]}
        return whole


def game_bytes(store, game_id):
    return sum(store.memory_usage(key, samples=0) for key in store_keys(store, f"*{{{game_id}}}*"))


@pytest.mark.parametrize("type_", sorted(GAMES))
def test_a_finished_game_is_small_and_reads_as_it_was_played(type_, app, client, store,
                                                             new_player):
    service = app.extensions["poyta"]
    humans = [new_player("Anna")[1], new_player("Bert")[1]]
    game = client.post("/api/v1/games", headers=humans[0], json={
        "type": type_, "players": 4, "seats": SEATS, "public": True}).get_json()
    game_id = game["id"]
    client.post(f"/api/v1/games/{game_id}/join", json={}, headers=humans[1])
    readers = [Reader(client, headers) for headers in [*humans, {}]]  # two seats, a spectator
    rng = random.Random(type_)
    tables, played = {}, []
    while True:
        service.bots.play_due(game_id)
        for reader in readers:
            reader.read(game_id)
        views = [client.get(f"/api/v1/games/{game_id}", headers=h).get_json() for h in humans]
        if views[0]["status"] == "finished":
            break
        assert service.storage.games.sizes(game_id)["state"] <= STATE_IN_PLAY
        played = service.storage.games.actions(game_id)
        tables[len(played)] = client.get(f"/api/v1/games/{game_id}").get_json()["table"]
        for seat, (headers, view) in enumerate(zip(humans, views)):
            # A seat to act acts; one that has chosen sometimes changes its secret choice.
            if view["legal_actions"] and (seat in view["to_act"] or rng.random() < 0.3):
                answer = client.post(f"/api/v1/games/{game_id}/actions", headers=headers,
                                     json={"action": rng.choice(view["legal_actions"])})
                assert answer.status_code == 200, answer.get_json()

    assert game_bytes(store, game_id) <= FINISHED_GAME
    assert store.hget(f"game:{{{game_id}}}", "log"), "the finishing commit packed the log"
    assert store_keys(store, f"game:{{{game_id}}}:*") == [], "the lists are gone"

    # Every reader went on across the finish without a skip or a repeat, and reading the whole
    # log of the finished game again gives what was read while it was played, numbers included.
    for reader in readers:
        whole = reader.everything(game_id)
        assert whole["last"] == reader.last
        assert whole["events"] == reader.collected
        assert [event["number"] for event in whole["events"]] == sorted(
            {event["number"] for event in whole["events"]})
        assert reader.everything(game_id) == whole
        beyond = reader.client.get(f"/api/v1/games/{game_id}/events?after={reader.last}",
                                   headers=reader.headers).get_json()
        assert beyond == {"type": type_, "events": [], "last": reader.last, "next": None}
    assert not any("to" in event for reader in readers for event in reader.collected)
    seen = [{event["number"] for event in reader.collected} for reader in readers]
    assert seen[2] <= seen[0] and seen[2] <= seen[1], "a spectator sees only public events"

    # The record and the replay rebuild from the packed actions: the actions played before the
    # finish come first, they replay to the outcome, and each step shows the table as it was.
    record = client.get(f"/api/v1/games/{game_id}/record", headers=humans[0]).get_json()
    assert record["actions"][:len(played)] == [{"seat": entry["seat"], "action": entry["action"]}
                                               for entry in played]
    rules = GAMES[type_]
    state = rules.new_game(4, record["options"], record["seed"], recording=True)
    for entry in record["actions"]:
        rules.apply_action(state, entry["seat"], entry["action"])
    assert rules.outcome(state) == record["outcome"] == views[0]["outcome"]
    assert rules.record(state)["deals"] == record["deals"]
    for step in sorted(tables)[::7] + [max(tables)]:
        replayed = client.get(f"/api/v1/games/{game_id}/replay/{step}").get_json()
        assert replayed["view"]["table"] == tables[step]
    end = client.get(f"/api/v1/games/{game_id}/replay/{len(record['actions'])}").get_json()
    assert end["view"]["scores"] == record["outcome"]["scores"]
    assert client.get(f"/api/v1/games/{game_id}/replay/{len(record['actions']) + 1}"
                      ).status_code == 404
