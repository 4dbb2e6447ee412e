"""The bots' share of each player, counted beside the queue: their thinking time in the last
minute, and the one game of theirs whose bots hold a place on the quick queue, and the one on
the deep queue.

Two fixed one-minute windows make a sliding estimate of the time (the previous window weighted by
how much of it still lies within the last 60 s), as sliding-window rate limiters count. The lane
is a sorted set of one game id scored by when its claim lapses, so a worker that died holding
it frees it by itself.
"""
from __future__ import annotations

import time

from redis import Redis

from api.storage import keys

WINDOW = 60  # seconds
LANE_SECONDS = 60   # a claim lapses this long after it was last made

# A lane for the game's bots, in one round trip with the payer's share: 0 when the payer's
# bots thought more than their share in about the last minute (or, found thrifty before, more
# than half of it: they are kept thrifty), else 1 when the game holds the lane or takes it, 2
# when another game of theirs holds it. KEYS: the current and the previous window, the thrift
# mark, the lane. ARGV: the share in seconds, the previous window's weight, game id, the lane's
# seconds, the thrift mark's seconds.
_CHOOSE = """
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
    + tonumber(redis.call('GET', KEYS[2]) or '0') * tonumber(ARGV[2])
local share = tonumber(ARGV[1])
if spent > share or (spent > share / 2 and redis.call('EXISTS', KEYS[3]) == 1) then
  redis.call('SET', KEYS[3], 1, 'EX', ARGV[5])
  return 0
end
local now = tonumber(redis.call('TIME')[1])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
local holder = redis.call('ZRANGE', KEYS[4], 0, 0)[1]
if holder and holder ~= ARGV[3] then return 2 end
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[4]), ARGV[3])
redis.call('EXPIRE', KEYS[4], ARGV[4])
return 1
"""
THRIFTY, LANE, NO_LANE = 0, 1, 2


class BotTime:
    def __init__(self, redis: Redis):
        self.redis = redis
        self._choose = redis.register_script(_CHOOSE)

    def choose(self, payer: str, share: float, queue: str, game_id: str) -> int:
        """THRIFTY when the payer's bots used up `share` (they are kept so, as `keep_thrifty`),
        else LANE when the game's bots may use `queue` (no other game of the payer does), else
        NO_LANE; in one round trip."""
        now = time.time()
        window = int(now // WINDOW)
        return int(self._choose(
            keys=[keys.bot_time(payer, window), keys.bot_time(payer, window - 1),
                  keys.bot_thrift(payer), keys.bot_lane(payer, queue)],
            args=[share, 1 - (now / WINDOW - window), game_id, LANE_SECONDS, 2 * WINDOW]))

    def release_lanes(self, payer: str, game_id: str, queues: tuple[str, ...]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for queue in queues:
            pipe.zrem(keys.bot_lane(payer, queue), game_id)
        pipe.execute()

    def spend(self, payer: str, seconds: float) -> None:
        key = keys.bot_time(payer, int(time.time() // WINDOW))
        pipe = self.redis.pipeline(transaction=False)
        pipe.incrbyfloat(key, seconds)
        pipe.expire(key, 2 * WINDOW)
        pipe.execute()

    def spent(self, payer: str) -> tuple[float, bool]:
        """CPU seconds the player's bots thought in about the last minute, and whether they
        were found thrifty before."""
        now = time.time()
        window = int(now // WINDOW)
        current, previous, thrifty = self.redis.mget(keys.bot_time(payer, window),
                                                     keys.bot_time(payer, window - 1),
                                                     keys.bot_thrift(payer))
        passed = now / WINDOW - window
        return float(current or 0) + float(previous or 0) * (1 - passed), thrifty is not None

    def keep_thrifty(self, payer: str) -> None:
        self.redis.set(keys.bot_thrift(payer), 1, ex=2 * WINDOW)
