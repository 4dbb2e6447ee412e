"""Ratings and results in Redis: each player's standings, the finished games counted in them,
the rating history and the recent games, all in the player's own hash slot.

A player's update is one script on their own keys that applies only if the game is not among
their results yet and their standing is still the one the update was computed from. Nothing
here writes two slots in one command: each works unchanged on a Redis Cluster.

These keys are a cache of PostgreSQL (`api.storage.player_record`), which keeps every rating
change and finished game of a player and answers the leaderboards: an update is saved there,
and a player Redis let go is read back before their standing is read.
"""
from __future__ import annotations

from dataclasses import dataclass

from redis import Redis

from api.storage import keys
from api.storage.player_record import PlayerRecord

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


def _text(value: bytes | None) -> str | None:
    return None if value is None else value.decode()


class RatingStore:
    def __init__(self, redis: Redis, retention_seconds: int, record: PlayerRecord):
        self.redis = redis
        self.retention = retention_seconds
        self.record = record
        self._apply = redis.register_script(_APPLY)
        self._profile = redis.register_script(_PROFILE)
        self._snapshot = redis.register_script(_SNAPSHOT)

    def snapshot(self, game_id: str) -> str | None:
        return _text(self.redis.hget(keys.game(game_id), SNAPSHOT_FIELD))

    def standings(self, player_ids: list[str], game_type: str) -> dict[str, str]:
        """Each player's standing at the type as JSON ('' none): one round trip per node once
        Redis holds each player (read back from PostgreSQL if it let them go)."""
        for player_id in player_ids:
            self.record.ensure_standings(player_id)
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
        """(APPLIED, ALREADY or STALE, the player's standing now as JSON, '' none); an update
        applied is saved to PostgreSQL (or owed, while it is away)."""
        due = self.record.owe(player_id)
        status, now = self._apply(
            keys=[keys.standings(player_id), keys.results(player_id),
                  keys.rating_history(player_id, game_type), keys.recent_games(player_id)],
            args=[game_id, game_type, seen, standing, history_entry or "", recent_entry,
                  repr(finished), self.retention, history_length, recent_length])
        if int(status) == APPLIED:
            self.record.save(player_id, due)
        return int(status), now.decode()

    def profile(self, player_id: str, game_types: list[str], history_length: int,
                recent_length: int, caller_id: str | None) -> ProfileRecord:
        """One script while Redis holds the player; else read back from PostgreSQL first."""
        found = self._profile_of(player_id, game_types, history_length, recent_length, caller_id)
        if found.name is None and self.record.restore(player_id):
            found = self._profile_of(player_id, game_types, history_length, recent_length,
                                     caller_id)
        return found

    def _profile_of(self, player_id: str, game_types: list[str], history_length: int,
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
