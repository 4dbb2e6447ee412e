"""Tables and seats: creating a game, taking a seat (by the game's id, or an invite link),
leaving a game before it starts, the rematch, the lobby.

Access: a private game's seats are taken through its invite links, or by a player a seat is
kept for (a rematch); a public game's open seats by anybody.
"""
from __future__ import annotations

import secrets
from typing import Any, Callable

from api.tables import quotas, turns
from api.tables.errors import Conflict, Forbidden, NotFound, Unprocessable
from api.tables.games import DROP, Drop, Games
from api.tables.model import ACTIVE, FINISHED, HUMAN, WAITING, Meta, Player, Seat, StoredGame
from api.tables.play import own_seat
from api.tables.player_clock import SEAT_FIELDS, PlayerClocks
from api.tables.views import summary
from rules import GAMES, InvalidOptions
from rules.base import Game

PACES = {"none": None, "5m": 300, "1h": 3600, "1d": 86400, "3d": 3 * 86400}
DEFAULT_PACE = "1d"


def _invite_code() -> str:
    return secrets.token_urlsafe(12)


def parse_seats(game: Game, players: int, seats: list[Any]) -> list[Seat]:
    if len(seats) != players:
        raise Unprocessable(f"seats must list exactly {players} entries, one per player")
    levels = {level.name for level in game.bot_levels}
    parsed = []
    for index, spec in enumerate(seats):
        if spec == HUMAN:
            parsed.append(Seat(invite=_invite_code()))
        elif (isinstance(spec, dict) and set(spec) == {"bot"} and isinstance(spec["bot"], str)
              and spec["bot"] in levels):
            parsed.append(Seat(name=f"Bot {index + 1} ({spec['bot']})", bot=spec["bot"]))
        else:
            raise Unprocessable(
                f"seat {index} must be \"human\" or {{\"bot\": level}} with level one of "
                f"{', '.join(sorted(levels))}")
    if parsed[0].bot is not None:
        raise Unprocessable("seat 0 is the creator's and must be \"human\"")
    return parsed


