"""Counters beside the queue, never in the game store: rate-limit windows (rates as `limits`,
the library under flask-limiter, parses them) and the requests each player holds waiting."""
from __future__ import annotations

from dataclasses import dataclass

from limits import RateLimitItem
from redis import Redis
from redis.exceptions import RedisError

from api.storage import keys
from api.storage.plain_commands import PlainCommands

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


# Counts one request in each of its fixed windows, in order, and stops at the first that is
# full, as a request refused there is counted in no later window. `limits`' own fixed window
# costs three round trips a window (its count, then a GET and a TTL for the headers); here a
# request's every window costs one. KEYS: a window per rate. ARGV: per window, its limit and
# its seconds. Returns per window counted: the count with this request, and the seconds left.
_SPEND = """
local counted = {}
for i, key in ipairs(KEYS) do
  local limit, seconds = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local count = redis.call('INCR', key)
  local left = redis.call('TTL', key)
  if left < 0 then
    redis.call('EXPIRE', key, seconds)
    left = seconds
  end
  counted[#counted + 1] = count
  counted[#counted + 1] = left
  if count > limit then break end
end
return counted
"""


@dataclass(frozen=True)
class Window:
    """One rate's window for a caller, after a request was counted in it."""
    rate: RateLimitItem
    allowed: bool
    remaining: int
    resets_in: int   # seconds


class RateCounters:
    """Fixed windows per budget and caller, shared by every process."""

    def __init__(self, client: Redis):
        self.redis = client
        self._spend = client.register_script(_SPEND)
        self.plain = PlainCommands(client)

    def spend(self, windows: list[tuple[RateLimitItem, str, str]]) -> list[Window]:
        """Counts one request in each window (its rate, the budget's name, the caller), in one
        round trip; the windows counted, the last of them refused when it was full."""
        if not windows:
            return []
        counted = self.plain.script(
            self._spend, [keys.rate_window(budget, who, rate.get_expiry())
                          for rate, budget, who in windows],
            [value for rate, _, _ in windows for value in (rate.amount, rate.get_expiry())])
        return [Window(rate, int(count) <= rate.amount, max(rate.amount - int(count), 0),
                       int(left))
                for (rate, _, _), count, left in zip(windows, counted[::2], counted[1::2])]


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
