"""Ratings and results in Redis: each player's standings, the finished games counted in them,
the rating history and the recent games, all in the player's own hash slot; one leaderboard per
game type in the type's slot.

A player's update is one script on their own keys that applies only if the game is not among
their results yet and their standing is still the one the update was computed from; the
leaderboard's is another on the type's keys, kept only when it holds more rated games than the
entry there, so a late or repeated one never undoes a newer. Nothing here writes two slots in
one command: each works unchanged on a Redis Cluster.
"""
from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from api.storage import keys

APPLIED, ALREADY, STALE = 1, 0, -1

# A finished game's result for one player, once: the standing replaced only if it is still the
# one read, the game recorded among the player's results (trimmed to the retention), a rating
# change and the game kept at the head of their lists.
# KEYS: standings, results, rating history, recent games.
# ARGV: game id, game type, standing read ('' none), new standing, history entry ('' none: the
#       game was not rated), recent entry, finished at, retention seconds, history length,
#       recent length.
# Returns {APPLIED, ALREADY or STALE, the standing now ('' none)}.
_APPLY = """
local current = redis.call('HGET', KEYS[1], ARGV[2]) or ''
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return {0, current} end
if current ~= ARGV[3] then return {-1, current} end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[7], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[7]) - tonumber(ARGV[8]))
if ARGV[5] ~= '' then
  redis.call('LPUSH', KEYS[3], ARGV[5])
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[9]) - 1)
end
redis.call('LPUSH', KEYS[4], ARGV[6])
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[10]) - 1)
for k = 1, 4 do redis.call('EXPIRE', KEYS[k], ARGV[8]) end
return {1, ARGV[4]}
"""

# A player's place on a leaderboard (or among its provisional players, with fewer rated games
# than it takes to be listed), kept only when it counts more rated games than the one there;
# players who have not played the type within the retention leave it.
# KEYS: leaderboard, its players, when each last played, its provisional players.
# ARGV: player id, rated games, ordinal, entry (JSON), fewest rated games to be listed, now,
# retention seconds.
_PLACE = """
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known and cjson.decode(known)['games'] >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[6], ARGV[1])
if tonumber(ARGV[2]) >= tonumber(ARGV[5]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
else
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[1])
end
local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[6]) - tonumber(ARGV[7]),
                        'LIMIT', 0, 100)
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('HDEL', KEYS[2], unpack(gone))
  redis.call('ZREM', KEYS[3], unpack(gone))
  redis.call('ZREM', KEYS[4], unpack(gone))
end
return 1
"""

# The top of a leaderboard and of its provisional players, each with their entries, and the
# caller's place and entry.
# KEYS: leaderboard, its players, its provisional players. ARGV: how many, the caller's id
# ('' none).
# Returns {ids and ordinals, entries, the caller's 0-based place (-1 none), their entry (''),
# provisional ids and ordinals, their entries}.
_TOP = """
local function best(key)
  local top = redis.call('ZREVRANGE', key, 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
  local ids = {}
  for i = 1, #top, 2 do ids[#ids + 1] = top[i] end
  local entries = {}
  if #ids > 0 then entries = redis.call('HMGET', KEYS[2], unpack(ids)) end
  return top, entries
end
local top, entries = best(KEYS[1])
local provisional, provisional_entries = best(KEYS[3])
local place, mine = -1, ''
if ARGV[2] ~= '' then
  place = redis.call('ZREVRANK', KEYS[1], ARGV[2]) or -1
  mine = redis.call('HGET', KEYS[2], ARGV[2]) or ''
end
return {top, entries, place, mine, provisional, provisional_entries}
"""

# A player's profile at one instant: name, bot flag and joining time, standings, recent games,
# the rating history of each type, and whether the player blocks the caller.
# KEYS: player hash, standings, recent games, blocks, then one rating history per type.
# ARGV: history length, recent length, the caller's id ('' anonymous).
_PROFILE = """
local histories = {}
for k = 5, #KEYS do histories[#histories + 1] = redis.call('LRANGE', KEYS[k], 0, ARGV[1] - 1) end
local blocked = ARGV[3] ~= '' and redis.call('SISMEMBER', KEYS[4], ARGV[3]) or 0
return {redis.call('HMGET', KEYS[1], 'name', 'bot', 'created'), redis.call('HGETALL', KEYS[2]),
        redis.call('LRANGE', KEYS[3], 0, ARGV[2] - 1), histories, blocked}
"""

