"""Archive throughput: finished games a second into PostgreSQL, and the bytes a finished game
takes in each store.

    python -m bench.archive [--games 2000] [--threads 1 4]

Plays a real 4-player game of each type to the end (a human playing random legal cards, three
easy bots) with their results recorded, then copies their Redis hashes (DUMP and RESTORE) under
`--games` new ids, each owed to the archive as the finishing commit owes it, and runs the
archiving job (`api.tables.archive.Archive.archive`: the game read from Redis, the insert, the
hot window, the outbox settled) over them in this process, on one thread and then several. Redis
is REDIS_URL or an embedded Valkey; PostgreSQL is DATABASE_URL or an embedded PostgreSQL 18.
"""
from __future__ import annotations

import argparse
import os
import random
import secrets
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
from redis import Redis

from api.devtools.embedded_postgres import EmbeddedPostgres
from api.storage import keys, migrate, sql
from api.tables import Tables
from api.tables.model import FINISHED
from bench.redis_for_bench import bench_redis_url

SEATS = ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]


def finished_games(tables: Tables, rng: random.Random) -> list[str]:
    anna = tables.players.create("Anna")
    done = []
    for game_type in ("sixnimmt", "sticheln", "hattrick", "sixtysix"):
        stored = tables.seating.create_game(anna, game_type, 4, {}, SEATS, pace="none")
        while (stored := tables.games.load(stored.id)).status() != FINISHED:
            if 0 in stored.to_act() and 0 not in stored.moves_due():
                action = rng.choice(stored.game.legal_actions(stored.state, 0))
                tables.play.act(stored.id, anna, action, None)
            tables.bots.play_due(stored.id)
        tables.ratings.record(stored.id)
        done.append(stored.id)
    return done


def copies(redis: Redis, tables: Tables, templates: list[str], count: int) -> list[str]:
    dumps = [redis.dump(keys.game(game_id)) for game_id in templates]
    made = []
    for index in range(count):
        game_id = secrets.token_urlsafe(12)
        redis.restore(keys.game(game_id), 30 * 86400 * 1000, dumps[index % len(dumps)])
        tables.storage.archive_outbox.owe(game_id, time.time())
        made.append(game_id)
    return made


def run(redis_url: str, database_url: str, games: int, threads: list[int]) -> None:
    os.environ.update(REDIS_URL=redis_url, DATABASE_URL=database_url)
    migrate.upgrade(database_url)
    sql.empty(database_url)
    redis = Redis.from_url(redis_url)
    redis.flushdb()
    tables = Tables(redis)
    templates = finished_games(tables, random.Random(1))
    sizes = [redis.memory_usage(keys.game(game_id), samples=0) for game_id in templates]
    assert all(map(tables.archive.archive, templates))
    print(f"Redis bytes of a finished 4-player game (hash with its packed log, results "
          f"recorded): {sum(sizes) / len(sizes):,.0f} on average over {len(sizes)} game types")
    for count in threads:
        batch = copies(redis, tables, templates, games)
        start = time.perf_counter()
        with ThreadPoolExecutor(count) as pool:
            archived = sum(pool.map(tables.archive.archive, batch))
        seconds = time.perf_counter() - start
        assert archived == len(batch) and tables.storage.archive_outbox.size() == 0
        print(f"{count} thread(s): {games} games archived in {seconds:.2f} s: "
              f"{games / seconds:,.0f} games/s ({seconds / games * 1000:.2f} ms a game)")
    with psycopg.connect(database_url) as connection:
        rows, size = connection.execute(
            "SELECT count(*), (SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits "
            "WHERE inhparent = 'finished_games'::regclass) + "
            "pg_total_relation_size('archived_games') FROM finished_games").fetchone()
    print(f"PostgreSQL bytes a finished game (tables, indexes and TOAST over {rows} rows): "
          f"{size / rows:,.0f}")
    ttl = redis.ttl(keys.game(batch[0]))
    print(f"Redis keeps an archived game {ttl / 86400:.1f} days (POYTA_HOT_DAYS), then none of it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 4])
    options = parser.parse_args()
    with bench_redis_url() as redis_url:
        if os.environ.get("DATABASE_URL"):
            run(redis_url, os.environ["DATABASE_URL"], options.games, options.threads)
            return
        server = EmbeddedPostgres(Path(tempfile.mkdtemp(prefix="bench-postgres-"))).start()
        try:
            run(redis_url, server.url, options.games, options.threads)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
