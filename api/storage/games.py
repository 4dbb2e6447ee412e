"""A game in Redis: one hash, the log while it is played, and the one commit that changes it.

The hash: `meta` (what never changes in play), `seats`, `state` (JSON each, rewritten only when
changed), `version`, `updated`, `status`, `public`, one `seat:<player id>` field per seated
player (so an ETag needs no JSON), `last:<seat>` (where the seat's last action and events sit in
the lists, so a changed secret choice replaces them), `bots_job` (the job due to move its bots),
`names` and `renamed` (players' names changed since they sat down, and how many times), `hooked`
(the players a commit marks, those found with a webhook when it last asked, as JSON; absent or
`?<token>` once one set a webhook: the next commit asks for every player again), `renames_told`
(when a rename last woke the game's watchers), `preselected` (cards chosen ahead by seat:
outside the version, so no other seat's view or ETag changes when one is chosen; a commit made
on another choice of them is refused), `results` (each seat's place and rating change, once a
finished game's results are recorded) and `ratings_before` (the ratings they were computed from:
`api.storage.ratings`). Beside it the lists of actions and events while the game is played.
Every change is one compare-and-set script on `version` (a random id beside it, `commit`, lets a
script that the client re-sent after a lost answer recognise its own write) that also refreshes
the retention of the game's keys and publishes the change on the game's channel and on the inbox
channel of each seated player: publishing needs no key, so the inboxes of the other players cost
the commit nothing and a cluster allows it.

The commit that finishes a game packs its log: the actions (seat and action only) and the
events go into the hash's `log` field as one zlib-compressed JSON document, and the lists go.
Events are kept as they were told, numbers, audiences and version stamps included, so a reader
of a finished game gets exactly what it got before; they are not rebuilt from the actions,
because notes (time-outs, stand-ins, resignations) and changed choices are not the rules' own.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Iterable

from redis import Redis

from api.storage import keys, plain_commands
from api.storage.packed_logs import FinishedLog, finished_log, pack_log, unpack_log

# The most actions a game's log holds: the action that fills it ends the game (the rule is
# `api.tables.games`'). Packed, a log of that length keeps about 40 KB (`python -m
# bench.storage`); no game at its default options comes near (560 actions at the most).
MAX_LOG_ACTIONS = 2000

# Sets the game's new fields only if nobody changed it since it was read; appends the action
# and its events, or, for a changed secret choice, puts them where the seat's last ones are,
# or, when the fields hold the packed log, drops the lists.
# KEYS: game hash, actions, events.
# An action appended to a log one short of the most actions a game may log is refused (-1),
# before anything is written: that change must end the game and pack its log instead.
# ARGV: expected version, retention seconds, expected `preselected` ('' none), the commit's id,
#       expected `hooked` ('' none; either field changed since: refused), n, n field/value pairs,
#       k, k fields to delete, u, u players whose changed names go from `names`, action entry
#       ('' none), seat, mode ('append', 'replace' or 'pack'), the most actions, m, m events,
#       then the channels to publish on.
_COMMIT = """
local head = redis.call('HMGET', KEYS[1], 'version', 'commit', 'preselected', 'hooked')
if head[1] ~= ARGV[1] then
  if head[2] == ARGV[4] and tonumber(head[1]) == tonumber(ARGV[1]) + 1 then
    return tonumber(head[1])
  end
  return 0
end
if (head[3] or '') ~= ARGV[3] or (head[4] or '') ~= ARGV[5] then return 0 end
local a = 7 + 2 * tonumber(ARGV[6])
a = a + 1 + tonumber(ARGV[a])
a = a + 1 + tonumber(ARGV[a])
if ARGV[a] ~= '' and ARGV[a + 2] == 'append'
    and redis.call('LLEN', KEYS[2]) + 1 >= tonumber(ARGV[a + 3]) then return -1 end
