"""Production workers (`python -m worker.run`) after a long silence, the normal state of
asynchronous play: they keep waiting for jobs without errors and take the first one at once.

Runs once, on the single server: what is tested is the workers' connection to the queue."""
import os
import subprocess
import sys
import time

import pytest
from redis import Redis
from rq import Queue
from rq.exceptions import DequeueTimeout
from worker_processes import ROOT, within

from api.storage.jobs import BOT_QUEUE
from api.tables import Tables
from worker import run
from worker.layout import WORKERS

# RQ's back-off after failed waits for a job runs 1, 2, 4, 8, 16 s...: by 40 s of silence a
# worker that took its idle waits for a lost Redis sleeps for up to 16 s.
IDLE_SECONDS = 40
# bench/bot_latency.py: an easy bot's reply, queue to commit, within 0.3 s; the margin is for
# a busy test machine, still well under the 8-16 s of a worker backing off.
FIRST_REPLY_SECONDS = 5.0
# The workers `make run` starts (api/devtools/serve.py).
MAKE_RUN_QUEUES = tuple(worker.queues for worker in WORKERS)


def queue_env(redis_url: str) -> dict[str, str]:
    return {"REDIS_URL": redis_url, "REDIS_CLUSTER": "", "RQ_REDIS_URL": redis_url}


def test_the_workers_connection_outlasts_rqs_wait_for_a_job(redis_url, monkeypatch):
    for name, value in queue_env(redis_url).items():
        monkeypatch.setenv(name, value)
    connection = run.queue_connection()
    run.wait_for_redis(connection)  # as the worker does, before RQ sees the connection
    worker = run.PoytaWorker([BOT_QUEUE], connection=connection, worker_ttl=run.WORKER_TTL)
    empty = [Queue("nothing-queued-here", connection=connection)]
    for _ in range(3):
        with pytest.raises(DequeueTimeout):  # not redis' TimeoutError, which RQ backs off from
            Queue.dequeue_any(empty, worker.dequeue_timeout, connection=connection)
    connection.close()


def test_idle_workers_stay_quiet_and_take_the_first_move_at_once(redis_url, processes,
                                                                 tmp_path):
    queue = Redis.from_url(redis_url)
    queue.flushdb()
    logs = []
    for number, queues in enumerate(MAKE_RUN_QUEUES):
        logs.append(tmp_path / f"worker-{number}.log")
        with open(logs[-1], "wb") as log:
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "worker.run", *queues], cwd=ROOT,
                env={**os.environ, **queue_env(redis_url)}, stdout=log,
                stderr=subprocess.STDOUT))
    within(60, lambda: len(queue.keys("worker:alive:*")) == len(MAKE_RUN_QUEUES))
    time.sleep(IDLE_SECONDS)

    service = Tables(queue, queue_redis=queue)
    anna = service.players.create("Anna")
    game = service.seating.create_game(anna, "sixnimmt", 2, {}, ["human", {"bot": "easy"}], pace="none")
    took = within(30, lambda: not service.games.load(game.id).bots_to_act())

    for log in logs:
        text = log.read_text()
        assert "could not connect" not in text and "Timeout" not in text, text
    assert took < FIRST_REPLY_SECONDS, (
        f"the first bot move after {IDLE_SECONDS} s of silence took {took:.1f} s")
    queue.close()
