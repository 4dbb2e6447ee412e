"""The first bot reply after a long silence, from the workers `make run` starts.

    python -m bench.idle_worker [--idle 150] [--rounds 3]

Each round starts the three workers of `make run` (`bots`; `bots-deep bots`; `notices`) on a
fresh queue, leaves them idle for `--idle` seconds, then creates a 6 nimmt! game against a hard
bot (thinking 0.05 s: its move goes to the one worker that takes hard bots) and times the bot's
move (queue to commit). The baseline in the same run is the workers'
queue connection with redis-py's default read timeout of 5 s, which equals RQ's 5 s blocking
wait for a job: each idle wait that times out is taken for a lost Redis and backed off from
(1, 2, 4 ... 60 s). Printed per setting: each round's reply time and each worker's
longest back-off (RQ's "could not connect ... retrying in N seconds"). Which pooled connection RQ's blocking pop gets is a race, so the baseline's
back-off hits some workers in some rounds: run several rounds.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from api.storage import connections
from api.tables import Tables
from bench.redis_for_bench import bench_redis_url
from worker.layout import WORKERS

ROOT = Path(__file__).resolve().parent.parent
HARD_SECONDS = 0.05
BACKOFF = re.compile(r"could not connect to Redis instance: .* retrying in (\d+) seconds")
# The worker as it runs, and as it ran with redis-py's default read timeout.
SETTINGS = {"fixed": "import sys, worker.run as run; sys.exit(run.main(sys.argv[1:]))",
            "baseline (5 s read timeout)":
                "import sys, worker.run as run; run.SOCKET_TIMEOUT = 5; "
                "sys.exit(run.main(sys.argv[1:]))"}


def one_round(url: str, code: str, idle: float, logs: Path) -> tuple[float, dict[str, int]]:
    client = connections.store_client({"REDIS_URL": url})
    client.flushdb()
    env = {**os.environ, "REDIS_URL": url, "REDIS_CLUSTER": "", "RQ_REDIS_URL": url,
           "POYTA_HARD_SECONDS": str(HARD_SECONDS)}
    workers = []
    for number, worker in enumerate(WORKERS):
        with open(logs / f"worker-{number}.log", "wb") as log:
            workers.append(subprocess.Popen([sys.executable, "-c", code, *worker.queues], cwd=ROOT,
                                            env=env, stdout=log, stderr=subprocess.STDOUT))
    try:
        while len(client.keys("worker:alive:*")) < len(workers):
            time.sleep(0.1)
        time.sleep(idle)
        tables = Tables(client, queue_redis=client)
        anna = tables.players.create("Anna")
        game = tables.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "hard"}],
                                          pace="none")
        began = time.monotonic()
        while tables.games.load(game.id).bots_to_act():
            time.sleep(0.02)
        took = time.monotonic() - began
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(30)
    backoffs = {" ".join(worker.queues): max(map(int, BACKOFF.findall(
        (logs / f"worker-{number}.log").read_text())), default=0)
        for number, worker in enumerate(WORKERS)}
    return took, backoffs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=float, default=200.0, help="seconds of silence")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with bench_redis_url() as url:
        for name, code in SETTINGS.items():
            for round_number in range(args.rounds):
                logs = Path(tempfile.mkdtemp(prefix="idle-worker-"))
                took, errors = one_round(url, code, args.idle, logs)
                backed_off = ", ".join(f"{queues} {seconds} s" for queues, seconds in
                                       errors.items())
                print(f"{name}: round {round_number + 1}: hard reply after {args.idle:.0f} s "
                      f"idle in {took:.2f} s; longest back-off per worker: {backed_off}",
                      flush=True)


if __name__ == "__main__":
    main()
