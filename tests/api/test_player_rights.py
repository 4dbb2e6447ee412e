"""A player's rights over HTTP: exporting everything kept of them as JSON Lines, and deleting
their account (their token answers 401, the directory forgets them, nothing of theirs is left in
Redis or PostgreSQL, and another player's record and replay of a shared game still work, with
the seat named "deleted player", from Redis and from the archive alike)."""
import json
import random

import psycopg
import pytest
from authenticator import Authenticator
from forgetting import forget_what_is_not_live
from redis_servers import store_keys
from test_passkeys import register, site  # noqa: F401 (a fixture)
from test_ratings import play_out

from api.tables import Tables
from api.tables.accounts import DELETED_NAME

FRIEND = "/api/v1/players/me/friends"


def bearer(player: dict) -> dict:
    return {"Authorization": f"Bearer {player['token']}"}


@pytest.fixture
def world(client, store, redis, database, site):
    """Anna (a passkey, a friend, a block, a finished rated game with Bert, archived, one game
    with Bert in play and one not started) and Bert."""
    origin, _ = site
    tables = Tables(store, queue_redis=redis)
    anna = client.post("/api/v1/players", json={"name": "Anna"}).get_json()
    bert = client.post("/api/v1/players", json={"name": "Bert"}).get_json()
    carl = client.post("/api/v1/players", json={"name": "Carl"}).get_json()
    assert register(client, bearer(anna), Authenticator(), origin).status_code == 201
    code = client.get("/api/v1/players/me/friend-link", headers=bearer(anna)).get_json()["code"]
    assert client.post(f"/api/v1/players/friend-links/{code}",
                       headers=bearer(bert)).status_code in (200, 201)
    assert client.put(f"/api/v1/players/me/blocks/{carl['id']}",
                      headers=bearer(anna)).status_code in (200, 201, 204)
    players = {name: tables.players.for_token(who["token"])
               for name, who in (("anna", anna), ("bert", bert))}

    def with_bert(seats: list) -> str:
        stored = tables.seating.create_game(players["anna"], "sixnimmt", len(seats),
                                            {"threshold": 1}, seats, pace="5m")
        tables.seating.accept_invite(tables.games.load(stored.id).seats[1].invite,
                                     players["bert"])
        return stored.id
    shared = with_bert(["human", "human"])
    play_out(tables, shared, {0: players["anna"], 1: players["bert"]}, random.Random(5))
    assert tables.ratings.record(shared) and tables.archive.archive(shared)
    in_play = with_bert(["human", "human", {"bot": "easy"}])
    waiting = tables.seating.create_game(players["anna"], "sixnimmt", 2, {"threshold": 1},
                                         ["human", "human"], pace="5m").id
    return {"tables": tables, "anna": anna, "bert": bert, "carl": carl, "shared": shared,
            "in_play": in_play, "waiting": waiting}


def exported(client, who: dict) -> list[dict]:
    answer = client.get("/api/v1/players/me/export", headers=bearer(who))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.mimetype == "application/x-ndjson"
    return [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]


def test_the_export_holds_everything_kept_of_the_player(client, world):
    anna, bert, carl = world["anna"], world["bert"], world["carl"]
    lines = exported(client, anna)
    kinds = [line["kind"] for line in lines]
    assert kinds[0] == "player" and lines[0]["id"] == anna["id"] and lines[0]["name"] == "Anna"
    assert "time_zone" in lines[0]["clock"]
    by_kind = {kind: [line for line in lines if line["kind"] == kind] for kind in set(kinds)}
    assert [device["label"] for device in by_kind["device"]] == ["first device"]
    assert len(by_kind["passkey"]) == 1
    assert [friend["id"] for friend in by_kind["friend"]] == [bert["id"]]
    assert [blocked["id"] for blocked in by_kind["block"]] == [carl["id"]]
    assert [rating["type"] for rating in by_kind["rating"]] == ["sixnimmt"]
    assert [change["game"] for change in by_kind["rating_change"]] == [world["shared"]]
    [game] = by_kind["game"]
    assert game["id"] == world["shared"] and game["players"] == ["Anna", "Bert"]
    record = client.get(f"/api/v1/games/{world['shared']}/record",
                        headers=bearer(anna)).get_json()
    assert game["record"] == record
    assert not any(token in json.dumps(lines) for token in (anna["token"], bert["token"]))
    as_text = client.get("/api/v1/players/me/export",
                         headers={**bearer(anna), "Accept": "text/plain"})
    assert as_text.mimetype == "text/plain"
    assert [json.loads(line) for line in as_text.get_data(as_text=True).splitlines()] == lines


