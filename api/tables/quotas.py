"""How much one player may hold at once: open games, lobby entries, hard bots in a game.

Hard bots think for a second of CPU per move each, so a game may seat only a
few of them; open games and lobby entries are capped so that one player can
neither fill the lobby nor keep the bots busy with hundreds of games. Beyond a
quota: 429 with Retry-After (finishing or leaving a game frees a place).
"""
from __future__ import annotations

from flask_smorest import abort

from api.tables.service import ACTIVE, WAITING, NotFound, Service

MAX_OPEN_GAMES = 30        # waiting for players or in play, per player
MAX_LOBBY_ENTRIES = 3      # public games a player created that still wait for players
MAX_HARD_BOTS = 3          # per game
RETRY_AFTER = 60


def check_new_game(service: Service, player: dict, seats: list, public: bool) -> None:
    hard = sum(1 for seat in seats if isinstance(seat, dict) and seat.get("bot") == "hard")
    if hard > MAX_HARD_BOTS:
        abort(422, message=f"a game may seat at most {MAX_HARD_BOTS} hard bots")
    open_games = lobby_entries = 0
    for game_id in service.store.game_ids(player["id"]):
        try:
            stored = service.load(game_id)
        except NotFound:  # expired
            continue
        status = stored.status()
        open_games += status in (WAITING, ACTIVE)
        lobby_entries += (status == WAITING and stored.meta["public"]
                          and stored.seats[0]["player_id"] == player["id"])
    if open_games >= MAX_OPEN_GAMES:
        abort(429, message=f"you have {open_games} open games, the most one player may have; "
                           "finish one first", headers={"Retry-After": str(RETRY_AFTER)})
    if public and lobby_entries >= MAX_LOBBY_ENTRIES:
        abort(429, message=f"you already have {lobby_entries} games waiting in the lobby; "
                           "wait until one fills", headers={"Retry-After": str(RETRY_AFTER)})
