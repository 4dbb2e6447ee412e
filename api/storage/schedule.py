"""The due-set (score = when a worker must look at the game) and the sweeper's lock.

A game enters the due-set before a commit that makes bots due or starts a deadline; the sweeper
repairs it from the games themselves."""
from __future__ import annotations

from redis import Redis

from api.storage import keys

# Moves a game in the due-set only if its score is still the one the sweeper saw.
# KEYS: due-set. ARGV: game id, seen score, new score ('' to remove).
_RESCHEDULE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
"""


class Schedule:
    def __init__(self, redis: Redis):
        self.redis = redis
        self._reschedule = redis.register_script(_RESCHEDULE)

    def mark_due(self, game_id: str, when: float) -> None:
        """Note that a worker must look at the game by `when` (written before the commit)."""
        self.redis.zadd(keys.DUE, {game_id: when})

    def due(self, until: float, limit: int) -> list[tuple[str, float]]:
        return [(game_id.decode(), score) for game_id, score in
                self.redis.zrangebyscore(keys.DUE, "-inf", until, start=0, num=limit,
                                         withscores=True)]

    def reschedule(self, game_id: str, seen: float, when: float | None) -> None:
        self._reschedule(keys=[keys.DUE],
                         args=[game_id, repr(seen), "" if when is None else repr(when)])

    def due_time(self, game_id: str) -> float | None:
        return self.redis.zscore(keys.DUE, game_id)

    def take_sweep_lock(self, seconds: float) -> bool:
        return bool(self.redis.set(keys.SWEEP_LOCK, "1", nx=True, px=int(seconds * 1000)))
