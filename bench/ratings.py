"""Recording results and reading ratings, measured on a real Redis (REDIS_URL, else an embedded
Valkey of its own):

    python -m bench.ratings [--games 200] [--threads 8]

Plays `--games` 4-player 6 nimmt! games (one human, three bot levels, one deal's worth), then
records their results: first one after another (the wall time of a results job's body, which a
worker runs once per finished game), then all at once from `--threads` threads, where every
game shares the three bot players, so their updates collide and are computed again from the
newer standing; prints how many of those retries there were and checks that no update was
lost (each bot level's rated games equal the games). Then the wall time of a profile and of a
leaderboard read.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from redis import Redis

from api.storage import ratings as rating_store
from api.tables import Tables
from bench.redis_for_bench import bench_redis_url
from rules.search import Budget

SEATS = ["human", {"bot": "easy"}, {"bot": "medium"}, {"bot": "hard"}]


def finished_games(tables: Tables, count: int) -> tuple[list[str], object]:
    anna = tables.players.create("Anna")
    rng = random.Random(1)
    ids = []
    for _ in range(count):
        game_id = tables.seating.create_game(anna, "sixnimmt", 4, {"threshold": 1}, SEATS,
                                             pace="none").id
        while True:
            tables.bots.play_due(game_id)
            stored = tables.games.load(game_id)
            if stored.status() == "finished":
                break
            if 0 in stored.to_act():
                tables.play.act(game_id, anna, rng.choice(
                    stored.game.legal_actions(stored.state, 0)), None)
        ids.append(game_id)
    return ids, anna


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    return (f"median {statistics.median(ordered) * 1000:.2f} ms, "
            f"p95 {ordered[int(len(ordered) * 0.95) - 1] * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--threads", type=int, default=8)
    options = parser.parse_args()
    with bench_redis_url() as url:
        redis = Redis.from_url(url)
        redis.flushdb()
        # The bots think little: the games are only there to be rated.
        quick = Budget(iterations=20)
        tables = Tables(redis, queue_redis=redis, budgets={"medium": quick, "hard": quick})
        half = options.games // 2
        ids, anna = finished_games(tables, options.games)

        took = []
        for game_id in ids[:half]:
            began = time.perf_counter()
            assert tables.ratings.record(game_id)
            took.append(time.perf_counter() - began)
        print(f"results of one game, one after another ({half} games): {ms(took)}")

        stale = 0
        apply = rating_store.RatingStore.apply

        def counting(self, *args, **kwargs):
            nonlocal stale
            status, now = apply(self, *args, **kwargs)
            stale += status == rating_store.STALE
            return status, now
        rating_store.RatingStore.apply = counting
        began = time.perf_counter()
        with ThreadPoolExecutor(options.threads) as pool:
            assert all(pool.map(tables.ratings.record, ids[half:]))
        wall = time.perf_counter() - began
        rating_store.RatingStore.apply = apply
        rest = len(ids) - half
        print(f"results of {rest} games from {options.threads} threads, every game sharing its "
              f"three bot players: {rest / wall:.0f} games/s, {stale} updates computed again")
        for level in ("easy", "medium", "hard"):
            rated = tables.profiles.profile(f"bot-{level}", None)["ratings"]["sixnimmt"]["games"]
            assert rated == len(ids), (level, rated)
        print(f"no update lost: each bot level has {len(ids)} rated games")

        for name, read in (("profile", lambda: tables.profiles.profile(anna.id, anna)),
                           ("leaderboard", lambda: tables.profiles.leaderboard("sixnimmt", anna))):
            samples = []
            for _ in range(500):
                began = time.perf_counter()
                read()
                samples.append(time.perf_counter() - began)
            print(f"{name} read: {ms(samples)}")


if __name__ == "__main__":
    main()
