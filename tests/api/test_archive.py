"""Finished games move to PostgreSQL exactly once (`api.tables.archive`), and read the same
once Redis has let them go; a database that is away stops no play, and archiving catches up."""
import random
import signal
import time

import psycopg
import pytest
from test_ratings import play_out
from worker_processes import start_worker, within

from api import faults
from api.http import create_app
from api.storage import keys
from api.storage.jobs import ARCHIVE_QUEUE, BOT_QUEUE
from api.tables import Tables

HOT_DAYS = 3 / 86400  # Redis keeps an archived game 3 seconds


def finished_game(tables, anna, seed, public=True):
    game_id = tables.seating.create_game(anna, "sixnimmt", 2, {"threshold": 1},
                                         ["human", {"bot": "easy"}], pace="none",
                                         public=public).id
    play_out(tables, game_id, {0: anna}, random.Random(seed))
    return game_id


def rows(database, game_id=None):
    """Rows of the game (of every game) in both archive tables."""
    with psycopg.connect(database) as connection:
        return tuple(connection.execute(
            f"SELECT count(*) FROM {table} WHERE %s::text IS NULL OR game_id = %s",
            (game_id, game_id)).fetchone()[0] for table in ("archived_games", "finished_games"))


def readings(client, game_id, headers):
    """What a reader gets of a finished game: record, a replay step, every event, with ETags."""
    got = {}
    for path in ("record", "replay/3", "events?after=0"):
        answer = client.get(f"/api/v1/games/{game_id}/{path}", headers=headers)
        assert answer.status_code == 200, (path, answer.get_json())
        got[path] = (answer.get_json(), answer.headers["ETag"])
    return got


def test_a_finished_game_is_archived_once_and_reads_the_same_after_redis_let_it_go(
        store, redis, redis_url, database, store_env, processes, monkeypatch):
    monkeypatch.setenv("POYTA_HOT_DAYS", repr(HOT_DAYS))
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    private, public = (finished_game(tables, anna, seed, public=seed == 2) for seed in (1, 2))
    assert tables.storage.archive_outbox.owed(private) is not None, "owed ahead of the finish"

    start_worker(processes, redis, redis_url, queues=(BOT_QUEUE, ARCHIVE_QUEUE))
    within(30, lambda: tables.storage.archive_outbox.size() == 0)
    assert rows(database) == (2, 2)
    archived = tables.storage.finished.find(private)
    assert archived.results and archived.seat_players == [anna.id, None]
    assert archived.seat_names[0] == "Anna"

    app = create_app({**store_env, "TESTING": True})
    client, mine = app.test_client(), {"Authorization": f"Bearer {anna.token}"}
    before = {game_id: readings(client, game_id, mine) for game_id in (private, public)}
    spectator_before = readings(client, public, {})
    assert 0 < store.ttl(keys.game(private)) <= 3, "Redis keeps it for the hot window only"

    within(10, lambda: not store.exists(keys.game(private), keys.game(public)))
    for fresh in (client, create_app({**store_env, "TESTING": True}).test_client()):
        for game_id in (private, public):
            assert readings(fresh, game_id, mine) == before[game_id]
        assert readings(fresh, public, {}) == spectator_before
        assert fresh.get(f"/api/v1/games/{private}/record").status_code == 403
        etag = before[private]["record"][1]
        assert fresh.get(f"/api/v1/games/{private}/record",
                         headers={**mine, "If-None-Match": etag}).status_code == 304
        assert fresh.get("/api/v1/games/nosuchgame/record").status_code == 404

    # Archiving again, by a job run twice or the row inserted twice, changes nothing.
    assert not tables.archive.archive(private)
    assert not tables.storage.finished.archive(archived)
    assert rows(database, private) == (1, 1)


def test_archiving_survives_a_killed_worker_and_a_restarted_database(
        store, redis, redis_url, database, postgres, processes, monkeypatch):
    """Workers are SIGKILLed after an insert, before its outbox entry is settled, and PostgreSQL
    stops (as a crash would) and comes back mid-archive: every finished game ends archived
    exactly once, and play went on meanwhile."""
    if postgres is None:
        pytest.skip("TEST_DATABASE_URL names a server this test cannot restart")
    tables = Tables(store, queue_redis=redis)
    anna = tables.players.create("Anna")
    games = [finished_game(tables, anna, seed) for seed in range(6)]

    for at in (2, 1):
        dying = start_worker(processes, redis, redis_url, queues=(BOT_QUEUE, ARCHIVE_QUEUE),
                             **faults.armed(faults.AFTER_ARCHIVE_INSERT, at))
        assert dying.wait(60) == -signal.SIGKILL
    assert 0 < rows(database)[0] < len(games), "killed mid-archive"
    assert tables.storage.archive_outbox.size() > len(games) - rows(database)[0] - 1

    postgres.stop("immediate")
    start_worker(processes, redis, redis_url, queues=(BOT_QUEUE, ARCHIVE_QUEUE), scheduler=True)
    # With the database away, play goes on: a new game is played to its end and its results
    # are recorded; it waits to be archived.
    during = finished_game(tables, anna, 99)
    within(30, lambda: tables.games.load(during).results is not None)
    time.sleep(2)  # archiving jobs meet the missing database
    postgres.start()

    games.append(during)
    within(120, lambda: tables.storage.archive_outbox.size() == 0)
    assert rows(database) == (len(games), len(games))
    for game_id in games:
        assert rows(database, game_id) == (1, 1), game_id
        assert tables.storage.finished.find(game_id).version == tables.games.load(game_id).version


def test_without_its_database_play_goes_on_and_a_read_of_the_archive_answers_503(
        store, redis, store_env, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/poyta")
    client = create_app({**store_env, "TESTING": True}).test_client()
    anna = client.post("/api/v1/players", json={"name": "Anna"}).get_json()
    mine = {"Authorization": f"Bearer {anna['token']}"}
    game = client.post("/api/v1/games", headers=mine, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]}).get_json()
    view = client.get(f"/api/v1/games/{game['id']}", headers=mine).get_json()
    moved = client.post(f"/api/v1/games/{game['id']}/actions", headers=mine,
                        json={"action": view["legal_actions"][0]})
    assert moved.status_code == 200, moved.get_json()

    gone = client.get("/api/v1/games/notinredis/record")
    assert gone.status_code == 503 and gone.headers["Retry-After"] == "5"
    assert gone.get_json()["reason"] == "unavailable"
    ready = client.get("/readyz")
    assert ready.status_code == 503 and set(ready.get_json()["errors"]) == {"database"}
