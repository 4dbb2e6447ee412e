"""The player directory in Redis: one sorted set of `<folded name>\\0<player id>`, every score 0,
so a prefix of a name is one ZRANGEBYLEX. A player's entry goes with a rename; an account that
expired is dropped when a search comes across it. The player's bot description is a field of the
player's hash."""
from __future__ import annotations

from redis import Redis

from api.storage import keys

SEPARATOR = "\0"


def folded(name: str) -> str:
    return name.casefold()


def entry(name: str, player_id: str) -> str:
    return f"{folded(name)}{SEPARATOR}{player_id}"


class DirectoryStore:
    def __init__(self, redis: Redis):
        self.redis = redis

    def add(self, player_id: str, name: str, previous: str | None = None) -> None:
        pipe = self.redis.pipeline(transaction=False)
        if previous is not None and folded(previous) != folded(name):
            pipe.zrem(keys.DIRECTORY, entry(previous, player_id))
        pipe.zadd(keys.DIRECTORY, {entry(name, player_id): 0})
        pipe.execute()

    def starting(self, prefix: str, count: int) -> list[tuple[str, str]]:
        """(entry, player id) of up to `count` entries whose name starts with `prefix`, in order."""
        low = folded(prefix).encode()
        found = self.redis.zrangebylex(keys.DIRECTORY, b"[" + low, b"[" + low + b"\xff", 0, count)
        return [(member.decode(), member.decode().rpartition(SEPARATOR)[2]) for member in found]

    def forget(self, entries: list[str]) -> None:
        if entries:
            self.redis.zrem(keys.DIRECTORY, *entries)

    def set_about(self, player_id: str, text: str | None) -> None:
        if text is None:
            self.redis.hdel(keys.player(player_id), "about")
        else:
            self.redis.hset(keys.player(player_id), "about", text)

    def abouts(self, player_ids: list[str]) -> dict[str, str]:
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(keys.player(player_id), "about")
        return {player_id: text.decode() for player_id, text in zip(player_ids, pipe.execute())
                if text is not None}
