"""Invite links (one key each, naming the game), the lobby (public games waiting for players) and
the lobby entries each address made (by a digest of the address)."""
from __future__ import annotations

import time
from typing import Iterable

from redis import Redis

from api.storage import keys

LOBBY_SIZE = 50


class LobbyStore:
    def __init__(self, redis: Redis, retention_seconds: int):
        self.redis = redis
        self.retention = retention_seconds

    def invite(self, code: str) -> str | None:
        """The game an invite link is for."""
        found = self.redis.get(keys.invite(code))
        return None if found is None else found.decode()

    def add_invite(self, game_id: str, code: str) -> None:
        """An invite link to a seat opened again (written before the commit that names it)."""
        self.redis.set(keys.invite(code), game_id, ex=self.retention)

    def seat_taken(self, game_id: str, invite: str | None, started: bool) -> None:
        """After a player took a seat: its invite link goes, and the lobby entry once every seat
        is taken."""
        pipe = self.redis.pipeline(transaction=False)
        if invite:
            pipe.delete(keys.invite(invite))
        if started:
            pipe.zrem(keys.LOBBY, game_id)
        pipe.execute()

    def forget_invite(self, code: str) -> None:
        self.redis.delete(keys.invite(code))

    def forget_game(self, game_id: str, invites: Iterable[str]) -> None:
        """After a game was dropped: its invite links and lobby entry go too."""
        pipe = self.redis.pipeline(transaction=False)
        for code in invites:
            pipe.delete(keys.invite(code))
        pipe.zrem(keys.LOBBY, game_id)
        pipe.execute()

    def newest(self) -> list[str]:
        return [game_id.decode() for game_id in self.redis.zrevrange(keys.LOBBY, 0, LOBBY_SIZE - 1)]

    def leave(self, game_ids: Iterable[str]) -> None:
        game_ids = list(game_ids)
        if game_ids:
            self.redis.zrem(keys.LOBBY, *game_ids)

    def add_entry_from(self, address_key: str, game_id: str) -> None:
        key = keys.lobby_entries_from(address_key)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {game_id: time.time()})
        pipe.expire(key, self.retention)
        pipe.execute()

    def entries_from(self, address_key: str) -> int:
        """How many of the address's games are still in the lobby; the others are forgotten."""
        key = keys.lobby_entries_from(address_key)
        game_ids = self.redis.zrange(key, 0, -1)
        if not game_ids:
            return 0
        scores = self.redis.zmscore(keys.LOBBY, game_ids)
        gone = [game_id for game_id, score in zip(game_ids, scores) if score is None]
        if gone:
            self.redis.zrem(key, *gone)
        return len(game_ids) - len(gone)
