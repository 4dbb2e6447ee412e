"""Play now over HTTP: 13 scripted players and 2 bot accounts seek overlapping tables (several
game types and counts, a rating window, one block, one seek that lapses, one bot fill), and the
tables matchmaking forms are each one every seeker at it accepted; the player directory; bad
seeks named by field, and the seek quota."""
from rq import Queue

from api.storage import keys
from api.storage.jobs import QUEUES
from api.tables import Tables
from api.tables.ratings import Standing
from worker.runner import PromptWorker

SEEKS = "/api/v1/seeks"


def seek(client, auth, games, fewest, most, paces=("1d",), **extra):
    answer = client.post(SEEKS, headers=auth, json={
        "games": [{"type": kind} for kind in games], "players": {"min": fewest, "max": most},
        "paces": list(paces), **extra})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def register(client, name, bot=False, number=[0]):
    """A player from an address of its own (one address registers only a few a minute)."""
    number[0] += 1
    body = client.post("/api/v1/players", json={"name": name, "bot": bot},
                       environ_base={"REMOTE_ADDR": f"10.0.{number[0] // 250}.{number[0] % 250}"}
                       ).get_json()
    return body, {"Authorization": f"Bearer {body['token']}"}


def pair_now(tables, redis):
    for pool in ("rated", "casual"):
        tables.jobs.pair_seeks(pool)
    PromptWorker([Queue(name, connection=redis) for name in QUEUES],
                 connection=redis).work(burst=True)


def accepts(made: dict, stored) -> bool:
    return (stored.meta.type in {entry["type"] for entry in made["games"]}
            and stored.meta.pace in made["paces"] and stored.meta.rated == made["rated"]
            and made["players"]["min"] <= stored.meta.players <= made["players"]["max"]
            and (made["bot_fill"] is not None or all(seat.bot is None for seat in stored.seats)))


def test_thirteen_players_and_two_bots_are_seated_as_each_accepted(clocked_client, store, redis,
                                                                   clock):
    client = clocked_client
    tables = Tables(store, queue_redis=redis)
    players = [register(client, f"Player {number}") for number in range(13)]
    bots = [register(client, name, bot=True) for name in ("Robo", "Droid")]
    for player_id, mu in ((players[6][0]["id"], 26), (players[7][0]["id"], 27),
                          (players[8][0]["id"], 36)):
        store.hset(keys.standings(player_id), "sixnimmt",
                   Standing(mu=mu, sigma=2, rated=5).to_json())
    (p4, _), (p5, _) = players[4], players[5]
    assert client.put(f"/api/v1/players/me/blocks/{p5['id']}",
                      headers=players[4][1]).status_code == 204

    plan = [(players[n], ("sticheln",), 3, 4, {}) for n in range(4)] + [
        (players[4], ("sixtysix",), 2, 2, {}), (players[5], ("sixtysix",), 2, 2, {}),
        (bots[0], ("sixtysix",), 2, 2, {}),
        (players[6], ("sixnimmt",), 3, 5, {"rating_window": 3}),
        (players[7], ("sixnimmt", "hattrick"), 3, 5, {}),
        (players[8], ("sixnimmt",), 3, 5, {}),
        (players[9], ("sticheln",), 5, 6, {"lapse_hours": 1}),
        (players[10], ("sixnimmt",), 3, 4, {"paces": ["3d"],
                                            "bot_fill": {"level": "easy", "after_hours": 2}}),
        (players[11], ("hattrick",), 4, 5, {}), (players[12], ("hattrick", "sixnimmt"), 4, 5, {}),
        (bots[1], ("hattrick",), 4, 4, {})]
    made = []
    for (body, auth), games, fewest, most, extra in plan:
        made.append((body, auth, seek(client, auth, games, fewest, most, **extra)))
        clock.advance(60)
    pair_now(tables, redis)
    clock.advance(3 * 3600)
    pair_now(tables, redis)

    found = {}
    for body, auth, one in made:
        answer = client.get(f"{SEEKS}/{one['id']}", headers=auth)
        assert answer.status_code == 200
        found[body["id"]] = (one, answer.get_json())
    games = {}
    for player_id, (one, now) in found.items():
        if now["state"] == "seated":
            games.setdefault(now["game"], []).append(player_id)
    seated = [player_id for members in games.values() for player_id in members]
    assert len(seated) == len(set(seated)), "nobody seated twice"
    for game_id, members in games.items():
        stored = tables.games.load(game_id)
        assert sorted(stored.humans()) == sorted(members)
        assert stored.status() == "active"
        for player_id in members:
            assert accepts(found[player_id][0], stored), (player_id, stored.meta)
            assert game_id in tables.storage.players.game_ids(player_id)
        assert not {p4["id"], p5["id"]} <= set(members), "the blocked pair never sits together"
    assert found[players[9][0]["id"]][1]["state"] == "lapsed"
    assert found[players[9][0]["id"]][1]["game"] is None
    bot_filled = tables.games.load(found[players[10][0]["id"]][1]["game"])
    assert [seat.bot for seat in bot_filled.seats] == [None, "easy", "easy"]
    assert {player_id for player_id, (_, now) in found.items() if now["state"] == "open"} == {
        players[n][0]["id"] for n in (5, 6, 8)}, "every seeker not seated still waits"
    assert len(games) == 4 and len(seated) == 11
    waiting = client.get(SEEKS, headers=players[5][1]).get_json()
    assert [entry["state"] for entry in waiting] == ["open"]
    assert waiting[0]["waiting_in_pool"] == 3 and waiting[0]["waited_seconds"] > 3 * 3600


