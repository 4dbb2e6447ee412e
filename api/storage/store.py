"""The game store: one client of the game's Redis (or Redis Cluster), shared by the stores of
each keyspace."""
from __future__ import annotations

from redis import Redis

from api.storage.chat import ChatStore
from api.storage.digests import Digests
from api.storage.games import GameStore
from api.storage.lobby import LobbyStore
from api.storage.players import PlayerStore
from api.storage.push import PushStore
from api.storage.schedule import Schedule


class Storage:
    def __init__(self, redis: Redis, retention_seconds: int = 30 * 86400):
        self.redis = redis
        self.games = GameStore(redis, retention_seconds)
        self.players = PlayerStore(redis, retention_seconds)
        self.lobby = LobbyStore(redis, retention_seconds)
        self.schedule = Schedule(redis)
        self.push = PushStore(redis, retention_seconds)
        self.chat = ChatStore(redis, retention_seconds)
        self.digests = Digests(redis)
