"""The player directory: players and bot accounts found by the start of their name.

A search is bounded: it reads at most `SCAN` entries of the index and answers at most
`MOST_RESULTS`; the HTTP layer budgets how often a caller searches. Nobody the caller blocks, nor
anybody who blocks the caller, is listed, nor an account that is gone (its entry is dropped as
the search comes across it), nor the caller. Each result links to the profile and says whether
the caller may name the player's seat in `createGame` (`can_challenge`); a bot account shows the
description its author gave it and its ratings.
"""
from __future__ import annotations

from api.storage.directory import entry
from api.storage.store import Storage
from api.tables.errors import Unprocessable
from api.tables.model import Player
from api.tables.ratings import Standing
from api.tables.text import Refused, shown_text
from rules import GAMES

MOST_RESULTS = 20
SCAN = 60                # index entries one search reads
LONGEST_PREFIX = 40      # as long as a name
LONGEST_DESCRIPTION = 280


class Directory:
    def __init__(self, storage: Storage):
        self.storage = storage
        self.store = storage.directory
        self.friends = storage.friends

    def search(self, caller: Player | None, prefix: str, most: int = MOST_RESULTS) -> list[dict]:
        prefix = " ".join(prefix.split())
        if not 1 <= len(prefix) <= LONGEST_PREFIX:
            raise Unprocessable(f"name: give 1 to {LONGEST_PREFIX} characters of a name",
                                field="name")
        entries = self.store.starting(prefix, SCAN)
        found = self.friends.players([player_id for _, player_id in entries])
        stale = [text for text, player_id in entries
                 if player_id not in found or entry(found[player_id][0], player_id) != text]
        self.store.forget(stale)
        listed = [player_id for text, player_id in entries
                  if text not in stale and (caller is None or player_id != caller.id)]
        if caller is not None:
            apart = self.friends.blocked_ids(caller.id) | self.friends.blocking(listed, caller.id)
            listed = [player_id for player_id in listed if player_id not in apart]
        listed = listed[:most]
        bots = [player_id for player_id in listed if found[player_id][1]]
        abouts = self.store.abouts(bots)
        ratings = self._ratings(bots)
        results = []
        for player_id in listed:
            name, bot, _ = found[player_id]
            result = {"id": player_id, "name": name, "bot": bot,
                      "profile": f"/api/v1/players/{player_id}",
                      "can_challenge": caller is not None}
            if bot:
                result.update(description=abouts.get(player_id), ratings=ratings[player_id])
            results.append(result)
        return results

    def _ratings(self, player_ids: list[str]) -> dict[str, dict]:
        ratings: dict[str, dict] = {player_id: {} for player_id in player_ids}
        if not player_ids:
            return ratings
        for kind in GAMES:
            for player_id, text in self.storage.ratings.standings(player_ids, kind).items():
                standing = Standing.from_json(text)
                if standing.rated:
                    ratings[player_id][kind] = {"ordinal": standing.ordinal,
                                                "games": standing.rated}
        return ratings

    def backfill(self, batch: int = 500) -> int:
        """Every player PostgreSQL keeps listed (those made before the directory was, or whose
        entries a fresh Redis lacks); the players listed. Safe to run again: an entry is one
        member of a sorted set."""
        listed, after = 0, ""
        while True:
            found = self.storage.accounts.kept_names(after, batch)
            if not found:
                return listed
            for player_id, name in found:
                self.store.add(player_id, name)
            listed += len(found)
            after = found[-1][0]

    def describe(self, player: Player, description: str | None) -> dict:
        """A bot account's description (None: none), shown beside it in the directory."""
        if not player.bot:
            raise Unprocessable("description: only a bot account has a description",
                                field="description")
        if description is not None:
            try:
                description = shown_text(description, "description", LONGEST_DESCRIPTION)
            except Refused as refused:
                raise Unprocessable(f"description: {refused}", field="description") from None
        self.store.set_about(player.id, description)
        return {"id": player.id, "name": player.name, "description": description}