def test_impossible_seeks_are_422_naming_the_field_and_the_quota_429(client, new_player):
    _, auth = new_player("Anna")
    for body, field in (
            ({"games": [{"type": "sixtysix"}], "players": {"min": 5, "max": 6},
              "paces": ["1d"]}, "players"),
            ({"games": [{"type": "sticheln"}], "players": {"min": 3, "max": 4},
              "paces": ["1d"], "rating_window": 5}, "rating_window"),
            ({"games": [{"type": "sticheln"}], "players": {"min": 3, "max": 4},
              "paces": ["none"]}, "paces")):
        answer = client.post(SEEKS, headers=auth, json=body)
        assert answer.status_code == 422 and answer.get_json()["field"] == field, answer.get_json()
    missing = client.post(SEEKS, headers=auth, json={"games": [{"type": "sticheln"}]})
    assert missing.status_code == 422 and "players" in str(missing.get_json())
    made = [seek(client, auth, ("sticheln",), 3, 4) for _ in range(5)]
    beyond = client.post(SEEKS, headers=auth, json={
        "games": [{"type": "sticheln"}], "players": {"min": 3, "max": 4}, "paces": ["1d"]})
    assert beyond.status_code == 429 and "Retry-After" in beyond.headers
    cancelled = client.delete(f"{SEEKS}/{made[0]['id']}", headers=auth)
    assert cancelled.status_code == 200 and cancelled.get_json()["state"] == "cancelled"
    assert len(client.get(SEEKS, headers=auth).get_json()) == 4
    _, other = new_player("Bert")
    assert client.get(f"{SEEKS}/{made[1]['id']}", headers=other).status_code == 404


def test_the_directory_lists_players_and_bots_by_name(client, new_player):
    anna, anna_auth = new_player("Anna")
    annika, _ = new_player("Annika")
    body = client.post("/api/v1/players", json={"name": "Annabot", "bot": True}).get_json()
    bot_auth = {"Authorization": f"Bearer {body['token']}"}
    assert client.put("/api/v1/players/me/description", headers=bot_auth,
                      json={"description": "Plays Sticheln; by Anna"}).status_code == 200
    assert client.put("/api/v1/players/me/description", headers=anna_auth,
                      json={"description": "me"}).status_code == 422
    client.put(f"/api/v1/players/me/blocks/{annika['id']}", headers=anna_auth)
    found = client.get("/api/v1/players/search?name=ANN", headers=anna_auth).get_json()
    assert [(entry["name"], entry["can_challenge"]) for entry in found] == [("Annabot", True)]
    assert found[0]["description"] == "Plays Sticheln; by Anna" and found[0]["ratings"] == {}
    anonymous = client.get("/api/v1/players/search?name=ann").get_json()
    assert [entry["name"] for entry in anonymous] == ["Anna", "Annabot", "Annika"]
    assert client.get("/api/v1/players/search?name=").status_code == 422
