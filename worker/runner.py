"""The worker Pöytä runs: `rq worker bots --worker-class worker.runner.PoytaWorker`.

RQ's SimpleWorker that stops at once (`PromptWorker`; jobs run in the worker's own process: no
fork and no re-import per job, which keeps an easy bot's move in milliseconds) plus two threads:

* a liveness beat, a key that lives `ALIVE_SECONDS` and is renewed every second, so the
  sweeper tells a job in hand from the job of a worker that was killed (RQ itself notices an
  abandoned job only after a minute or more);
* the sweeper, run every `SWEEP_SECONDS` by one worker at a time: it looks after every game
  whose due time passed (`api.tables.bots.Bots.sweep`), queues the daily digests whose hour
  has come (`api.tables.reminders.Reminders.sweep_digests`) and the webhook deliveries a dead
  process left owed (`api.tables.webhooks.Webhooks.sweep`), and the pairing of each
  matchmaking pool where seeks wait (`api.tables.seeks.Seeks.sweep`).

So a game whose job was lost gets its move within a few seconds of any worker running.
"""
from __future__ import annotations

import logging
import threading

from rq import SimpleWorker
from rq.command import send_command
from rq.worker import WorkerStatus

from api.storage.connections import UNAVAILABLE, trying_once
from worker.jobs import tables_for

log = logging.getLogger(__name__)

ALIVE_SECONDS = 3
SWEEP_SECONDS = 1.0
WAKE_LISTENER = "wake"  # no command of RQ's: its listener reads it and ignores it
LISTENER_WAKE_SECONDS = 1.0
# RQ's listener sleeps 2 s after a failed connection before it looks at its stop flag again.
LISTENER_STOP_SECONDS = 3.0


class PromptWorker(SimpleWorker):
    """RQ's SimpleWorker that stops at once: also what the tests run jobs with."""

    def _shutdown(self):
        # RQ stops an idle worker with a StopRequested raised from its signal handler, wherever
        # the worker is. In the middle of a log line (its upkeep writes some every few seconds)
        # logging's handler caught it as a failed write, and the worker waited for jobs on, for
        # good. An idle worker has nothing to finish: it stops as on a second signal, with an
        # exit no `except Exception` takes for its own.
        if self.get_state() == WorkerStatus.BUSY:
            super()._shutdown()
        else:
            raise SystemExit(0)

    def unsubscribe(self):
        # RQ wakes its listener thread (waiting up to 60 s for a message) with an UNSUBSCRIBE
        # sent over the listener's own connection, then joins it without a timeout. redis-py's
        # PubSub is not safe across threads: when Redis had closed that connection (a restart, a
        # failover, a proxy's idle cut), both threads reconnected it at once, and the stop failed
        # on a broken pipe or hung for minutes. So the listener alone touches its connection: its
        # stop flag is set, it is woken by a message on its channel sent over a connection of
        # its own, and as it ends it closes its connection, which drops the subscription.
        if not self.pubsub_thread:
            return
        self.pubsub_thread.stop(timeout=0)
        if self.pubsub_thread.is_alive():
            self._wake_listener()
            # One still retrying a dead Redis sees its flag between retries, and closes then.
            self.pubsub_thread.join(LISTENER_STOP_SECONDS)
        if not self.pubsub_thread.is_alive():
            self.pubsub.close()  # a listener that died of an error RQ re-raises left it open

    def _wake_listener(self) -> None:
        waker = trying_once(self.connection, LISTENER_WAKE_SECONDS)
        try:
            send_command(waker, self.name, WAKE_LISTENER)
        except UNAVAILABLE:
            pass  # the listener is failing on the same Redis: it looks at its flag between tries
        finally:
            waker.close()

    def teardown(self):
        # RQ records the worker's death before it stops the listener. With Redis down the record
        # fails, and the listener would live on, to subscribe again once Redis is back.
        self.unsubscribe()
        super().teardown()


class PoytaWorker(PromptWorker):
    def work(self, *args, **kwargs):
        self._stopped = threading.Event()
        threading.Thread(target=self._beat, name="poyta-beat", daemon=True).start()
        threading.Thread(target=self._sweep, name="poyta-sweeper", daemon=True).start()
        try:
            return super().work(*args, **kwargs)
        finally:
            self._stopped.set()
            try:
                tables_for(self.connection).jobs.worker_gone(self.name)
            except UNAVAILABLE:
                pass

    def _beat(self) -> None:
        jobs = tables_for(self.connection).jobs
        while not self._stopped.is_set():
            try:
                jobs.worker_alive(self.name, ALIVE_SECONDS)
            except UNAVAILABLE:
                log.warning("worker %s: no liveness beat, Redis does not answer", self.name)
            self._stopped.wait(1.0)

    def _sweep(self) -> None:
        tables = tables_for(self.connection)
        while not self._stopped.wait(SWEEP_SECONDS):
            try:
                if tables.storage.schedule.take_sweep_lock(SWEEP_SECONDS * 0.9):
                    tables.bots.sweep()
                    tables.reminders.sweep_digests()
                    tables.webhooks.sweep()
                    tables.seeks.sweep()
            except UNAVAILABLE:
                log.warning("worker %s: sweep skipped, Redis does not answer", self.name)
            except Exception:  # a bad game must not stop the sweeper for every other game
                log.exception("worker %s: sweep failed", self.name)
