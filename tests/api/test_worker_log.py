"""A run of many quick jobs leaves no RQ error in the workers' log: also when one job id is
queued twice (the API and the sweeper queue a move's job under one id) and two workers run
it at once."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from redis import Redis
from rq import Queue

from api.storage.jobs import BOT_QUEUE, JobBoard

ROOT = Path(__file__).resolve().parents[2]
RQ_TROUBLE = re.compile(r"Traceback|Error|Exception|not found|scheduled for retry|Failed")


def test_jobs_queued_twice_and_run_at_once_finish_without_an_rq_error(redis_url, tmp_path,
                                                                      processes):
    connection = Redis.from_url(redis_url)
    connection.flushdb()
    logs = [tmp_path / f"worker-{index}.log" for index in range(2)]
    for log in logs:
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "worker.run", BOT_QUEUE], cwd=ROOT,
            env={**os.environ, "REDIS_URL": redis_url}, stdout=log.open("w"),
            stderr=subprocess.STDOUT))
    board, queue = JobBoard(connection), Queue(BOT_QUEUE, connection=connection)
    deadline = time.monotonic() + 20
    while len(connection.keys("rq:worker:*")) < 2:
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.1)

    for index in range(40):
        for _ in range(2):
            board._enqueue(BOT_QUEUE, "time.sleep", 0.03, job_id=f"quick-{index}")
        time.sleep(0.01)
    deadline = time.monotonic() + 30
    while len(queue) or queue.started_job_registry.count:
        assert time.monotonic() < deadline, "the jobs did not finish"
        time.sleep(0.1)
    time.sleep(1)  # a retry would be scheduled by now

    for process in processes:
        process.terminate()
        process.wait(10)
    trouble = [line for log in logs for line in log.read_text().splitlines()
               if RQ_TROUBLE.search(line)]
    assert trouble == []
    assert queue.failed_job_registry.count == 0 and queue.scheduled_job_registry.count == 0
    assert sum(log.read_text().count("Job OK") for log in logs) >= 40
