"""Real RQ worker processes for the tests that need them running beside the test."""
import os
import subprocess
import sys
import time
from pathlib import Path

from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def start_worker(processes: list, redis, redis_url: str, queues=(DEEP_BOT_QUEUE, BOT_QUEUE),
                 scheduler: bool = False, wait: bool = True, **env) -> subprocess.Popen:
    """A worker process on `queues` (with RQ's scheduler, for retries: `scheduler`), returned
    once it runs (its liveness beat is there) unless not to `wait`."""
    before = set(redis.keys("worker:alive:*"))
    worker = subprocess.Popen(
        [str(BIN / "rq"), "worker", *queues, "--url", redis_url,
         "--worker-class", "worker.runner.PoytaWorker", "--quiet",
         *(["--with-scheduler"] if scheduler else [])],
        cwd=ROOT, env={**os.environ, **env})
    processes.append(worker)
    if wait:
        within(60, lambda: set(redis.keys("worker:alive:*")) - before)
    return worker


def within(seconds: float, done) -> float:
    start = time.monotonic()
    while not done():
        assert time.monotonic() - start < seconds, f"nothing happened within {seconds} s"
        time.sleep(0.1)
    return time.monotonic() - start