local version = tonumber(ARGV[1]) + 1
local n = tonumber(ARGV[6])
local fields = {'version', version, 'commit', ARGV[4]}
local i = 7
for j = 1, 2 * n do fields[#fields + 1] = ARGV[i]; i = i + 1 end
redis.call('HSET', KEYS[1], unpack(fields))
local k = tonumber(ARGV[i])
i = i + 1
if k > 0 then
  local gone = {}
  for j = 1, k do gone[j] = ARGV[i]; i = i + 1 end
  redis.call('HDEL', KEYS[1], unpack(gone))
end
local u = tonumber(ARGV[i])
i = i + 1
local names = u > 0 and redis.call('HGET', KEYS[1], 'names')
if names then
  names = cjson.decode(names)
  for j = 1, u do names[ARGV[i + j - 1]] = nil end
  if next(names) then redis.call('HSET', KEYS[1], 'names', cjson.encode(names))
  else redis.call('HDEL', KEYS[1], 'names') end
end
i = i + u
local action, seat, mode, m = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 4])
i = i + 5
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

# The caller's seat, the game's status, visibility, type and version, and events ARGV[2] to
# ARGV[3] (numbered from 0) with the count, read at one instant; of a finished game, its packed
# log instead of the two, or nothing when the caller holds it already (its version is ARGV[4]).
# KEYS: game hash, events. ARGV: the seat field, first, last, the version of the log held.
_EVENTS = """
local head = redis.call('HMGET', KEYS[1], 'version', ARGV[1], 'status', 'public', 'meta', 'log')
if not head[1] or head[1] == '0' then return false end
local kind = cjson.decode(head[5])['type']
if head[6] then
  if head[1] == ARGV[4] then return {head[2], head[3], head[4], false, -2, kind, head[1]} end
  return {head[2], head[3], head[4], head[6], -1, kind, head[1]}
end
return {head[2], head[3], head[4], redis.call('LRANGE', KEYS[2], ARGV[2], ARGV[3]),
        redis.call('LLEN', KEYS[2]), kind, head[1]}
"""

# A seat's card chosen ahead, set ('' clears it) only while the game is at the version it was
# checked at; the version stays, nothing is published. KEYS: game hash. ARGV: version, seat,
# the action as JSON or ''.
_PRESELECT = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
local chosen = cjson.decode(redis.call('HGET', KEYS[1], 'preselected') or '{}')
if ARGV[3] == '' then chosen[ARGV[2]] = nil else chosen[ARGV[2]] = cjson.decode(ARGV[3]) end
if next(chosen) then redis.call('HSET', KEYS[1], 'preselected', cjson.encode(chosen))
else redis.call('HDEL', KEYS[1], 'preselected') end
return 1
"""

# The game's log: {packed log} once finished, else {actions, events}.
# KEYS: game hash, actions, events.
_LOG = """
local packed = redis.call('HGET', KEYS[1], 'log')
if packed then return {packed} end
return {redis.call('LRANGE', KEYS[2], 0, -1), redis.call('LRANGE', KEYS[3], 0, -1)}
"""


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
    preselected: str | None = None       # the cards chosen ahead, as JSON
    results: str | None = None           # places and rating changes once recorded, as JSON
    hooked: str | None = None            # who has a webhook, as JSON (None, `?...`: unknown)


@dataclass
class Head:
    """What an ETag and the access rules need of a game, read without its JSON."""
    version: int
    seat: int | None   # the asking player's seat
    status: str
    public: bool
    renamed: int


@dataclass
class Commit:
    game_id: str
    version: int                 # the version the change was computed from
    fields: dict[str, str]       # hash fields to set
    events: list[str] = field(default_factory=list)   # JSON each, in the order told
    action: str | None = None    # the action entry, as JSON
    seat: int | None = None      # whose action it is
    replaces: bool = False       # a changed secret choice: it takes the seat's last entries
    players: list[str] = field(default_factory=list)  # whose inboxes hear of it
    seated: dict[str, int] = field(default_factory=dict)  # players who sat down, by seat
    left: list[str] = field(default_factory=list)  # players who left: their seat field and
                                                    # their changed name go
    finishes: bool = False       # the game is over with this change: its log is packed (a
                                 # finishing action is a seat's move at its turn, never a
                                 # replaced choice)
    preselected: str | None = None   # `preselected` as the change was computed from
    hooked: str | None = None        # `hooked` as the change was computed from
    cleared: list[str] = field(default_factory=list)  # hash fields to delete


@dataclass
class Events:
    """Events read at one instant, with what access needs: a page of a game in play, or the
    whole log of a finished one (None when the reader said it holds that version already)."""
    seat: int | None
    status: str
    public: bool
    type: str
    version: int
    events: list[dict] = field(default_factory=list)   # the page asked for, in play
    count: int = 0                                      # events in the log, in play
    log: FinishedLog | None = None                      # of a finished game
    finished: bool = False


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode()


def _seat_field(player_id: str | None) -> str:
    return f"seat:{player_id}" if player_id else "-"


class LogFull(Exception):
    """The action would be the last one a game's log may hold: the change must end the game."""

    def __init__(self, max_actions: int):
        super().__init__(f"a game logs at most {max_actions} actions")
        self.max_actions = max_actions


