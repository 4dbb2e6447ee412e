"""Archive throughput: finished games a second into PostgreSQL, the bytes a game takes in each
store, and what 10,000 to 1,000,000 active games need of each.

    python -m bench.archive [--games 2000] [--threads 1 4] [--sized 5]

Sizes first: `--sized` whole 4-player games of each type (a human playing random legal cards,
three easy bots), their results recorded, then archived, then their own keys (the game's hash
tag) deleted as the hot window's end deletes them; and as many games of each type played
halfway. The store's bytes after each step (MEMORY USAGE of every key but the job queue's),
less those before, over the games, are the Redis bytes a game: in play, finished before the
archive, in the hot window, after it.

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
from bench.sizing import ASSUMED

RETENTION_DAYS = ASSUMED["retention_days"][0]  # what Redis keeps of a finished game's players' side
HOT_WINDOWS = (30, 3)   # the hot window (POYTA_HOT_DAYS) before, and its default now
GAME_DAYS = ASSUMED["game_days"][0]

SEATS = ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]


TYPES = ("sixnimmt", "sticheln", "hattrick", "sixtysix")


def played(tables: Tables, anna, game_type: str, rng: random.Random,
           actions: int | None = None) -> str:
    """A game played to its end (its results recorded), or until its log holds `actions`."""
    stored = tables.seating.create_game(anna, game_type, 4, {}, SEATS, pace="none")
    while (stored := tables.games.load(stored.id)).status() != FINISHED:
        if actions is not None and stored.version >= actions:
            return stored.id
        if 0 in stored.to_act() and 0 not in stored.moves_due():
            action = rng.choice(stored.game.legal_actions(stored.state, 0))
            tables.play.act(stored.id, anna, action, None)
        tables.bots.play_due(stored.id)
    tables.ratings.record(stored.id)
    return stored.id


def finished_games(tables: Tables, rng: random.Random) -> list[str]:
    anna = tables.players.create("Anna")
    return [played(tables, anna, game_type, rng) for game_type in TYPES]


def used(redis: Redis) -> int:
    """The game store's bytes: MEMORY USAGE of every key but RQ's (the jobs queued here wait
    for no worker; a worker takes them in production and their records expire)."""
    return sum(redis.memory_usage(key, samples=0) for key in redis.scan_iter(count=1000)
               if not key.startswith(b"rq:"))


def redis_sizes(redis: Redis, tables: Tables, rng: random.Random, per_type: int) -> dict:
    """Redis bytes a game (see the module's doc), each the mean over `per_type` games a type."""
    anna = tables.players.create("Anna")
    count = per_type * len(TYPES)
    start = used(redis)
    games = [played(tables, anna, game_type, rng) for game_type in TYPES
             for _ in range(per_type)]
    finished = used(redis)
    halfway = {game_type: tables.games.load(game_id).version // 2
               for game_type, game_id in zip(TYPES, games[::per_type])}
    assert all(map(tables.archive.archive, games))
    archived = used(redis)
    for game_id in games:  # the hot window's end: every key of the game expires
        redis.delete(*redis.scan_iter(match=f"*{{{game_id}}}*", count=1000))
    after = used(redis)
    before_active = used(redis)
    for game_type in TYPES:
        for _ in range(per_type):
            played(tables, anna, game_type, rng, actions=halfway[game_type])
    return {"active": (used(redis) - before_active) / count,
            "finished": (finished - start) / count, "hot": (archived - start) / count,
            "after": (after - start) / count, "games": count}


def sizing(sizes: dict, postgres_bytes: float) -> list[str]:
    """Redis and PostgreSQL for N active games: Redis without the archive (every finished game
    kept for the retention, as before it), and with it for each hot window (a finished game
    whole for the window, then only its players' side until the retention ends); PostgreSQL
    grows by every finished game, for good."""
    per_day = 1 / GAME_DAYS
    shard = ASSUMED["shard_bytes"][0]

    def redis_bytes(games: int, hot_days: float | None) -> float:
        if hot_days is None:
            kept = RETENTION_DAYS * per_day * sizes["finished"]
        else:
            kept = per_day * (hot_days * sizes["hot"]
                              + (RETENTION_DAYS - hot_days) * sizes["after"])
        return games * (sizes["active"] + kept)

    head = ["active games", "Redis, no archive"]
    head += [f"Redis, hot window {days} d" for days in HOT_WINDOWS]
    head += ["PostgreSQL, a month's growth", "PostgreSQL after a year"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for games in (10_000, 100_000, 1_000_000):
        cells = [f"{games:,}"]
        for hot_days in (None, *HOT_WINDOWS):
            memory = redis_bytes(games, hot_days)
            cells.append(f"{memory / 1e9:.1f} GB ({max(1, -(-memory // shard)):.0f} shards)")
        month = games * per_day * 30 * postgres_bytes
        cells += [f"{month / 1e9:.1f} GB", f"{month * 365 / 30 / 1e9:.0f} GB"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def copies(redis: Redis, tables: Tables, templates: list[str], count: int) -> list[str]:
    dumps = [redis.dump(keys.game(game_id)) for game_id in templates]
    made = []
    for index in range(count):
        game_id = secrets.token_urlsafe(12)
        redis.restore(keys.game(game_id), 30 * 86400 * 1000, dumps[index % len(dumps)])
        tables.storage.archive_outbox.owe(game_id, time.time())
        made.append(game_id)
    return made


def run(redis_url: str, database_url: str, games: int, threads: list[int], sized: int) -> None:
    os.environ.update(REDIS_URL=redis_url, DATABASE_URL=database_url)
    migrate.upgrade(database_url)
    sql.empty(database_url)
    redis = Redis.from_url(redis_url)
    redis.flushdb()
    tables = Tables(redis)
    per_game = redis_sizes(redis, tables, random.Random(2), sized)
    print(f"Redis bytes a game ({per_game['games']} 4-player games, {sized} of each type; "
          f"players, inboxes, ratings and results included):\n"
          f"  in play (halfway through)                    {per_game['active']:9,.0f}\n"
          f"  finished, before the archive                 {per_game['finished']:9,.0f}\n"
          f"  finished and archived, in the hot window     {per_game['hot']:9,.0f}\n"
          f"  finished and archived, after the hot window  {per_game['after']:9,.0f}", flush=True)
    sql.empty(database_url)
    redis.flushdb()
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
    print(f"Sizing (a game lasts {GAME_DAYS:.0f} days, as bench/sizing.py ASSUMED; Redis keeps a "
          f"finished game's players' side {RETENTION_DAYS} days; "
          f"{ASSUMED['shard_bytes'][0] / 1e9:.0f} GB a shard):")
    for line in sizing(per_game, float(size) / rows):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--sized", type=int, default=5, help="games of each type sized")
    options = parser.parse_args()
    with bench_redis_url() as redis_url:
        if os.environ.get("DATABASE_URL"):
            run(redis_url, os.environ["DATABASE_URL"], options.games, options.threads,
                options.sized)
            return
        server = EmbeddedPostgres(Path(tempfile.mkdtemp(prefix="bench-postgres-"))).start()
        try:
            run(redis_url, server.url, options.games, options.threads, options.sized)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
