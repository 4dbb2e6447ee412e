"""Talk at the table: one line of plain text at a time from a player, a few a minute, the latest
kept. The game's players talk; they and anyone watching a public game read."""
from __future__ import annotations

import time
import unicodedata

from api.tables.errors import Forbidden, TooManyRequests, Unprocessable
from api.tables.games import Games
from api.tables.model import Player, iso

CHAT_LENGTH = 200  # characters in one message at a table
CHAT_KEEP = 100    # messages a table keeps (the oldest go)
CHAT_RATE = (5, 30)  # at most this many messages from one player at one table, in these seconds


class Chat:
    def __init__(self, games: Games):
        self.games = games
        self.store = games.storage.chat

    def say(self, game_id: str, player: Player, text: str) -> dict:
        stored = self.games.load(game_id)
        seat = stored.seat_of(player.id)
        if seat is None:
            raise Forbidden("only the game's players talk at its table")
        text = text.strip()
        if not text:
            raise Unprocessable("the message is empty")
        if len(text) > CHAT_LENGTH:
            raise Unprocessable(f"a message has at most {CHAT_LENGTH} characters")
        if any(unicodedata.category(char) == "Cc" for char in text):
            raise Unprocessable("a message is one line of plain text")
        limit, seconds = CHAT_RATE
        message = {"seat": seat, "name": stored.seats[seat].name, "text": text,
                   "at": iso(time.time())}
        number, wait = self.store.say(game_id, player.id, message, limit, seconds, CHAT_KEEP)
        if number is None:
            raise TooManyRequests(f"at most {limit} messages in {seconds} seconds at a table",
                                  max(wait, 1))
        return {"number": number, **message}

    def read(self, game_id: str, player: Player | None, after: int) -> dict:
        stored = self.games.load(game_id)
        seat = stored.seat_of(player and player.id)
        if seat is None and not stored.meta.public:
            raise Forbidden("only the game's players read its table talk")
        kept, last = self.store.messages(game_id)
        return {"messages": [message for message in kept if message["number"] > after],
                "last": last}
