"""Talk at the table: one line of text that shows (checked as names are, `api.tables.text`) at a
time from a player, a few a minute, the latest kept. The game's players talk; they and anyone
watching a public game read. A reader does not see what the players they block say."""
from __future__ import annotations

import time

from api.tables.errors import Forbidden, TooManyRequests, Unprocessable
from api.tables.games import Games
from api.tables.model import Player, iso
from api.tables.text import Refused, shown_text

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
        try:
            text = shown_text(text, "message", CHAT_LENGTH)
        except Refused as refused:
            raise Unprocessable(str(refused)) from None
        limit, seconds = CHAT_RATE
        message = {"seat": seat, "name": stored.seats[seat].name, "text": text,
                   "at": iso(time.time())}
        marks = self.games.follow.owe_webhooks(stored.humans())
        number, wait = self.store.say(game_id, player.id, message, limit, seconds, CHAT_KEEP,
                                      stored.seated())
        if number is None:
            self.games.follow.undo(marks)
            raise TooManyRequests(f"at most {limit} messages in {seconds} seconds at a table",
                                  max(wait, 1))
        self.games.follow.deliver_webhooks(marks)
        return {"number": number, **message}

    def read(self, game_id: str, player: Player | None, after: int) -> dict:
        stored = self.games.load(game_id)
        seat = stored.seat_of(player and player.id)
        if seat is None and not stored.meta.public:
            raise Forbidden("only the game's players read its table talk")
        kept, last = self.store.messages(game_id)
        blocked = self.games.storage.friends.blocked_ids(player.id) if player else set()
        muted = {index for index, s in enumerate(stored.seats) if s.player_id in blocked}
        return {"messages": [message for message in kept
                             if message["number"] > after and message["seat"] not in muted],
                "last": last}
