"""The job queue: RQ on its own connection (RQ does not run on a Redis Cluster), the jobs the
domain asks for, and each worker's liveness beat, so the sweeper can tell a job in hand from a
lost one.

Jobs are named here once: the worker's functions by the path RQ imports them from (the worker
depends on the domain, never the other way round), each job's id (one job per game and turn,
so a job queued twice is queued once) and the retry policy.
"""
from __future__ import annotations

import secrets
import time

from redis import Redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from api.storage import keys
from api.storage.bot_time import BotTime
from api.storage.webhooks import WebhookMarks

BOT_QUEUE = "bots"            # quick bot moves (easy, medium, deadlines): milliseconds to 0.2 s
DEEP_BOT_QUEUE = "bots-deep"  # moves of bots that think long, on workers of their own
# Any bot move of a player whose bots thought more than their share in the last minute: every
# bot worker takes these last, so one player's bots never hold up another's.
HEAVY_BOT_QUEUE = "bots-heavy"
NOTICE_QUEUE = "notices"      # its own worker: a slow webhook never delays a bot move
WEBHOOK_QUEUE = "webhooks"    # players' webhooks: the notice worker takes them after the notices
# Finished games into PostgreSQL: the notice worker takes them last, so an archive that waits
# for its database never holds up a notice.
ARCHIVE_QUEUE = "archive"
# Reviews of finished games: up to a minute of CPU each, taken only when no bot move waits.
ANALYSIS_QUEUE = "analyses"
QUEUES = (BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, NOTICE_QUEUE, WEBHOOK_QUEUE, ARCHIVE_QUEUE,
          ANALYSIS_QUEUE)
# The order in which a bot worker takes its queues (the deep worker of `worker.layout`).
BOT_QUEUE_ORDER = (DEEP_BOT_QUEUE, BOT_QUEUE, HEAVY_BOT_QUEUE)
# `python -m worker.run notices webhooks archive`
NOTICE_WORKER_QUEUES = (NOTICE_QUEUE, WEBHOOK_QUEUE, ARCHIVE_QUEUE)

PLAY_BOTS = "worker.jobs.play_bots"
DEADLINE_PASSED = "worker.jobs.deadline_passed"
NOTIFY_TURN = "worker.jobs.notify_turn"
REMIND = "worker.jobs.remind"
SEND_DIGEST = "worker.jobs.send_digest"
NOTIFY_CHALLENGE = "worker.jobs.notify_challenge"
NOTIFY_STARTED = "worker.jobs.notify_started"
RECORD_RESULTS = "worker.jobs.record_results"
DELIVER_WEBHOOK = "worker.jobs.deliver_webhook"
ARCHIVE_GAME = "worker.jobs.archive_game"
MOVE_TOURNAMENT_ON = "worker.jobs.move_tournament_on"
PAIR_SEEKS = "worker.jobs.pair_seeks"
ANALYSE = "worker.jobs.analyse"
RETRY = Retry(max=3, interval=[1, 5, 15])
FAILED_JOB_SECONDS = 86400    # a failed job is kept this long for a look, then goes
# A finished job is kept this long: one id can be queued twice (a move's job queued by the API
# and by the sweeper), and two workers then run it at once. RQ's clean-up after a success reads
# the job, so with nothing kept the later of the two failed there ("Failed to retrieve status")
# and was retried for nothing. Longer than any job runs; a run of a kept job does nothing.
FINISHED_JOB_SECONDS = 60
WEBHOOK_QUEUED_SECONDS = 30   # a delivery job waiting longer than this no longer holds back another
PAIRING_QUEUED_SECONDS = 30   # the same, for a pool's pairing job
# RQ's scheduler queues a retry within a second of its time. One this much later has no scheduler
# to run it: a worker killed during a Redis outage leaves its scheduler's lock, which keeps every
# other scheduler out, for a minute.
RETRY_OVERDUE_SECONDS = 3
# A review's wall time: its CPU budget on a worker that yields the CPU to every other.
ANALYSIS_TIMEOUT_SECONDS = 1800


def bots_job_id(game_id: str, version: int) -> str:
    return f"bots-{game_id}-{version}"


def deadline_job_id(game_id: str, seat: int, turn_since: int) -> str:
    return f"deadline-{game_id}-{seat}-{turn_since}"


def analysis_job_id(game_id: str) -> str:
    return f"analysis-{game_id}"


