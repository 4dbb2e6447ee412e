"""A worker told to stop (SIGTERM on a deploy or a test's teardown) stops at once, and leaves no
subscription behind, whatever its pub/sub connection is doing at that moment."""
import threading
import time

import pytest
from redis import Redis

from api.devtools.embedded_redis import start_embedded
from worker.runner import PoytaWorker

STOP_SECONDS = 5  # RQ's own listener could wait 60 s for a message, or hang for minutes


def stop_within_limit(worker: PoytaWorker) -> None:
    failures: list[BaseException] = []

    def stop() -> None:
        try:
            worker.unsubscribe()
        except BaseException as error:  # noqa: BLE001 (reported below, in the test's thread)
            failures.append(error)

    stopping = threading.Thread(target=stop, daemon=True)
    stopping.start()
    stopping.join(STOP_SECONDS)
    assert not stopping.is_alive(), "the worker's stop hung"
    assert not failures, failures
    worker.pubsub_thread.join(STOP_SECONDS)
    assert not worker.pubsub_thread.is_alive()


def subscribers(redis, worker: PoytaWorker) -> int:
    return dict(redis.pubsub_numsub(worker.pubsub_channel_name))[worker.pubsub_channel_name.encode()]


def wait_for_subscription(redis, worker: PoytaWorker) -> None:
    deadline = time.monotonic() + STOP_SECONDS
    while subscribers(redis, worker) == 0:
        assert time.monotonic() < deadline, "the worker never subscribed"
        time.sleep(0.01)


@pytest.fixture
def redis(redis_url):
    """The queue's Redis alone: the game store plays no part in a stop."""
    connection = Redis.from_url(redis_url)
    yield connection
    connection.close()


def test_a_worker_stops_at_once_and_leaves_no_subscription(redis):
    worker = PoytaWorker(["nothing-queued-here"], connection=redis)
    worker.subscribe()
    wait_for_subscription(redis, worker)
    stop_within_limit(worker)
    assert subscribers(redis, worker) == 0


def test_a_worker_stops_at_once_just_after_it_subscribed(redis):
    worker = PoytaWorker(["nothing-queued-here"], connection=redis)
    worker.subscribe()  # its listener may not have read the subscription's reply yet
    stop_within_limit(worker)
    assert subscribers(redis, worker) == 0


def test_a_worker_whose_subscription_was_cut_stops_at_once(redis):
    """Redis closed the listener's connection (a restart, a failover, a proxy's idle timeout)
    just before the stop: the listener reconnects as the worker stops."""
    worker = PoytaWorker(["nothing-queued-here"], connection=redis)
    worker.subscribe()
    wait_for_subscription(redis, worker)
    host, port = worker.pubsub.connection._sock.getsockname()[:2]
    assert redis.client_kill_filter(addr=f"{host}:{port}") == 1
    stop_within_limit(worker)
    deadline = time.monotonic() + STOP_SECONDS
    while subscribers(redis, worker):  # a reconnected listener subscribed again before it stopped
        assert time.monotonic() < deadline, "the stopped worker is still subscribed"
        time.sleep(0.01)


def test_a_worker_stops_at_once_while_redis_is_down(tmp_path):
    server = start_embedded(tmp_path)
    connection = Redis(host=server.host, port=server.port)
    try:
        worker = PoytaWorker(["nothing-queued-here"], connection=connection)
        worker.subscribe()
        wait_for_subscription(connection, worker)
    finally:
        server.stop()
    stop_within_limit(worker)
    connection.close()
