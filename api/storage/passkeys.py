"""A player's passkeys in Redis: one hash of credentials beside the player's keys, the one
registration challenge under way, and sign-in challenges (each its own key, taken once)."""
from __future__ import annotations

import json

from redis import Redis

from api.storage import keys

# A passkey added only while the player exists and has fewer than the most they may hold; the
# credential id already theirs is replaced (registered again). KEYS: the player's hash, their
# passkeys. ARGV: credential id, entry, the most passkeys, seconds to keep.
# Answers 1 (added), 0 (no such player), -1 (full).
_ADD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0
   and redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

# A passkey's entry changed only if it is still there. KEYS: the player's passkeys.
# ARGV: credential id, the new entry.
_REPLACE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class PasskeyStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._add = redis.register_script(_ADD)
        self._replace = redis.register_script(_REPLACE)

    def save_registration_challenge(self, player_id: str, challenge: str, seconds: int) -> None:
        """The player's one registration under way: a newer one replaces it."""
        self.redis.set(keys.passkey_registration(player_id), challenge, ex=seconds)

    def take_registration_challenge(self, player_id: str) -> str | None:
        found = self.redis.getdel(keys.passkey_registration(player_id))
        return None if found is None else found.decode()

    def save_signin_challenge(self, challenge: str, seconds: int) -> None:
        self.redis.set(keys.passkey_signin(challenge), 1, ex=seconds)

    def take_signin_challenge(self, challenge: str) -> bool:
        """True once for a live challenge: a second answer to it finds nothing."""
        return self.redis.getdel(keys.passkey_signin(challenge)) is not None

    def add(self, player_id: str, credential_id: str, entry: dict, most: int) -> int:
        return int(self._add(keys=[keys.player(player_id), keys.passkeys(player_id)],
                             args=[credential_id, json.dumps(entry), most, self.retention]))

    def all(self, player_id: str) -> dict[str, dict]:
        return {credential_id.decode(): json.loads(raw) for credential_id, raw
                in self.redis.hgetall(keys.passkeys(player_id)).items()}

    def get(self, player_id: str, credential_id: str) -> dict | None:
        raw = self.redis.hget(keys.passkeys(player_id), credential_id)
        return None if raw is None else json.loads(raw)

    def replace(self, player_id: str, credential_id: str, entry: dict) -> bool:
        return bool(self._replace(keys=[keys.passkeys(player_id)],
                                  args=[credential_id, json.dumps(entry)]))

    def remove(self, player_id: str, credential_id: str) -> bool:
        return bool(self.redis.hdel(keys.passkeys(player_id), credential_id))
