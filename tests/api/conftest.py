"""Every API and worker test runs on a single Valkey server and on a Valkey Cluster."""
import pytest

from redis_servers import STORES, store_settings


@pytest.fixture(scope="session", params=STORES)
def store_env(request, redis_url):
    return store_settings(request.param, redis_url, request)
