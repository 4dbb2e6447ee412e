"""Real parts for every test: a Redis server, a PostgreSQL server, RQ workers and the Flask app.

Redis is the one in TEST_REDIS_URL when set; otherwise the tests start their
own embedded Valkey on a free port, so they never touch anybody's data.
"""
from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest
from hypothesis import settings
from redis import Redis
from rq import Queue
from werkzeug.serving import make_server

from api.http import create_app
from api.devtools.embedded_redis import start_embedded
from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, NOTICE_WORKER_QUEUES
from worker.runner import PromptWorker
from worker_forks import ForkedWorker
from postgres_servers import (  # noqa: F401 (fixtures)
    database, database_url, emptying_connection, postgres,
)
from redis_servers import (  # noqa: F401 (fixtures)
    connect_store, queue_redis_url, store_settings, valkey_cluster,
)

ROOT = Path(__file__).resolve().parent.parent

# Property tests assert what holds, not how fast: speed is measured in bench/, and a loaded
# machine must not turn a slow example into a failure.
settings.register_profile("poyta", deadline=None)
settings.load_profile("poyta")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield url
        return
    server = start_embedded(tmp_path_factory.mktemp("valkey"))
    yield f"redis://{server.host}:{server.port}/0"
    server.stop()


@pytest.fixture(scope="session")
def store_env(redis_url, request):
    """The game store's settings: here the single server (tests/api adds a cluster)."""
    return store_settings("single", redis_url, request)


@pytest.fixture
def store(store_env, database, monkeypatch):
    """A client of the game store, emptied (and the record's database); jobs run in this process
    find them in the environment."""
    for name, value in store_env.items():
        monkeypatch.setenv(name, value)
    client = connect_store(store_env)
    yield client
    client.close()


@pytest.fixture
def redis(redis_url, store):
    """The job queue's Redis (on a single server, the game store's too), emptied."""
    connection = Redis.from_url(redis_url)
    connection.flushdb()
    yield connection
    connection.close()


@pytest.fixture
def app(redis, store_env):
    return create_app({**store_env, "TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def run_bots(redis):
    """Run queued bot jobs in a real RQ worker until both bot queues are empty."""
    def run() -> None:
        PromptWorker([Queue(name, connection=redis) for name in (DEEP_BOT_QUEUE, BOT_QUEUE, HEAVY_BOT_QUEUE)],
                     connection=redis).work(burst=True)
    return run


@pytest.fixture
def serve(redis, store_env, tmp_path):
    """Start the app over real HTTP, with extra config, and a real RQ worker process (with its
    scheduler, for deadlines) beside it; returns the base URL. The workers' output is printed
    after the test, so a failing test shows it."""
    running = []

    def start(config: dict | None = None, wrap=None) -> str:
        """`wrap`, if given, is WSGI middleware put between the server and the app."""
        app = create_app({**store_env, "TESTING": True, **(config or {})})
        server = make_server("127.0.0.1", 0, wrap(app) if wrap else app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        # The production worker (RQ's own CLI sleeps in its back-off, up to 60 s, after idle waits),
        # quick replies first and not niced, like the quick worker of `make run`.
        worker = ForkedWorker(
            [BOT_QUEUE, HEAVY_BOT_QUEUE, DEEP_BOT_QUEUE, *NOTICE_WORKER_QUEUES],
            {**os.environ, **store_env}, ROOT, tmp_path / f"worker-{len(running)}.log")
        running.append((server, worker))
        return f"http://127.0.0.1:{server.port}"

    yield start
    for server, worker in running:
        worker.terminate()
        server.shutdown()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()  # or it outlives the test, retrying a Redis the next fixture stops
            worker.wait()
            pytest.fail("the worker did not stop within 30 s of SIGTERM")
        finally:
            print(worker.log.read_text(errors="replace") if worker.log.exists() else "")


@pytest.fixture
def live_server(serve):
    return serve()


@pytest.fixture
def new_player(client):
    """Register a player; returns (player body, auth headers)."""
    def register(name: str = "Anna") -> tuple[dict, dict]:
        body = client.post("/api/v1/players", json={"name": name}).get_json()
        return body, {"Authorization": f"Bearer {body['token']}"}
    return register
