"""Finished games in PostgreSQL (tables `archived_games` and `finished_games`, made by the
migrations in `api/storage/migrations/`): written once a game, read by id.

Archiving is idempotent on the game id: `archived_games` takes the id (`ON CONFLICT (game_id)
DO NOTHING`), and only the statement that took it writes the game's row, so a job run twice,
or killed after its commit and run again, archives the game once. Connections are in
autocommit: each statement is its own transaction, one round trip.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Iterator

from psycopg.types.json import Json

from api.storage.games import GameRecord
from api.storage.sql import pool_for

_COLUMNS = ("game_id, finished_at, game_type, public, rated, version, seat_players, seat_names, "
            "meta, seats, state, results, renamed, table_names, log")
_ARCHIVE = f"""
WITH taken AS (
    INSERT INTO archived_games (game_id, finished_at) VALUES (%s, %s)
    ON CONFLICT (game_id) DO NOTHING RETURNING game_id, finished_at)
INSERT INTO finished_games ({_COLUMNS})
SELECT game_id, finished_at, {", ".join(["%s"] * 6 + ["%s::json"] * 4 + ["%s"] * 3)} FROM taken
RETURNING game_id"""
# The JSON as stored: `json` keeps its text as written, so it reads back byte for byte.
_READ = _COLUMNS.replace("meta, seats, state, results", "meta::text, seats::text, state::text, "
                         "results::text")


@dataclass(frozen=True)
class ArchivedGame:
    """A finished game as archived: its Redis hash's JSON as text, its packed log."""
    game_id: str
    finished_at: float
    game_type: str
    public: bool
    rated: bool
    version: int
    seat_players: list[str | None]
    seat_names: list[str]
    meta: str
    seats: str
    state: str
    results: str
    renamed: int
    names: dict[str, str] | None   # players who changed name since sitting down
    log: bytes

    def record(self) -> GameRecord:
        """The game as a `GameRecord`, as Redis held it once it was finished."""
        return GameRecord(version=self.version, meta=self.meta, seats=self.seats,
                          state=self.state, updated=self.finished_at, bots_job=None, seat=None,
                          status="finished", names=self.names, public=self.public,
                          renamed=self.renamed, results=self.results)


class FinishedGames:
    def __init__(self, url: str):
        self.url = url

    @property
    def pool(self):
        return pool_for(self.url)

    def archive(self, game: ArchivedGame) -> bool:
        """True when this call archived the game, False when it was archived before. One
        statement, atomic by itself: the id taken and the row written, or neither."""
        with self.pool.connection() as connection:
            return connection.execute(_ARCHIVE, (
                game.game_id, _instant(game.finished_at), game.game_type, game.public,
                game.rated, game.version, game.seat_players, game.seat_names, game.meta,
                game.seats, game.state, game.results, game.renamed,
                None if game.names is None else Json(game.names), game.log)).fetchone() is not None

    def find(self, game_id: str) -> ArchivedGame | None:
        with self.pool.connection() as connection:
            row = connection.execute(
                f"SELECT {_READ} FROM finished_games JOIN archived_games "
                "USING (game_id, finished_at) WHERE game_id = %s", (game_id,)).fetchone()
        return None if row is None else _archived(row)

    def find_many(self, game_ids: list[str]) -> dict[str, ArchivedGame]:
        """The archived games among these, by id, without their logs (`log` empty): one
        query, for lists of games (an inbox)."""
        if not game_ids:
            return {}
        columns = _READ.replace(", log", ", ''::bytea")
        with self.pool.connection() as connection:
            rows = connection.execute(
                f"SELECT {columns} FROM finished_games JOIN archived_games "
                "USING (game_id, finished_at) WHERE game_id = ANY(%s)",
                (list(game_ids),)).fetchall()
        return {row[0]: _archived(row) for row in rows}

    def count(self, game_id: str | None = None) -> int:
        """Rows archived (of one game, when given): what a test or an operator checks."""
        with self.pool.connection() as connection:
            return connection.execute(
                "SELECT count(*) FROM finished_games WHERE %s::text IS NULL OR game_id = %s",
                (game_id, game_id)).fetchone()[0]


    def public_months(self) -> list[PublicMonth]:
        """Every game type and month (UTC) with public games archived, in order."""
        with self.pool.connection() as connection:
            rows = connection.execute(
                "SELECT game_type, date_trunc('month', finished_at, 'UTC'), count(*), "
                "max(archived_at) FROM finished_games WHERE public GROUP BY 1, 2 "
                "ORDER BY 1, 2").fetchall()
        return [PublicMonth(game_type, month.astimezone(timezone.utc).date(), games,
                            last.timestamp())
                for game_type, month, games, last in rows]

    def public_month(self, game_type: str, first: date) -> PublicMonth | None:
        """The public games of a type archived for the month starting at `first`: how many,
        and when the newest was archived."""
        with self.pool.connection() as connection:
            games, last = connection.execute(
                f"SELECT count(*), max(archived_at) FROM finished_games WHERE {_OF_MONTH}",
                (game_type, *_month_bounds(first))).fetchone()
        return PublicMonth(game_type, first, games, last.timestamp()) if games else None

    def public_games(self, game_type: str, first: date, batch: int = 100
                     ) -> Iterator[ArchivedGame]:
        """The public games of a type archived for the month starting at `first`, by the time
        they finished (then by id), read `batch` rows at a time through a server-side cursor:
        a month of any size streams in bounded memory."""
        with self.pool.connection() as connection, connection.transaction():
            cursor = connection.cursor(name="public_games")
            cursor.itersize = batch
            cursor.execute(f"SELECT {_READ} FROM finished_games WHERE {_OF_MONTH} "
                           "ORDER BY finished_at, game_id", (game_type, *_month_bounds(first)))
            for row in cursor:
                yield _archived(row)


@dataclass(frozen=True)
class PublicMonth:
    game_type: str
    first: date                           # the month's first day (UTC)
    games: int
    last_archived: float                  # when its newest game was archived


_OF_MONTH = "public AND game_type = %s AND finished_at >= %s AND finished_at < %s"


def _month_bounds(first: date) -> tuple[datetime, datetime]:
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return (datetime(first.year, first.month, 1, tzinfo=timezone.utc),
            datetime(following.year, following.month, 1, tzinfo=timezone.utc))


def _archived(row) -> ArchivedGame:
    return ArchivedGame(row[0], row[1].timestamp(), *row[2:14], bytes(row[14]))


def _instant(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)
