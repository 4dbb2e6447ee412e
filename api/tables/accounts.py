"""A player's rights over their data: an export of everything kept of them, and deleting their
account.

**The export** is JSON Lines, one object a line, each with its `kind`: the player (name, when
they joined and were last active, their clock and settings), each device (its label), passkey
(its name), friend, block, rating per game type, every rating change, the webhook (its address),
then every finished game they played, oldest first, with its record as `getGameRecord` gives it.
It is made as it is sent: games are read from PostgreSQL a batch at a time.

**Deleting an account** is asked for with `confirm` naming the account (the player's id): a
request made for another account, or sent without it, changes nothing. First the player's
unfinished games are settled as the rules allow: a game not started is left, a game in play is
resigned (a bot plays the seat to the end, or the other player wins a two-player game), a seat
kept for them is declined; their seeks are cancelled, their tournaments left. Then their seats
at every table are named "deleted player", their friendships and the blocks others hold on them
end, and every key and row of theirs goes (`api.storage.accounts`). The other players' records
stay whole: an archived game keeps its seat, named "deleted player". A token of the player
answers 401 from then on (after `token_cache_seconds` in other processes, as a signed-out
device).
"""
from __future__ import annotations

import json
from typing import Iterator

from api.storage.accounts import DELETED_NAME
from api.tables.errors import Conflict, NotFound, ServiceError, Unprocessable
from api.tables.model import ACTIVE, WAITING, Player, iso

__all__ = ["DELETED_NAME", "Accounts"]  # the name a deleted seat shows, for callers


class Accounts:
    def __init__(self, tables):
        self.tables = tables
        self.storage = tables.storage
        self.store = tables.storage.accounts

    # --- the export -----------------------------------------------------------------------------
    def export(self, player: Player) -> Iterator[dict]:
        """Every line of the player's export, in order."""
        tables, record = self.tables, self.storage.player_record
        record.save(player.id, None)  # what Redis holds is in PostgreSQL before it is read
        clock_text, created = self.storage.players.clock(player.id)
        friends = self.storage.friends
        yield {"kind": "player", "id": player.id, "name": player.name, "bot": player.bot,
               "member_since": None if created is None else iso(created),
               "friend_code": friends.friend_code(player.id),
               "clock": tables.clocks.describe(player),
               "settings": json.loads(clock_text) if clock_text else {}}
        for device in tables.players.devices(player):
            yield {"kind": "device", **device}
        for passkey in tables.passkeys.list(player):
            yield {"kind": "passkey", "id": passkey.id, "name": passkey.name,
                   "created": passkey.created, "last_used": passkey.last_used}
        for friend in tables.friends.list_friends(player):
            yield {"kind": "friend", "id": friend["id"], "name": friend["name"]}
        for blocked in tables.friends.blocked(player):
            yield {"kind": "block", **blocked}
        profile = tables.profiles.profile(player.id, player)
        for game_type, rating in profile["ratings"].items():
            yield {"kind": "rating", "type": game_type, **rating,
                   **profile["games"].get(game_type, {})}
        changes = self.store.rating_changes(player.id)
        if not changes and record.rows is None:
            changes = [(kind, json.dumps(entry)) for kind, entries in
                       profile["rating_history"].items() for entry in reversed(entries)]
        for game_type, text in changes:
            entry = json.loads(text)
            yield {"kind": "rating_change", "type": game_type, "game": entry["game"],
                   "at": entry["at"] if isinstance(entry["at"], str) else iso(entry["at"]),
                   "ordinal": entry["ordinal"], "change": entry["change"]}
        hook = self.storage.webhooks.get(player.id)
        if hook and "url" in hook:
            yield {"kind": "webhook", "url": hook["url"]}
        for text in self._finished_games(player):
            game = json.loads(text)
            try:
                kept = tables.history.record(game["game"], player)
            except ServiceError:
                kept = None  # a duplicate round not over yet, or a game let go unarchived
            yield {"kind": "game", "id": game["game"], "type": game["type"],
                   "finished": iso(game["at"]), "players": game["names"],
                   "place": game["place"], "score": game["score"], "rated": game["rated"],
                   "rating_change": game["change"], "record": kept}

    def _finished_games(self, player: Player) -> Iterator[str]:
        if self.storage.player_record.rows is not None:
            yield from self.store.finished_games(player.id)
        else:
            yield from reversed(self.storage.ratings.profile(
                player.id, [], 0, 1000, None).recent)

    # --- deleting the account -------------------------------------------------------------------
    def delete(self, player: Player, confirm: str) -> None:
        if confirm != player.id:
            raise Unprocessable("confirm: send your player id to delete this account",
                                field="confirm")
        tables, storage = self.tables, self.storage
        game_ids = storage.players.game_ids(player.id)
        self._settle_games(player, game_ids)
        for seek in tables.seeks.mine(player):
            _quietly(tables.seeks.cancel, player, seek["id"])
        for tournament_id in storage.tournaments.of_player(player.id, 1000):
            _quietly(tables.tournaments.leave, tournament_id, player)
        for friend_id in storage.friends.friend_ids(player.id):
            storage.friends.unfriend(friend_id, player.id)
        for other_id in set(self.store.blockers(player.id)):
            storage.friends.unblock(other_id, player.id)
        _quietly(tables.webhooks.remove, player)
        for game_id in game_ids:
            self.store.rename_seat(game_id, player.id)
        for game_id in game_ids:
            tables.archive.archive(game_id)  # a finished game owed: in the record, then renamed
        self.store.erase_keys(player.id)
        touched = self.store.erase_rows(player.id)
        for other_id, seats in touched.items():
            self.store.rename_in_recent(other_id, seats)
        storage.player_record.forget_leaderboards()
        tables.players.forget_tokens(player.id)

    def _settle_games(self, player: Player, game_ids: list[str]) -> None:
        """Each unfinished game left, resigned or declined, as its state allows."""
        tables = self.tables
        for game_id in game_ids:
            stored = tables.games.find(game_id)
            if stored is None:
                continue
            seated = stored.seat_of(player.id) is not None
            if stored.status() == WAITING and seated:
                _quietly(tables.seating.leave, game_id, player)
            elif stored.status() == WAITING and stored.seat_kept_for(player.id):
                _quietly(tables.challenges.decline, game_id, player)
            elif stored.status() == ACTIVE and seated:
                _quietly(tables.play.resign, game_id, player)


def _quietly(action, *args) -> None:
    """A step the account's state may have made moot (done already, nothing to do)."""
    try:
        action(*args)
    except (Conflict, NotFound):
        pass
