"""Profiles and leaderboards: what anybody may read of a player's results and ratings.

A profile lists a finished game only to a caller who may see it (a public game, or one the
caller sat at); nothing of a game in play is in it. A player the profile's owner blocks sees
only the name. A bot level has a profile of its own ("Hard bot"). `can_challenge` tells a
signed-in caller whether they may name the player's seat in `createGame`.

One read of the player's keys answers a profile (and, for a signed-in caller looking at somebody
else, one of the caller's blocks), with one of the archive for the accuracy of the player's
analysed games (`api.tables.analysis`). A leaderboard covers every rated game PostgreSQL keeps
(or those of players who played a rated game within `days`), cached in Redis for a moment; the
caller's own place is read from PostgreSQL.
"""
from __future__ import annotations

import json

from api.storage.player_rows import BoardRow
from api.storage.store import Storage
from api.tables.analysis import accuracy_by_month
from api.tables.errors import NotFound
from api.tables.model import Player, iso
from api.tables.ratings import (
    HISTORY_LENGTH,
    PROVISIONAL_GAMES,
    RECENT_GAMES,
    Standing,
    bot_level,
    bot_name,
    display_rating,
)
from rules import GAMES

LEADERBOARD_SIZE = 100
RECENT_SHOWN = 20


def _rating(standing: Standing) -> dict:
    return {"mu": standing.mu, "sigma": standing.sigma, "ordinal": standing.ordinal,
            "display": display_rating(standing.ordinal), "games": standing.rated,
            "provisional": standing.provisional}


def _entries(rows: list[BoardRow]) -> list[dict]:
    """Leaderboard entries, placed from 1 in their list."""
    entries = []
    for place, row in enumerate(rows, 1):
        level = bot_level(row.player_id)
        entries.append({"place": place, "player_id": row.player_id,
                        "name": row.name if level is None else bot_name(level),
                        "bot": level is not None or row.bot, "ordinal": row.ordinal,
                        "display": display_rating(row.ordinal), "mu": row.mu,
                        "sigma": row.sigma, "games": row.rated})
    return entries


def _known_type(game_type: str) -> None:
    if game_type not in GAMES:
        raise NotFound(f"unknown game type {game_type!r}; known: {', '.join(GAMES)}")


class Profiles:
    def __init__(self, storage: Storage):
        self.store = storage.ratings
        self.friends = storage.friends
        self.record = storage.player_record
        self.analyses = storage.archived_analyses

    def profile(self, player_id: str, caller: Player | None) -> dict:
        kinds = list(GAMES)
        caller_id = caller.id if caller else None
        found = self.store.profile(player_id, kinds, HISTORY_LENGTH, RECENT_GAMES, caller_id)
        level = bot_level(player_id)
        if level is not None and not any(game.has_bot_level(level) for game in GAMES.values()):
            level = None
        if found.name is None and level is None:
            raise NotFound(f"no player {player_id!r}")
        standings = {kind: Standing.from_json(text) for kind, text in found.standings.items()
                     if kind in GAMES}
        games = {kind: {"finished": s.finished, "first_places": s.firsts,
                        "average_place": s.places / s.finished if s.finished else None,
                        "average_score": s.score / s.finished if s.finished else None}
                 for kind, s in standings.items() if s.finished}
        histories = {kind: [self._change(entry) for entry in entries]
                     for kind, entries in found.histories.items() if entries}
        if found.blocks_caller:
            return {"id": player_id, "name": found.name, "bot": found.bot, "member_since": None,
                    "games": {}, "ratings": {}, "rating_history": {}, "recent_games": [],
                    "accuracy": {}, "can_challenge": False}
        recent = [json.loads(text) for text in found.recent]
        visible = [entry for entry in recent
                   if entry["public"] or caller_id in entry["players"]][:RECENT_SHOWN]
        return {
            "id": player_id,
            "name": found.name if level is None else bot_name(level),
            "bot": level is not None or found.bot,
            "member_since": None if found.created is None else iso(found.created),
            "games": games,
            "ratings": {kind: _rating(s) for kind, s in standings.items() if s.rated},
            "rating_history": histories,
            "recent_games": [{"id": entry["game"], "type": entry["type"],
                              "title": GAMES[entry["type"]].title if entry["type"] in GAMES
                              else entry["type"],
                              "finished": iso(entry["at"]), "place": entry["place"],
                              "score": entry["score"], "rated": entry["rated"],
                              "rating_change": entry["change"], "players": entry["names"]}
                             for entry in visible],
            "accuracy": self._accuracy(player_id, caller_id),
            # A registered player other than the caller, neither blocking the other: what
            # createGame's named seat accepts (the caller's blocks are one more command).
            "can_challenge": (caller_id is not None and level is None and caller_id != player_id
                              and not self.friends.blocks(caller_id, player_id)),
        }

    def _accuracy(self, player_id: str, caller_id: str | None) -> dict[str, list[dict]]:
        return {kind: months for kind, months
                in accuracy_by_month(self.analyses, player_id, caller_id).items()
                if kind in GAMES}

    @staticmethod
    def _change(text: str) -> dict:
        entry = json.loads(text)
        return {"game": entry["game"], "at": iso(entry["at"]), "mu": entry["mu"],
                "sigma": entry["sigma"], "ordinal": entry["ordinal"], "change": entry["change"],
                "display": display_rating(entry["ordinal"]),
                "display_change": display_rating(entry["ordinal"])
                - display_rating(entry["ordinal"] - entry["change"])}

    def leaderboard(self, game_type: str, caller: Player | None, days: float | None = None
                    ) -> dict:
        """The best players of a game type over every rated game, or among those who played
        one within `days`."""
        _known_type(game_type)
        listed, provisional = self.record.board(game_type, PROVISIONAL_GAMES, LEADERBOARD_SIZE,
                                                days)
        you = None
        found = self.record.place(game_type, caller.id, PROVISIONAL_GAMES, days) if caller \
            else None
        if found is not None:
            place, mine = found
            you = {"place": place, "ordinal": mine.ordinal, "display": display_rating(mine.ordinal),
                   "games": mine.rated, "provisional": mine.rated < PROVISIONAL_GAMES}
        return {"type": game_type, "fewest_games": PROVISIONAL_GAMES, "days": days,
                "entries": _entries(listed), "provisional": _entries(provisional), "you": you}
