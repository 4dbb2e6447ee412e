"""Bot decision time through the real RQ worker: from the move that makes bots due to their
moves stored, per bot move.

    python -m bench.bot_latency [--decisions 20] [--levels easy,medium,hard]

Starts two `rq worker` processes (Pöytä's worker, as `make run` does) against the
Redis in REDIS_URL (default: an embedded one), plays games with one human seat
(random moves made here) and bot seats of one level. One job moves every bot due, one after
another; the time from the human's move until no bot is due, divided by the bot moves made
(the version steps), is one sample per bot move. Prints p50/p95/max per game and level beside
the level's thinking budget, which is the in-run reference.
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
from rq.registry import StartedJobRegistry

from bench.redis_for_bench import bench_redis_url
from api.service import BOT_QUEUE, Service
from rules import GAMES
from rules.search import DEFAULT_BUDGETS

ROOT = Path(__file__).resolve().parent.parent


def measure(service: Service, redis: Redis, game_type: str, level: str, decisions: int,
            rng: random.Random) -> list[float]:
    game = GAMES[game_type]
    player = service.create_player("Bench")
    seats = ["human"] + [{"bot": level}] * (game.min_players - 1)
    latencies: list[float] = []
    while len(latencies) < decisions:
        stored = service.create_game(player, game_type, game.min_players, {}, seats, pace="none")
        deadline = time.monotonic() + 600
        while stored.status() != "finished" and len(latencies) < decisions:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{game_type} {level}: the bots stopped moving")
            if 0 in stored.to_act():
                legal = game.legal_actions(stored.state, 0)
                stored = service.apply(stored.id, 0, rng.choice(legal), None)
            latencies += bot_moves(service, stored)
            stored = service.load(stored.id)
    drain(redis)
    return latencies


def drain(redis: Redis) -> None:
    """Wait until the bots of the last, unfinished game stop, so they do not queue ahead of
    the next level's moves."""
    queue = Queue(BOT_QUEUE, connection=redis)
    while queue.count or StartedJobRegistry(BOT_QUEUE, connection=redis).count:
        time.sleep(0.05)


def bot_moves(service: Service, stored) -> list[float]:
    """Seconds per bot move, from now until no bot is due (one sample per move)."""
    start, version = time.monotonic(), stored.version
    while stored.bots_to_act():
        time.sleep(0.002)
        stored = service.load(stored.id)
    moves = stored.version - version
    return [(time.monotonic() - start) / moves] * moves if moves else []


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
         "--worker-class", "worker.runner.PoytaWorker", "--quiet"], cwd=ROOT) for _ in range(2)]
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
