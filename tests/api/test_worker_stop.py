"""A worker told to stop (SIGTERM on a deploy or a test's teardown) stops at once, whatever Redis
and the worker are doing at that moment, and leaves no subscription behind: it takes no commands
over pub/sub (`worker.runner.PromptWorker`)."""
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest
from redis import Redis
from rq import Worker
from worker_processes import ROOT, within

from api.devtools.embedded_redis import start_embedded

# RQ's own listener could wait 60 s for a message, or hang for minutes; a loaded machine may
# take a few seconds to schedule the stop and its scheduler child's.
STOP_SECONDS = 10


def queue_env(redis_url: str) -> dict[str, str]:
    return {**os.environ, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "REDIS_CLUSTER": ""}


def start_worker(redis: Redis, redis_url: str, log) -> tuple[subprocess.Popen, Worker]:
    """`python -m worker.run` on a queue of its own, once it works (registered and beating)."""
    queue = f"nothing-queued-here-{uuid.uuid4().hex}"
    process = subprocess.Popen([sys.executable, "-m", "worker.run", queue], cwd=ROOT,
                               env=queue_env(redis_url), stdout=log, stderr=subprocess.STDOUT)
    found = []
    within(30, lambda: process.poll() is None and found.extend(
        worker for worker in Worker.all(connection=redis) if worker.queue_names() == [queue]
        and redis.exists(f"worker:alive:{worker.name}")) or found)
    within(30, lambda: catches_sigterm(process.pid))
    return process, found[0]


def catches_sigterm(pid: int) -> bool:
    """RQ's handler for SIGTERM is in place (the kernel's mask of caught signals says so): a
    signal sent before it would end the process by the default action, not by the worker."""
    with open(f"/proc/{pid}/status") as status:
        caught = next(line for line in status if line.startswith("SigCgt:")).split()[1]
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def stopped_within(process: subprocess.Popen, seconds: float) -> float:
    start = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        assert process.wait(timeout=seconds + 10) == 0  # longer, to tell a slow stop from a hung one
    except subprocess.TimeoutExpired:
        pytest.fail("the worker did not stop")
    took = time.monotonic() - start
    assert took < seconds, f"the worker took {took:.1f} s to stop"
    return took


def test_a_worker_subscribes_to_nothing_and_stops_at_once(redis_url, tmp_path):
    redis = Redis.from_url(redis_url)
    with open(tmp_path / "worker.log", "wb") as log:
        process, worker = start_worker(redis, redis_url, log)
    try:
        assert dict(redis.pubsub_numsub(worker.pubsub_channel_name)) == {
            worker.pubsub_channel_name.encode(): 0}
        stopped_within(process, STOP_SECONDS)  # its scheduler child with it
        assert redis.pubsub_channels(f"*{worker.name}*") == []
    finally:
        process.kill()
        process.wait()
        redis.close()


def test_a_worker_stops_at_once_while_redis_is_down(tmp_path):
    server = start_embedded(tmp_path / "redis")
    url = f"redis://{server.host}:{server.port}/0"
    redis = Redis.from_url(url)
    with open(tmp_path / "worker.log", "wb") as log:
        process, _ = start_worker(redis, url, log)
    try:
        server.stop()
        # RQ records the worker's death as it stops: with Redis down its client's retries give
        # up after a few seconds.
        stopped_within(process, STOP_SECONDS)
    finally:
        process.kill()
        process.wait()
        redis.close()
        server.stop()


HELD_LINE = """
import logging, pathlib, sys, time
from worker import run

marker = pathlib.Path(sys.argv[1])


class HeldLine(logging.Handler):
    '''Writes the first line of the worker's upkeep (it has taken signals by then) as slowly as a
    full pipe would, catching what the write raises the way logging's own handlers do.'''

    def emit(self, record):
        try:
            if "cleaning registries" in record.getMessage() and not marker.exists():
                marker.touch()
                time.sleep(10)
        except Exception:
            self.handleError(record)


logging.getLogger("rq.worker").addHandler(HeldLine())
sys.exit(run.main([sys.argv[2]]))
"""


def test_a_worker_told_to_stop_while_it_writes_a_log_line_stops(redis_url, tmp_path):
    """RQ stops an idle worker by raising from its signal handler wherever the worker is; in the
    middle of a log line, logging's handler took that for a failed write and the worker went on
    waiting for jobs, for good."""
    marker, log = tmp_path / "writing", tmp_path / "worker.log"
    with open(log, "wb") as output:
        worker = subprocess.Popen([sys.executable, "-c", HELD_LINE, str(marker), f"held-line-{uuid.uuid4().hex}"],
                                  cwd=ROOT, env=queue_env(redis_url), stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while not marker.exists():
            assert time.monotonic() < deadline and worker.poll() is None, log.read_text()
            time.sleep(0.05)
        worker.send_signal(signal.SIGTERM)
        try:
            assert worker.wait(timeout=STOP_SECONDS) == 0, log.read_text()
        except subprocess.TimeoutExpired:
            pytest.fail(f"the worker did not stop:\n{log.read_text()}")
    finally:
        worker.kill()
        worker.wait()
