"""An idle worker resumes within about a second of Redis answering again: RQ's own wait between
tries of a vanished Redis doubles up to a minute (`worker.runner.MAX_BACKOFF`)."""
import os
import signal
import subprocess
import sys
import time
import uuid

from redis import Redis
from rq import Queue, Worker
from worker_processes import ROOT, within

from api.devtools.embedded_cluster import free_port
from api.devtools.embedded_redis import answers, start_embedded

OUTAGE_SECONDS = 8  # RQ's tries at 1, 3, 7 and 15 s would take the first job 7 s after
RESUME_SECONDS = 4.5  # a second's wait, and a margin for a busy test machine (not RQ's 7 s)


def test_an_idle_worker_takes_a_job_within_seconds_of_redis_coming_back(tmp_path):
    server = start_embedded(tmp_path / "redis", free_port())  # the same port once started again
    url = f"redis://{server.host}:{server.port}/0"
    redis = Redis.from_url(url)
    queue = f"resume-{uuid.uuid4().hex}"
    with open(tmp_path / "worker.log", "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "worker.run", queue], cwd=ROOT, stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "REDIS_URL": url, "RQ_REDIS_URL": url, "REDIS_CLUSTER": ""})
    try:
        within(30, lambda: any(found.queue_names() == [queue]
                               for found in Worker.all(connection=redis)))
        server.stop()
        time.sleep(OUTAGE_SECONDS)
        server.start()
        back = time.monotonic()
        redis.close()  # its connections died with the server
        within(10, lambda: answers(url))
        job = Queue(queue, connection=redis).enqueue("time.time", result_ttl=60)
        within(30, lambda: job.get_status() == "finished")
        took = time.monotonic() - back
        assert took < RESUME_SECONDS, (
            f"the first job after the outage took {took:.1f} s:\n{(tmp_path / 'worker.log').read_text()}")
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
        redis.close()
        server.stop()
