"""Who may see and take part in a game that is not public.

A private game, even while it waits for players, is shown only to its seated
players and to a player a seat is kept for (a rematch); others take a seat
only through its invite link. Its record and replay, once it is over, are
shown only to its players. Public games are open to everyone.
"""
from __future__ import annotations

from api.service import FINISHED, WAITING, Forbidden, StoredGame


def _player_id(player: dict | None) -> str | None:
    return player["id"] if player else None


def _seat_kept_for(stored: StoredGame, player_id: str | None) -> bool:
    return player_id is not None and stored.status() == WAITING and any(
        seat["reserved_for"] == player_id and seat["player_id"] is None for seat in stored.seats)


def check_watch(stored: StoredGame, player: dict | None) -> None:
    """The game's view and events."""
    player_id = _player_id(player)
    if stored.meta["public"] or stored.seat_of(player_id) is not None \
            or _seat_kept_for(stored, player_id):
        return
    raise Forbidden("this game is private: only its players may watch it")


def check_join(stored: StoredGame, player: dict) -> None:
    """Taking a seat by the game's id rather than by an invite link."""
    if stored.meta["public"] or _seat_kept_for(stored, player["id"]):
        return
    raise Forbidden("this game is private: take a seat through its invite link")


def check_record(stored: StoredGame, player: dict | None) -> None:
    """The record and the replay of a finished game."""
    if stored.status() == FINISHED and not stored.meta["public"] \
            and stored.seat_of(_player_id(player)) is None:
        raise Forbidden("this game is private: only its players may see its record")
