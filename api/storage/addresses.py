"""What the store counts per client address (a digest of it, never the address): the games with
hard bots made from there, so that many fresh players from one place cannot keep every deep
worker busy."""
from __future__ import annotations

import time

from redis import Redis

from api.storage import keys

OPEN = (b"waiting", b"active")


class AddressGames:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds

    def add_hard_bot_game(self, address_key: str, game_id: str) -> None:
        key = keys.hard_bot_games_from(address_key)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {game_id: time.time()})
        pipe.expire(key, self.retention)
        pipe.execute()

    def open_hard_bot_games(self, address_key: str) -> int:
        """How many of the address's games with hard bots are still open; the others go."""
        key = keys.hard_bot_games_from(address_key)
        game_ids = [game_id.decode() for game_id in self.redis.zrange(key, 0, -1)]
        if not game_ids:
            return 0
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hget(keys.game(game_id), "status")
        gone = [game_id for game_id, status in zip(game_ids, pipe.execute()) if status not in OPEN]
        if gone:
            self.redis.zrem(key, *gone)
        return len(game_ids) - len(gone)
