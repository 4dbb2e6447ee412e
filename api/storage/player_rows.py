"""What a player owns, in PostgreSQL (the tables of migration 0002): saved from the player's
keys in Redis, read back when Redis has let them go, and the leaderboards over every rated game.

A save runs in one transaction that first takes the player's advisory lock and only then reads
the player's keys (`snapshot`, a callable), so two saves of one player never interleave and
the later one writes what Redis holds last. A save never deletes from what it did not read: a
player whose hash is gone leaves their rows as they are.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

from psycopg.types.json import Json

from api.storage.sql import pool_for


@dataclass
class PlayerSnapshot:
    """A player's keys as Redis holds them (JSON text where Redis keeps JSON)."""
    player_id: str
    fields: dict[str, str] | None              # the player's hash, None when it is gone
    devices: dict[str, str] = field(default_factory=dict)      # device id: entry
    passkeys: dict[str, str] = field(default_factory=dict)     # credential id: entry
    friends: set[str] = field(default_factory=set)
    blocks: set[str] = field(default_factory=set)
    standings: dict[str, str] = field(default_factory=dict)    # game type: standing
    histories: dict[str, list[str]] = field(default_factory=dict)  # newest first
    recent: list[str] = field(default_factory=list)            # newest first

    def owns_something(self) -> bool:
        """A passkey, a finished game (and so a standing), a friend or a block: never lapses."""
        return bool(self.passkeys or self.standings or self.friends or self.blocks)


@dataclass(frozen=True)
class BoardRow:
    player_id: str
    ordinal: float
    mu: float
    sigma: float
    rated: int
    name: str | None     # None for a bot level
    bot: bool


def _instant(seconds: float | str | None) -> datetime | None:
    return None if seconds in (None, "") else datetime.fromtimestamp(float(seconds), timezone.utc)


def _seconds(instant: datetime | None) -> str | None:
    return None if instant is None else repr(instant.timestamp())


_BOARD = """
SELECT s.player_id, s.ordinal, s.mu, s.sigma, s.rated, p.name, coalesce(p.bot, false)
FROM standings s LEFT JOIN players p USING (player_id)
WHERE s.game_type = %(type)s AND s.rated {compare} %(fewest)s AND s.rated > 0
  AND (%(since)s::timestamptz IS NULL OR s.last_rated >= %(since)s)
ORDER BY s.ordinal DESC, s.player_id DESC LIMIT %(count)s"""


