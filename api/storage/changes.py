"""Wake waiting requests when a game or an inbox changes.

Every commit publishes on the game's channel and on the inbox channel of each of
its players (names in `api.storage.store`). Each process holds one pattern subscription,
shared by all of its waiting requests, so a thousand long-polls cost one Redis
connection, not a thousand.
"""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Callable, TypeVar

from redis import Redis

from api import telemetry
from api.storage import connections
from api.storage.keys import CHANNEL_PATTERN, game_channel, inbox_channel

__all__ = ["ChangeFeed", "game_channel", "inbox_channel"]
T = TypeVar("T")


class ChangeFeed:
    def __init__(self, redis: Redis):
        self.redis = redis
        self._waiters: dict[str, set[threading.Event]] = defaultdict(set)
        self._lock = threading.Lock()
        self._listener: threading.Thread | None = None

    def hold(self, channel: str, read: Callable[[], T], unchanged: Callable[[T], bool],
             timeout: float) -> T:
        """`read()`, and while `unchanged(value)`, wait for a publish on `channel` and read again,
        for at most `timeout` seconds. The waiter registers before the first read, so a change
        right after it still wakes it, and each wake costs one read."""
        self._ensure_listener()
        event = threading.Event()
        with self._lock:
            self._waiters[channel].add(event)
        try:
            value = read()
            deadline = time.monotonic() + timeout
            while unchanged(value):
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not event.wait(remaining):
                    break
                event.clear()
                value = read()
            return value
        finally:
            with self._lock:
                self._waiters[channel].discard(event)
                if not self._waiters[channel]:
                    del self._waiters[channel]

    def _ensure_listener(self) -> None:
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._listener = threading.Thread(target=self._listen, name="change-feed",
                                                  daemon=True)
                self._listener.start()

    def _listen(self) -> None:
        while True:
            try:
                pubsub = connections.pubsub(self.redis, ignore_subscribe_messages=True)
                pubsub.psubscribe(CHANNEL_PATTERN)
                for message in pubsub.listen():
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