def test_deleting_needs_the_accounts_id_and_changes_nothing_without_it(client, world):
    anna = world["anna"]
    for body in ({}, {"confirm": world["bert"]["id"]}, {"confirm": "yes"}):
        refused = client.post("/api/v1/players/me/deletion", json=body, headers=bearer(anna))
        assert refused.status_code == 422, refused.get_json()
    assert client.get("/api/v1/players/me", headers=bearer(anna)).status_code == 200
    assert client.post("/api/v1/players/me/deletion",
                       json={"confirm": anna["id"]}).status_code == 401


def test_a_deleted_account_is_gone_and_the_others_records_stay_whole(
        client, world, store, database):
    tables, anna, bert = world["tables"], world["anna"], world["bert"]
    shared = world["shared"]
    replay_before = client.get(f"/api/v1/games/{shared}/replay/2", headers=bearer(bert))
    assert replay_before.status_code == 200

    deleted = client.post("/api/v1/players/me/deletion", json={"confirm": anna["id"]},
                          headers=bearer(anna))
    assert deleted.status_code == 204, deleted.get_json()

    assert client.get("/api/v1/players/me", headers=bearer(anna)).status_code == 401
    assert client.get(f"/api/v1/players/{anna['id']}").status_code == 404
    found = client.get("/api/v1/players/search?name=an", headers=bearer(bert)).get_json()
    assert anna["id"] not in [player["id"] for player in found]
    assert client.get(FRIEND, headers=bearer(bert)).get_json() == []

    # Her games: the one not started is gone, the one in play goes on with her seat resigned.
    assert client.get(f"/api/v1/games/{world['waiting']}").status_code == 404
    in_play = tables.games.load(world["in_play"])
    assert in_play.seats[0].resigned and in_play.seats[0].name == DELETED_NAME

    def bert_sees() -> tuple[dict, dict, dict]:
        record = client.get(f"/api/v1/games/{shared}/record", headers=bearer(bert))
        replay = client.get(f"/api/v1/games/{shared}/replay/2", headers=bearer(bert))
        profile = client.get(f"/api/v1/players/{bert['id']}", headers=bearer(bert))
        assert record.status_code == replay.status_code == profile.status_code == 200
        return record.get_json(), replay.get_json(), profile.get_json()
    record, replay, profile = bert_sees()
    assert [seat["name"] for seat in record["seats"]] == [DELETED_NAME, "Bert"]
    assert [seat["name"] for seat in replay["view"]["seats"]] == [DELETED_NAME, "Bert"]
    assert replay["hands"] == replay_before.get_json()["hands"]
    assert profile["recent_games"][0]["players"] == [DELETED_NAME, "Bert"]

    # Nothing of hers is left in either store (but the counters of budgets and of the bots'
    # time her games still spend, which lapse by themselves).
    assert [key for key in store_keys(store, f"*{anna['id']}*")
            if not key.startswith((b"ratelimit", b"LIMITER", b"bot"))] == []
    with psycopg.connect(database) as connection:
        for table, column in (("players", "player_id"), ("player_devices", "player_id"),
                              ("passkeys", "player_id"), ("friends", "player_id"),
                              ("friends", "friend_id"), ("blocks", "player_id"),
                              ("standings", "player_id"), ("rating_changes", "player_id"),
                              ("player_games", "player_id")):
            assert connection.execute(f"SELECT count(*) FROM {table} WHERE {column} = %s",
                                      (anna["id"],)).fetchone()[0] == 0, table
        names = connection.execute("SELECT seat_names FROM finished_games WHERE game_id = %s",
                                   (shared,)).fetchone()[0]
        assert names == [DELETED_NAME, "Bert"]
    assert "Anna" not in json.dumps(exported(client, bert))

    # Once Redis let the game and Bert's keys go, the archive answers the same.
    forget_what_is_not_live(store, tables)
    assert bert_sees() == (record, replay, profile)


def test_the_directory_lists_kept_players_redis_forgot_and_a_backfill_lists_the_rest(
        client, world, store, redis):
    """A player PostgreSQL keeps is listed again when read back, and the backfill lists every
    kept player a directory lacks (made before it existed, or a fresh Redis)."""
    tables, anna, bert = world["tables"], world["anna"], world["bert"]
    search = "/api/v1/players/search?name="
    forget_what_is_not_live(store, tables)
    store.delete("directory")
    assert client.get(f"{search}an", headers=bearer(bert)).get_json() == []
    assert client.get(f"/api/v1/players/{anna['id']}").status_code == 200  # read back
    assert [found["id"] for found in client.get(f"{search}an", headers=bearer(bert))
            .get_json()] == [anna["id"]]

    store.delete("directory")
    assert tables.directory.backfill() == 2  # Anna and Bert; Carl owns nothing, so he lapses
    assert [found["id"] for found in client.get(f"{search}an", headers=bearer(bert))
            .get_json()] == [anna["id"]]
    assert [found["id"] for found in client.get(f"{search}be", headers=bearer(anna))
            .get_json()] == [bert["id"]]
