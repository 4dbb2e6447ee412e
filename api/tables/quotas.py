"""How much one player may hold at once: open games, lobby entries, hard bots in a game.

Hard bots think for a second of CPU per move each, so a game may seat only a
few of them; open games and lobby entries are capped so that one player can
neither fill the lobby nor keep the bots busy with hundreds of games. Beyond a
quota: 429 with Retry-After (finishing or leaving a game frees a place).
"""
from __future__ import annotations

from api.tables.errors import TooManyRequests, Unprocessable
from api.tables.games import Games
from api.tables.model import ACTIVE, WAITING, Player

MAX_OPEN_GAMES = 30        # waiting for players or in play, per player
MAX_LOBBY_ENTRIES = 3      # public games a player created that still wait for players
MAX_HARD_BOTS = 3          # per game
RETRY_AFTER = 60


def check_new_game(games: Games, player: Player, seats: list, public: bool) -> None:
    hard = sum(1 for seat in seats if isinstance(seat, dict) and seat.get("bot") == "hard")
    if hard > MAX_HARD_BOTS:
        raise Unprocessable(f"a game may seat at most {MAX_HARD_BOTS} hard bots")
    open_games = lobby_entries = 0
    for game_id in games.storage.players.game_ids(player.id):
        stored = games.find(game_id)
        if stored is None:  # expired
            continue
        status = stored.status()
        open_games += status in (WAITING, ACTIVE)
        lobby_entries += (status == WAITING and stored.meta.public
                          and stored.seats[0].player_id == player.id)
    if open_games >= MAX_OPEN_GAMES:
        raise TooManyRequests(f"you have {open_games} open games, the most one player may "
                              "have; finish one first", RETRY_AFTER)
    if public and lobby_entries >= MAX_LOBBY_ENTRIES:
        raise TooManyRequests(f"you already have {lobby_entries} games waiting in the lobby; "
                              "wait until one fills", RETRY_AFTER)