class GameStore:
    def __init__(self, redis: Redis, retention_seconds: int,
                 max_actions: int = MAX_LOG_ACTIONS):
        self.redis = redis
        self.retention = retention_seconds
        self.max_actions = max_actions
        self.plain = plain_commands.PlainCommands(redis)
        self._commit = redis.register_script(_COMMIT)
        self._events = redis.register_script(_EVENTS)
        self._log = redis.register_script(_LOG)
        self._drop = redis.register_script(_DROP)
        self._preselect = redis.register_script(_PRESELECT)

    def create(self, game_id: str, invites: Iterable[str], public_since: float | None) -> None:
        """The empty hash a first commit fills, the game's invite links, its lobby entry."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.game(game_id), mapping={"version": 0, "meta": "{}", "seats": "[]",
                                               "state": "{}"})
        pipe.expire(keys.game(game_id), self.retention)
        for code in invites:
            pipe.set(keys.invite(code), game_id, ex=self.retention)
        if public_since is not None:
            pipe.zadd(keys.LOBBY, {game_id: public_since})
        pipe.execute()

    def load(self, game_id: str, player_id: str | None = None) -> GameRecord | None:
        values = self.plain.hmget(keys.game(game_id), "version", "meta", "seats", "state",
                                  "updated", "bots_job", "status", "names", "public", "renamed",
                                  _seat_field(player_id), "preselected", "results", "hooked")
        if values[0] is None or values[0] == b"0":
            return None
        return GameRecord(version=int(values[0]), meta=values[1].decode(),
                          seats=values[2].decode(), state=values[3].decode(),
                          updated=float(values[4] or 0), bots_job=_text(values[5]),
                          seat=None if values[10] is None else int(values[10]),
                          status=_text(values[6]), names=values[7] and json.loads(values[7]),
                          public=values[8] == b"1", renamed=int(values[9] or 0),
                          preselected=_text(values[11]), results=_text(values[12]),
                          hooked=_text(values[13]))

    def head(self, game_id: str, player_id: str | None) -> Head | None:
        version, seat, status, public, renamed = self.plain.hmget(
            keys.game(game_id), "version", _seat_field(player_id), "status", "public", "renamed")
        if version is None or version == b"0":
            return None
        return Head(int(version), None if seat is None else int(seat), status.decode(),
                    public == b"1", int(renamed or 0))

    def commit(self, change: Commit) -> int | None:
        """The new version, or None when somebody changed the game first; LogFull when the
        change's action would be the game's last one the log may hold and it does not finish it.

        A finishing change reads the log first (one more command, once in a game's life); the
        compare-and-set on the version makes sure the log did not change in between."""
        fields = {**change.fields, **{f"seat:{player_id}": seat
                                      for player_id, seat in change.seated.items()}}
        mode = "replace" if change.replaces else "append"
        if change.finishes:
            actions, events = self._read_log(change.game_id)
            if change.action:
                actions.append(json.loads(change.action))
            fields["log"] = pack_log(actions, [*events, *map(json.loads, change.events)])
            mode = "pack"
        args: list = [change.version, self.retention, change.preselected or "",
                      secrets.token_hex(8), change.hooked or "", len(fields)]
        args += [part for pair in fields.items() for part in pair]
        gone = [*change.cleared, *(f"seat:{player_id}" for player_id in change.left)]
        args += [len(gone), *gone, len(change.left), *change.left, change.action or "",
                 "" if change.seat is None else change.seat, mode, self.max_actions,
                 len(change.events), *change.events, keys.game_channel(change.game_id),
                 *map(keys.inbox_channel, [*change.players, *change.left])]
        version = self.plain.script(self._commit, keys.game_keys(change.game_id), args)
        if version == -1:
            raise LogFull(self.max_actions)
        return int(version) if version else None

    def _read_log(self, game_id: str) -> tuple[list[dict], list[dict]]:
        found = self._log(keys=keys.game_keys(game_id))
        if len(found) == 1:
            return unpack_log(found[0])
        actions, events = found
        return [json.loads(entry) for entry in actions], [json.loads(entry) for entry in events]

    def drop(self, game_id: str, version: int, players: list[str]) -> bool:
        """Deletes the game if it is still at `version`; its players' inboxes hear of it."""
        game_keys = [*keys.game_keys(game_id), keys.chat(game_id), keys.chat_count(game_id)]
        channels = [keys.game_channel(game_id), *map(keys.inbox_channel, players)]
        return bool(self._drop(keys=game_keys, args=[version, *channels]))

    def preselect(self, game_id: str, version: int, seat: int, action: str | None) -> bool:
        """Set (None: clear) the seat's card chosen ahead if the game is still at `version`."""
        return bool(self._preselect(keys=[keys.game(game_id)], args=[version, seat, action or ""]))

    def set_bots_job(self, game_id: str, job_id: str) -> None:
        self.redis.hset(keys.game(game_id), "bots_job", job_id)

    def actions(self, game_id: str) -> list[dict]:
        """Every action, {"seat", "action"} each, oldest first."""
        return self._read_log(game_id)[0]

    def packed_log(self, game_id: str) -> bytes | None:
        """A finished game's packed log, as stored (None while it is played)."""
        return self.redis.hget(keys.game(game_id), "log")

    def log(self, game_id: str, version: int) -> FinishedLog | None:
        """A finished game's whole log (None while it is played)."""
        packed = self.redis.hget(keys.game(game_id), "log")
        return None if packed is None else finished_log(version, packed)

    def events(self, game_id: str, player_id: str | None, after: int, limit: int,
               log_held: int | None = None) -> Events | None:
        """Up to `limit` events after number `after` of a game in play; of a finished one its
        whole log, unless the caller holds the log of version `log_held`."""
        after = max(after, 0)
        found = self._events(keys=[keys.game(game_id), keys.events(game_id)],
                             args=[_seat_field(player_id), after, after + limit - 1,
                                   "" if log_held is None else log_held])
        if not found:
            return None
        seat, status, public, raw, count, game_type, version = found
        read = Events(None if seat is None else int(seat), status.decode(), public == b"1",
                      game_type.decode(), int(version))
        if count < 0:  # finished: -1 its packed log, -2 the one the caller holds
            read.finished = True
            read.log = finished_log(read.version, raw) if count == -1 else None
        else:
            read.events, read.count = [json.loads(entry) for entry in raw], int(count)
        return read

    def versions(self, game_ids: list[str]) -> list[tuple[int, int] | None]:
        """Each game's version and renames (None when it is gone), in one round trip per node."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(keys.game(game_id), "version", "renamed")
        return [None if version is None else (int(version), int(renamed or 0))
                for version, renamed in pipe.execute()]

    def claim_rematch(self, game_id: str) -> bool:
        return bool(self.redis.set(keys.rematch_claim(game_id), "pending", nx=True, ex=30))

    def release_rematch(self, game_id: str) -> None:
        """The game's rematch is gone: another may be claimed at once."""
        self.redis.delete(keys.rematch_claim(game_id))

    def sizes(self, game_id: str) -> dict[str, int]:
        """Bytes Redis holds for a game: its hash, actions and events, and the state alone.
        What a bench or an operator reads."""
        parts = {"hash": keys.game(game_id), "actions": keys.actions(game_id),
                 "events": keys.events(game_id)}
        sizes = {name: self.redis.memory_usage(key, samples=0) or 0 for name, key in parts.items()}
        sizes["state"] = self.redis.hstrlen(keys.game(game_id), "state")
        return sizes
