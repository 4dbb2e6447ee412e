"""Answers kept under their Idempotency-Key: one hash of a caller's keys and a sorted set of
when each was first used, in one hash slot, so each change is one script.

A record is `P<time>|<fingerprint>` while its first request runs, then `D<json>` with the
fingerprint, status, headers and body of its answer. Records last `ttl` seconds from first use,
a caller keeps at most `most` (the oldest go first), and a pending one whose request died is
taken over after `pending_seconds`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from redis import Redis

from api.storage import keys

# KEYS: the records, their times. ARGV: key, fingerprint, now, ttl, most, pending seconds.
# Returns the record found, or false when this request claimed the key.
_CLAIM = """
local now, ttl = tonumber(ARGV[3]), tonumber(ARGV[4])
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
if #expired > 0 then
  redis.call('HDEL', KEYS[1], unpack(expired))
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
end
local found = redis.call('HGET', KEYS[1], ARGV[1])
if found then
  local started = string.sub(found, 1, 1) == 'P' and tonumber(string.match(found, '^P([^|]+)|'))
  if not started or started > now - tonumber(ARGV[6]) then return found end
end
local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5]) + 1
if extra > 0 and not found then
  redis.call('HDEL', KEYS[1], unpack(redis.call('ZRANGE', KEYS[2], 0, extra - 1)))
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, extra - 1)
end
redis.call('HSET', KEYS[1], ARGV[1], 'P' .. ARGV[3] .. '|' .. ARGV[2])
redis.call('ZADD', KEYS[2], 'NX', now, ARGV[1])
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
return false
"""


@dataclass(frozen=True)
class Kept:
    """What a key holds: the fingerprint of its request and, once answered, the answer."""
    fingerprint: str
    answer: dict | None  # {"status", "headers", "body"}; None while the first request runs


def _kept(raw: bytes | None) -> Kept | None:
    if raw is None:
        return None
    text = raw.decode()
    if text.startswith("P"):
        return Kept(text.partition("|")[2], None)
    record = json.loads(text[1:])
    return Kept(record.pop("fingerprint"), record)


class IdempotencyStore:
    def __init__(self, redis: Redis, ttl: int, most: int, pending_seconds: int):
        self.redis = redis
        self.ttl, self.most, self.pending_seconds = ttl, most, pending_seconds
        self._claim = redis.register_script(_CLAIM)

    def claim(self, scope: str, key: str, fingerprint: str, now: float) -> Kept | None:
        """None: this request holds the key now and must answer it; else what the key holds."""
        found = self._claim(keys=[keys.idempotency(scope), keys.idempotency_times(scope)],
                            args=[key, fingerprint, now, self.ttl, self.most,
                                  self.pending_seconds])
        return _kept(found) if found else None

    def find(self, scope: str, key: str) -> Kept | None:
        return _kept(self.redis.hget(keys.idempotency(scope), key))

    def keep(self, scope: str, key: str, fingerprint: str, answer: dict) -> None:
        record = json.dumps({"fingerprint": fingerprint, **answer}, separators=(",", ":"))
        self.redis.hset(keys.idempotency(scope), key, "D" + record)

    def release(self, scope: str, key: str) -> None:
        """The request was not answered for good (a fault, a limit): a retry runs it again."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(keys.idempotency(scope), key)
        pipe.zrem(keys.idempotency_times(scope), key)
        pipe.execute()