def results_job_id(game_id: str) -> str:
    return f"results-{game_id}"


def archive_job_id(game_id: str) -> str:
    return f"archive-{game_id}"


def notice_job_id(game_id: str, seat: int, turn_since: int) -> str:
    return f"notify-{game_id}-{seat}-{turn_since}"


def reminder_job_id(game_id: str, seat: int, turn_since: int, kind: str) -> str:
    return f"remind-{game_id}-{seat}-{turn_since}-{kind}"


class JobBoard:
    def __init__(self, redis: Redis):
        self.redis = redis
        self.queues = {name: Queue(name, connection=redis) for name in QUEUES}
        self.bot_time = BotTime(redis)
        self.webhook_marks = WebhookMarks(redis)

    def play_bots(self, game_id: str, job_id: str, queue: str, at_front: bool = False) -> None:
        self._enqueue(queue, PLAY_BOTS, game_id, job_id=job_id, at_front=at_front)

    def waiting_before(self, queue: str) -> bool:
        """A job waits on `queue` or on a queue a worker takes before it."""
        ahead = BOT_QUEUE_ORDER[:BOT_QUEUE_ORDER.index(queue) + 1]
        with self.redis.pipeline(transaction=False) as pipe:
            for name in ahead:
                pipe.llen(self.queues[name].key)
            return any(pipe.execute())

    def deadline_passed(self, game_id: str, seat: int, turn_since: int) -> None:
        """Queued unless the same deadline's job is in hand already."""
        job_id = deadline_job_id(game_id, seat, turn_since)
        if not self.in_hand(job_id):
            self._enqueue(BOT_QUEUE, DEADLINE_PASSED, game_id, seat, turn_since, job_id=job_id)

    def notify_turn(self, game_id: str, seat: int, turn_since: int) -> None:
        self._enqueue(NOTICE_QUEUE, NOTIFY_TURN, game_id, seat, turn_since,
                      job_id=notice_job_id(game_id, seat, turn_since))

    def notify_started(self, game_id: str, player_id: str) -> None:
        self._enqueue(NOTICE_QUEUE, NOTIFY_STARTED, game_id, player_id,
                      job_id=f"started-{game_id}-{player_id}")

    def remind(self, game_id: str, seat: int, turn_since: int, kind: str) -> None:
        self._enqueue(NOTICE_QUEUE, REMIND, game_id, seat, turn_since, kind,
                      job_id=reminder_job_id(game_id, seat, turn_since, kind))

    def send_digest(self, player_id: str, day: str) -> None:
        self._enqueue(NOTICE_QUEUE, SEND_DIGEST, player_id, day,
                      job_id=f"digest-{player_id}-{day}")

    def notify_challenge(self, game_id: str, seat: int) -> None:
        self._enqueue(NOTICE_QUEUE, NOTIFY_CHALLENGE, game_id, seat,
                      job_id=f"challenge-{game_id}-{seat}")

    def record_results(self, game_id: str) -> None:
        """Queued unless the game's results job is in hand already (a quick job: on the bots'
        quick queue)."""
        job_id = results_job_id(game_id)
        if not self.in_hand(job_id):
            self._enqueue(BOT_QUEUE, RECORD_RESULTS, game_id, job_id=job_id)

    def archive_game(self, game_id: str) -> None:
        """Queued unless the game's archiving job is in hand already."""
        job_id = archive_job_id(game_id)
        if not self.in_hand(job_id):
            self._enqueue(ARCHIVE_QUEUE, ARCHIVE_GAME, game_id, job_id=job_id)

    def tournament_game_finished(self, tournament_id: str, game_id: str) -> None:
        """Look at the tournament once the game finished: one job per finished game, so a
        game that finishes while another's job runs is never missed."""
        self.move_tournament_on(tournament_id, f"tournament-{tournament_id}-{game_id}")

    def move_tournament_on(self, tournament_id: str, job_id: str | None = None) -> None:
        """Start the tournament, or its next round, or end it, whichever is due (a quick job)."""
        job_id = job_id or f"tournament-{tournament_id}"
        if not self.in_hand(job_id):
            self._enqueue(BOT_QUEUE, MOVE_TOURNAMENT_ON, tournament_id, job_id=job_id)

    def analyse(self, game_id: str) -> None:
        self._enqueue(ANALYSIS_QUEUE, ANALYSE, game_id, job_id=analysis_job_id(game_id),
                      timeout=ANALYSIS_TIMEOUT_SECONDS)

    def deliver_webhook(self, player_id: str, again: bool = False) -> None:
        """A delivery run of the player's webhook, unless one waits in the queue already (it
        will see this change too): a burst of changes queues one. `again`: queued anyway."""
        queued = keys.webhook_queued(player_id)
        if not self.redis.set(queued, 1, nx=not again, ex=WEBHOOK_QUEUED_SECONDS):
            return
        token = secrets.token_hex(6)
        self._enqueue(WEBHOOK_QUEUE, DELIVER_WEBHOOK, player_id, token,
                      job_id=f"webhook-{player_id}-{token}")

    def pair_seeks(self, pool: str) -> None:
        """A pairing run of the pool, unless one waits in the queue already (it will see this
        seek too): a burst of seeks queues one. A quick job: on the bots' quick queue."""
        if not self.redis.set(keys.pairing_queued(pool), 1, nx=True, ex=PAIRING_QUEUED_SECONDS):
            return
        self._enqueue(BOT_QUEUE, PAIR_SEEKS, pool, job_id=f"pair-{pool}-{secrets.token_hex(6)}")

    def pairing_started(self, pool: str) -> None:
        """A pairing run began: a seek from now on queues another."""
        self.redis.delete(keys.pairing_queued(pool))

    def webhook_run_started(self, player_id: str) -> None:
        """A delivery run began: a change from now on queues another."""
        self.redis.delete(keys.webhook_queued(player_id))

    def _enqueue(self, queue: str, function: str, *args, job_id: str,
                 at_front: bool = False, timeout: int | None = None) -> None:
        self.queues[queue].enqueue(function, *args, job_id=job_id, retry=RETRY,
                                   result_ttl=FINISHED_JOB_SECONDS,
                                   failure_ttl=FAILED_JOB_SECONDS, at_front=at_front,
                                   job_timeout=timeout)

    def in_hand(self, job_id: str | None) -> bool:
        """True when the job waits in its queue, waits for a retry that is not overdue, or runs
        in a worker that is still alive. A job in none of these was lost: a worker died or lost
        Redis after taking it from its queue and before marking it started (its status still
        says queued), or its retry's scheduler is gone. A job caught in the milliseconds between
        two of these states is queued twice, which every job, checking its game's version first,
        shrugs off."""
        if job_id is None:
            return False
        try:
            job = Job.fetch(job_id, connection=self.redis)
        except NoSuchJobError:
            return False
        status = job.get_status(refresh=False)
        queue = self.queues.get(job.origin)
        if status == JobStatus.QUEUED and queue is not None:
            if self.redis.lpos(queue.key, job_id) is not None:
                return True
            # A worker of one queue leaves the id in RQ's intermediate list, whose cleanup would
            # fail the next run under this id a minute later.
            queue.intermediate_queue.remove(job_id)
            return False
        if status == JobStatus.SCHEDULED and queue is not None:
            registry = queue.scheduled_job_registry
            due = self.redis.zscore(registry.key, job_id)
            if due is not None and due > time.time() - RETRY_OVERDUE_SECONDS:
                return True
            registry.remove(job)  # queued again by the caller; the scheduler must not add a third run
            return False
        if status == JobStatus.DEFERRED:
            return True
        if status == JobStatus.STARTED and job.worker_name:
            return bool(self.redis.exists(keys.worker_alive(job.worker_name)))
        job.delete()  # failed, stopped or abandoned: make room for a new run under this id
        return False

    def worker_alive(self, worker_name: str, seconds: int) -> None:
        self.redis.set(keys.worker_alive(worker_name), 1, ex=seconds)

    def worker_gone(self, worker_name: str) -> None:
        self.redis.delete(keys.worker_alive(worker_name))

    def counts(self, queue_names: tuple[str, ...]) -> dict[str, dict[str, int]]:
        """Jobs queued, scheduled, running and failed per queue, in one round trip."""
        states = ("queued", "scheduled", "started", "failed")
        with self.redis.pipeline() as pipe:
            for name in queue_names:
                queue = self.queues[name]
                pipe.llen(queue.key)
                for registry in (queue.scheduled_job_registry, queue.started_job_registry,
                                 queue.failed_job_registry):
                    pipe.zcard(registry.key)
            counts = pipe.execute()
        return {name: dict(zip(states, counts[index * 4:index * 4 + 4]))
                for index, name in enumerate(queue_names)}
