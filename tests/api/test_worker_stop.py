"""A worker told to stop (SIGTERM on a deploy or a test's teardown) stops at once."""
import time

from worker.runner import PoytaWorker

STOP_SECONDS = 5  # RQ's listener waits 60 s for a subscription when it loses the race below


def test_the_listener_stops_when_it_reads_the_unsubscribe_reply_first(redis):
    worker = PoytaWorker(["nothing-queued-here"], connection=redis)
    worker.subscribe()
    send_unsubscribe = worker.pubsub.unsubscribe

    def unsubscribe_then_yield(*channels):
        send_unsubscribe(*channels)
        time.sleep(0.3)  # as under load: the listener thread runs before the stopping one goes on

    worker.pubsub.unsubscribe = unsubscribe_then_yield
    start = time.monotonic()
    worker.unsubscribe()
    assert time.monotonic() - start < STOP_SECONDS
    assert not worker.pubsub_thread.is_alive()
