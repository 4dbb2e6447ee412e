"""Wake waiting requests when a game or an inbox changes.

Every commit publishes on the game's channel and on the inbox channel of each of
its players, a message at a table on the game's chat channel (names in `api.storage.keys`). Each process holds one pattern subscription,
shared by all of its waiting requests, so a thousand long-polls cost one Redis
connection, not a thousand.
"""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Callable, Iterator, TypeVar

from redis import Redis

from api import telemetry
from api.storage import connections
from api.storage.keys import CHANNEL_PATTERN, chat_channel, game_channel, inbox_channel

__all__ = ["ChangeFeed", "chat_channel", "game_channel", "inbox_channel"]
T = TypeVar("T")
# Given a waiter's event: a block that sets it when the client goes away, yielding `gone()`.
Watch = Callable[[threading.Event], AbstractContextManager[Callable[[], bool]]]
# The longest the first waiter of a process waits for the feed's subscription (Redis answers in
# milliseconds; longer, it is away, and the waiter's own read fails).
SUBSCRIBE_WAIT = 2.0


class ChangeFeed:
    def __init__(self, redis: Redis):
        self.redis = redis
        self._waiters: dict[str, set[threading.Event]] = defaultdict(set)
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None
        self._subscribed = threading.Event()

    def hold(self, channel: str, read: Callable[[], T], unchanged: Callable[[T], bool],
             timeout: float, watch: Watch | None = None) -> T:
        """`read()`, and while `unchanged(value)`, wait for a publish on `channel` and read again,
        for at most `timeout` seconds, or until the client has gone: `watch(event)` sets the
        event when it goes and yields whether it has (`api.http.disconnects.Departures`, one
        look for the whole process, so a waiting request sleeps until something happens). The
        waiter registers before the first read, so a change right after it still wakes it, and
        each wake costs one read."""
        with self.waiter(channel) as event, \
                (watch(event) if watch else nullcontext(lambda: False)) as gone:
            value = read()
            deadline = time.monotonic() + timeout
            while unchanged(value):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not event.wait(remaining):
                    break
                event.clear()
                if gone():
                    break
                value = read()
            return value

    @contextmanager
    def waiter(self, channel: str) -> Iterator[threading.Event]:
        """An event set at each publish on `channel` while the block runs (a stream's, which
        clears it after each look); set too when the feed lost Redis, so the holder looks again."""
        self._ensure_listener()
        event = threading.Event()
        with self._lock:
            self._waiters[channel].add(event)
        try:
            yield event
        finally:
            with self._lock:
                self._waiters[channel].discard(event)
                if not self._waiters[channel]:
                    del self._waiters[channel]

    def _ensure_listener(self) -> None:
        """The process's one subscription, started by its first waiter, which waits until
        Redis confirmed it: a change published before that would reach no one, and the
        waiter would sit out its whole wait."""
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._listener = threading.Thread(target=self._listen, name="change-feed",
                                                  daemon=True)
                self._listener.start()
        self._subscribed.wait(SUBSCRIBE_WAIT)

    def _listen(self) -> None:
        while True:
            try:
                pubsub = connections.pubsub(self.redis)
                pubsub.psubscribe(CHANNEL_PATTERN)
                for message in pubsub.listen():
                    if message["type"] == "psubscribe":
                        self._subscribed.set()
                    elif message["type"] == "pmessage":
                        self._wake(message["channel"].decode())
            except connections.UNAVAILABLE:
                telemetry.redis_error("change feed")
                self._wake_all()  # waiters re-check their condition themselves
                time.sleep(0.5)

    def _wake(self, channel: str) -> None:
        with self._lock:
            events = list(self._waiters.get(channel, ()))
        for event in events:
            event.set()

    def _wake_all(self) -> None:
        with self._lock:
            events = [event for events in self._waiters.values() for event in events]
        for event in events:
            event.set()
