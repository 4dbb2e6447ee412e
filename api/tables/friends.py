"""Friends and blocks: each player's friend link (a code, as invite links are), adding a friend
by it, the friends with when each was last active, removing one; blocking and unblocking.

A friendship is mutual: whoever shares the link agrees to it. A player holds at most
`MOST_FRIENDS` friends and `MOST_BLOCKS` blocks (429 beyond). Blocking ends a friendship and the
challenges between the two, both ways (api.tables.challenges); neither then sits down at a
table with the other, a blocked player cannot seat the blocker, talk to them at a table, nor see
their profile beyond the name (api.tables.seating, chat and profiles ask the store). A code
the owner's block refuses is answered as an unknown one: the blocked player learns nothing.
"""
from __future__ import annotations

import secrets

from api.storage.friends import ALREADY, BLOCKED, FULL, FriendStore
from api.storage.store import Storage
from api.tables.challenges import Challenges
from api.tables.errors import Conflict, NotFound, TooManyRequests, Unprocessable
from api.tables.model import Player, iso

MOST_FRIENDS = 500
MOST_BLOCKS = 500
# A full list frees up only when its player removes someone: try again in an hour.
FULL_RETRY_SECONDS = 3600
UNKNOWN_CODE = "this friend link is unknown or no longer works"


def _friend_code() -> str:
    return secrets.token_urlsafe(12)


class Friends:
    def __init__(self, storage: Storage, challenges: Challenges):
        self.store: FriendStore = storage.friends
        self.players = storage.players
        self.challenges = challenges

    def link(self, player: Player, renew: bool = False) -> dict:
        """The player's friend code (made on first ask); `renew` makes a new one and the old
        stops working."""
        previous = self.store.friend_code(player.id)
        code = _friend_code() if renew or previous is None else previous
        self.store.keep_friend_code(player.id, code, previous)
        return {"code": code, "link": f"/#/friend/{code}"}

    def preview(self, code: str, caller: Player | None) -> dict:
        """Whose friend link this is, before adding it (a new player sees who invited them);
        a code the owner's block refuses is unknown, as when adding."""
        owner_id = self.store.code_owner(code)
        owner = None if owner_id is None else self.players.get(owner_id)
        if owner is None or (caller is not None and self.store.blocks(owner_id, caller.id)):
            raise NotFound(UNKNOWN_CODE)
        return {"name": owner[0]}

    def add(self, player: Player, code: str) -> dict:
        owner_id = self.store.code_owner(code)
        if owner_id is None or self.players.get(owner_id) is None:
            raise NotFound(UNKNOWN_CODE)
        if owner_id == player.id:
            raise Unprocessable("this is your own friend link: share it with someone")
        if self.store.blocks(player.id, owner_id):
            raise Conflict("you block this player: unblock them first")
        theirs = self.store.befriend(owner_id, player.id, MOST_FRIENDS)
        if theirs == BLOCKED:
            raise NotFound(UNKNOWN_CODE)
        if theirs == FULL:
            raise TooManyRequests(f"this player already has {MOST_FRIENDS} friends",
                                  FULL_RETRY_SECONDS)
        mine = self.store.befriend(player.id, owner_id, MOST_FRIENDS)
        if mine == FULL:
            if theirs != ALREADY:
                self.store.unfriend(owner_id, player.id)
            raise TooManyRequests(f"you already have {MOST_FRIENDS} friends: remove one first",
                                  FULL_RETRY_SECONDS)
        return self._entries([owner_id])[0]

    def list_friends(self, player: Player) -> list[dict]:
        """The player's friends, the most recently active first."""
        entries = self._entries(sorted(self.store.friend_ids(player.id)))
        return sorted(entries, key=lambda entry: entry["last_active"] or "", reverse=True)

    def remove(self, player: Player, friend_id: str) -> None:
        if not self.store.unfriend(player.id, friend_id):
            raise NotFound(f"{friend_id!r} is not among your friends")
        self.store.unfriend(friend_id, player.id)

    def block(self, player: Player, other_id: str) -> None:
        if other_id == player.id:
            raise Unprocessable("you cannot block yourself")
        if self.players.get(other_id) is None:
            raise NotFound(f"no player {other_id!r}")
        if self.store.block(player.id, other_id, MOST_BLOCKS) == FULL:
            raise TooManyRequests(f"you already block {MOST_BLOCKS} players: unblock one first",
                                  FULL_RETRY_SECONDS)
        self.store.unfriend(other_id, player.id)
        self.challenges.release_between(player.id, other_id)

    def unblock(self, player: Player, other_id: str) -> None:
        if not self.store.unblock(player.id, other_id):
            raise NotFound(f"you do not block {other_id!r}")

    def blocked(self, player: Player) -> list[dict]:
        return sorted(({"id": player_id, "name": name} for player_id, (name, _, _) in
                       self.store.players(sorted(self.store.blocked_ids(player.id))).items()),
                      key=lambda entry: entry["name"].casefold())

    def _entries(self, player_ids: list[str]) -> list[dict]:
        return [{"id": player_id, "name": name, "bot": bot,
                 "last_active": None if seen is None else iso(seen)}
                for player_id, (name, bot, seen) in self.store.players(player_ids).items()]
