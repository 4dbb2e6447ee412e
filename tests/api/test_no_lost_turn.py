"""No turn is ever lost: real processes die at the worst moment, a real worker starts again,
and the game moves within 10 s, its job on the queue of its bot's level."""
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from rq import Queue
from rq.job import JobStatus
from rq.registry import StartedJobRegistry
from rq.scheduler import RQScheduler

from api.http import create_app
from api.storage.jobs import BOT_QUEUE, BOT_QUEUE_ORDER, DEEP_BOT_QUEUE
from api.tables import Tables
from api import faults
from worker.runner import PromptWorker
from worker_processes import start_worker, within

# On the cluster too: a commit and its bots job on two servers (the cluster's queue is apart).
pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[2]
RECOVERY_SECONDS = 10
QUEUE_OF = {"easy": BOT_QUEUE, "hard": DEEP_BOT_QUEUE}


def start_api(processes, **env) -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    api = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "api.http:create_app()", "run", "--port", str(port)],
        cwd=ROOT, env={**os.environ, **env},  # the store under test is in the environment
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(api)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            requests.get(f"{base}/api/v1/games/types", timeout=1)
            return base
        except requests.ConnectionError:
            time.sleep(0.1)
    raise AssertionError("the API process did not start")


def run_jobs(redis):
    PromptWorker([Queue(name, connection=redis) for name in BOT_QUEUE_ORDER],
                 connection=redis).work(burst=True)


def human_against_a_bot(client, level="easy", pace="none"):
    token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
    anna = {"Authorization": f"Bearer {token}"}
    view = client.post("/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": level}], "pace": pace}
    ).get_json()
    return view, anna


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_an_api_process_dying_between_commit_and_enqueue_loses_no_bot_turn(
        client, store, redis, redis_url, processes, monkeypatch, level):
    monkeypatch.setenv("POYTA_HARD_SECONDS", "0.05")
    view, anna = human_against_a_bot(client, level)
    run_jobs(redis)  # the bot chooses
    service = Tables(store, queue_redis=redis)
    base = start_api(processes, **faults.armed(faults.AFTER_COMMIT))
    card = {"type": "play", "card": max(view["hand"])}  # the highest card takes no row
    with pytest.raises(requests.ConnectionError):
        requests.post(f"{base}/api/v1/games/{view['id']}/actions", json={"action": card},
                      headers=anna, timeout=30)
    processes[-1].wait(10)
    stored = service.games.load(view["id"])
    assert stored.version > view["version"], "the move was committed"
    assert stored.bots_to_act(), "and the bot must act next"
    assert not [job for name in QUEUE_OF.values() for job in Queue(name, connection=redis).jobs
                if job.func_name == "worker.jobs.play_bots"], "but its job was never queued"

    # Only a worker on the level's own queue: the sweeper must queue the job there.
    start_worker(processes, redis, redis_url, queues=(QUEUE_OF[level],))
    within(RECOVERY_SECONDS, lambda: not service.games.load(view["id"]).bots_to_act())


def test_a_worker_killed_mid_move_loses_no_bot_turn(client, store, redis, redis_url, processes):
    view, _ = human_against_a_bot(client, level="hard")
    service = Tables(store, queue_redis=redis)
    deep = (DEEP_BOT_QUEUE,)
    thinking = start_worker(processes, redis, redis_url, deep, POYTA_HARD_SECONDS="120")
    within(30, lambda: StartedJobRegistry(DEEP_BOT_QUEUE, connection=redis).count > 0)
    thinking.kill()
    thinking.wait()
    assert service.games.load(view["id"]).bots_to_act() == [1]

    start_worker(processes, redis, redis_url, deep, POYTA_HARD_SECONDS="0.05")
    within(RECOVERY_SECONDS, lambda: not service.games.load(view["id"]).bots_to_act())


def bots_job_taken_by_a_worker(client, redis, queues=(BOT_QUEUE,)):
    """A human's move whose bot answer a worker of `queues` took from its queue exactly as RQ
    takes it, and then did nothing more with: the job and its queue. A worker of one queue
    moves the job into RQ's intermediate list; one of several pops it."""
    view, anna = human_against_a_bot(client)
    run_jobs(redis)  # the bot chooses
    card = {"type": "play", "card": max(view["hand"])}  # the highest card takes no row
    client.post(f"/api/v1/games/{view['id']}/actions", json={"action": card}, headers=anna)
    job, queue = Queue.dequeue_any([Queue(name, connection=redis) for name in queues], None,
                                   connection=redis)
    assert job.func_name == "worker.jobs.play_bots" and job.get_status() == JobStatus.QUEUED
    return view, job, queue


@pytest.mark.parametrize("queues", [(BOT_QUEUE,), BOT_QUEUE_ORDER], ids=["one-queue", "bot-queues"])
def test_a_worker_that_dies_between_taking_a_job_and_starting_it_loses_no_bot_turn(
        client, store, redis, redis_url, processes, queues):
    view, job, queue = bots_job_taken_by_a_worker(client, redis, queues)
    service = Tables(store, queue_redis=redis)
    assert service.games.load(view["id"]).bots_to_act() == [1]

    start_worker(processes, redis, redis_url, (BOT_QUEUE,))
    within(RECOVERY_SECONDS, lambda: not service.games.load(view["id"]).bots_to_act())
    # Else RQ's cleanup fails a later run under this id as stuck a minute on.
    assert job.id not in queue.intermediate_queue.get_job_ids()


def test_a_bots_retry_whose_scheduler_died_loses_no_bot_turn(
        client, store, redis, redis_url, processes):
    view, job, queue = bots_job_taken_by_a_worker(client, redis)
    # The job failed (Redis went away under it) and RQ stored its retry for a second later; the
    # scheduler that should queue it died with Redis and still holds its lock, as for a minute.
    PromptWorker([queue], connection=redis).handle_job_failure(job, queue, exc_string="gone")
    assert job.get_status() == JobStatus.SCHEDULED
    redis.set(RQScheduler.get_locking_key(BOT_QUEUE), "a-dead-scheduler", ex=61)
    service = Tables(store, queue_redis=redis)

    start_worker(processes, redis, redis_url, (BOT_QUEUE,), scheduler=True)
    within(RECOVERY_SECONDS, lambda: not service.games.load(view["id"]).bots_to_act())
    assert len(queue.scheduled_job_registry) == 0, "a later third run of the same job"


def test_a_deadline_that_passes_while_no_worker_runs_is_played_when_one_starts(
        store, store_env, redis, redis_url, processes, clock):
    client = create_app({**store_env, "PACES": {"1s": 1}}).test_client()
    view, anna = human_against_a_bot(client, pace="1s")
    run_jobs(redis)  # the bot chooses; then no worker runs while Anna's second passes
    clock.advance(1.5)
    service = Tables(store, queue_redis=redis)
    assert service.games.load(view["id"]).seats[0].timeouts == 0

    start_worker(processes, redis, redis_url)
    within(RECOVERY_SECONDS, lambda: service.games.load(view["id"]).seats[0].timeouts == 1)
