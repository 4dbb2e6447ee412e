"""Bot decision time through the real RQ worker: from a job's enqueue to its move stored.

    python -m bench.bot_latency [--decisions 20] [--levels easy,medium,hard]

Starts two `rq worker` processes (SimpleWorker, as `make run` does) against the
Redis in REDIS_URL (default: an embedded one), plays games with one human seat
(random moves made here) and bot seats of one level, and reads each bot job's
enqueue and end times from RQ. Prints p50/p95/max per game and level beside the
level's thinking budget, which is the in-run reference.
"""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from redis import Redis
from rq import Queue, Worker
from rq.registry import FinishedJobRegistry, StartedJobRegistry

from bench.redis_for_bench import bench_redis_url
from api.service import BOT_QUEUE, Service
from rules import GAMES
from rules.search import DEFAULT_BUDGETS

ROOT = Path(__file__).resolve().parent.parent
BOT_JOB = "worker.jobs.play_bot_turn"


def measure(service: Service, redis: Redis, game_type: str, level: str, decisions: int,
            rng: random.Random) -> list[float]:
    game = GAMES[game_type]
    player = service.create_player("Bench")
    seats = ["human"] + [{"bot": level}] * (game.min_players - 1)
    registry = FinishedJobRegistry(BOT_QUEUE, connection=redis)
    for job_id in registry.get_job_ids():
        registry.remove(job_id, delete_job=True)
    latencies: list[float] = []
    while len(latencies) < decisions:
        stored = service.create_game(player, game_type, game.min_players, {}, seats, pace="none")
        deadline = time.monotonic() + 600
        while stored.status() != "finished" and len(latencies) < decisions:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{game_type} {level}: the bots stopped moving")
            if 0 in stored.to_act():
                legal = game.legal_actions(stored.state, 0)
                service.apply(stored.id, 0, rng.choice(legal), None)
            else:
                time.sleep(0.02)
            stored = service.load(stored.id)
            latencies += collect(registry)
    drain(redis)
    return latencies


def drain(redis: Redis) -> None:
    """Wait until the bots of the last, unfinished game stop, so they do not queue ahead of
    the next level's moves."""
    queue = Queue(BOT_QUEUE, connection=redis)
    while queue.count or StartedJobRegistry(BOT_QUEUE, connection=redis).count:
        time.sleep(0.05)


def collect(registry: FinishedJobRegistry) -> list[float]:
    found = []
    for job in registry.get_job_ids():
        fetched = registry.get_queue().fetch_job(job)
        if fetched and fetched.func_name == BOT_JOB and fetched.return_value():
            found.append((fetched.ended_at - fetched.enqueued_at).total_seconds())
        registry.remove(job, delete_job=True)
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=20, help="bot moves timed per game and level")
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()

    with bench_redis_url() as url:
        run_with(args, url)


def run_with(args, url: str) -> None:
    redis = Redis.from_url(url)
    Queue(BOT_QUEUE, connection=redis).empty()
    workers = [subprocess.Popen(
        [str(Path(sys.executable).parent / "rq"), "worker", BOT_QUEUE, "--url", url,
         "--worker-class", "rq.SimpleWorker", "--quiet"], cwd=ROOT) for _ in range(2)]
    service = Service(redis)
    rng = random.Random(1)
    try:
        while len(Worker.all(connection=redis)) < len(workers):
            time.sleep(0.2)  # timing starts once both workers listen
        print(f"{'game':<10}{'level':>8}{'budget':>10}{'moves':>7}{'p50 s':>9}{'p95 s':>9}{'max s':>9}")
        for game_type in args.games.split(","):
            # Warm-up: a worker's first move of a game imports that game's bots.
            for _ in workers:
                measure(service, redis, game_type, "easy", 2, rng)
            for level in args.levels.split(","):
                times = measure(service, redis, game_type, level, args.decisions, rng)
                budget = DEFAULT_BUDGETS[level].seconds or 0.0
                print(f"{game_type:<10}{level:>8}{budget:>10.2f}{len(times):>7}"
                      f"{statistics.median(times):>9.3f}{percentile(times, 0.95):>9.3f}"
                      f"{max(times):>9.3f}", flush=True)
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait()


if __name__ == "__main__":
    main()
