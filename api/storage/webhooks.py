"""Players' webhooks in Redis: in the game store each player's one webhook (a hash in the
player's slot) and the lease of its one delivery run at a time (`WebhookStore`); beside the
queue the players with a webhook and the marks of deliveries that may be owed (`WebhookMarks`,
`keys.WEBHOOKS`, `keys.WEBHOOKS_DUE`), so that a commit's mark costs the game store nothing.

A mark is `<player>:<token>`, scored on the queue Redis's clock (one server: no two clocks to
disagree) by when the sweeper queues a delivery unless the mark was settled first. A commit
marks its players before it commits and settles after it queued their delivery; a delivery run
marks its player while it runs and settles when it is done."""
from __future__ import annotations

import secrets

from redis import Redis

from api.storage import keys

# Replaces the fields only while the webhook is still the one the run read (not deleted, not
# replaced by a new PUT). KEYS: the webhook hash. ARGV: its id, then field, value pairs.
_SAVE = """
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1
"""

# The lease for a run, or (held by another run) the note that the holder must look again.
# KEYS: lease, again. ARGV: the run's token, seconds.
_BEGIN = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return 1 end
redis.call('SET', KEYS[2], '1', 'EX', ARGV[2])
return 0
"""

# At the end of a run's look: 1 (the lease kept, renewed) when another run asked for one more
# look meanwhile, 0 when the lease is given up, -1 when it was no longer this run's.
# KEYS: lease, again. ARGV: the run's token, seconds.
_FINISH = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
if redis.call('DEL', KEYS[2]) == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return 1
end
redis.call('DEL', KEYS[1])
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# `hooked` set to ARGV[1] in a game that is still there. KEYS: game hash.
_FORGET_HOOKED = """
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'hooked', ARGV[1]) end
"""

# Marks each of the players who has a webhook, due in ARGV[1] seconds from the server's now;
# returns the players marked. KEYS: WEBHOOKS, WEBHOOKS_DUE. ARGV: seconds, token, players...
_MARK = """
local now = redis.call('TIME')
local due = tonumber(now[1]) + tonumber(now[2]) / 1000000 + tonumber(ARGV[1])
local marked = {}
for k = 3, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[k]) == 1 then
    redis.call('ZADD', KEYS[2], due, ARGV[k] .. ':' .. ARGV[2])
    marked[#marked + 1] = ARGV[k]
  end
end
return marked
"""

# The marks whose time passed on the server's clock. KEYS: WEBHOOKS_DUE. ARGV: the most.
_OVERDUE = """
local now = redis.call('TIME')
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', tonumber(now[1]) + tonumber(now[2]) / 1000000,
                  'LIMIT', 0, ARGV[1])
"""


def member(player_id: str, token: str) -> str:
    return f"{player_id}:{token}"


def player_of(mark: str) -> str:
    return mark.partition(":")[0]


class WebhookStore:
    """In the game store."""

    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._save = redis.register_script(_SAVE)
        self._begin = redis.register_script(_BEGIN)
        self._finish = redis.register_script(_FINISH)
        self._release = redis.register_script(_RELEASE)

    # --- the webhook ----------------------------------------------------------------------------
    def put(self, player_id: str, fields: dict[str, str]) -> None:
        """The player's webhook, replacing any other (a player has one)."""
        key = keys.webhook(player_id)
        pipe = self.redis.pipeline()
        pipe.delete(key)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, self.retention)
        pipe.execute()

    def get(self, player_id: str) -> dict[str, str] | None:
        found = self.redis.hgetall(keys.webhook(player_id))
        return {name.decode(): value.decode() for name, value in found.items()} or None

    def delete(self, player_id: str) -> bool:
        return bool(self.redis.delete(keys.webhook(player_id)))

    def save(self, player_id: str, hook_id: str, fields: dict[str, str]) -> bool:
        """False when the webhook is no longer `hook_id` (deleted, or replaced meanwhile)."""
        pairs = [part for name, value in fields.items() for part in (name, value)]
        return bool(self._save(keys=[keys.webhook(player_id)], args=[hook_id, *pairs]))

    def forget_hooked(self, game_ids: list[str]) -> None:
        """The player of these games set a webhook: each game's next commit marks every player
        and learns who has one (`api.storage.games`' `hooked`). A fresh token each time, so a
        change computed before (its marks made before the webhook was known) is refused and
        made again."""
        unknown = "?" + secrets.token_hex(4)
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            # EVAL with the script's text: a cluster's pipeline cannot load a script a node has
            # not seen (a webhook is set rarely).
            pipe.execute_command("EVAL", _FORGET_HOOKED, 1, keys.game(game_id), unknown)
        pipe.execute()

    # --- one delivery run at a time ---------------------------------------------------------
    def _lease_keys(self, player_id: str) -> list[str]:
        return [keys.webhook_lease(player_id), keys.webhook_again(player_id)]

    def begin(self, player_id: str, token: str, seconds: int) -> bool:
        """The lease for this run; False when another run holds it (and will look again)."""
        return bool(self._begin(keys=self._lease_keys(player_id), args=[token, seconds]))

    def finish(self, player_id: str, token: str, seconds: int) -> bool:
        """True when the run must look once more (the lease kept), False when it is given up."""
        return self._finish(keys=self._lease_keys(player_id), args=[token, seconds]) == 1

    def release(self, player_id: str, token: str) -> None:
        self._release(keys=[keys.webhook_lease(player_id)], args=[token])



class WebhookMarks:
    """Beside the queue (on RQ's Redis)."""

    def __init__(self, redis: Redis):
        self.redis = redis
        self._mark = redis.register_script(_MARK)
        self._overdue = redis.register_script(_OVERDUE)

    def add(self, player_id: str) -> None:
        """The player has a webhook: changes that concern them are marked from now on."""
        self.redis.sadd(keys.WEBHOOKS, player_id)

    def forget(self, player_id: str) -> None:
        """No more deliveries for the player (the webhook was deleted or expired)."""
        self.redis.srem(keys.WEBHOOKS, player_id)

    def mark(self, players: list[str], token: str, seconds: float) -> list[str]:
        """Mark the players with a webhook as owed a delivery, due in `seconds`; the marks."""
        if not players:
            return []
        marked = self._mark(keys=[keys.WEBHOOKS, keys.WEBHOOKS_DUE],
                            args=[seconds, token, *dict.fromkeys(players)])
        return [member(player.decode(), token) for player in marked]

    def settle(self, marks: list[str]) -> None:
        if marks:
            self.redis.zrem(keys.WEBHOOKS_DUE, *marks)

    def overdue(self, limit: int) -> list[str]:
        return [mark.decode() for mark in self._overdue(keys=[keys.WEBHOOKS_DUE], args=[limit])]
