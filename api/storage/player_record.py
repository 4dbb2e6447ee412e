"""What a player owns, kept in PostgreSQL and cached in Redis: the player's hash (name, bot flag,
clock, friend code, when they joined and were last active), their devices' token hashes,
passkeys, friends and blocks, standings, rating history and finished games.

Writes go to Redis first, as the hot path reads them, then to PostgreSQL through an outbox:
the player is owed (`players:outbox`, scored by when a sweeper must look) before their keys
change, and saved right after (`save`: the whole of their keys, in one transaction under the
player's lock, `api.storage.player_rows`); the entry is settled only if no newer change owed
the player meanwhile. So a process that dies between the two, or a database that is away,
leaves the entry, and the worker's sweeper saves the player later. Why an outbox rather than a
plain write-through: the writes that matter most (a rating update, a friend or passkey within
the most allowed) are Redis scripts that check and write at once, and play must go on while
PostgreSQL is away.

Reads stay on Redis; a player Redis let go (after `POYTA_RETENTION_DAYS` idle) is read back
from PostgreSQL and cached again (`restore`) before anything reads or changes their keys.
"""
from __future__ import annotations

import json
import time
from contextlib import contextmanager

from redis import Redis

from api.storage import keys, sql
from api.storage.directory import entry as directory_entry
from api.storage.player_rows import BoardRow, PlayerRows, PlayerSnapshot

RETRY_SECONDS = 15.0       # an owed player's next look by the sweeper
SWEEP_LIMIT = 100          # players a sweep saves at most
RESTORED_LENGTH = 50       # rating changes per type and finished games read back, as Redis keeps
BOARD_CACHE_SECONDS = 30   # a leaderboard read from PostgreSQL is kept this long (or to a save)

# A player's keys at one instant. KEYS: `keys.owned_keys`.
_SNAPSHOT = """
local histories = {}
for k = 9, #KEYS do histories[#histories + 1] = redis.call('LRANGE', KEYS[k], 0, -1) end
return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]),
        redis.call('HGETALL', KEYS[3]), redis.call('SMEMBERS', KEYS[4]),
        redis.call('SMEMBERS', KEYS[5]), redis.call('HGETALL', KEYS[6]),
        redis.call('LRANGE', KEYS[8], 0, -1), histories}
"""

# A player's keys written back from PostgreSQL, unless Redis holds the player (their hash, or a
# bot level's standings). KEYS: `keys.owned_keys`. ARGV: the player (JSON), retention seconds.
_RESTORE = """
local doc = cjson.decode(ARGV[1])
if redis.call('EXISTS', doc['fields'] and KEYS[1] or KEYS[6]) == 1 then return 0 end
if doc['fields'] then
  for field, value in pairs(doc['fields']) do redis.call('HSET', KEYS[1], field, value) end
  for id, entry in pairs(doc['devices']) do
    redis.call('HSET', KEYS[2], id, entry)
    redis.call('HSET', KEYS[1], 'token:' .. cjson.decode(entry)['token_hash'], id)
  end
  for id, entry in pairs(doc['passkeys']) do redis.call('HSET', KEYS[3], id, entry) end
  for _, other in ipairs(doc['friends']) do redis.call('SADD', KEYS[4], other) end
  for _, other in ipairs(doc['blocks']) do redis.call('SADD', KEYS[5], other) end
end
if redis.call('EXISTS', KEYS[6]) == 0 then
  for kind, standing in pairs(doc['standings']) do redis.call('HSET', KEYS[6], kind, standing) end
  for _, entry in ipairs(doc['recent']) do
    local game = cjson.decode(entry)
    redis.call('ZADD', KEYS[7], game['at'], game['game'])
    redis.call('RPUSH', KEYS[8], entry)
  end
  for i, entries in ipairs(doc['histories']) do
    for _, entry in ipairs(entries) do redis.call('RPUSH', KEYS[8 + i], entry) end
  end
end
for k = 1, #KEYS do redis.call('EXPIRE', KEYS[k], ARGV[2]) end
return 1
"""

# The entry settled only if its score is still the one seen. KEYS: the outbox.
# ARGV: player id, seen score.
_SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""


