"""The worker Pöytä runs: `python -m worker.run` (`worker.run` adds the restart after a lost
Redis), or `rq worker bots --worker-class worker.runner.PoytaWorker`.

RQ's SimpleWorker (jobs run in the worker's own process: no fork and no re-import per job, which
keeps an easy bot's move in milliseconds) on RQ's public hooks only. What RQ cannot do by its
own settings is here, each for a reason given where it is done:

* an idle worker stops at once on SIGTERM, wherever it is (`PromptWorker`);
* no listener for RQ's commands over pub/sub (`PromptWorker`);
* a liveness beat, a key that lives `ALIVE_SECONDS` and is renewed every second, so the
  sweeper tells a job in hand from the job of a worker that was killed (RQ itself notices an
  abandoned job only after a minute or more);
* the sweeper, run every `SWEEP_SECONDS` by one worker at a time: it looks after every game
  whose due time passed (`api.tables.bots.Bots.sweep`), queues the daily digests whose hour
  has come (`api.tables.reminders.Reminders.sweep_digests`), the webhook deliveries a dead
  process left owed (`api.tables.webhooks.Webhooks.sweep`), the finished games still owed to
  the archive (`api.tables.archive.Archive.sweep`), the players whose changes are still owed
  to PostgreSQL (`api.tables.players.Players.sweep_owed`), the tournaments whose start or round
  deadline has passed (`api.tables.tournaments.Tournaments.sweep`) and the pairing of each
  matchmaking pool where seeks wait (`api.tables.seeks.Seeks.sweep`);
* after a lost Redis, the job cut short is queued again and the scheduler's locks released
  (`PoytaWorker.recover`).

So a game whose job was lost gets its move within a few seconds of any worker running.
"""
from __future__ import annotations

import logging
import threading

from rq import Queue, SimpleWorker
from rq.exceptions import NoSuchJobError
from rq.job import Job
from rq.worker import WorkerStatus

from api.storage.connections import UNAVAILABLE
from worker.jobs import tables_for

log = logging.getLogger(__name__)

ALIVE_SECONDS = 3
SWEEP_SECONDS = 1.0
# RQ's wait between tries of a Redis that does not answer while the worker is idle (it doubles
# up to a minute by default): a worker resumes within this long of Redis answering again.
MAX_BACKOFF = 1.0


class PromptWorker(SimpleWorker):
    """RQ's SimpleWorker that stops at once: also what the tests run jobs with."""

    max_connection_wait_time = MAX_BACKOFF

    def handle_warm_shutdown_request(self):
        # RQ's hook on SIGTERM or SIGINT, before it stops the worker. RQ stops an idle worker with
        # a StopRequested raised from its signal handler, wherever the worker is: in the middle
        # of a log line (its upkeep writes some every few seconds) logging's handler caught it as
        # a failed write, and the worker waited for jobs on, for good. An idle worker has nothing
        # to finish: it stops here, with an exit no `except Exception` takes for its own. A busy
        # one finishes its job first, as RQ does it.
        super().handle_warm_shutdown_request()
        if self.get_state() != WorkerStatus.BUSY:
            raise SystemExit(0)

    def subscribe(self):
        # RQ listens for its commands (`rq.command.send_shutdown_command` and the like) in a
        # thread on a pub/sub connection of its own. Pöytä sends none, and that listener made
        # stops hang: woken with an UNSUBSCRIBE sent over its connection from another thread
        # (redis-py's PubSub is not safe across threads) it failed on a broken pipe or waited
        # minutes once Redis had closed the connection (a restart, a failover, a proxy's idle
        # cut), and with Redis down it lived on, to subscribe again once Redis was back.
        # A worker is stopped by a signal.
        pass


class PoytaWorker(PromptWorker):
    """Beats and sweeps while it works, and remembers the job it is running, so a job cut short
    by a lost Redis can be queued again (every job is idempotent: one whose game moved on does
    nothing)."""

    in_flight: tuple[str, str] | None = None
    stopping = False

    def work(self, *args, **kwargs):
        self.work_ended = threading.Event()
        threading.Thread(target=self.keep_beating, name="poyta-beat", daemon=True).start()
        threading.Thread(target=self.keep_sweeping, name="poyta-sweeper", daemon=True).start()
        try:
            return super().work(*args, **kwargs)
        finally:
            self.work_ended.set()
            try:
                tables_for(self.connection).jobs.worker_gone(self.name)
            except UNAVAILABLE:
                pass

    def handle_warm_shutdown_request(self):
        self.stopping = True  # SIGTERM or SIGINT: a deliberate stop, not a lost Redis
        super().handle_warm_shutdown_request()

    def execute_job(self, job, queue):
        self.in_flight = (job.id, queue.name)
        result = super().execute_job(job, queue)
        self.in_flight = None
        return result

    def recover(self) -> None:
        """Once Redis answers again after this worker quit for losing it: queue again the job
        it was running, and release the locks its scheduler died holding (it could not release
        them without Redis), so the next worker's scheduler runs the retries at once rather
        than when the locks lapse, a minute on."""
        if self.scheduler is not None:
            self.scheduler.release_locks()
        if self.in_flight is None:
            return
        job_id, queue_name = self.in_flight
        try:
            job = Job.fetch(job_id, connection=self.connection)
        except NoSuchJobError:
            return
        log.warning("queueing job %s again: Redis went away while it ran", job_id)
        Queue(queue_name, connection=self.connection).enqueue_job(job)

    def keep_beating(self) -> None:
        jobs = tables_for(self.connection).jobs
        while not self.work_ended.is_set():
            try:
                jobs.worker_alive(self.name, ALIVE_SECONDS)
            except UNAVAILABLE:
                log.warning("worker %s: no liveness beat, Redis does not answer", self.name)
            self.work_ended.wait(1.0)

    def keep_sweeping(self) -> None:
        tables = tables_for(self.connection)
        while not self.work_ended.wait(SWEEP_SECONDS):
            try:
                if tables.storage.schedule.take_sweep_lock(SWEEP_SECONDS * 0.9):
                    tables.bots.sweep()
                    tables.reminders.sweep_digests()
                    tables.webhooks.sweep()
                    tables.archive.sweep()
                    tables.players.sweep_owed()
                    tables.tournaments.sweep()
                    tables.seeks.sweep()
            except UNAVAILABLE:
                log.warning("worker %s: sweep skipped, Redis does not answer", self.name)
            except Exception:  # a bad game must not stop the sweeper for every other game
                log.exception("worker %s: sweep failed", self.name)
