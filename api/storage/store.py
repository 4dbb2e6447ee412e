"""Every Redis key, script and channel of Pöytä: the only module that talks to Redis.

Cluster-ready: every multi-key command and script touches one hash slot. A game's keys share
the hash tag `{<game id>}`, a player's keys `{<player id>}`; work that spans several of them
(the lobby, invites, the due-set, another player's inbox) goes as separate single-slot calls,
in non-transactional pipelines that a cluster client splits by node.

A game is one hash: `meta` (what never changes in play), `seats`, `state` (JSON each, rewritten
only when changed), `version`, `updated`, `status`, `public`, one `seat:<player id>` field per
seated player (so an ETag needs no JSON), `last:<seat>` (where the seat's last action and events
sit in the lists, so a changed secret choice replaces them), `bots_job` (the job due to move its
bots), `names` and `renamed` (players' names changed since they sat down, and how many times).
Beside it the lists of actions and events while the game is played. Every change is one
compare-and-set script on `version` that also refreshes the retention of the game's keys and
publishes the change on the game's channel and on the inbox channel of each seated player:
publishing needs no key, so the inboxes of the other players cost the commit nothing and a
cluster allows it.

The commit that finishes a game packs its log: the actions (seat and action only) and the
events go into the hash's `log` field as one zlib-compressed JSON document, and the lists go.
Events are kept as they were told, numbers, audiences and version stamps included, so a reader
of a finished game gets exactly what it got before; they are not rebuilt from the actions,
because notes (time-outs, stand-ins, resignations) and changed choices are not the rules' own.

The due-set (`due`, score = when a worker must look at the game) is written before a commit that
makes bots due or starts a deadline; the sweeper repairs it from the games themselves.
"""
from __future__ import annotations

import json
import time
import zlib
from dataclasses import dataclass
from typing import Iterable

from redis import Redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

DUE = "due"
LOBBY = "lobby"
VAPID_KEY = "vapid:private_key"
SWEEP_LOCK = "sweep:lock"
GAME_CHANNEL = "changed:game:"
INBOX_CHANNEL = "changed:inbox:"
CHANNEL_PATTERN = "changed:*"
INBOX_GAMES = 200          # the most games an inbox keeps
LOBBY_SIZE = 50

