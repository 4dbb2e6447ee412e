"""The reviews of finished games (`api.tables.analysis`) on their way: one hash a game, under the
game's hash tag, with the review's status, its job's id and who asked for it. A review done
moves whole to the archive (`api.storage.archived_analyses`) and its hash is let go; without an
archive the hash keeps it, as one JSON document, and expires with the game."""
from __future__ import annotations

import json
from dataclasses import dataclass

from redis import Redis

from api.storage import keys

QUEUED, RUNNING, DONE = "queued", "running", "done"
# A player's reviews asked for are forgotten this long after the last was asked for, even if
# one never ends (its job failed, its game expired), so none keeps the player waiting for good.
ASKED_SECONDS = 3600


@dataclass(frozen=True)
class StoredAnalysis:
    status: str
    job_id: str
    review: dict | None  # once done


class AnalysisStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention_seconds = retention_seconds

    def read(self, game_id: str) -> StoredAnalysis | None:
        fields = self.redis.hgetall(keys.analysis(game_id))
        if not fields:
            return None
        review = fields.get(b"review")
        return StoredAnalysis(fields[b"status"].decode(), fields[b"job"].decode(),
                              json.loads(review) if review else None)

    def request(self, game_id: str, job_id: str, player_id: str) -> bool:
        """Mark the review queued, asked for by the player, unless it is already asked for:
        whether it is new."""
        key = keys.analysis(game_id)
        with self.redis.pipeline() as pipe:
            pipe.hsetnx(key, "status", QUEUED)
            pipe.hsetnx(key, "job", job_id)
            pipe.hsetnx(key, "by", player_id)
            new, _, _ = pipe.execute()
        if new:
            self._expire_with_game(game_id)
            asked = keys.analyses_asked(player_id)
            self.redis.sadd(asked, game_id)
            self.redis.expire(asked, ASKED_SECONDS)
        return bool(new)

    def waiting_for(self, player_id: str) -> int:
        """How many reviews the player asked for are not done yet."""
        return self.redis.scard(keys.analyses_asked(player_id))

    def again(self, game_id: str) -> None:
        """A review whose job was lost waits in the queue again."""
        self.redis.hset(keys.analysis(game_id), "status", QUEUED)

    def running(self, game_id: str) -> None:
        self.redis.hset(keys.analysis(game_id), "status", RUNNING)

    def done(self, game_id: str, review: dict) -> None:
        key = keys.analysis(game_id)
        self.redis.hset(key, mapping={
            "status": DONE, "review": json.dumps(review, separators=(",", ":"))})
        self._expire_with_game(game_id)
        self._answered(game_id)

    def archived(self, game_id: str) -> None:
        """The review is kept in the archive: nothing of it stays here."""
        self._answered(game_id)
        self.redis.delete(keys.analysis(game_id))

    def _answered(self, game_id: str) -> None:
        asker = self.redis.hget(keys.analysis(game_id), "by")
        if asker:
            self.redis.srem(keys.analyses_asked(asker.decode()), game_id)

    def _expire_with_game(self, game_id: str) -> None:
        left = self.redis.pttl(keys.game(game_id))
        self.redis.pexpire(keys.analysis(game_id),
                           left if left > 0 else self.retention_seconds * 1000)
