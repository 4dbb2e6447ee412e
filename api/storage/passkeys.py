"""A player's passkeys in Redis: one hash of credentials beside the player's keys, the one
registration challenge under way, and sign-in challenges (each its own key, taken once).

A credential id is registered to one player only (WebAuthn's registration, step 22): its owner
is a key of its own (`passkey-credential:<id>`), claimed before the passkey is added, kept for
the retention from its last registration or sign-in, and let go when its player removes it.
PostgreSQL keeps every passkey (`api.storage.player_record`): a claim Redis finds free is
checked there too, and a player's passkeys Redis let go are read back."""
from __future__ import annotations

import json

from redis import Redis

from api.storage import keys
from api.storage.player_record import PlayerRecord

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


# The claim let go only by the player holding it. KEYS: the credential's owner. ARGV: player id.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

NEW, KEPT, TAKEN = "new", "kept", "taken"


class PasskeyStore:
    def __init__(self, redis: Redis, retention_seconds: int, record: PlayerRecord):
        self.redis = redis
        self.retention = retention_seconds
        self.record = record
        self._add = redis.register_script(_ADD)
        self._replace = redis.register_script(_REPLACE)
        self._release = redis.register_script(_RELEASE)

    def claim(self, credential_id: str, player_id: str) -> str:
        """The credential id for the player, for another retention period: NEW (it was
        nobody's), KEPT (it was theirs) or TAKEN (another player's: nothing changes)."""
        owner_key = keys.passkey_credential(credential_id)
        while True:
            if self.redis.set(owner_key, player_id, nx=True, ex=self.retention):
                kept_for = self.record.credential_owner(credential_id)
                if kept_for is None:
                    return NEW
                if kept_for != player_id:
                    self.release(credential_id, player_id)
                    return TAKEN
                return KEPT
            owner = self.redis.get(owner_key)
            if owner is None:
                continue  # it expired in between: claim it afresh
            if owner.decode() != player_id:
                return TAKEN
            self.redis.expire(owner_key, self.retention)
            return KEPT

    def release(self, credential_id: str, player_id: str) -> None:
        self._release(keys=[keys.passkey_credential(credential_id)], args=[player_id])

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
        with self.record.changing(player_id):
            return int(self._add(keys=[keys.player(player_id), keys.passkeys(player_id)],
                                 args=[credential_id, json.dumps(entry), most, self.retention]))

    def all(self, player_id: str) -> dict[str, dict]:
        return {credential_id.decode(): json.loads(raw) for credential_id, raw
                in self.redis.hgetall(keys.passkeys(player_id)).items()}

    def get(self, player_id: str, credential_id: str) -> dict | None:
        """The passkey's entry; a player Redis let go is read back first (a sign-in by passkey
        needs PostgreSQL then)."""
        raw = self.redis.hget(keys.passkeys(player_id), credential_id)
        if raw is None and not self.redis.exists(keys.player(player_id)) \
                and self.record.restore(player_id):
            raw = self.redis.hget(keys.passkeys(player_id), credential_id)
        return None if raw is None else json.loads(raw)

    def replace(self, player_id: str, credential_id: str, entry: dict) -> bool:
        with self.record.changing(player_id):
            return bool(self._replace(keys=[keys.passkeys(player_id)],
                                      args=[credential_id, json.dumps(entry)]))

    def remove(self, player_id: str, credential_id: str) -> bool:
        with self.record.changing(player_id):
            removed = bool(self.redis.hdel(keys.passkeys(player_id), credential_id))
        if removed:
            self.release(credential_id, player_id)
        return removed
