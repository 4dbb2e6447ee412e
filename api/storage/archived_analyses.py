"""The reviews of finished games in PostgreSQL (tables `game_analyses` and `analysed_seats`,
made by the migration `0005_analyses`): each kept once, for good, and each seat's summary under
the player it counts for, read by month for a profile.

Keeping is idempotent on the game id: the review's row is taken with `ON CONFLICT (game_id) DO
NOTHING`, and its seats are written in the same transaction only by the statement that took it,
so a job run twice keeps the review once.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from psycopg.types.json import Json

from api.storage.sql import pool_for

_KEEP = """
INSERT INTO game_analyses (game_id, game_type, finished_at, public, seat_players, review)
VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (game_id) DO NOTHING RETURNING game_id"""
_KEEP_SEAT = """
INSERT INTO analysed_seats (game_id, seat, player_id, game_type, finished_at, decisions,
                            total_loss, deals, luck)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"""
# A player's seats by game type and month (UTC), the newest month first; only those of games
# the caller may see: public ones, and those the caller sat at.
_MONTHS = """
SELECT s.game_type, to_char(s.finished_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*),
       sum(s.decisions), sum(s.total_loss), sum(s.deals), sum(s.luck)
FROM analysed_seats s JOIN game_analyses g USING (game_id)
WHERE s.player_id = %(player)s
  AND (g.public OR %(caller)s::text = ANY (g.seat_players))
GROUP BY 1, 2 ORDER BY 1, 2 DESC"""


@dataclass(frozen=True)
class AnalysedSeat:
    """One seat's summary of a review, counted for `player_id`."""
    seat: int
    player_id: str
    decisions: int      # that were choices (forced moves left out)
    total_loss: float
    deals: int          # weighed for their luck
    luck: float         # the deals' luck added up


@dataclass(frozen=True)
class MonthOfPlay:
    """A player's analysed seats of one game type finished in one month (UTC)."""
    game_type: str
    month: str          # "2025-05"
    games: int
    decisions: int
    total_loss: float
    deals: int
    luck: float


class ArchivedAnalyses:
    def __init__(self, url: str):
        self.url = url

    @property
    def pool(self):
        return pool_for(self.url)

    def keep(self, game_id: str, game_type: str, finished_at: float, public: bool,
             seat_players: list[str | None], review: dict, seats: list[AnalysedSeat]) -> bool:
        """True when this call kept the review, False when it was kept before."""
        finished = datetime.fromtimestamp(finished_at, timezone.utc)
        with self.pool.connection() as connection, connection.transaction():
            taken = connection.execute(_KEEP, (game_id, game_type, finished, public,
                                               seat_players, Json(review))).fetchone()
            if taken is None:
                return False
            with connection.cursor() as cursor:
                cursor.executemany(_KEEP_SEAT, [
                    (game_id, seat.seat, seat.player_id, game_type, finished, seat.decisions,
                     seat.total_loss, seat.deals, seat.luck) for seat in seats])
        return True

    def review(self, game_id: str) -> dict | None:
        with self.pool.connection() as connection:
            row = connection.execute("SELECT review FROM game_analyses WHERE game_id = %s",
                                     (game_id,)).fetchone()
        return None if row is None else row[0]

    def months(self, player_id: str, caller_id: str | None) -> list[MonthOfPlay]:
        """The player's analysed seats by game type, then month, newest first."""
        with self.pool.connection() as connection:
            rows = connection.execute(_MONTHS, {"player": player_id,
                                                "caller": caller_id}).fetchall()
        return [MonthOfPlay(kind, month, games, decisions, loss, deals, luck)
                for kind, month, games, decisions, loss, deals, luck in rows]
