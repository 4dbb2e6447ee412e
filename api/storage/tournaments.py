"""Tournaments: each one JSON document changed by compare-and-set on its version, the list of
every tournament, the tournaments each player entered, the due-set of tournaments a worker must
look at, and the leases under which a round's games are made."""
from __future__ import annotations

from redis import Redis

from api.storage import keys

# KEYS: the tournament's hash. ARGV: the version read, the new document, seconds to keep it.
_SAVE = """
if tonumber(redis.call('HGET', KEYS[1], 'version') or '0') ~= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[1] + 1, 'doc', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


class TournamentStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._save = redis.register_script(_SAVE)

    def create(self, tournament_id: str, doc: str, created: float) -> None:
        self.redis.hset(keys.tournament(tournament_id), mapping={"version": 1, "doc": doc})
        self.redis.expire(keys.tournament(tournament_id), self.retention)
        self.redis.zadd(keys.TOURNAMENTS, {tournament_id: created})

    def load(self, tournament_id: str) -> tuple[int, str] | None:
        version, doc = self.redis.hmget(keys.tournament(tournament_id), "version", "doc")
        return None if doc is None else (int(version), doc.decode())

    def save(self, tournament_id: str, version: int, doc: str) -> bool:
        """False when the document changed since `version` was read."""
        return bool(self._save(keys=[keys.tournament(tournament_id)],
                               args=[version, doc, self.retention]))

    def newest(self, count: int) -> list[str]:
        return [each.decode() for each in self.redis.zrevrange(keys.TOURNAMENTS, 0, count - 1)]

    def entered(self, player_id: str, tournament_id: str, when: float) -> None:
        key = keys.player_tournaments(player_id)
        self.redis.zadd(key, {tournament_id: when})
        self.redis.expire(key, self.retention)

    def left(self, player_id: str, tournament_id: str) -> None:
        self.redis.zrem(keys.player_tournaments(player_id), tournament_id)

    def of_player(self, player_id: str, count: int) -> list[str]:
        return [each.decode() for each in
                self.redis.zrevrange(keys.player_tournaments(player_id), 0, count - 1)]

    def lease_table(self, tournament_id: str, number: int, table: int, seconds: int) -> bool:
        """One process at a time makes a table's game; a lease of one that died lapses."""
        return bool(self.redis.set(keys.tournament_table_lease(tournament_id, number, table),
                                   1, nx=True, ex=seconds))

    def mark_due(self, tournament_id: str, when: float) -> None:
        self.redis.zadd(keys.TOURNAMENTS_DUE, {tournament_id: when})

    def due(self, until: float, limit: int) -> list[str]:
        return [each.decode() for each in
                self.redis.zrangebyscore(keys.TOURNAMENTS_DUE, "-inf", until, start=0, num=limit)]

    def settled(self, tournament_id: str) -> None:
        self.redis.zrem(keys.TOURNAMENTS_DUE, tournament_id)

    def keep_hot(self, tournament_id: str, seconds: int) -> None:
        """An archived tournament: Redis keeps its document only `seconds` more (or less, if it
        was to go sooner)."""
        self.redis.expire(keys.tournament(tournament_id), seconds, lt=True)