def _pairs(flat: list) -> dict[str, str]:
    return {flat[i].decode(): flat[i + 1].decode() for i in range(0, len(flat), 2)}


class PlayerRecord:
    def __init__(self, redis: Redis, database_url: str | None, retention_seconds: int,
                 game_types: tuple[str, ...], keep_everyone: bool):
        self.redis = redis
        self.rows = PlayerRows(database_url) if database_url else None
        self.retention = retention_seconds
        self.game_types = list(game_types)
        self.keep_everyone = keep_everyone
        self._snapshot = redis.register_script(_SNAPSHOT)
        self._restore = redis.register_script(_RESTORE)
        self._settle = redis.register_script(_SETTLE)

    # --- reading back ---------------------------------------------------------------------------
    def ensure(self, player_id: str) -> bool:
        """Redis holds the player's hash and what goes with it (read back from PostgreSQL if it
        let them go), before a change; False when the player is known nowhere."""
        return bool(self.redis.exists(keys.player(player_id))) or self.restore(player_id)

    def ensure_standings(self, player_id: str) -> None:
        """Redis holds the player's standings, if PostgreSQL keeps any: a bot level has no hash,
        and a rating update touches the standings and the lists beside them alone."""
        if not self.redis.exists(keys.player(player_id), keys.standings(player_id)):
            self.restore(player_id)

    def restore(self, player_id: str) -> bool:
        """The player's keys from PostgreSQL, unless Redis holds them; False when PostgreSQL
        keeps nothing of the player. Raises one of `sql.DATABASE_ERRORS` while it is away."""
        if self.rows is None:
            return False
        found = self.rows.load(player_id, RESTORED_LENGTH, RESTORED_LENGTH)
        if found is None:
            return False
        doc = {"devices": found.devices, "passkeys": found.passkeys,
               "friends": sorted(found.friends), "blocks": sorted(found.blocks),
               "standings": found.standings, "recent": found.recent,
               "histories": [found.histories.get(kind, []) for kind in self.game_types]}
        if found.fields is not None:  # absent, not null: cjson's null is true in Lua
            doc["fields"] = found.fields
        if not self._restore(keys=keys.owned_keys(player_id, self.game_types),
                             args=[json.dumps(doc), self.retention]):
            return True
        for credential_id in found.passkeys:
            self.redis.set(keys.passkey_credential(credential_id), player_id, nx=True,
                           ex=self.retention)
        if found.fields is not None and found.recent:  # their finished games, in the inbox
            self.redis.zadd(keys.inbox(player_id), {
                game["game"]: game["at"] for game in map(json.loads, found.recent)}, nx=True)
            self.redis.expire(keys.inbox(player_id), self.retention)
        if found.fields and found.fields.get("name"):  # listed again, as before Redis let go
            self.redis.zadd(keys.DIRECTORY, {directory_entry(found.fields["name"], player_id): 0})
        if found.fields and found.fields.get("friend_code"):
            self.redis.set(keys.friend_code(found.fields["friend_code"]), player_id, nx=True,
                           ex=self.retention)
        return True

    def credential_owner(self, credential_id: str) -> str | None:
        """Whose passkey this credential is in PostgreSQL (None: nobody's, or no database)."""
        return None if self.rows is None else self.rows.credential_owner(credential_id)

    def friend_code_owner(self, code: str) -> str | None:
        """Whose friend link this is in PostgreSQL, their keys cached again."""
        owner = None if self.rows is None else self.rows.friend_code_owner(code)
        return owner if owner is not None and self.ensure(owner) else None

    # --- saving ---------------------------------------------------------------------------------
    @contextmanager
    def changing(self, *player_ids: str):
        """Around a change of these players' keys: their keys in Redis first, the players owed
        ahead of it and saved after it."""
        for player_id in player_ids:
            self.ensure(player_id)
        due = self.owe(*player_ids)
        yield
        for player_id in player_ids:
            self.save(player_id, due)

    def owe(self, *player_ids: str) -> float | None:
        """The players owed to PostgreSQL; the score their entries have (None: no database)."""
        if self.rows is None or not player_ids:
            return None
        due = time.time() + RETRY_SECONDS
        self.redis.zadd(keys.PLAYER_OUTBOX, {player_id: due for player_id in player_ids})
        return due

    def snapshot(self, player_id: str) -> PlayerSnapshot:
        head, devices, passkeys, friends, blocks, standings, recent, histories = self._snapshot(
            keys=keys.owned_keys(player_id, self.game_types))
        return PlayerSnapshot(
            player_id, _pairs(head) or None, _pairs(devices), _pairs(passkeys),
            {other.decode() for other in friends}, {other.decode() for other in blocks},
            _pairs(standings), {kind: [entry.decode() for entry in entries] for kind, entries
                                in zip(self.game_types, histories) if entries},
            [entry.decode() for entry in recent])

    def save(self, player_id: str, seen: float | None) -> bool:
        """The player's keys into PostgreSQL now, and their entry settled if it still scores
        `seen` (what this change owed); False when the database is away (the entry stays for
        the sweeper) or there is none."""
        if self.rows is None or sql.away(self.rows.url):
            return False
        try:
            saved = self.rows.save(player_id, lambda: self.snapshot(player_id),
                                   self.keep_everyone)
        except sql.DATABASE_ERRORS:
            sql.note_away(self.rows.url)
            self.owe(player_id)
            return False
        if seen is not None:
            self._settle(keys=[keys.PLAYER_OUTBOX], args=[player_id, repr(seen)])
        if saved is not None and saved.standings:
            pipe = self.redis.pipeline(transaction=False)
            for kind in saved.standings:
                pipe.delete(keys.leaderboard_cache(kind))
            pipe.execute()
        return True

    def sweep(self, now: float) -> int:
        """Save every player owed whose time has come; the players saved."""
        if self.rows is None or sql.away(self.rows.url):
            return 0
        saved = 0
        for player_id, _ in self.redis.zrangebyscore(keys.PLAYER_OUTBOX, "-inf", now, start=0,
                                                      num=SWEEP_LIMIT, withscores=True):
            self.redis.zadd(keys.PLAYER_OUTBOX, {player_id: now + RETRY_SECONDS})
            saved += self.save(player_id.decode(), now + RETRY_SECONDS)
        return saved

    def owed(self) -> int:
        return self.redis.zcard(keys.PLAYER_OUTBOX)

    # --- leaderboards ---------------------------------------------------------------------------
    def board(self, game_type: str, fewest: int, count: int, since_days: float | None
              ) -> tuple[list[BoardRow], list[BoardRow]]:
        """The listed and provisional players of a leaderboard, from PostgreSQL, cached."""
        field = "all" if since_days is None else repr(since_days)
        cached = self.redis.hget(keys.leaderboard_cache(game_type), field)
        if cached is not None:
            listed, provisional = json.loads(cached)
            return [BoardRow(*row) for row in listed], [BoardRow(*row) for row in provisional]
        if self.rows is None:
            return [], []
        since = None if since_days is None else time.time() - since_days * 86400
        listed, provisional = self.rows.board(game_type, fewest, count, since)
        pipe = self.redis.pipeline()
        pipe.hset(keys.leaderboard_cache(game_type), field, json.dumps([
            [list(vars(row).values()) for row in listed],
            [list(vars(row).values()) for row in provisional]]))
        pipe.expire(keys.leaderboard_cache(game_type), BOARD_CACHE_SECONDS)
        pipe.execute()
        return listed, provisional

    def forget_leaderboards(self) -> None:
        """Every leaderboard read again from PostgreSQL (a player left them all)."""
        pipe = self.redis.pipeline(transaction=False)
        for kind in self.game_types:
            pipe.delete(keys.leaderboard_cache(kind))
        pipe.execute()

    def place(self, game_type: str, player_id: str, fewest: int, since_days: float | None
              ) -> tuple[int | None, BoardRow] | None:
        if self.rows is None:
            return None
        since = None if since_days is None else time.time() - since_days * 86400
        return self.rows.place(game_type, player_id, fewest, since)
