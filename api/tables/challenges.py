"""Challenges: a seat kept for a named player (`createGame` with `{"player": id}`, or a
rematch) waits in that player's inbox as an invitation. Taking it is `Seating.join`; declining
opens the seat again with a new invite link, tells the table (a `declined` event, so the
creator's phone hears of it) and leaves no trace in the decliner's inbox. Blocking a player
declines every seat kept between the two at a waiting table, both ways (`release_between`).

A challenge made by `createGame` also reaches the challenged player's subscribed devices: the
job `worker.jobs.notify_challenge`, queued after the game's first commit, sends a Web Push
notice once (`Notices.deliver`) while the seat is still kept for them, is open, and neither
they nor anybody at the table blocks the other; a challenge withdrawn or declined before the
job runs sends nothing.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from api.tables.errors import NotFound
from api.tables.games import Games, Logged
from api.tables.model import WAITING, Player, StoredGame
from api.tables.notices import Notice, Notices
from api.tables.seating import new_invite_code
from api.tables.views import invitation


@dataclass(frozen=True)
class ChallengeNotice(Notice):
    challenger: str = ""    # who asks: the invitation's `from`

    def push_payload(self) -> str:
        """The game's title and who asks; the inbox shows the invitation with its buttons."""
        return json.dumps({"title": "A challenge",
                           "body": f"{self.challenger} challenges you to {self.title}",
                           "url": "/#/", "game": self.game_id})


class Challenges:
    def __init__(self, games: Games, notices: Notices):
        self.games = games
        self.notices = notices
        self.storage = games.storage

    def notify(self, game_id: str, seat: int) -> int:
        """Tell the player `seat` is kept for of the challenge; the notices sent (0: the seat
        is no longer kept for anybody, a block stands between them and the table, or the
        notice went out already)."""
        stored = self.games.find(game_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            return 0
        player_id = stored.seats[seat].reserved_for
        invited = invitation(stored, player_id)
        if player_id is None or invited is None or invited["seat"] != seat:
            return 0
        friends, humans = self.storage.friends, stored.humans()
        if friends.blocks_any(player_id, humans) or friends.blocking_any(humans, player_id):
            return 0
        notice = ChallengeNotice(game_id=game_id, seat=seat, player_id=player_id, name="",
                                 title=stored.game.title,
                                 link=f"{self.notices.settings.public_url}/#/",
                                 challenger=invited["from"] or "A player")
        return self.notices.deliver(notice, ("challenge", game_id, seat, player_id),
                                    self.notices.targets(player_id, None))

    def decline(self, game_id: str, player: Player) -> StoredGame:
        return self._decline(game_id, player.id)

    def release_between(self, player_id: str, other_id: str) -> None:
        """Decline each seat kept for one of the two players at a waiting table where the other
        sits: the challenges in either's inbox that the other made."""
        for kept_for, seated in ((player_id, other_id), (other_id, player_id)):
            for game_id in self.storage.players.game_ids(kept_for):
                stored = self.games.find(game_id)
                if (stored is None or not stored.seat_kept_for(kept_for)
                        or seated not in stored.humans()):
                    continue
                try:
                    self._decline(game_id, kept_for)
                except NotFound:
                    pass  # taken or declined meanwhile

    def _decline(self, game_id: str, player_id: str) -> StoredGame:
        spent = {}
        invite = new_invite_code()
        # Stored before the commit, so the commit never names a link that does not work.
        self.storage.lobby.add_invite(game_id, invite)

        def decline(stored: StoredGame) -> Logged:
            index = next((i for i, seat in enumerate(stored.seats)
                          if seat.reserved_for == player_id and seat.open), None)
            if index is None or stored.status() != WAITING:
                raise NotFound("no seat is kept for you in this game")
            seat = stored.seats[index]
            spent["invite"] = seat.invite
            seat.reserved_for, seat.invite, seat.name = None, invite, None
            return Logged([{"type": "declined", "seat": index}])
        try:
            declined = self.games.transact(game_id, decline)
        except NotFound:
            self.storage.lobby.forget_invite(invite)
            raise
        self.storage.lobby.forget_invite(spent["invite"])
        self.storage.players.forget_games(player_id, [game_id])
        return declined
