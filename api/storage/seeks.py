"""Seeks in Redis: each matchmaking pool's keys under its hash tag `{<pool>}` (open seeks by age
and by when they lapse, records, states, tables being seated, recent tablemates, the pairing
lease), and each player's list of their seeks in the player's slot.

A table is claimed in one script: its seeks leave the open set and its plan is kept, or nothing
happens when one of them is no longer open. Its game is made after, idempotently on the table's
id, and the table settled in a second script; a run that dies between the two leaves the plan
for the next run. So no seeker is seated twice, and none is lost.
"""
from __future__ import annotations

import json
import secrets

from redis import Redis

from api.storage import keys

OPEN, CANCELLED, LAPSED = "open", "cancelled", "lapsed"
CLAIMED, SEATED = "claimed:", "seated:"
ENDED_KEPT_SECONDS = 86400  # an ended seek is still shown to its player this long

# KEYS: open, lapsing, records, states. ARGV: seek id, created, lapses, record (JSON).
_OPEN = """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('HSET', KEYS[4], ARGV[1], 'open')
return 1
"""

# A player's seek is counted unless they hold the most already.
# KEYS: the player's seeks. ARGV: seek id, created, most, retention seconds.
_COUNT = """
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

# Ends open seeks (cancelled or lapsed); returns the ones it ended.
# KEYS: open, lapsing, states, ended. ARGV: state, now, seek ids...
_END = """
local ended = {}
for i = 3, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('ZREM', KEYS[2], ARGV[i])
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[1])
    redis.call('ZADD', KEYS[4], ARGV[2], ARGV[i])
    ended[#ended + 1] = ARGV[i]
  end
end
return ended
"""

# Claims every seek of a table, or none when one is no longer open.
# KEYS: open, lapsing, states, tables. ARGV: table id, plan (JSON), seek ids...
_CLAIM = """
for i = 3, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then return 0 end
end
for i = 3, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('ZREM', KEYS[2], ARGV[i])
  redis.call('HSET', KEYS[3], ARGV[i], 'claimed:' .. ARGV[1])
end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
return 1
"""

# A claimed table's game exists: its seeks are seated, its players' tablemates remembered.
# KEYS: states, tables, ended, partners. ARGV: table id, now, the number of seeks, seek ids...,
# then player and tablemates (JSON) pairs.
_SETTLE = """
local count = tonumber(ARGV[3])
for i = 4, 3 + count do
  redis.call('HSET', KEYS[1], ARGV[i], 'seated:' .. ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[i])
end
for i = 4 + count, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
return redis.call('HDEL', KEYS[2], ARGV[1])
"""

# A claimed table whose game cannot be made: its seeks wait again as they were.
# KEYS: open, lapsing, states, tables, records. ARGV: table id, seek ids...
_REOPEN = """
for i = 2, #ARGV do
  local record = redis.call('HGET', KEYS[5], ARGV[i])
  if record and redis.call('HGET', KEYS[3], ARGV[i]) == 'claimed:' .. ARGV[1] then
    local seek = cjson.decode(record)
    redis.call('ZADD', KEYS[1], seek['created'], ARGV[i])
    redis.call('ZADD', KEYS[2], seek['lapses'], ARGV[i])
    redis.call('HSET', KEYS[3], ARGV[i], 'open')
  end
end
return redis.call('HDEL', KEYS[4], ARGV[1])
"""

# KEYS: the lease. ARGV: the holder's token.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: the lease. ARGV: the holder's token, milliseconds.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


def pool_of(seek_id: str) -> str:
    return seek_id.partition(".")[0]


def new_seek_id(pool: str) -> str:
    return f"{pool}.{secrets.token_hex(8)}"


class SeekStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._open = redis.register_script(_OPEN)
        self._count = redis.register_script(_COUNT)
        self._end = redis.register_script(_END)
        self._claim = redis.register_script(_CLAIM)
        self._settle = redis.register_script(_SETTLE)
        self._release = redis.register_script(_RELEASE)
        self._reopen = redis.register_script(_REOPEN)
        self._renew = redis.register_script(_RENEW)

    # --- a player's seeks -----------------------------------------------------------------------
    def count_for(self, player_id: str, seek_id: str, created: float, most: int) -> bool:
        return bool(self._count(keys=[keys.player_seeks(player_id)],
                                args=[seek_id, created, most, self.retention]))

    def player_seek_ids(self, player_id: str) -> list[str]:
        return [member.decode() for member in self.redis.zrange(keys.player_seeks(player_id), 0, -1)]

    def uncount(self, player_id: str, seek_ids: list[str]) -> None:
        if seek_ids:
            self.redis.zrem(keys.player_seeks(player_id), *seek_ids)

    # --- a pool's seeks ---------------------------------------------------------------------------
    def open(self, seek_id: str, created: float, lapses: float, record: dict) -> None:
        pool = pool_of(seek_id)
        self._open(keys=[keys.seeks_open(pool), keys.seeks_lapsing(pool), keys.seek_records(pool),
                         keys.seek_states(pool)],
                   args=[seek_id, created, lapses, json.dumps(record)])

    def get(self, seek_id: str) -> tuple[dict, str] | None:
        """The seek's record and state."""
        return self.many([seek_id])[0]

    def many(self, seek_ids: list[str]) -> list[tuple[dict, str] | None]:
        """Each seek's record and state, in one round trip per node."""
        pipe = self.redis.pipeline(transaction=False)
        for seek_id in seek_ids:
            pipe.hget(keys.seek_records(pool_of(seek_id)), seek_id)
            pipe.hget(keys.seek_states(pool_of(seek_id)), seek_id)
        found = pipe.execute()
        return [None if record is None or state is None else (json.loads(record), state.decode())
                for record, state in zip(found[::2], found[1::2])]

    def end(self, pool: str, seek_ids: list[str], state: str, now: float) -> list[str]:
        """End these seeks if they are still open (CANCELLED or LAPSED); the ones ended."""
        if not seek_ids:
            return []
        ended = self._end(keys=[keys.seeks_open(pool), keys.seeks_lapsing(pool),
                                keys.seek_states(pool), keys.seeks_ended(pool)],
                          args=[state, now, *seek_ids])
        return [seek_id.decode() for seek_id in ended]

    def lapsed(self, pool: str, now: float) -> list[str]:
        return [seek_id.decode() for seek_id in
                self.redis.zrangebyscore(keys.seeks_lapsing(pool), "-inf", now)]

    def open_count(self, pool: str) -> int:
        return int(self.redis.zcard(keys.seeks_open(pool)))

    def open_records(self, pool: str) -> list[dict]:
        """The pool's open seeks, oldest first."""
        seek_ids = self.redis.zrange(keys.seeks_open(pool), 0, -1)
        if not seek_ids:
            return []
        records = self.redis.hmget(keys.seek_records(pool), seek_ids)
        return [json.loads(record) for record in records if record is not None]

    def forget_ended(self, pool: str, before: float) -> None:
        """The records of seeks that ended before `before` go."""
        gone = self.redis.zrangebyscore(keys.seeks_ended(pool), "-inf", before)
        if gone:
            pipe = self.redis.pipeline()
            pipe.hdel(keys.seek_records(pool), *gone)
            pipe.hdel(keys.seek_states(pool), *gone)
            pipe.zrem(keys.seeks_ended(pool), *gone)
            pipe.execute()

    # --- pairing ----------------------------------------------------------------------------------
    def take_lease(self, pool: str, token: str, seconds: float) -> bool:
        return bool(self.redis.set(keys.pairing_lease(pool), token, nx=True,
                                   px=int(seconds * 1000)))

    def renew_lease(self, pool: str, token: str, seconds: float) -> bool:
        """False when the lease lapsed (and another run may hold it)."""
        return bool(self._renew(keys=[keys.pairing_lease(pool)],
                                args=[token, int(seconds * 1000)]))

    def release_lease(self, pool: str, token: str) -> None:
        self._release(keys=[keys.pairing_lease(pool)], args=[token])

    def claim(self, pool: str, table_id: str, plan: dict, seek_ids: list[str]) -> bool:
        return bool(self._claim(keys=[keys.seeks_open(pool), keys.seeks_lapsing(pool),
                                      keys.seek_states(pool), keys.seek_tables(pool)],
                                args=[table_id, json.dumps(plan), *seek_ids]))

    def reopen(self, pool: str, table_id: str, seek_ids: list[str]) -> None:
        """A claimed table given up: its seeks are open again, as they were."""
        self._reopen(keys=[keys.seeks_open(pool), keys.seeks_lapsing(pool), keys.seek_states(pool),
                           keys.seek_tables(pool), keys.seek_records(pool)],
                     args=[table_id, *seek_ids])

    def claimed_tables(self, pool: str) -> dict[str, dict]:
        """Tables claimed and not yet settled (a run died between the two)."""
        return {table_id.decode(): json.loads(plan)
                for table_id, plan in self.redis.hgetall(keys.seek_tables(pool)).items()}

    def settle(self, pool: str, table_id: str, seek_ids: list[str], now: float,
               partners: dict[str, list]) -> None:
        pairs = [part for player, mates in partners.items() for part in (player, json.dumps(mates))]
        self._settle(keys=[keys.seek_states(pool), keys.seek_tables(pool), keys.seeks_ended(pool),
                           keys.seek_partners(pool)],
                     args=[table_id, now, len(seek_ids), *seek_ids, *pairs])

    def partners(self, pool: str, player_ids: list[str]) -> dict[str, list]:
        """Each player's tablemates at their last tables from the pool."""
        if not player_ids:
            return {}
        found = self.redis.hmget(keys.seek_partners(pool), player_ids)
        return {player_id: json.loads(text) for player_id, text in zip(player_ids, found) if text}

    def mark_swept(self, pool: str, seconds: float) -> bool:
        """True at most once in `seconds` for the pool: the sweeper's turn to pair it."""
        return bool(self.redis.set(keys.pairing_swept(pool), 1, nx=True, px=int(seconds * 1000)))
