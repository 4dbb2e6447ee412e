"""Table talk in Redis: a capped list of messages per game, a rate counter per player and game."""
from __future__ import annotations

import json
from typing import Iterable

from redis import Redis

from api.storage import keys

# A message said at a table, if its player is within the rate limit: numbered, appended to the
# game's list and the list cut to the most kept, and published on the table's chat channel (it
# wakes the long-polls reading it). Returns {number, 0}, or {0, seconds to wait}.
# KEYS: the player's rate counter at the table, the message counter, the messages.
# ARGV: limit, window seconds, message JSON (without its number), most kept, retention seconds,
#       then the channels to publish on: the table's chat channel, and its players' inboxes
#       (their streams tell chat).
_SAY = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if count > tonumber(ARGV[1]) then return {0, redis.call('TTL', KEYS[1])} end
local message = cjson.decode(ARGV[3])
message['number'] = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[3], cjson.encode(message))
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[4]), -1)
for k = 2, 3 do redis.call('EXPIRE', KEYS[k], ARGV[5]) end
for j = 6, #ARGV do redis.call('PUBLISH', ARGV[j], message['number']) end
return {message['number'], 0}
"""


class ChatStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds
        self._say = redis.register_script(_SAY)

    def say(self, game_id: str, player_id: str, message: dict, limit: int, seconds: int,
            most: int, players: Iterable[str] = ()) -> tuple[int | None, int]:
        """(the message's number, 0), or (None, seconds to wait) past the rate limit."""
        number, wait = self._say(
            keys=[keys.chat_rate(game_id, player_id), keys.chat_count(game_id),
                  keys.chat(game_id)],
            args=[limit, seconds, json.dumps(message), most, self.retention,
                  keys.chat_channel(game_id), *map(keys.inbox_channel, players)])
        return (int(number) or None, int(wait))

    def messages(self, game_id: str) -> tuple[list[dict], int]:
        """The messages kept at the table, oldest first, and the number of the last one said."""
        pipe = self.redis.pipeline()
        pipe.lrange(keys.chat(game_id), 0, -1)
        pipe.get(keys.chat_count(game_id))
        kept, last = pipe.execute()
        return [json.loads(entry) for entry in kept], int(last or 0)

    def newest(self, game_id: str, count: int) -> list[dict]:
        """The newest `count` messages kept at the table (fewer if fewer are kept), oldest first."""
        if count <= 0:
            return []
        return [json.loads(entry) for entry in self.redis.lrange(keys.chat(game_id), -count, -1)]
