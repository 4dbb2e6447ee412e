"""Counters beside the queue, never in the game store: rate-limit windows (counted by `limits`,
the library under flask-limiter) and the requests each player holds waiting."""
from __future__ import annotations

from limits import RateLimitItem
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from redis import Redis
from redis.exceptions import RedisError

from api.storage import connections, keys

LONG_POLL_KEY_TTL = 120    # seconds: longer than any wait, so a crashed process's count fades


class RateCounters:
    """Fixed windows per budget and caller, shared by every process."""

    def __init__(self, url: str):
        self.limiter = FixedWindowRateLimiter(storage_from_string(
            url, key_prefix=keys.RATE_LIMIT_PREFIX,
            socket_connect_timeout=connections.CONNECT_TIMEOUT,
            socket_timeout=connections.COMMAND_TIMEOUT))

    def hit(self, rate: RateLimitItem, budget: str, who: str) -> bool:
        """Counts one; False when the window is full."""
        return self.limiter.hit(rate, budget, who)

    def resets_at(self, rate: RateLimitItem, budget: str, who: str) -> float:
        return self.limiter.get_window_stats(rate, budget, who).reset_time


class LongPollSlots:
    def __init__(self, redis: Redis):
        self.redis = redis

    def hold(self, who: str) -> int:
        """Counts one more waiting request; how many are held now."""
        pipe = self.redis.pipeline()
        pipe.incr(keys.long_polls(who))
        pipe.expire(keys.long_polls(who), LONG_POLL_KEY_TTL)
        return pipe.execute()[0]

    def release(self, who: str) -> None:
        try:
            self.redis.decr(keys.long_polls(who))
        except RedisError:
            pass  # the key expires by itself
