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

# The lane for the game, if it holds it or nobody does (KEYS: the lane; ARGV: game id, seconds).
_CLAIM = """
local now = tonumber(redis.call('TIME')[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local holder = redis.call('ZRANGE', KEYS[1], 0, 0)[1]
if holder and holder ~= ARGV[1] then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


class BotTime:
    def __init__(self, redis: Redis):
        self.redis = redis
        self._claim = redis.register_script(_CLAIM)

    def claim_lane(self, payer: str, queue: str, game_id: str) -> bool:
        """The game's bots may use `queue`: no other game of the payer does."""
        return bool(self._claim(keys=[keys.bot_lane(payer, queue)], args=[game_id, LANE_SECONDS]))

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
