"""The archive's outbox: finished games owed to PostgreSQL, scored by when a worker must look
at them (written before the commit that finishes a game, like the due-set; settled once the
game is archived); and the hot window, what Redis keeps of a game once it is archived."""
from __future__ import annotations

from redis import Redis

from api.storage import keys

# Removes or moves a game's entry only if its score is still the one seen; 1 when it did.
# KEYS: the outbox. ARGV: game id, seen score, new score ('' to remove).
_MOVE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then return redis.call('ZREM', KEYS[1], ARGV[1]) end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
"""


class ArchiveOutbox:
    def __init__(self, redis: Redis):
        self.redis = redis
        self._move = redis.register_script(_MOVE)

    def owe(self, game_id: str, at: float) -> None:
        self.redis.zadd(keys.ARCHIVE_OUTBOX, {game_id: at})

    def owed(self, game_id: str) -> float | None:
        return self.redis.zscore(keys.ARCHIVE_OUTBOX, game_id)

    def overdue(self, until: float, limit: int) -> list[tuple[str, float]]:
        return [(game_id.decode(), score) for game_id, score in
                self.redis.zrangebyscore(keys.ARCHIVE_OUTBOX, "-inf", until, start=0,
                                         num=limit, withscores=True)]

    def postpone(self, game_id: str, seen: float, until: float) -> bool:
        return bool(self._move(keys=[keys.ARCHIVE_OUTBOX],
                               args=[game_id, repr(seen), repr(until)]))

    def settle(self, game_id: str, seen: float | None = None) -> None:
        """The game is archived (or has nothing to archive, when it still scores `seen`)."""
        if seen is None:
            self.redis.zrem(keys.ARCHIVE_OUTBOX, game_id)
        else:
            self._move(keys=[keys.ARCHIVE_OUTBOX], args=[game_id, repr(seen), ""])

    def keep_hot(self, game_id: str, seconds: int) -> None:
        """An archived game: Redis keeps it (its hash and talk) only `seconds` more, or less
        if it was to go sooner."""
        pipe = self.redis.pipeline(transaction=False)
        for key in (*keys.game_keys(game_id), keys.chat(game_id), keys.chat_count(game_id)):
            pipe.expire(key, seconds, lt=True)
        pipe.execute()

    def size(self) -> int:
        return self.redis.zcard(keys.ARCHIVE_OUTBOX)
