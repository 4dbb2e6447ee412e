"""The players who asked for a daily digest, scored by when theirs is next due (one key of its
own, like the due-set)."""
from __future__ import annotations

from redis import Redis

from api.storage import keys


class Digests:
    def __init__(self, redis: Redis):
        self.redis = redis

    def schedule(self, player_id: str, when: float | None) -> None:
        """The player's next digest at `when`; None: no more digests."""
        if when is None:
            self.redis.zrem(keys.DIGESTS, player_id)
        else:
            self.redis.zadd(keys.DIGESTS, {player_id: when})

    def due(self, until: float, limit: int) -> list[str]:
        return [player_id.decode() for player_id in
                self.redis.zrangebyscore(keys.DIGESTS, "-inf", until, start=0, num=limit)]
