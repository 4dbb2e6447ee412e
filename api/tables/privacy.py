"""Who may take part in a game that is not public, and see its record.

A private game is watched only by its players and by a player a seat is kept for
(see `Service._may_watch`). Taking a seat by the game's id is for public games and
for a player a seat is kept for; anybody else comes through the invite link. The
record and the replay of a private game are shown only to its players.
"""
from __future__ import annotations

from api.tables.service import FINISHED, Forbidden, StoredGame


def check_join(stored: StoredGame, player: dict) -> None:
    """Taking a seat by the game's id rather than by an invite link."""
    if not stored.meta["public"] and not stored.seat_kept_for(player["id"]):
        raise Forbidden("this game is private: take a seat through its invite link")


def check_record(stored: StoredGame, player: dict | None) -> None:
    """The record and the replay of a finished game."""
    if stored.status() == FINISHED and not stored.meta["public"] \
            and stored.seat_of(player["id"] if player else None) is None:
        raise Forbidden("this game is private: only its players may see its record")