class Seating:
    def __init__(self, games: Games, clocks: PlayerClocks,
                 paces: dict[str, int | None] | None = None):
        self.games = games
        self.clocks = clocks
        self.storage = games.storage
        self.paces = {**PACES, **(paces or {})}

    def create_game(self, player: Player, type: str, players: int, options: dict,
                    seats: list[Any], pace: str | None = None, public: bool = False,
                    webhook: str | None = None, vacation: bool = True,
                    time_bank: dict | None = None) -> StoredGame:
        """A table for `players`; `time_bank` ({"initial", "per_move", "most"} seconds) gives
        each seat a bank of time instead of a `pace` per move."""
        quotas.check_new_game(self.games, player, seats, public)
        if type not in GAMES:
            raise Unprocessable(f"unknown game type {type!r}; known: {', '.join(GAMES)}")
        game = GAMES[type]
        try:
            options = game.normalise_options(players, options)
        except InvalidOptions as error:
            raise Unprocessable(str(error)) from None
        seat_list = parse_seats(game, players, seats)
        if time_bank is not None:
            if pace is not None:
                raise Unprocessable("give either a pace or a time bank, not both")
            pace, bank = turns.BANK_PACE, turns.checked_bank(time_bank)
        else:
            pace, bank = pace or DEFAULT_PACE, None
            self._check_pace(pace, seat_list)
        seat_list[0] = Seat(player_id=player.id, name=player.name, automated=player.bot)
        meta = Meta(type=game.name, players=players, options=options, pace=pace,
                    pace_seconds=self.paces.get(pace), public=public, webhook=webhook,
                    created=self.games.clock.now(), vacation=vacation, time_bank=bank)
        self._sit_clock(seat_list[0], player.id, meta)
        return self._new_game(game, meta, seat_list, player.id)

    def _sit_clock(self, seat: Seat, player_id: str, meta: Meta) -> None:
        """The seat keeps its player's own clock."""
        for name, value in self.clocks.seat_fields(player_id, meta).items():
            setattr(seat, name, value)

    def _new_game(self, game: Game, meta: Meta, seats: list[Seat], creator_id: str
                  ) -> StoredGame:
        for seat in seats:
            if seat.bot is None:
                seat.bank = turns.first_bank(meta)
        state = game.new_game(meta.players, meta.options, secrets.randbits(63))
        stored = StoredGame(secrets.token_urlsafe(12), game, meta, seats, state, 0, meta.created)
        return self.games.create(stored, creator_id)

    def _check_pace(self, pace: str, seats: list[Seat]) -> None:
        if pace not in self.paces:
            raise Unprocessable(f"pace must be one of {', '.join(self.paces)}")
        if self.paces[pace] is None and sum(seat.bot is None for seat in seats) > 1:
            raise Unprocessable("pace 'none' is only for games whose opponents are all bots")

    def join(self, game_id: str, player: Player, seat: int | None) -> StoredGame:
        """Take an open seat by the game's id: the first one unless `seat` is given."""
        stored = self.games.load(game_id)
        if not stored.meta.public and not stored.seat_kept_for(player.id):
            raise Forbidden("this game is private: take a seat through its invite link")

        def take(stored: StoredGame) -> int:
            open_seats = [index for index, s in enumerate(stored.seats)
                          if s.open and s.reserved_for in (None, player.id)]
            chosen = seat
            if chosen is None:
                reserved = [i for i in open_seats if stored.seats[i].reserved_for == player.id]
                chosen = (reserved or open_seats or [None])[0]
            if chosen is None:
                raise Conflict("this game has no open seat")
            if chosen not in open_seats:
                raise Conflict(f"seat {chosen} is not open to you; open seats: {open_seats}")
            return chosen
        return self._seat(game_id, player, take, stored)

    def accept_invite(self, code: str, player: Player) -> StoredGame:
        game_id = self.storage.lobby.invite(code)
        if game_id is None:
            raise NotFound("this invite link is unknown or was already used")

        def take(stored: StoredGame) -> int:
            for index, seat in enumerate(stored.seats):
                if seat.invite == code and seat.player_id is None:
                    return index
            raise Conflict("this invite's seat is already taken")
        return self._seat(game_id, player, take)

    def _seat(self, game_id: str, player: Player, choose: Callable[[StoredGame], int],
              loaded: StoredGame | None = None) -> StoredGame:
        taken = {}

        def sit(stored: StoredGame) -> None:
            if stored.seat_of(player.id) is not None:
                raise Conflict("you already have a seat in this game")
            index = choose(stored)
            seat = stored.seats[index]
            taken["invite"] = seat.invite
            seat.player_id, seat.name, seat.invite = player.id, player.name, None
            seat.reserved_for, seat.automated = None, player.bot
            self._sit_clock(seat, player.id, stored.meta)
            # Listed before the commit: a listed game where the player has no seat is dropped
            # from the inbox when it is read.
            self.storage.players.add_game(player.id, game_id)
        stored = self.games.transact(game_id, sit, loaded)
        self.storage.lobby.seat_taken(game_id, taken["invite"], stored.status() != WAITING)
        return stored

    def leave(self, game_id: str, player: Player) -> StoredGame | None:
        """The player leaves a game that has not started: their seat opens again with a new
        invite link. The last player to leave deletes the game (None is returned then)."""
        dropped = {}

        def stand_up(stored: StoredGame) -> Drop | None:
            index = own_seat(stored, player)
            if stored.status() == ACTIVE:
                raise Conflict("the game has started, so it cannot be left: resign instead "
                               f"(POST /api/v1/games/{game_id}/resign) and a bot plays your seat")
            if stored.status() != WAITING:
                raise Conflict("the game is over")
            if stored.humans() == [player.id]:
                dropped["game"] = stored
                return DROP
            # The old link was spent when the seat was taken: the open seat gets a new one,
            # stored first so the commit never names a link that does not work.
            invite = _invite_code()
            self.storage.lobby.add_invite(game_id, invite)
            seat = stored.seats[index]
            seat.player_id, seat.name, seat.invite, seat.automated = None, None, invite, False
            blank = Seat()
            for name in SEAT_FIELDS:
                setattr(seat, name, getattr(blank, name))
            return None
        left = self.games.transact(game_id, stand_up)
        self.storage.players.forget_games(player.id, [game_id])
        if left is None:
            gone = dropped["game"]
            self.storage.lobby.forget_game(game_id, [s.invite for s in gone.seats if s.invite])
            self._unlink_rematch(gone)
        return left

    def _unlink_rematch(self, dropped: StoredGame) -> None:
        """A dropped rematch no longer follows its game, so the players may ask for another."""
        original = dropped.meta.rematch_of
        if original is None:
            return

        def unlink(old: StoredGame) -> None:
            if old.meta.rematch == dropped.id:
                old.meta.rematch = None
        try:
            self.games.transact(original, unlink)
        except NotFound:
            return  # the finished game has expired meanwhile
        self.storage.games.release_rematch(original)

    def rematch(self, game_id: str, player: Player) -> StoredGame:
        """The next game with the same seats and options, created by the first who asks; the
        other humans' seats wait for them."""
        stored = self.games.load(game_id)
        seat = stored.seat_of(player.id)
        if seat is None:
            raise Forbidden("only the game's players may ask for a rematch")
        if stored.status() != FINISHED:
            raise Conflict("a rematch can follow only a finished game")
        if stored.meta.rematch:
            return self.games.load(stored.meta.rematch)
        seats = []
        for index, old in enumerate(stored.seats):
            if old.bot is not None:
                seats.append(Seat(name=old.name, bot=old.bot))
            elif index == seat:
                seats.append(Seat(name=old.name, player_id=player.id, automated=old.automated))
                self._sit_clock(seats[-1], player.id, stored.meta)
            else:
                seats.append(Seat(name=old.name, reserved_for=old.player_id,
                                  invite=_invite_code(), automated=old.automated))
        meta = Meta(**{**vars(stored.meta), "created": self.games.clock.now(),
                       "rematch_of": game_id, "rematch": None})
        # Only one rematch per game: the first to claim the link creates it.
        if not self.storage.games.claim_rematch(game_id):
            raise Conflict("a rematch is being created; reload in a moment")
        new = self._new_game(stored.game, meta, seats, player.id)

        def link(old: StoredGame) -> None:
            old.meta.rematch = new.id
        self.games.transact(game_id, link)
        return new

    def lobby(self) -> list[dict]:
        """Public games waiting for players."""
        games, gone = [], []
        for game_id in self.storage.lobby.newest():
            stored = self.games.find(game_id)
            if stored is not None and stored.status() == WAITING:
                games.append(summary(stored, None))
            else:
                gone.append(game_id)
        self.storage.lobby.leave(gone)
        return games
