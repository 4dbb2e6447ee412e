"""Friends and blocks in Redis: two sets in the player's own hash slot (`friends`, `blocks`), the
friend link's code (`friend:<code>`, named in the player's hash as `friend_code`).

A friendship is in both players' sets, each written by a script on that player's own keys, so
nothing here writes two slots in one command and it runs unchanged on a Redis Cluster.
PostgreSQL keeps both sets and the code (`api.storage.player_record`): each change is saved
there, and a player or a code Redis let go is read back.
"""
from __future__ import annotations

from redis import Redis

from api.storage import keys
from api.storage.player_record import PlayerRecord

ADDED, ALREADY, FULL, BLOCKED = 1, 0, -1, -2

# One side of a friendship: the other player joins this player's friends unless this player
# blocks them or already holds the most friends allowed.
# KEYS: friends, blocks. ARGV: the other player's id, most friends, retention seconds.
_BEFRIEND = """
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return -2 end
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# This player blocks another: no longer a friend on this side, and among the blocks unless
# this player already holds the most blocks allowed.
# KEYS: friends, blocks. ARGV: the other player's id, most blocks, retention seconds.
_BLOCK = """
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -1 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[3])
redis.call('SREM', KEYS[1], ARGV[1])
return 1
"""


class FriendStore:
    def __init__(self, redis: Redis, retention_seconds: int, record: PlayerRecord):
        self.redis = redis
        self.retention = retention_seconds
        self.record = record
        self._befriend = redis.register_script(_BEFRIEND)
        self._block = redis.register_script(_BLOCK)

    # --- the friend link ------------------------------------------------------------------------
    def friend_code(self, player_id: str) -> str | None:
        found = self.redis.hget(keys.player(player_id), "friend_code")
        return None if found is None else found.decode()

    def keep_friend_code(self, player_id: str, code: str, previous: str | None) -> None:
        """The player's live friend code, kept for another retention period; a previous one
        stops working."""
        self.redis.set(keys.friend_code(code), player_id, ex=self.retention)
        if code != previous:
            with self.record.changing(player_id):
                self.redis.hset(keys.player(player_id), "friend_code", code)
            if previous is not None:
                self.redis.delete(keys.friend_code(previous))

    def code_owner(self, code: str) -> str | None:
        found = self.redis.get(keys.friend_code(code))
        if found is None:
            return self.record.friend_code_owner(code)
        return found.decode()

    # --- friends and blocks ---------------------------------------------------------------------
    def befriend(self, player_id: str, other_id: str, most: int) -> int:
        """ADDED, ALREADY, FULL or BLOCKED (this player blocks the other)."""
        with self.record.changing(player_id):
            return int(self._befriend(keys=[keys.friends(player_id), keys.blocks(player_id)],
                                      args=[other_id, most, self.retention]))

    def unfriend(self, player_id: str, other_id: str) -> bool:
        with self.record.changing(player_id):
            return bool(self.redis.srem(keys.friends(player_id), other_id))

    def friend_ids(self, player_id: str) -> set[str]:
        return {member.decode() for member in self.redis.smembers(keys.friends(player_id))}

    def block(self, player_id: str, other_id: str, most: int) -> int:
        """ADDED, ALREADY or FULL."""
        with self.record.changing(player_id):
            return int(self._block(keys=[keys.friends(player_id), keys.blocks(player_id)],
                                   args=[other_id, most, self.retention]))

    def unblock(self, player_id: str, other_id: str) -> bool:
        with self.record.changing(player_id):
            return bool(self.redis.srem(keys.blocks(player_id), other_id))

    def blocked_ids(self, player_id: str) -> set[str]:
        return {member.decode() for member in self.redis.smembers(keys.blocks(player_id))}

    def blocks(self, player_id: str, other_id: str) -> bool:
        return bool(self.redis.sismember(keys.blocks(player_id), other_id))

    def blocks_any(self, player_id: str, others: list[str]) -> bool:
        """Whether the player blocks any of these others: one command."""
        return bool(others) and any(self.redis.smismember(keys.blocks(player_id), others))

    def blocking_any(self, player_ids: list[str], other_id: str) -> bool:
        """Whether any of these players blocks the other: one command on each player's slot,
        in one round trip per node."""
        if not player_ids:
            return False
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.sismember(keys.blocks(player_id), other_id)
        return any(pipe.execute())

    def blocking(self, player_ids: list[str], other_id: str) -> set[str]:
        """Those of these players who block the other: one round trip per node."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.sismember(keys.blocks(player_id), other_id)
        return {player_id for player_id, blocks in zip(player_ids, pipe.execute()) if blocks}

    def blocks_of(self, player_ids: list[str]) -> dict[str, frozenset[str]]:
        """Whom each of these players blocks: one round trip per node."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.smembers(keys.blocks(player_id))
        return {player_id: frozenset(member.decode() for member in blocked)
                for player_id, blocked in zip(player_ids, pipe.execute()) if blocked}

    def players(self, player_ids: list[str]) -> dict[str, tuple[str, bool, float | None]]:
        """(name, bot, last seen) of each player that still exists: those Redis let go are
        read back from PostgreSQL."""
        found = self._players(player_ids)
        gone = [player_id for player_id in player_ids
                if player_id not in found and self.record.restore(player_id)]
        return {**found, **self._players(gone)} if gone else found

    def _players(self, player_ids: list[str]) -> dict[str, tuple[str, bool, float | None]]:
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(keys.player(player_id), "name", "bot", "seen")
        found = {}
        for player_id, (name, bot, seen) in zip(player_ids, pipe.execute()):
            if name is not None:
                found[player_id] = (name.decode(), bot == b"1",
                                    None if seen is None else float(seen))
        return found
