"""Finished tournaments in PostgreSQL (table `finished_tournaments`, made by the migration
`0004_tournaments`): written once a tournament, read by id, by player and newest first.

Archiving is idempotent on the tournament's id (`ON CONFLICT DO NOTHING`): a job run twice, or
killed after its insert and run again, keeps the first row. Each statement is its own
transaction (the pool's connections are in autocommit).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from api.storage.sql import pool_for

_ARCHIVE = """
INSERT INTO finished_tournaments (tournament_id, finished_at, name, game_type, public, version,
                                  entrants, game_ids, document)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s::json)
ON CONFLICT (tournament_id) DO NOTHING
RETURNING tournament_id"""
_READ = "tournament_id, version, document::text"


@dataclass(frozen=True)
class ArchivedTournament:
    tournament_id: str
    finished_at: float
    name: str
    game_type: str
    public: bool
    version: int
    entrants: list[str]
    game_ids: list[str]
    document: str          # the JSON document as Redis held it


class FinishedTournaments:
    def __init__(self, url: str):
        self.url = url

    @property
    def pool(self):
        return pool_for(self.url)

    def archive(self, tournament: ArchivedTournament) -> bool:
        """True when this call archived the tournament, False when it was archived before."""
        with self.pool.connection() as connection:
            return connection.execute(_ARCHIVE, (
                tournament.tournament_id,
                datetime.fromtimestamp(tournament.finished_at, timezone.utc), tournament.name,
                tournament.game_type, tournament.public, tournament.version,
                tournament.entrants, tournament.game_ids, tournament.document)
            ).fetchone() is not None

    def find(self, tournament_id: str) -> tuple[int, str] | None:
        """The version and document, as `api.storage.tournaments.TournamentStore.load`."""
        with self.pool.connection() as connection:
            row = connection.execute(
                "SELECT version, document::text FROM finished_tournaments "
                "WHERE tournament_id = %s", (tournament_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    def newest_public(self, count: int) -> list[tuple[str, int, str]]:
        """(id, version, document) of the newest public tournaments finished."""
        with self.pool.connection() as connection:
            return [tuple(row) for row in connection.execute(
                f"SELECT {_READ} FROM finished_tournaments WHERE public "
                "ORDER BY finished_at DESC LIMIT %s", (count,))]

    def of_player(self, player_id: str, count: int) -> list[tuple[str, int, str]]:
        """(id, version, document) of the player's finished tournaments, newest first."""
        with self.pool.connection() as connection:
            return [tuple(row) for row in connection.execute(
                f"SELECT {_READ} FROM finished_tournaments WHERE entrants @> ARRAY[%s] "
                "ORDER BY finished_at DESC LIMIT %s", (player_id, count))]
