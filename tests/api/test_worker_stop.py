"""A worker told to stop (SIGTERM on a deploy or a test's teardown) stops at once, and leaves no
subscription behind, whatever its pub/sub connection is doing at that moment."""
import os
import signal
import subprocess
import sys
import threading
import time
import uuid

import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from worker_processes import ROOT

from api.devtools.embedded_redis import start_embedded
from worker.runner import PoytaWorker

STOP_SECONDS = 5  # RQ's own listener could wait 60 s for a message, or hang for minutes


@pytest.fixture
def redis(redis_url):
    """The queue's Redis alone: the game store plays no part in a stop."""
    connection = Redis.from_url(redis_url)
    yield connection
    connection.close()


def subscribed_worker(redis) -> PoytaWorker:
    """A worker whose listener notes any other thread that sends over its connection: redis-py's
    PubSub is not safe across threads, so the stop must leave it to the listener."""
    worker = PoytaWorker(["nothing-queued-here"], connection=redis)
    worker.subscribe()
    worker.intruders = []
    send = worker.pubsub.execute_command

    def send_from_listener_only(*args):
        if threading.current_thread() is not worker.pubsub_thread:
            worker.intruders.append(args)
        return send(*args)

    worker.pubsub.execute_command = send_from_listener_only
    return worker


def stop_within_limit(worker: PoytaWorker, stop=None, seconds=STOP_SECONDS) -> list[BaseException]:
    """Stop the worker in a thread of its own, within `seconds`; return what it raised."""
    raised: list[BaseException] = []
    start = time.monotonic()

    def run_stop() -> None:
        try:
            (stop or worker.unsubscribe)()
        except BaseException as error:  # noqa: BLE001 (handed to the test's thread)
            raised.append(error)

    stopping = threading.Thread(target=run_stop, daemon=True)
    stopping.start()
    stopping.join(seconds + 10)  # longer, to tell a slow stop from a hung one
    assert not stopping.is_alive(), "the worker's stop hung"
    assert time.monotonic() - start < seconds
    worker.pubsub_thread.join(STOP_SECONDS)  # one retrying a dead Redis ends on its next look
    assert not worker.pubsub_thread.is_alive(), "the worker's listener lives on"
    assert worker.intruders == [], "the stop sent over the listener's connection"
    return raised


def subscribers(redis, worker: PoytaWorker) -> int:
    return dict(redis.pubsub_numsub(worker.pubsub_channel_name))[worker.pubsub_channel_name.encode()]


def wait_for_subscribers(redis, worker: PoytaWorker, count: int) -> None:
    deadline = time.monotonic() + STOP_SECONDS
    while subscribers(redis, worker) != count:
        assert time.monotonic() < deadline, f"not {count} subscribers on the worker's channel"
        time.sleep(0.01)


def test_a_worker_stops_at_once_and_leaves_no_subscription(redis):
    worker = subscribed_worker(redis)
    wait_for_subscribers(redis, worker, 1)
    start = time.monotonic()
    assert stop_within_limit(worker) == []
    assert time.monotonic() - start < 1  # woken, not left to RQ's 60 s wait for a message
    wait_for_subscribers(redis, worker, 0)


def test_a_worker_stops_at_once_just_after_it_subscribed(redis):
    worker = subscribed_worker(redis)  # its listener may not have read the subscription's reply
    assert stop_within_limit(worker) == []
    wait_for_subscribers(redis, worker, 0)


def test_a_worker_whose_subscription_was_cut_stops_at_once(redis):
    """Redis closed the listener's connection (a restart, a failover, a proxy's idle timeout)
    just before the stop: the listener reconnects as the worker stops."""
    worker = subscribed_worker(redis)
    wait_for_subscribers(redis, worker, 1)
    host, port = worker.pubsub.connection._sock.getsockname()[:2]
    assert redis.client_kill_filter(addr=f"{host}:{port}") == 1
    assert stop_within_limit(worker) == []
    wait_for_subscribers(redis, worker, 0)  # a listener that subscribed again closed as it ended


@pytest.fixture
def redis_to_stop(tmp_path):
    server = start_embedded(tmp_path)
    connection = Redis(host=server.host, port=server.port)
    yield server, connection
    connection.close()
    server.stop()


def test_a_worker_stops_at_once_while_redis_is_down(redis_to_stop):
    server, connection = redis_to_stop
    worker = subscribed_worker(connection)
    wait_for_subscribers(connection, worker, 1)
    server.stop()
    # The listener's 3 s and a wake that fails at once: not the client's retries of a dead Redis.
    assert stop_within_limit(worker, seconds=4.5) == []


def test_a_worker_whose_teardown_meets_redis_down_still_stops_its_listener(redis_to_stop):
    """RQ records a worker's death before it stops the listener; with Redis down that fails,
    and the listener must not live on to subscribe again once Redis is back."""
    server, connection = redis_to_stop
    worker = subscribed_worker(connection)
    wait_for_subscribers(connection, worker, 1)
    server.stop()
    # RQ's record of the death tries for about 4 s before it gives up.
    [raised] = stop_within_limit(worker, stop=worker.teardown, seconds=STOP_SECONDS + 5)
    assert isinstance(raised, RedisConnectionError)


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
    env = {**os.environ, "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "REDIS_CLUSTER": ""}
    with open(log, "wb") as output:
        worker = subprocess.Popen([sys.executable, "-c", HELD_LINE, str(marker), f"held-line-{uuid.uuid4().hex}"],
                                  cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT)
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
