"""A player's rights over their data, in both stores: what an export reads (every rating change
and finished game PostgreSQL keeps of them) and what a deleted account leaves behind.

Deleting an account removes every key of the player from Redis (their hash, devices, passkeys
and the claims on their credentials, push subscriptions and the endpoints' owners, webhook,
friends, blocks, seeks, inbox, standings and lists, their friend link, the directory's entry)
and every row of theirs from PostgreSQL, and records their id in `deleted_players` so that
nothing is kept of them again. Their seats in games, live or archived, stay, named
`DELETED_NAME` through the games' `names` (what a rename at a table writes), so the records
of the other players stay whole; the other players' lists of recent games name them so too.
"""
from __future__ import annotations

import json
from typing import Iterator

from redis import Redis

from api.storage import keys
from api.storage.directory import entry
from api.storage.sql import pool_for

DELETED_NAME = "deleted player"

# A player's new name at one table, finished or not: kept in the game's `names` and counted in
# `renamed` (part of the ETag), told on the game's channel. KEYS: game hash.
# ARGV: player id, name, game channel.
_RENAME_SEAT = """
if not redis.call('HGET', KEYS[1], 'seat:' .. ARGV[1]) then return 0 end
local names = cjson.decode(redis.call('HGET', KEYS[1], 'names') or '{}')
names[ARGV[1]] = ARGV[2]
redis.call('HSET', KEYS[1], 'names', cjson.encode(names))
redis.call('PUBLISH', ARGV[3], redis.call('HINCRBY', KEYS[1], 'renamed', 1))
return 1
"""

# One entry of a list replaced, if it is still the one read. KEYS: the list.
# ARGV: index, entry read, new entry.
_REPLACE_ENTRY = """
if redis.call('LINDEX', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('LSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""


def renamed_entry(text: str, seats: list[int]) -> str:
    """A recent game's entry (JSON) with these seats named `DELETED_NAME`."""
    game = json.loads(text)
    for seat in seats:
        if seat < len(game.get("names", [])):
            game["names"][seat] = DELETED_NAME
    return json.dumps(game)


