"""`python -m worker.run --layout NAME` (a worker of `worker.layout`) or `python -m worker.run
QUEUE...`: Pöytä's worker (`worker.runner`) that outlives Redis outages.

RQ's worker already waits out a dead Redis while it is idle, but quits when
Redis vanishes in the middle of a job, and its scheduler child dies at the
first failed heartbeat and is started again only at the next maintenance run
(every ten minutes by default). Here a worker that quit for a lost Redis is
replaced by a fresh one once Redis answers again (retrying with backoff from
0.5 s to 1 s, so it resumes within about a second of Redis answering), the job it was
running is queued again and the scheduler locks it could not release are released
(`worker.runner.PoytaWorker.recover`); maintenance runs every few seconds, and the
scheduler child is told to stop (releasing its lock) when its worker dies, even
by SIGKILL.
"""
from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
import time

from api.storage import connections
from api.storage.jobs import BOT_QUEUE
from worker import layout
from worker.runner import MAX_BACKOFF, PoytaWorker

log = logging.getLogger("worker.run")

WORKER_TTL = 20             # seconds; RQ waits for a job at most WORKER_TTL - 15 at a time
# A read must outlast RQ's blocking wait for a job, or every idle wait ends in a socket timeout
# that RQ takes for a lost Redis and answers with its back-off (up to 60 s without a job).
# RQ raises a lower setting itself, but only for connections made after the first ping.
SOCKET_TIMEOUT = WORKER_TTL
MAINTENANCE_INTERVAL = 5    # seconds between RQ's checks (a dead scheduler is restarted then)
FIRST_BACKOFF = 0.5
_PR_SET_PDEATHSIG = 1
_forking_pid = 0


def _note_parent() -> None:
    global _forking_pid
    _forking_pid = os.getpid()


def _die_with_parent() -> None:
    """In a forked child (RQ's scheduler): receive SIGTERM when the worker dies."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != _forking_pid:  # the worker died before the line above took effect
        os.kill(os.getpid(), signal.SIGTERM)


def wait_for_redis(connection: connections.Client) -> None:
    delay = FIRST_BACKOFF
    while True:
        try:
            connection.ping()
            return
        except connections.UNAVAILABLE as error:
            log.warning("Redis does not answer (%s); trying again in %.1f s", error, delay)
            time.sleep(delay)
            delay = min(delay * 2, MAX_BACKOFF)


def queue_connection() -> connections.Client:
    return connections.worker_queue_client(connections.settings(), SOCKET_TIMEOUT)


def declared(argv: list[str]) -> layout.WorkerProcess:
    """`--layout NAME`: that worker of the layout; queue names: a worker of those queues."""
    if argv[:1] == ["--layout"]:
        return layout.DECLARED[argv[1]]
    queues = tuple(argv or [BOT_QUEUE])
    return layout.WorkerProcess(" ".join(queues), queues, layout.niceness_of(queues))


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    os.register_at_fork(before=_note_parent, after_in_child=_die_with_parent)
    process = declared(argv)
    queues = list(process.queues)
    if process.niceness:
        os.nice(process.niceness)
    connection = queue_connection()
    previous = None
    while True:
        wait_for_redis(connection)
        try:
            if previous is not None:
                previous.recover()
        except connections.UNAVAILABLE:
            continue  # gone again: wait once more
        worker = PoytaWorker(queues, connection=connection, worker_ttl=WORKER_TTL,
                             maintenance_interval=MAINTENANCE_INTERVAL)
        try:
            worker.work(with_scheduler=True)
        except connections.UNAVAILABLE as error:
            log.warning("worker %s lost Redis: %s", worker.name, error)
        if worker.stopping:
            return 0
        log.warning("worker %s quit; starting a new one when Redis answers", worker.name)
        previous = worker


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
