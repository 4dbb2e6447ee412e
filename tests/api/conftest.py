"""Every API and worker test runs on a single Valkey server; a test or module marked
`@pytest.mark.cluster` runs on a Valkey Cluster as well.

The cluster is for what a cluster can break: keys of one script or transaction that must share a
hash slot, the store's scripts and commits, pub/sub wake-ups across nodes, streams. Everything
else (HTTP semantics, limits, schemas, bots' choices) is the same code on either store, and runs
once. docs/testing.md lists the marked modules and why.
"""
import subprocess
import time

import pytest
from rq import Queue

from api.http import create_app
from api.settings import TEST_CLOCK
from api.storage import connections
from api.storage.jobs import QUEUES
from api.tables import Tables
from api.tables.clock import FileClock
from worker.runner import PromptWorker
from push_receivers import PushService, Webhook
from redis_servers import STORES, store_settings


@pytest.fixture(scope="session")
def store_env(request, redis_url):
    return store_settings(request.param, redis_url, request)


def pytest_generate_tests(metafunc):
    """The stores a test runs on: both when it is marked `cluster`, else the single server."""
    if "store_env" in metafunc.fixturenames:
        stores = STORES if metafunc.definition.get_closest_marker("cluster") else STORES[:1]
        metafunc.parametrize("store_env", stores, indirect=True, scope="session")


@pytest.fixture
def processes():
    """Processes a test starts; whatever still runs is stopped after it."""
    started = []
    yield started
    for process in started:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def clock(tmp_path, monkeypatch):
    """The instant every timing rule reads as now (POYTA_TEST_CLOCK), moved only by the test:
    it starts at the wall clock's now. The API, the test's jobs and its sweeps read it."""
    test_clock = FileClock(str(tmp_path / "clock"))
    test_clock.set(time.time())
    monkeypatch.setenv(TEST_CLOCK, str(test_clock.path))
    return test_clock


@pytest.fixture
def clocked_client(clock, redis, store_env):
    """A client of the app reading the test's clock."""
    return create_app({**store_env, "TESTING": True}).test_client()


@pytest.fixture
def run_worker(redis):
    """What the workers do, once: the sweeper looks at what is due, then every queued job runs
    in a real RQ worker (bots, deadlines, notices)."""
    def run() -> None:
        tables = Tables(connections.store_client(connections.settings()), queue_redis=redis)
        tables.bots.sweep()
        tables.reminders.sweep_digests()
        tables.webhooks.sweep()
        tables.tournaments.sweep()
        PromptWorker([Queue(name, connection=redis) for name in QUEUES],
                     connection=redis).work(burst=True)
    return run


@pytest.fixture
def push_service():
    """A real push service on this machine (see push_receivers)."""
    receiver = PushService()
    yield receiver
    receiver.close()


@pytest.fixture
def webhook():
    """A real Discord/Slack-like webhook on this machine."""
    receiver = Webhook()
    yield receiver
    receiver.close()