class AccountStore:
    def __init__(self, redis: Redis, database_url: str | None, game_types: tuple[str, ...]):
        self.redis = redis
        self.url = database_url
        self.game_types = list(game_types)
        self._rename_seat = redis.register_script(_RENAME_SEAT)
        self._replace_entry = redis.register_script(_REPLACE_ENTRY)

    @property
    def pool(self):
        return pool_for(self.url)

    # --- export ---------------------------------------------------------------------------------
    def rating_changes(self, player_id: str) -> list[tuple[str, str]]:
        """(game type, entry as JSON) of every rating change kept, oldest first."""
        if self.url is None:
            return []
        with self.pool.connection() as connection:
            return connection.execute(
                "SELECT game_type, entry::text FROM rating_changes WHERE player_id = %s "
                "ORDER BY at, game_id", (player_id,)).fetchall()

    def finished_games(self, player_id: str, batch: int = 200) -> Iterator[str]:
        """Every finished game of the player as their recent games list it (JSON), oldest
        first, through a server-side cursor: any number in bounded memory."""
        if self.url is None:
            return
        with self.pool.connection() as connection, connection.transaction():
            cursor = connection.cursor(name="player_games")
            cursor.itersize = batch
            cursor.execute("SELECT entry::text FROM player_games WHERE player_id = %s "
                           "ORDER BY at, game_id", (player_id,))
            for (text,) in cursor:
                yield text

    # --- deletion: Redis ------------------------------------------------------------------------
    def rename_seat(self, game_id: str, player_id: str) -> bool:
        """The player's seat at this game (kept in Redis) named `DELETED_NAME`."""
        return bool(self._rename_seat(keys=[keys.game(game_id)],
                                      args=[player_id, DELETED_NAME, keys.game_channel(game_id)]))

    def rename_in_recent(self, other_id: str, seats: dict[str, list[int]]) -> None:
        """In another player's recent games held in Redis, the deleted player's seats (by game
        id) named `DELETED_NAME`."""
        key = keys.recent_games(other_id)
        for index, raw in enumerate(self.redis.lrange(key, 0, -1)):
            text = raw.decode()
            game_id = json.loads(text).get("game")
            if game_id in seats:
                self._replace_entry(keys=[key], args=[index, text,
                                                      renamed_entry(text, seats[game_id])])

    def erase_keys(self, player_id: str) -> None:
        """Every key of the player in Redis, and what names them elsewhere."""
        head = self.redis.hmget(keys.player(player_id), "name", "friend_code", "signin")
        name, code, signin = (None if value is None else value.decode() for value in head)
        credentials = [credential.decode()
                       for credential in self.redis.hkeys(keys.passkeys(player_id))]
        subscriptions = [sub.decode()
                         for sub in self.redis.hkeys(keys.push_subscriptions(player_id))]
        pipe = self.redis.pipeline(transaction=False)
        for key in (*keys.player_keys(player_id), keys.passkey_registration(player_id),
                    keys.analyses_asked(player_id), keys.player_tournaments(player_id),
                    *(keys.rating_history(player_id, kind) for kind in self.game_types)):
            pipe.delete(key)
        for credential in credentials:
            pipe.delete(keys.passkey_credential(credential))
        for sub in subscriptions:
            pipe.delete(keys.push_owner(sub))
        if code is not None:
            pipe.delete(keys.friend_code(code))
        if signin is not None:
            pipe.delete(keys.signin_code(signin))
        if name is not None:
            pipe.zrem(keys.DIRECTORY, entry(name, player_id))
        pipe.zrem(keys.DIGESTS, player_id)
        pipe.zrem(keys.PLAYER_OUTBOX, player_id)
        pipe.execute()

    # --- deletion: PostgreSQL -------------------------------------------------------------------
    def blockers(self, player_id: str) -> list[str]:
        """Who blocks the player, as PostgreSQL keeps it."""
        if self.url is None:
            return []
        with self.pool.connection() as connection:
            return [other for (other,) in connection.execute(
                "SELECT player_id FROM blocks WHERE blocked_id = %s", (player_id,)).fetchall()]

    def erase_rows(self, player_id: str) -> dict[str, dict[str, list[int]]]:
        """Every row of the player gone, their id recorded as deleted, and their seats in
        archived games and in other players' lists of them named `DELETED_NAME`, in one
        transaction under the player's lock (as a save takes it). Returns, for each other
        player of those games, the deleted player's seats by game id."""
        if self.url is None:
            return {}
        with self.pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 55))",
                               (player_id,))
            connection.execute("INSERT INTO deleted_players (player_id) VALUES (%s) "
                               "ON CONFLICT DO NOTHING", (player_id,))
            for table in ("players", "player_devices", "passkeys", "standings",
                          "rating_changes", "player_games"):
                connection.execute(f"DELETE FROM {table} WHERE player_id = %s", (player_id,))
            connection.execute("DELETE FROM friends WHERE player_id = %s OR friend_id = %s",
                               (player_id, player_id))
            connection.execute("DELETE FROM blocks WHERE player_id = %s OR blocked_id = %s",
                               (player_id, player_id))
            games = connection.execute(
                "UPDATE finished_games SET table_names = (coalesce(table_names::jsonb, "
                "'{}'::jsonb) || jsonb_build_object(%(id)s::text, %(name)s::text))::json, "
                "seat_names = (SELECT array_agg(CASE WHEN seat = %(id)s THEN %(name)s "
                "ELSE shown END ORDER BY n) FROM unnest(seat_players, seat_names) "
                "WITH ORDINALITY AS u(seat, shown, n)), renamed = renamed + 1 "
                "WHERE seat_players @> ARRAY[%(id)s::text] RETURNING game_id, seat_players",
                {"id": player_id, "name": DELETED_NAME}).fetchall()
            seats = {game_id: [index for index, seated in enumerate(players)
                               if seated == player_id] for game_id, players in games}
            touched: dict[str, dict[str, list[int]]] = {}
            if seats:
                rows = connection.execute(
                    "SELECT player_id, game_id, entry::text FROM player_games "
                    "WHERE game_id = ANY(%s)", (list(seats),)).fetchall()
                with connection.cursor() as cursor:
                    cursor.executemany(
                        "UPDATE player_games SET entry = %s::json WHERE player_id = %s "
                        "AND game_id = %s",
                        [(renamed_entry(text, seats[game_id]), other, game_id)
                         for other, game_id, text in rows])
                for other, game_id, _ in rows:
                    touched.setdefault(other, {})[game_id] = seats[game_id]
            return touched

    def deleted(self, player_id: str) -> bool:
        if self.url is None:
            return False
        with self.pool.connection() as connection:
            return connection.execute("SELECT 1 FROM deleted_players WHERE player_id = %s",
                                      (player_id,)).fetchone() is not None

    # --- the directory's backfill ---------------------------------------------------------------
    def kept_names(self, after: str, batch: int) -> list[tuple[str, str]]:
        """(player id, name) of up to `batch` players PostgreSQL keeps, by id after `after`."""
        if self.url is None:
            return []
        with self.pool.connection() as connection:
            return connection.execute(
                "SELECT player_id, name FROM players WHERE player_id > %s ORDER BY player_id "
                "LIMIT %s", (after, batch)).fetchall()
