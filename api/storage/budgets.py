"""Counters beside the queue, never in the game store: rate-limit windows (counted by `limits`,
the library under flask-limiter) and the requests each player holds waiting."""
from __future__ import annotations

from limits import RateLimitItem
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from redis import Redis
from redis.exceptions import RedisError

from api.storage import connections, keys

# A waiting request's entry outlives its wait by this much, so that a process that died holding
# it frees the slot by itself soon after the request would have ended anyway.
LONG_POLL_GRACE = 5

# One entry per waiting request, scored by when it lapses: lapsed ones go first, so a
# crashed process's entries fade each on its own and a refused request refreshes nobody's.
# KEYS: the caller's entries. ARGV: the request's id, seconds it may wait, the most held.
# Returns how many are held with this one, or 0 when it is refused (and not counted).
_HOLD = """
local now = tonumber(redis.call('TIME')[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[3]) then return 0 end
local lapses = now + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], lapses, ARGV[1])
if redis.call('TTL', KEYS[1]) < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return held + 1
"""


class RateCounters:
    """Fixed windows per budget and caller, shared by every process."""

    def __init__(self, client: Redis):
        # On the client's blocking pool: `limits` would make its own, and redis-py's default
        # pool fails at 100 connections instead of waiting, so a burst of requests met 503s.
        self.limiter = FixedWindowRateLimiter(storage_from_string(
            connections.url_of(client), connection_pool=client.connection_pool,
            key_prefix=keys.RATE_LIMIT_PREFIX))

    def hit(self, rate: RateLimitItem, budget: str, who: str) -> bool:
        """Counts one; False when the window is full."""
        return self.limiter.hit(rate, budget, who)

    def window(self, rate: RateLimitItem, budget: str, who: str) -> tuple[float, int]:
        """When the caller's window resets, and how many it has left in it."""
        stats = self.limiter.get_window_stats(rate, budget, who)
        return stats.reset_time, stats.remaining


# Renews a held entry (ARGV: the request's id, seconds more); 0 when it had lapsed.
_RENEW = """
local now = tonumber(redis.call('TIME')[1])
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


class LongPollSlots:
    """The requests each caller holds waiting, each its own entry that lapses by itself (the
    long-polls' under `keys.long_polls`, the streams' under `keys.streams`)."""

    def __init__(self, redis: Redis, key=keys.long_polls):
        self.redis = redis
        self.key = key
        self._hold = redis.register_script(_HOLD)
        self._renew = redis.register_script(_RENEW)

    def hold(self, who: str, request_id: str, seconds: float, most: int) -> bool:
        """Holds a slot for the request while it waits up to `seconds`; False when `who`
        already holds `most`."""
        return bool(self._hold(keys=[self.key(who)],
                               args=[request_id, int(seconds) + LONG_POLL_GRACE, most]))

    def renew(self, who: str, request_id: str, seconds: float) -> bool:
        """A long-lived request keeps its slot `seconds` more; False when it had lapsed."""
        return bool(self._renew(keys=[self.key(who)],
                                args=[request_id, int(seconds) + LONG_POLL_GRACE]))

    def release(self, who: str, request_id: str) -> None:
        try:
            self.redis.zrem(self.key(who), request_id)
        except RedisError:
            pass  # the entry lapses by itself