# The ratings every player had before a game, kept with the game on its first reading so that
# a retried job computes the same updates. KEYS: game hash. ARGV: the ratings (JSON).
_SNAPSHOT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], 'ratings_before', ARGV[1])
return redis.call('HGET', KEYS[1], 'ratings_before')
"""

SNAPSHOT_FIELD = "ratings_before"


@dataclass
class ProfileRecord:
    name: str | None
    bot: bool
    created: float | None
    standings: dict[str, str]          # by game type, JSON each
    recent: list[str]                  # JSON each, newest first
    histories: dict[str, list[str]]    # by game type, JSON each, newest first
    blocks_caller: bool                # the player blocks whoever asked


@dataclass
class TopRecord:
    top: list[tuple[str, float]]       # player ids and ordinals, best first
    entries: list[str | None]          # JSON each, in the same order
    place: int | None                  # the caller's, from 0
    mine: str | None                   # the caller's entry
    provisional: list[tuple[str, float]]   # players not yet listed, best first
    provisional_entries: list[str | None]  # JSON each, in the same order


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode()


class RatingStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._apply = redis.register_script(_APPLY)
        self._place = redis.register_script(_PLACE)
        self._top = redis.register_script(_TOP)
        self._profile = redis.register_script(_PROFILE)
        self._snapshot = redis.register_script(_SNAPSHOT)

    def snapshot(self, game_id: str) -> str | None:
        return _text(self.redis.hget(keys.game(game_id), SNAPSHOT_FIELD))

    def standings(self, player_ids: list[str], game_type: str) -> dict[str, str]:
        """Each player's standing at the type as JSON ('' none): one round trip per node."""
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(keys.standings(player_id), game_type)
        return {player_id: (found or b"").decode()
                for player_id, found in zip(player_ids, pipe.execute())}

    def keep_snapshot(self, game_id: str, ratings: str) -> str | None:
        """The game's ratings before it: these, unless another run kept its own first; None
        when the game is gone."""
        return _text(self._snapshot(keys=[keys.game(game_id)], args=[ratings]))

    def apply(self, player_id: str, game_type: str, game_id: str, seen: str, standing: str,
              history_entry: str | None, recent_entry: str, finished: float,
              history_length: int, recent_length: int) -> tuple[int, str]:
        """(APPLIED, ALREADY or STALE, the player's standing now as JSON, '' none)."""
        status, now = self._apply(
            keys=[keys.standings(player_id), keys.results(player_id),
                  keys.rating_history(player_id, game_type), keys.recent_games(player_id)],
            args=[game_id, game_type, seen, standing, history_entry or "", recent_entry,
                  repr(finished), self.retention, history_length, recent_length])
        return int(status), now.decode()

    def place(self, game_type: str, player_id: str, games: int, ordinal: float, entry: str,
              fewest: int, now: float) -> None:
        self._place(keys=[keys.leaderboard(game_type), keys.leaderboard_players(game_type),
                          keys.leaderboard_played(game_type),
                          keys.leaderboard_provisional(game_type)],
                    args=[player_id, games, repr(ordinal), entry, fewest, repr(now),
                          self.retention])

    def top(self, game_type: str, count: int, caller: str | None) -> TopRecord:
        top, entries, place, mine, provisional, provisional_entries = self._top(
            keys=[keys.leaderboard(game_type), keys.leaderboard_players(game_type),
                  keys.leaderboard_provisional(game_type)],
            args=[count, caller or ""])

        def pairs(found: list) -> list[tuple[str, float]]:
            return [(found[i].decode(), float(found[i + 1])) for i in range(0, len(found), 2)]
        return TopRecord(pairs(top), [_text(entry) for entry in entries],
                         None if int(place) < 0 else int(place), _text(mine) or None,
                         pairs(provisional), [_text(entry) for entry in provisional_entries])

    def profile(self, player_id: str, game_types: list[str], history_length: int,
                recent_length: int, caller_id: str | None) -> ProfileRecord:
        head, standings, recent, histories, blocked = self._profile(
            keys=[keys.player(player_id), keys.standings(player_id),
                  keys.recent_games(player_id), keys.blocks(player_id),
                  *(keys.rating_history(player_id, kind) for kind in game_types)],
            args=[history_length, recent_length, caller_id or ""])
        name, bot, created = head
        return ProfileRecord(
            _text(name), bot == b"1", None if created is None else float(created),
            {standings[i].decode(): standings[i + 1].decode()
             for i in range(0, len(standings), 2)},
            [entry.decode() for entry in recent],
            {kind: [entry.decode() for entry in history]
             for kind, history in zip(game_types, histories)}, bool(blocked))