class PlayerRows:
    def __init__(self, url: str):
        self.url = url

    @property
    def pool(self):
        return pool_for(self.url)

    def save(self, player_id: str, snapshot: Callable[[], PlayerSnapshot],
             keep_everyone: bool) -> PlayerSnapshot | None:
        """The player's rows as Redis holds them now; the snapshot saved, or None when the
        player owns nothing and was never kept (a throwaway player, left to lapse) or deleted
        their account."""
        with self.pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 55))",
                               (player_id,))
            found = snapshot()
            if connection.execute("SELECT 1 FROM deleted_players WHERE player_id = %s",
                                  (player_id,)).fetchone() is not None:
                return None  # a deleted account: nothing of it is kept again
            kept = connection.execute("SELECT 1 FROM players WHERE player_id = %s",
                                      (player_id,)).fetchone() is not None
            if not (kept or found.owns_something()
                    or (keep_everyone and found.fields is not None)):
                return None
            if found.fields is not None:
                self._save_player(connection, found)
            self._save_results(connection, found)
            return found

    @staticmethod
    def _save_player(connection, found: PlayerSnapshot) -> None:
        player_id, fields = found.player_id, found.fields
        connection.execute(
            "INSERT INTO players (player_id, name, bot, clock, friend_code, created_at, "
            "last_active) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (player_id) DO UPDATE "
            "SET name = excluded.name, bot = excluded.bot, clock = excluded.clock, "
            "friend_code = excluded.friend_code, created_at = excluded.created_at, "
            "last_active = greatest(players.last_active, excluded.last_active)",
            (player_id, fields.get("name", ""), fields.get("bot") == "1", fields.get("clock"),
             fields.get("friend_code"), _instant(fields.get("created")),
             _instant(fields.get("seen"))))
        for table in ("player_devices", "passkeys", "friends", "blocks"):
            connection.execute(f"DELETE FROM {table} WHERE player_id = %s", (player_id,))
        with connection.cursor() as cursor:
            devices = [(player_id, device_id, entry["token_hash"], entry["label"],
                        _instant(entry["created"]))
                       for device_id, entry in ((d, json.loads(e))
                                                for d, e in found.devices.items())]
            if devices:
                cursor.executemany("INSERT INTO player_devices VALUES (%s, %s, %s, %s, %s)",
                                   devices)
            if found.passkeys:
                cursor.executemany(
                    "INSERT INTO passkeys VALUES (%s, %s, %s::json) ON CONFLICT (credential_id) "
                    "DO UPDATE SET player_id = excluded.player_id, entry = excluded.entry",
                    [(credential_id, player_id, entry)
                     for credential_id, entry in found.passkeys.items()])
            for table, others in (("friends", found.friends), ("blocks", found.blocks)):
                if others:
                    cursor.executemany(f"INSERT INTO {table} VALUES (%s, %s)",
                                       [(player_id, other) for other in sorted(others)])

    @staticmethod
    def _save_results(connection, found: PlayerSnapshot) -> None:
        player_id = found.player_id
        with connection.cursor() as cursor:
            for game_type, text in found.standings.items():
                standing = json.loads(text)
                changes = [json.loads(entry) for entry in found.histories.get(game_type, [])]
                mu, sigma = standing["mu"], standing["sigma"]
                cursor.execute(
                    "INSERT INTO standings VALUES (%s, %s, %s::json, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (player_id, game_type) DO UPDATE SET standing = "
                    "excluded.standing, mu = excluded.mu, sigma = excluded.sigma, ordinal = "
                    "excluded.ordinal, rated = excluded.rated, finished = excluded.finished, "
                    "last_rated = greatest(standings.last_rated, excluded.last_rated) "
                    "WHERE standings.finished <= excluded.finished",
                    (player_id, game_type, text, mu, sigma, mu - 3 * sigma, standing["rated"],
                     standing["finished"],
                     _instant(max((change["at"] for change in changes), default=None))))
                if changes:
                    cursor.executemany(
                        "INSERT INTO rating_changes VALUES (%s, %s, %s, %s, %s) "
                        "ON CONFLICT DO NOTHING",
                        [(player_id, game_type, change["game"], _instant(change["at"]),
                          Json(change)) for change in changes])
            games = [json.loads(entry) for entry in found.recent]
            if games:
                cursor.executemany(
                    "INSERT INTO player_games VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    [(player_id, game["game"], _instant(game["at"]), Json(game))
                     for game in games])

    def load(self, player_id: str, history_length: int, recent_length: int
             ) -> PlayerSnapshot | None:
        """What is kept of the player, the newest of their lists as Redis holds them; None
        when nothing is."""
        with self.pool.connection() as connection:
            def rows(query: str, *args) -> list[tuple]:
                return connection.execute(query, (player_id, *args)).fetchall()
            head = rows("SELECT name, bot, clock, friend_code, created_at, last_active "
                        "FROM players WHERE player_id = %s")
            standings = {kind: text for kind, text in rows(
                "SELECT game_type, standing::text FROM standings WHERE player_id = %s")}
            if not head and not standings:
                return None
            found = PlayerSnapshot(player_id, None, standings=standings)
            if head:
                name, bot, clock, code, created, seen = head[0]
                found.fields = {key: value for key, value in {
                    "name": name, "bot": "1" if bot else "0", "clock": clock,
                    "friend_code": code, "created": _seconds(created),
                    "seen": _seconds(seen)}.items() if value is not None}
            found.devices = {device_id: json.dumps({
                "token_hash": token_hash, "label": label, "created": created.timestamp()})
                for device_id, token_hash, label, created in rows(
                    "SELECT device_id, token_hash, label, created_at FROM player_devices "
                    "WHERE player_id = %s")}
            found.passkeys = dict(rows("SELECT credential_id, entry::text FROM passkeys "
                                       "WHERE player_id = %s"))
            found.friends = {other for (other,) in rows(
                "SELECT friend_id FROM friends WHERE player_id = %s")}
            found.blocks = {other for (other,) in rows(
                "SELECT blocked_id FROM blocks WHERE player_id = %s")}
            for kind in standings:
                found.histories[kind] = [entry for (entry,) in rows(
                    "SELECT entry::text FROM rating_changes WHERE player_id = %s AND "
                    "game_type = %s ORDER BY at DESC, game_id DESC LIMIT %s", kind,
                    history_length)]
            found.recent = [entry for (entry,) in rows(
                "SELECT entry::text FROM player_games WHERE player_id = %s "
                "ORDER BY at DESC, game_id DESC LIMIT %s", recent_length)]
            return found

    def kept(self, player_id: str) -> bool:
        with self.pool.connection() as connection:
            return connection.execute("SELECT 1 FROM players WHERE player_id = %s",
                                      (player_id,)).fetchone() is not None

    def credential_owner(self, credential_id: str) -> str | None:
        with self.pool.connection() as connection:
            found = connection.execute("SELECT player_id FROM passkeys WHERE credential_id = %s",
                                       (credential_id,)).fetchone()
        return None if found is None else found[0]

    def friend_code_owner(self, code: str) -> str | None:
        with self.pool.connection() as connection:
            found = connection.execute("SELECT player_id FROM players WHERE friend_code = %s",
                                       (code,)).fetchone()
        return None if found is None else found[0]

    # --- leaderboards --------------------------------------------------------------------------
    def board(self, game_type: str, fewest: int, count: int, since: float | None
              ) -> tuple[list[BoardRow], list[BoardRow]]:
        """The best `count` players with at least `fewest` rated games, and the best with fewer
        (the provisional ones), who played a rated game since `since` (None: ever)."""
        arguments = {"type": game_type, "fewest": fewest, "since": _instant(since),
                     "count": count}
        with self.pool.connection() as connection:
            return tuple([BoardRow(*row) for row in connection.execute(
                _BOARD.format(compare=compare), arguments).fetchall()]
                for compare in (">=", "<"))

    def place(self, game_type: str, player_id: str, fewest: int, since: float | None
              ) -> tuple[int | None, BoardRow] | None:
        """The player's place from 1 among the listed players (None while provisional or not
        played since `since`) and their row; None when they have no rated game of the type."""
        with self.pool.connection() as connection:
            row = connection.execute(
                "SELECT s.player_id, s.ordinal, s.mu, s.sigma, s.rated, p.name, "
                "coalesce(p.bot, false), s.last_rated FROM standings s LEFT JOIN players p "
                "USING (player_id) WHERE s.game_type = %s AND s.player_id = %s AND s.rated > 0",
                (game_type, player_id)).fetchone()
            if row is None:
                return None
            mine = BoardRow(*row[:7])
            since_at = _instant(since)
            if mine.rated < fewest or (since_at is not None and (row[7] is None
                                                                  or row[7] < since_at)):
                return None, mine
            ahead = connection.execute(
                "SELECT count(*) FROM standings WHERE game_type = %(type)s AND rated >= "
                "%(fewest)s AND (%(since)s::timestamptz IS NULL OR last_rated >= %(since)s) "
                "AND (ordinal > %(ordinal)s OR (ordinal = %(ordinal)s AND player_id > %(id)s))",
                {"type": game_type, "fewest": fewest, "since": since_at,
                 "ordinal": mine.ordinal, "id": player_id}).fetchone()[0]
            return ahead + 1, mine
