"""A player in Redis: the hash (name, bot flag, one `token:<hash>` field per device, the live
sign-in code's hash), the devices, the inbox (the player's games), sign-in codes, and a rename
told at every table. The hash and the devices are a cache of what PostgreSQL keeps
(`api.storage.player_record`): a change is saved there, a player Redis let go is read back."""
from __future__ import annotations

import json
import time

from redis import Redis

from api.storage import keys
from api.storage.player_record import PlayerRecord

INBOX_GAMES = 200          # the most games an inbox keeps
RENAME_QUIET_SECONDS = 10  # a game tells its watchers of renames at most once in this time

# Who holds a token: the player's name and bot flag if the token is theirs, the player's keys
# kept for another retention period, and when they were last active before (`seen`: what their
# friends see), now replaced. -1 when Redis holds no such player (it may have let them go).
# KEYS: the player's keys. ARGV: token field, seconds, now.
_IDENTITY = """
local found = redis.call('HMGET', KEYS[1], 'name', 'bot', ARGV[1], 'seen')
if not found[1] then return -1 end
if not found[3] then return false end
redis.call('HSET', KEYS[1], 'seen', ARGV[3])
for k = 1, #KEYS do redis.call('EXPIRE', KEYS[k], ARGV[2]) end
return found
"""
SEEN_SAVE_SECONDS = 3600  # when a player was last active reaches PostgreSQL this often at most

# A player's new name at one unfinished table where they sit: kept in the game's `names` (by
# player id) and counted in `renamed` (part of the ETag). Told on the game's channel and its
# players' inbox channels at most once in RENAME_QUIET_SECONDS per game: a burst of renames
# wakes each watcher once, and the later names reach them with their next answer.
# KEYS: game hash. ARGV: player id, name, game channel, inbox channel prefix, now, quiet seconds.
_RENAME = """
local seat, status, seats, told = unpack(redis.call('HMGET', KEYS[1], 'seat:' .. ARGV[1],
                                                    'status', 'seats', 'renames_told'))
if not seat or status == 'finished' then return 0 end
local names = cjson.decode(redis.call('HGET', KEYS[1], 'names') or '{}')
names[ARGV[1]] = ARGV[2]
redis.call('HSET', KEYS[1], 'names', cjson.encode(names))
local renamed = redis.call('HINCRBY', KEYS[1], 'renamed', 1)
if told and tonumber(ARGV[5]) - tonumber(told) < tonumber(ARGV[6]) then return 1 end
redis.call('HSET', KEYS[1], 'renames_told', ARGV[5])
redis.call('PUBLISH', ARGV[3], renamed)
for _, entry in ipairs(cjson.decode(seats)) do
  if type(entry['player_id']) == 'string' then
    redis.call('PUBLISH', ARGV[4] .. entry['player_id'], renamed)
  end
end
return 1
"""


