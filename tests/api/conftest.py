"""Every API and worker test runs on a single Valkey server and on a Valkey Cluster, except
the HTTP contract's, which does not depend on the store (single server only)."""
import subprocess

import pytest

from redis_servers import STORES, store_settings

SINGLE_SERVER_ONLY = "tests/api/test_contract_"


@pytest.fixture(scope="session", params=STORES)
def store_env(request, redis_url):
    return store_settings(request.param, redis_url, request)


def pytest_collection_modifyitems(config, items):
    dropped = [item for item in items
               if item.nodeid.startswith(SINGLE_SERVER_ONLY) and "cluster" in item.nodeid]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


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
