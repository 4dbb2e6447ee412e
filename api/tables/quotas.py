"""How much one player, and one address, may hold at once: open games, lobby entries, hard bots
in a game.

Hard bots think for a second of CPU per move each, so a game may seat only a
few of them; open games and lobby entries are capped so that one player can
neither fill the lobby nor keep the bots busy with hundreds of games. Lobby
entries are also capped per address, so that many fresh players from one place
cannot fill the lobby either. Every path that makes a game (a new game, a
rematch) checks them. Beyond a quota: 429 with Retry-After (finishing or leaving
a game frees a place).
"""
from __future__ import annotations

import hashlib

from api.tables.errors import TooManyRequests, Unprocessable
from api.tables.games import Games
from api.tables.model import ACTIVE, WAITING, Player

MAX_OPEN_GAMES = 30        # waiting for players or in play, per player
MAX_LOBBY_ENTRIES = 3      # public games a player created that still wait for players
MAX_LOBBY_ENTRIES_PER_ADDRESS = 10  # the same, for every player at one address together
MAX_HARD_BOT_GAMES_PER_ADDRESS = 15  # open games with hard bots, every player at one address
MAX_HARD_BOTS = 3          # per game
MAX_HARD_BOT_GAMES = 5     # open games with hard bots, per player: each keeps a deep worker busy
RETRY_AFTER = 60


def address_key(address: str) -> str:
    """What the store keeps of a client's address: a digest, never the address itself."""
    return hashlib.sha256(address.encode()).hexdigest()[:24]


def check_new_game(games: Games, player: Player, hard_bots: int, public: bool,
                   address: str | None) -> None:
    if hard_bots > MAX_HARD_BOTS:
        raise Unprocessable(f"a game may seat at most {MAX_HARD_BOTS} hard bots")
    open_games = lobby_entries = hard_games = 0
    for game_id in games.storage.players.game_ids(player.id):
        stored = games.find(game_id)
        if stored is None:  # expired
            continue
        status = stored.status()
        open_games += status in (WAITING, ACTIVE)
        hard_games += status in (WAITING, ACTIVE) and any(seat.bot == "hard"
                                                          for seat in stored.seats)
        lobby_entries += (status == WAITING and stored.meta.public
                          and stored.seats[0].player_id == player.id)
    if open_games >= MAX_OPEN_GAMES:
        raise TooManyRequests(f"you have {open_games} open games, the most one player may "
                              "have; finish one first", RETRY_AFTER)
    if hard_bots and hard_games >= MAX_HARD_BOT_GAMES:
        raise TooManyRequests(f"you have {hard_games} open games with hard bots, the most one "
                              "player may have; finish one first", RETRY_AFTER)
    if hard_bots and address is not None and (games.storage.addresses.open_hard_bot_games(
            address_key(address)) >= MAX_HARD_BOT_GAMES_PER_ADDRESS):
        raise TooManyRequests(f"{MAX_HARD_BOT_GAMES_PER_ADDRESS} games with hard bots from your "
                              "network are open already; finish one first", RETRY_AFTER)
    if not public:
        return
    if lobby_entries >= MAX_LOBBY_ENTRIES:
        raise TooManyRequests(f"you already have {lobby_entries} games waiting in the lobby; "
                              "wait until one fills", RETRY_AFTER)
    if address is not None and (games.storage.lobby.entries_from(address_key(address))
                                >= MAX_LOBBY_ENTRIES_PER_ADDRESS):
        raise TooManyRequests(f"{MAX_LOBBY_ENTRIES_PER_ADDRESS} games from your network already "
                              "wait in the lobby; wait until one fills", RETRY_AFTER)


def count_new_game(games: Games, game_id: str, public: bool, hard_bots: int,
                   address: str | None) -> None:
    """A game just made, counted for its creator's address: in the lobby, with hard bots."""
    if address is None:
        return
    if public:
        games.storage.lobby.add_entry_from(address_key(address), game_id)
    if hard_bots:
        games.storage.addresses.add_hard_bot_game(address_key(address), game_id)