# Sets the game's new fields only if nobody changed it since it was read; appends the action
# and its events, or, for a changed secret choice, puts them where the seat's last ones are,
# or, when the fields hold the packed log, drops the lists.
# KEYS: game hash, actions, events.
# ARGV: expected version, retention seconds, n, n field/value pairs, k, k fields to delete,
#       a player whose changed name goes from `names` ('' none), action entry ('' none), seat,
#       mode ('append', 'replace' or 'pack'), m, m events, then the channels to publish on.
_COMMIT = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
local version = tonumber(ARGV[1]) + 1
local n = tonumber(ARGV[3])
local fields = {'version', version}
local i = 4
for j = 1, 2 * n do fields[#fields + 1] = ARGV[i]; i = i + 1 end
redis.call('HSET', KEYS[1], unpack(fields))
local k = tonumber(ARGV[i])
i = i + 1
if k > 0 then
  local gone = {}
  for j = 1, k do gone[j] = ARGV[i]; i = i + 1 end
  redis.call('HDEL', KEYS[1], unpack(gone))
end
local unname = ARGV[i]
i = i + 1
local names = unname ~= '' and redis.call('HGET', KEYS[1], 'names')
if names then
  names = cjson.decode(names)
  names[unname] = nil
  if next(names) then redis.call('HSET', KEYS[1], 'names', cjson.encode(names))
  else redis.call('HDEL', KEYS[1], 'names') end
end
local action, seat, mode, m = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
i = i + 4
local replaced = false
if mode == 'pack' then
  redis.call('DEL', KEYS[2], KEYS[3])
  replaced = true
elseif mode == 'replace' then
  local previous = redis.call('HGET', KEYS[1], 'last:' .. seat)
  if previous then
    local at = {}
    for word in string.gmatch(previous, '%S+') do at[#at + 1] = tonumber(word) end
    if #at == m + 1 and redis.call('LLEN', KEYS[2]) > at[1] then
      redis.call('LSET', KEYS[2], at[1], action)
      for j = 1, m do redis.call('LSET', KEYS[3], at[j + 1], ARGV[i + j - 1]) end
      replaced = true
    end
  end
end
if not replaced then
  local at = {}
  if action ~= '' then at[1] = redis.call('RPUSH', KEYS[2], action) - 1 end
  for j = 1, m do at[#at + 1] = redis.call('RPUSH', KEYS[3], ARGV[i + j - 1]) - 1 end
  if action ~= '' then redis.call('HSET', KEYS[1], 'last:' .. seat, table.concat(at, ' ')) end
end
for k = 1, 3 do redis.call('EXPIRE', KEYS[k], ARGV[2]) end
for j = i + m, #ARGV do redis.call('PUBLISH', ARGV[j], version) end
return version
"""

# Deletes a game that nobody changed since it was read (a waiting game its last player left),
# and tells whoever waits on it. KEYS: the game's keys, the hash first. ARGV: expected
# version, then the channels to publish on.
_DROP = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('DEL', unpack(KEYS))
for j = 2, #ARGV do redis.call('PUBLISH', ARGV[j], 0) end
return 1
"""

# The caller's seat, the game's status, visibility and type, and the events after ARGV[2] with
# the count, read at one instant; of a finished game, its packed log instead of the two.
# KEYS: game hash, events. ARGV: the seat field, after.
_EVENTS = """
local head = redis.call('HMGET', KEYS[1], 'version', ARGV[1], 'status', 'public', 'meta', 'log')
if not head[1] or head[1] == '0' then return false end
local kind = cjson.decode(head[5])['type']
if head[6] then return {head[2], head[3], head[4], head[6], -1, kind} end
return {head[2], head[3], head[4], redis.call('LRANGE', KEYS[2], ARGV[2], -1),
        redis.call('LLEN', KEYS[2]), kind}
"""

# The game's log: {packed log} once finished, else {actions, events}.
# KEYS: game hash, actions, events.
_LOG = """
local packed = redis.call('HGET', KEYS[1], 'log')
if packed then return {packed} end
return {redis.call('LRANGE', KEYS[2], 0, -1), redis.call('LRANGE', KEYS[3], 0, -1)}
"""

# A player's new name at one unfinished table where they sit: kept in the game's `names` (by
# player id), counted in `renamed` (part of the ETag) and told on the game's channel and its
# players' inbox channels.
# KEYS: game hash. ARGV: player id, name, game channel, inbox channel prefix.
_RENAME = """
local seat, status, seats = unpack(redis.call('HMGET', KEYS[1], 'seat:' .. ARGV[1], 'status',
                                              'seats'))
if not seat or status == 'finished' then return 0 end
local names = cjson.decode(redis.call('HGET', KEYS[1], 'names') or '{}')
names[ARGV[1]] = ARGV[2]
redis.call('HSET', KEYS[1], 'names', cjson.encode(names))
local renamed = redis.call('HINCRBY', KEYS[1], 'renamed', 1)
redis.call('PUBLISH', ARGV[3], renamed)
for _, entry in ipairs(cjson.decode(seats)) do
  if type(entry['player_id']) == 'string' then
    redis.call('PUBLISH', ARGV[4] .. entry['player_id'], renamed)
  end
end
return 1
"""

# Who holds a token: the player's name and bot flag if the token is theirs, and the player's
# keys kept for another retention period. KEYS: the player's keys. ARGV: token field, seconds.
_IDENTITY = """
local found = redis.call('HMGET', KEYS[1], 'name', 'bot', ARGV[1])
if not found[1] or not found[3] then return false end
for k = 1, #KEYS do redis.call('EXPIRE', KEYS[k], ARGV[2]) end
return found
"""

# Deletes KEYS[1] only while it holds ARGV[1].
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Moves a game in the due-set only if its score is still the one the sweeper saw.
# KEYS: due-set. ARGV: game id, seen score, new score ('' to remove).
_RESCHEDULE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
"""


# A message said at a table, if its player is within the rate limit: numbered, appended to the
# game's list and the list cut to the most kept. Returns {number, 0}, or {0, seconds to wait}.
# KEYS: the player's rate counter at the table, the message counter, the messages.
# ARGV: limit, window seconds, message JSON (without its number), most kept, retention seconds.
_SAY = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if count > tonumber(ARGV[1]) then return {0, redis.call('TTL', KEYS[1])} end
local message = cjson.decode(ARGV[3])
message['number'] = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[3], cjson.encode(message))
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[4]), -1)
for k = 2, 3 do redis.call('EXPIRE', KEYS[k], ARGV[5]) end
return {message['number'], 0}
"""


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def _actions_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:actions"


def _events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def _chat_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat"


def _chat_count_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat-count"


def _chat_rate_key(game_id: str, player_id: str) -> str:
    return f"game:{{{game_id}}}:chat-rate:{player_id}"


def _player_key(player_id: str) -> str:
    return f"player:{{{player_id}}}"


def _devices_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:devices"


def _games_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:games"


def _push_key(player_id: str) -> str:
    return f"player:{{{player_id}}}:push"


def _player_keys(player_id: str) -> list[str]:
    return [_player_key(player_id), _devices_key(player_id), _games_key(player_id),
            _push_key(player_id)]


def _notice_key(game_id: str, seat: int, turn_since: int) -> str:
    return f"notified:{{{game_id}}}:{seat}:{turn_since}"


def game_channel(game_id: str) -> str:
    return GAME_CHANNEL + game_id


def inbox_channel(player_id: str) -> str:
    return INBOX_CHANNEL + player_id


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode()


def _pack_log(actions: list[dict], events: list[dict]) -> bytes:
    """A finished game's log as one compressed document: each action as [seat, action]."""
    document = {"actions": [[entry["seat"], entry["action"]] for entry in actions],
                "events": events}
    return zlib.compress(json.dumps(document, separators=(",", ":")).encode(), 9)


def _unpack_log(packed: bytes) -> tuple[list[dict], list[dict]]:
    document = json.loads(zlib.decompress(packed))
    return ([{"seat": seat, "action": action} for seat, action in document["actions"]],
            document["events"])


@dataclass
class GameRecord:
    """A game's hash as loaded: the JSON kept as text, so a commit sends only what changed."""
    version: int
    meta: str
    seats: str
    state: str
    updated: float
    bots_job: str | None
    seat: int | None  # the asking player's seat, when one was asked for
    status: str | None = None
    names: dict[str, str] | None = None  # players who changed name since sitting down
    public: bool = False
    renamed: int = 0                     # names changed at the table, counted in the ETag


@dataclass
class Commit:
    game_id: str
    version: int                 # the version the change was computed from
    fields: dict[str, str]       # hash fields to set
    action: str | None           # the action entry, as JSON
    seat: int | None
    replace: bool                # a changed secret choice: replace the seat's last entries
    events: list[str]
    players: list[str]           # players whose inboxes hear of it
    forget: tuple[str, ...] = ()  # hash fields to delete
    unname: str | None = None    # a player who left: their changed name goes from `names`
    finishes: bool = False       # the game is over with this change: its log is packed (a
                                 # finishing action is a seat's move at its turn, never a
                                 # replaced choice)


class Store:
    def __init__(self, redis: Redis, retention_seconds: int = 30 * 86400):
        self.redis = redis
        self.retention = retention_seconds
        self._commit = redis.register_script(_COMMIT)
        self._events = redis.register_script(_EVENTS)
        self._log = redis.register_script(_LOG)
        self._identity = redis.register_script(_IDENTITY)
        self._release = redis.register_script(_RELEASE)
        self._reschedule = redis.register_script(_RESCHEDULE)
        self._drop = redis.register_script(_DROP)
        self._say = redis.register_script(_SAY)

    # --- players -----------------------------------------------------------------------
    def create_player(self, player_id: str, fields: dict, token_hash: str, device_id: str,
                      device: dict) -> None:
        pipe = self.redis.pipeline()
        pipe.hset(_player_key(player_id), mapping={**fields, f"token:{token_hash}": device_id})
        pipe.hset(_devices_key(player_id), device_id, json.dumps(device))
        for key in (_player_key(player_id), _devices_key(player_id)):
            pipe.expire(key, self.retention)
        pipe.execute()

    def add_device(self, player_id: str, token_hash: str, device_id: str, device: dict) -> None:
        pipe = self.redis.pipeline()
        pipe.hset(_player_key(player_id), f"token:{token_hash}", device_id)
        pipe.hset(_devices_key(player_id), device_id, json.dumps(device))
        pipe.execute()

    def identity(self, player_id: str, token_hash: str) -> tuple[str, bool] | None:
        """(name, bot) of the player whose token this is; keeps the player for another retention."""
        found = self._identity(keys=_player_keys(player_id),
                               args=[f"token:{token_hash}", self.retention])
        if not found:
            return None
        return found[0].decode(), found[1] == b"1"

    def player(self, player_id: str) -> tuple[str, bool] | None:
        name, bot = self.redis.hmget(_player_key(player_id), "name", "bot")
        return None if name is None else (name.decode(), bot == b"1")

    def rename_player(self, player_id: str, name: str, game_ids: list[str]) -> None:
        """The player's new name, and at each of the games that is not finished: one round
        trip per node, whatever the number of games."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(_player_key(player_id), "name", name)
        for game_id in game_ids:
            # EVAL with the script's text: a pipeline cannot load a script a node has not seen,
            # and a cluster's pipeline routes it by its key only as a plain command.
            pipe.execute_command("EVAL", _RENAME, 1, game_key(game_id), player_id, name,
                                 game_channel(game_id), INBOX_CHANNEL)
        pipe.execute()

    def devices(self, player_id: str) -> dict[str, dict]:
        return {device_id.decode(): json.loads(raw)
                for device_id, raw in self.redis.hgetall(_devices_key(player_id)).items()}

    def revoke(self, player_id: str, device_id: str) -> str | None:
        """Forget a device and its token; the token's hash, or None when there is no such device."""
        raw = self.redis.hget(_devices_key(player_id), device_id)
        if raw is None:
            return None
        token_hash = json.loads(raw)["token_hash"]
        pipe = self.redis.pipeline()
        pipe.hdel(_player_key(player_id), f"token:{token_hash}")
        pipe.hdel(_devices_key(player_id), device_id)
        pipe.execute()
        return token_hash

    def save_signin_code(self, code_hash: str, player_id: str, seconds: int) -> None:
        self.redis.set(f"signin:{code_hash}", player_id, ex=seconds)

    def take_signin_code(self, code_hash: str) -> str | None:
        return _text(self.redis.getdel(f"signin:{code_hash}"))

    # --- games ---------------------------------------------------------------------------
    def create_game(self, game_id: str, invites: Iterable[str], public_since: float | None
                    ) -> None:
        """The empty hash a first commit fills, the game's invite links, its lobby entry."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(game_key(game_id), mapping={"version": 0, "meta": "{}", "seats": "[]",
                                              "state": "{}"})
        pipe.expire(game_key(game_id), self.retention)
        for code in invites:
            pipe.set(f"invite:{code}", game_id, ex=self.retention)
        if public_since is not None:
            pipe.zadd(LOBBY, {game_id: public_since})
        pipe.execute()

    def load(self, game_id: str, player_id: str | None = None) -> GameRecord | None:
        values = self.redis.hmget(game_key(game_id), "version", "meta", "seats", "state",
                                  "updated", "bots_job", "status", "names", "public", "renamed",
                                  f"seat:{player_id}" if player_id else "-")
        if values[0] is None or values[0] == b"0":
            return None
        return GameRecord(version=int(values[0]), meta=values[1].decode(),
                          seats=values[2].decode(), state=values[3].decode(),
                          updated=float(values[4] or 0), bots_job=_text(values[5]),
                          seat=None if values[10] is None else int(values[10]),
                          status=_text(values[6]), names=values[7] and json.loads(values[7]),
                          public=values[8] == b"1", renamed=int(values[9] or 0))

    def head(self, game_id: str, player_id: str | None
             ) -> tuple[int, int | None, str, bool, int] | None:
        """(version, the player's seat, status, public, renames): what an ETag and access need,
        no JSON."""
        version, seat, status, public, renamed = self.redis.hmget(
            game_key(game_id), "version", f"seat:{player_id}" if player_id else "-", "status",
            "public", "renamed")
        if version is None or version == b"0":
            return None
        return (int(version), None if seat is None else int(seat), status.decode(),
                public == b"1", int(renamed or 0))

    def commit(self, change: Commit) -> int | None:
        """The new version, or None when somebody changed the game first.

        A finishing change reads the log first (one more command, once in a game's life); the
        compare-and-set on the version makes sure the log did not change in between."""
        fields, mode = change.fields, "replace" if change.replace else "append"
        if change.finishes:
            actions, events = self._read_log(change.game_id)
            if change.action:
                actions.append(json.loads(change.action))
            fields = {**fields, "log": _pack_log(actions, [*events, *map(json.loads,
                                                                          change.events)])}
            mode = "pack"
        args: list = [change.version, self.retention, len(fields)]
        for field, value in fields.items():
            args += [field, value]
        args += [len(change.forget), *change.forget, change.unname or ""]
        args += [change.action or "", "" if change.seat is None else change.seat, mode,
                 len(change.events), *change.events,
                 game_channel(change.game_id), *map(inbox_channel, change.players)]
        version = self._commit(keys=self._game_keys(change.game_id), args=args)
        return int(version) if version else None

    @staticmethod
    def _game_keys(game_id: str) -> list[str]:
        return [game_key(game_id), _actions_key(game_id), _events_key(game_id)]

    def _read_log(self, game_id: str) -> tuple[list[dict], list[dict]]:
        found = self._log(keys=self._game_keys(game_id))
        if len(found) == 1:
            return _unpack_log(found[0])
        actions, events = found
        return [json.loads(entry) for entry in actions], [json.loads(entry) for entry in events]

    def drop_game(self, game_id: str, version: int, players: list[str]) -> bool:
        """Deletes the game if it is still at `version`; its players' inboxes hear of it."""
        keys = [game_key(game_id), _actions_key(game_id), _events_key(game_id),
                _chat_key(game_id), _chat_count_key(game_id)]
        channels = [game_channel(game_id), *map(inbox_channel, players)]
        return bool(self._drop(keys=keys, args=[version, *channels]))

    def set_bots_job(self, game_id: str, job_id: str) -> None:
        self.redis.hset(game_key(game_id), "bots_job", job_id)

    def actions(self, game_id: str) -> list[dict]:
        """Every action, {"seat", "action"} each, oldest first."""
        return self._read_log(game_id)[0]

    def events(self, game_id: str, player_id: str | None, after: int
               ) -> tuple[int | None, str, bool, list[dict], int, str] | None:
        """(caller's seat, status, public, events after `after`, event count, game type), at one
        instant."""
        after = max(after, 0)
        found = self._events(keys=[game_key(game_id), _events_key(game_id)],
                             args=[f"seat:{player_id}" if player_id else "-", after])
        if not found:
            return None
        seat, status, public, raw, count, game_type = found
        if count == -1:  # a finished game's packed log
            every = _unpack_log(raw)[1]
            events, count = every[after:], len(every)
        else:
            events = [json.loads(entry) for entry in raw]
        return (None if seat is None else int(seat), status.decode(), public == b"1", events,
                int(count), game_type.decode())

    def claim_rematch(self, game_id: str) -> bool:
        return bool(self.redis.set(f"game:{{{game_id}}}:rematch", "pending", nx=True, ex=30))

    def release_rematch(self, game_id: str) -> None:
        """The game's rematch is gone: another may be claimed at once."""
        self.redis.delete(f"game:{{{game_id}}}:rematch")

    # --- invites, lobby, inboxes ---------------------------------------------------------
    def invite(self, code: str) -> str | None:
        return _text(self.redis.get(f"invite:{code}"))

    def seated(self, player_id: str, game_id: str, invite: str | None, started: bool) -> None:
        """After a player took a seat: their inbox lists the game; the invite and lobby entry go."""
        pipe = self.redis.pipeline(transaction=False)
        games = _games_key(player_id)
        pipe.zadd(games, {game_id: time.time()})
        pipe.zremrangebyrank(games, 0, -INBOX_GAMES - 1)
        pipe.expire(games, self.retention)
        if invite:
            pipe.delete(f"invite:{invite}")
        if started:
            pipe.zrem(LOBBY, game_id)
        pipe.execute()

    def add_invite(self, game_id: str, code: str) -> None:
        """An invite link to a seat opened again (written before the commit that names it)."""
        self.redis.set(f"invite:{code}", game_id, ex=self.retention)

    def forget_game(self, game_id: str, invites: Iterable[str]) -> None:
        """After a game was dropped: its invite links and lobby entry go too."""
        pipe = self.redis.pipeline(transaction=False)
        for code in invites:
            pipe.delete(f"invite:{code}")
        pipe.zrem(LOBBY, game_id)
        pipe.execute()

    def lobby(self) -> list[str]:
        return [game_id.decode() for game_id in self.redis.zrevrange(LOBBY, 0, LOBBY_SIZE - 1)]

    def leave_lobby(self, game_ids: Iterable[str]) -> None:
        game_ids = list(game_ids)
        if game_ids:
            self.redis.zrem(LOBBY, *game_ids)

    def game_ids(self, player_id: str) -> list[str]:
        return [game_id.decode()
                for game_id in self.redis.zrevrange(_games_key(player_id), 0, INBOX_GAMES - 1)]

    def versions(self, game_ids: list[str]) -> list[tuple[int, int] | None]:
        """Each game's version and renames (None when it is gone), in one round trip per node."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "version", "renamed")
        return [None if version is None else (int(version), int(renamed or 0))
                for version, renamed in pipe.execute()]

    def forget_games(self, player_id: str, game_ids: list[str]) -> None:
        if game_ids:
            self.redis.zrem(_games_key(player_id), *game_ids)

    # --- the due-set -------------------------------------------------------------------------
    def mark_due(self, game_id: str, when: float) -> None:
        """Note that a worker must look at the game by `when` (written before the commit)."""
        self.redis.zadd(DUE, {game_id: when})

    def due_games(self, until: float, limit: int) -> list[tuple[str, float]]:
        return [(game_id.decode(), score) for game_id, score in
                self.redis.zrangebyscore(DUE, "-inf", until, start=0, num=limit, withscores=True)]

    def reschedule_due(self, game_id: str, seen: float, when: float | None) -> None:
        self._reschedule(keys=[DUE], args=[game_id, repr(seen), "" if when is None else repr(when)])

    def due_score(self, game_id: str) -> float | None:
        return self.redis.zscore(DUE, game_id)

    def take_sweep_lock(self, seconds: float) -> bool:
        return bool(self.redis.set(SWEEP_LOCK, "1", nx=True, px=int(seconds * 1000)))

    # --- Web Push ----------------------------------------------------------------------------
    def vapid_pem(self, make) -> bytes:
        """The server's VAPID key (PEM); the first caller's `make()` wins, so all agree."""
        pem = self.redis.get(VAPID_KEY)
        if pem is None:
            self.redis.set(VAPID_KEY, make(), nx=True)
            pem = self.redis.get(VAPID_KEY)
        return pem

    def subscribe_push(self, player_id: str, sub_id: str, entry: dict, most: int) -> bool:
        """Store a browser's subscription; False when the player already has `most` others.

        An endpoint belongs to one player at a time: whoever subscribed it last.
        """
        key = _push_key(player_id)
        if not self.redis.hexists(key, sub_id) and self.redis.hlen(key) >= most:
            return False
        previous = self.redis.set(f"push:owner:{sub_id}", player_id, get=True, ex=self.retention)
        if previous is not None and previous.decode() != player_id:
            self.redis.hdel(_push_key(previous.decode()), sub_id)
        pipe = self.redis.pipeline()
        pipe.hset(key, sub_id, json.dumps(entry))
        pipe.expire(key, self.retention)
        pipe.execute()
        return True

    def unsubscribe_push(self, player_id: str, sub_id: str) -> bool:
        if not self.redis.hdel(_push_key(player_id), sub_id):
            return False
        self._release(keys=[f"push:owner:{sub_id}"], args=[player_id])
        return True

    def push_subscriptions(self, player_id: str) -> dict[str, dict]:
        return {sub_id.decode(): json.loads(raw)
                for sub_id, raw in self.redis.hgetall(_push_key(player_id)).items()}

    # --- "your turn" notices: one per turn ---------------------------------------------------
    def take_notice_lease(self, game_id: str, seat: int, turn_since: int, lease: str,
                          seconds: int) -> bool:
        return bool(self.redis.set(_notice_key(game_id, seat, turn_since), lease, nx=True,
                                   ex=seconds))

    def release_notice_lease(self, game_id: str, seat: int, turn_since: int, lease: str) -> None:
        self._release(keys=[_notice_key(game_id, seat, turn_since)], args=[lease])

    def notice_done(self, game_id: str, seat: int, turn_since: int, seconds: int) -> None:
        self.redis.set(_notice_key(game_id, seat, turn_since), "sent", ex=seconds)

    def notices_sent(self, game_id: str, seat: int, turn_since: int) -> set[str]:
        return {target.decode() for target in
                self.redis.smembers(_notice_key(game_id, seat, turn_since) + ":sent")}

    def notice_sent(self, game_id: str, seat: int, turn_since: int, target: str,
                    seconds: int) -> None:
        key = _notice_key(game_id, seat, turn_since) + ":sent"
        pipe = self.redis.pipeline()
        pipe.sadd(key, target)
        pipe.expire(key, seconds)
        pipe.execute()

    # --- table talk: a capped list per game, a rate counter per player and game ---------------
    def say(self, game_id: str, player_id: str, message: dict, limit: int, seconds: int,
            most: int) -> tuple[int | None, int]:
        """(the message's number, 0), or (None, seconds to wait) past the rate limit."""
        number, wait = self._say(
            keys=[_chat_rate_key(game_id, player_id), _chat_count_key(game_id), _chat_key(game_id)],
            args=[limit, seconds, json.dumps(message), most, self.retention])
        return (int(number) or None, int(wait))

    def chat(self, game_id: str) -> tuple[list[dict], int]:
        """The messages kept at the table, oldest first, and the number of the last one said."""
        pipe = self.redis.pipeline()
        pipe.lrange(_chat_key(game_id), 0, -1)
        pipe.get(_chat_count_key(game_id))
        kept, last = pipe.execute()
        return [json.loads(entry) for entry in kept], int(last or 0)

    # --- what a bench or an operator reads ---------------------------------------------------
    def game_sizes(self, game_id: str) -> dict[str, int]:
        """Bytes Redis holds for a game: its hash, actions and events, and the state alone."""
        keys = {"hash": game_key(game_id), "actions": _actions_key(game_id),
                "events": _events_key(game_id)}
        sizes = {name: self.redis.memory_usage(key, samples=0) or 0 for name, key in keys.items()}
        sizes["state"] = self.redis.hstrlen(game_key(game_id), "state")
        return sizes


BOT_QUEUE = "bots"            # quick bot moves (easy, medium, deadlines): milliseconds to 0.2 s
DEEP_BOT_QUEUE = "bots-deep"  # moves of bots that think long, on workers of their own
NOTICE_QUEUE = "notices"     # its own worker: a slow webhook never delays a bot move
_WORKER_ALIVE = "worker:alive:"
FAILED_JOB_SECONDS = 86400   # a failed job is kept this long for a look, then goes


class JobBoard:
    """The job queue: RQ on its own connection (RQ does not run on a Redis Cluster), with the
    liveness beat of each worker, so the sweeper can tell a job in hand from a lost one."""

    def __init__(self, redis: Redis):
        self.redis = redis
        self.queues = {name: Queue(name, connection=redis)
                       for name in (BOT_QUEUE, DEEP_BOT_QUEUE, NOTICE_QUEUE)}

    def enqueue(self, function: str, *args, job_id: str, retry: Retry | None = None,
                queue: str = BOT_QUEUE) -> None:
        self.queues[queue].enqueue(function, *args, job_id=job_id, retry=retry, result_ttl=0,
                                   failure_ttl=FAILED_JOB_SECONDS)

    def in_hand(self, job_id: str | None) -> bool:
        """True when the job waits in the queue or runs in a worker that is still alive."""
        if job_id is None:
            return False
        try:
            job = Job.fetch(job_id, connection=self.redis)
        except NoSuchJobError:
            return False
        status = job.get_status(refresh=False)
        if status in (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED):
            return True
        if status == JobStatus.STARTED and job.worker_name:
            return bool(self.redis.exists(_WORKER_ALIVE + job.worker_name))
        job.delete()  # failed, stopped or abandoned: make room for a new run under this id
        return False

    def worker_alive(self, worker_name: str, seconds: int) -> None:
        self.redis.set(_WORKER_ALIVE + worker_name, 1, ex=seconds)

    def worker_gone(self, worker_name: str) -> None:
        self.redis.delete(_WORKER_ALIVE + worker_name)