# A player's clock (time zone, waking window, vacation; JSON), replaced only if it is still the
# one read and the player still exists. KEYS: player hash. ARGV: the clock read ('' none), new.
_SET_CLOCK = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if (redis.call('HGET', KEYS[1], 'clock') or '') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'clock', ARGV[2])
return 1
"""


class PlayerStore:
    def __init__(self, redis: Redis, retention_seconds: int, record: PlayerRecord):
        self.redis = redis
        self.retention = retention_seconds
        self.record = record
        self._identity = redis.register_script(_IDENTITY)
        self._set_clock = redis.register_script(_SET_CLOCK)

    def create(self, player_id: str, fields: dict, token_hash: str, device_id: str,
               device: dict) -> None:
        """A new player: in Redis only, unless every player is kept (`keep_everyone`)."""
        due = self.record.owe(player_id) if self.record.keep_everyone else None
        pipe = self.redis.pipeline()
        pipe.hset(keys.player(player_id), mapping={**fields, f"token:{token_hash}": device_id})
        pipe.hset(keys.devices(player_id), device_id, json.dumps(device))
        for key in (keys.player(player_id), keys.devices(player_id)):
            pipe.expire(key, self.retention)
        pipe.execute()
        if due is not None:
            self.record.save(player_id, due)

    def add_device(self, player_id: str, token_hash: str, device_id: str, device: dict) -> None:
        with self.record.changing(player_id):
            pipe = self.redis.pipeline()
            pipe.hset(keys.player(player_id), f"token:{token_hash}", device_id)
            pipe.hset(keys.devices(player_id), device_id, json.dumps(device))
            pipe.execute()

    def identity(self, player_id: str, token_hash: str) -> tuple[str, bool] | None:
        """(name, bot) of the player whose token this is; keeps the player for another
        retention. One script while Redis holds the player; else read back from PostgreSQL
        (raises one of `sql.DATABASE_ERRORS` while it is away)."""
        now = time.time()
        found = self._identity(keys=keys.player_keys(player_id),
                               args=[f"token:{token_hash}", self.retention, now])
        if found == -1 and self.record.restore(player_id):
            found = self._identity(keys=keys.player_keys(player_id),
                                   args=[f"token:{token_hash}", self.retention, now])
        if not found or found == -1:
            return None
        if found[3] is None or now - float(found[3]) > SEEN_SAVE_SECONDS:
            self.record.owe(player_id)  # the sweeper saves when they were last active
        return found[0].decode(), found[1] == b"1"

    def get(self, player_id: str) -> tuple[str, bool] | None:
        name, bot = self.redis.hmget(keys.player(player_id), "name", "bot")
        if name is None and self.record.restore(player_id):
            name, bot = self.redis.hmget(keys.player(player_id), "name", "bot")
        return None if name is None else (name.decode(), bot == b"1")

    def rename(self, player_id: str, name: str, game_ids: list[str]) -> None:
        """The player's new name, and at each of the games that is not finished: one round
        trip per node, whatever the number of games."""
        now = time.time()
        with self.record.changing(player_id):
            self.redis.hset(keys.player(player_id), "name", name)
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            # EVAL with the script's text: a pipeline cannot load a script a node has not seen,
            # and a cluster's pipeline routes it by its key only as a plain command.
            pipe.execute_command("EVAL", _RENAME, 1, keys.game(game_id), player_id, name,
                                 keys.game_channel(game_id), keys.INBOX_CHANNEL, now,
                                 RENAME_QUIET_SECONDS)
        pipe.execute()

    def clock(self, player_id: str) -> tuple[str | None, float | None]:
        """The player's clock as JSON (None: never set), and when they joined (None: no such
        player)."""
        text, created = self.redis.hmget(keys.player(player_id), "clock", "created")
        if created is None and self.record.restore(player_id):
            text, created = self.redis.hmget(keys.player(player_id), "clock", "created")
        return (None if text is None else text.decode(),
                None if created is None else float(created))

    def set_clock(self, player_id: str, seen: str | None, text: str) -> bool:
        with self.record.changing(player_id):
            return bool(self._set_clock(keys=[keys.player(player_id)], args=[seen or "", text]))

    def devices(self, player_id: str) -> dict[str, dict]:
        return {device_id.decode(): json.loads(raw)
                for device_id, raw in self.redis.hgetall(keys.devices(player_id)).items()}

    def revoke(self, player_id: str, device_id: str) -> str | None:
        """Forget a device and its token; the token's hash, or None when there is no such device."""
        raw = self.redis.hget(keys.devices(player_id), device_id)
        if raw is None:
            return None
        token_hash = json.loads(raw)["token_hash"]
        with self.record.changing(player_id):
            pipe = self.redis.pipeline()
            pipe.hdel(keys.player(player_id), f"token:{token_hash}")
            pipe.hdel(keys.devices(player_id), device_id)
            pipe.execute()
        return token_hash

    def save_signin_code(self, code_hash: str, player_id: str, seconds: int) -> None:
        """The player's one live sign-in code: the code made before it stops working. The
        player's hash names the live code (`signin`), swapped in one transaction, so of two
        codes made at once only one stays live."""
        self.redis.set(keys.signin_code(code_hash), player_id, ex=seconds)
        pipe = self.redis.pipeline()
        pipe.hget(keys.player(player_id), "signin")
        pipe.hset(keys.player(player_id), "signin", code_hash)
        pipe.expire(keys.player(player_id), self.retention)  # as each request of the player does
        previous = pipe.execute()[0]
        if previous is not None:
            self.redis.delete(keys.signin_code(previous.decode()))

    def take_signin_code(self, code_hash: str) -> str | None:
        found = self.redis.getdel(keys.signin_code(code_hash))
        return None if found is None else found.decode()

    # --- the inbox: the games a player sat down at, newest first --------------------------------
    def add_game(self, player_id: str, game_id: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        inbox = keys.inbox(player_id)
        pipe.zadd(inbox, {game_id: time.time()})
        pipe.zremrangebyrank(inbox, 0, -INBOX_GAMES - 1)
        pipe.expire(inbox, self.retention)
        pipe.execute()

    def game_ids(self, player_id: str) -> list[str]:
        return [game_id.decode()
                for game_id in self.redis.zrevrange(keys.inbox(player_id), 0, INBOX_GAMES - 1)]

    def wake_inboxes(self, player_ids: list[str]) -> None:
        """Tell these players' inbox listeners (streams, long-polls) to look again: one PUBLISH
        each (a cluster's pipeline does not carry it)."""
        for player_id in player_ids:
            self.redis.publish(keys.inbox_channel(player_id), 0)

    def forget_games(self, player_id: str, game_ids: list[str]) -> None:
        if game_ids:
            self.redis.zrem(keys.inbox(player_id), *game_ids)
