"""Tables and seats: creating a game, taking a seat (by the game's id, or an invite link),
leaving a game before it starts, the rematch, the lobby.

Access: a private game's seats are taken through its invite links, or by a player a seat is
kept for (a rematch, or a named seat: a challenge); a public game's open seats by anybody.
Nobody takes a seat at a table where a seated player blocks them, nor names a player who blocks
them.
"""
from __future__ import annotations

import re
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
PLAYER_ID = re.compile(r"[0-9a-f]{16}")


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def preview_seat(index: int, seat: Seat, viewer: Player | None) -> dict:
    kept_for_another = seat.reserved_for not in (None, viewer and viewer.id)
    return {"seat": index, "name": seat.name, "bot": seat.bot,
            "open": seat.open and not kept_for_another, "kept_for_another": kept_for_another}


def parse_seats(game: Game, players: int, seats: list[Any]) -> list[Seat]:
    if len(seats) != players:
        raise Unprocessable(f"seats must list exactly {players} entries, one per player")
    levels = {level.name for level in game.bot_levels}
    parsed = []
    for index, spec in enumerate(seats):
        if spec == HUMAN:
            parsed.append(Seat(invite=new_invite_code()))
        elif (isinstance(spec, dict) and set(spec) == {"bot"} and isinstance(spec["bot"], str)
              and spec["bot"] in levels):
            parsed.append(Seat(name=f"Bot {index + 1} ({spec['bot']})", bot=spec["bot"]))
        elif (isinstance(spec, dict) and set(spec) == {"player"} and isinstance(spec["player"], str)
              and PLAYER_ID.fullmatch(spec["player"])):
            parsed.append(Seat(reserved_for=spec["player"], invite=new_invite_code()))
        else:
            raise Unprocessable(
                f"seat {index} must be \"human\", {{\"player\": id}} or {{\"bot\": level}} "
                f"with level one of {', '.join(sorted(levels))}")
    if parsed[0].bot is not None or parsed[0].reserved_for is not None:
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
                    time_bank: dict | None = None, address: str | None = None,
                    rated: bool = True) -> StoredGame:
        """A table for `players`; `time_bank` ({"initial", "per_move", "most"} seconds) gives
        each seat a bank of time instead of a `pace` per move. `address` is the creator's
        client address, for the lobby's quota per address; an unrated game changes no rating."""
        hard_bots = sum(1 for seat in seats if isinstance(seat, dict) and seat.get("bot") == "hard")
        quotas.check_new_game(self.games, player, hard_bots, public, address)
        if type not in GAMES:
            raise Unprocessable(f"unknown game type {type!r}; known: {', '.join(GAMES)}")
        game = GAMES[type]
        try:
            options = game.normalise_options(players, options)
        except InvalidOptions as error:
            raise Unprocessable(str(error)) from None
        seat_list = parse_seats(game, players, seats)
        named = [seat.reserved_for for seat in seat_list if seat.reserved_for]
        names = self._check_named(player, named)
        for seat in seat_list:  # a kept seat shows whom the table waits for, as a rematch's does
            if seat.reserved_for:
                seat.name = names[seat.reserved_for]
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
                    created=self.games.clock.now(), vacation=vacation, time_bank=bank,
                    rated=rated)
        self._sit_clock(seat_list[0], player.id, meta)
        created = self._new_game(game, meta, seat_list, player.id, address)
        for player_id in named:  # the challenge waits in their inbox
            self.storage.players.add_game(player_id, created.id)
        self._tell_inboxes(named)
        for index, seat in enumerate(created.seats):  # and reaches their phones
            if seat.reserved_for:
                self.games.jobs.notify_challenge(created.id, index)
        return created

    def _tell_inboxes(self, player_ids: list[str]) -> None:
        """Players whose inbox changed without a commit seating them (a challenge made or
        withdrawn): their streams look again and their webhooks hear of it."""
        if not player_ids:
            return
        follow = self.games.follow
        marks = follow.owe_webhooks(player_ids)
        self.storage.players.wake_inboxes(player_ids)
        follow.deliver_webhooks(marks)

    def _check_named(self, player: Player, named: list[str]) -> dict[str, str]:
        """A named seat is for another player, once, who exists and neither blocks the creator
        nor is blocked by them; returns their names."""
        if len(set(named)) != len(named) or player.id in named:
            raise Unprocessable("name each other player at most once, and not yourself")
        names = {}
        for player_id in named:
            found = self.storage.players.get(player_id)
            if found is None:
                raise Unprocessable(f"no player {player_id!r} to keep a seat for")
            names[player_id] = found[0]
        if self.storage.friends.blocking_any(named, player.id):
            raise Forbidden("a player you named does not take your challenges")
        if self.storage.friends.blocks_any(player.id, named):
            raise Conflict("you block a player you named: unblock them first")
        return names

    def _sit_clock(self, seat: Seat, player_id: str, meta: Meta) -> None:
        """The seat keeps its player's own clock."""
        for name, value in self.clocks.seat_fields(player_id, meta).items():
            setattr(seat, name, value)

    def seat_table(self, game_id: str, type: str, options: dict, pace: str, rated: bool,
                   players: list[Player], bots: int, bot_level: str | None) -> StoredGame:
        """A table matchmaking formed, every seat taken: its players in order, then its bots.
        Made once: asked again for the same `game_id` (a run that died after making it), the
        game as it stands."""
        existing = self.games.find(game_id)
        if existing is None:
            game = GAMES[type]
            count = len(players) + bots
            try:
                options = game.normalise_options(count, options)
            except InvalidOptions as error:
                raise Unprocessable(str(error)) from None
            meta = Meta(type=type, players=count, options=options, pace=pace,
                        pace_seconds=self.paces.get(pace), public=False, webhook=None,
                        created=self.games.clock.now(), rated=rated)
            seats = [Seat(player_id=player.id, name=player.name, automated=player.bot)
                     for player in players]
            seats += [Seat(name=f"Bot {len(seats) + index + 1} ({bot_level})", bot=bot_level)
                      for index in range(bots)]
            for seat in seats[:len(players)]:
                self._sit_clock(seat, seat.player_id, meta)
            existing = self._new_game(game, meta, seats, players[0].id, None, game_id,
                                      formed=True)
        for player in players[1:]:
            self.storage.players.add_game(player.id, game_id)
        return existing

    def _new_game(self, game: Game, meta: Meta, seats: list[Seat], creator_id: str,
                  address: str | None, game_id: str | None = None,
                  formed: bool = False) -> StoredGame:
        for seat in seats:
            if seat.bot is None:
                seat.bank = turns.first_bank(meta)
        state = game.new_game(meta.players, meta.options, secrets.randbits(63))
        stored = StoredGame(game_id or secrets.token_urlsafe(12), game, meta, seats, state, 0,
                            meta.created)
        created = self.games.create(stored, creator_id, formed)
        quotas.count_new_game(self.games, created.id, meta.public and created.status() == WAITING,
                              sum(seat.bot == "hard" for seat in seats), address)
        return created

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

    def invite_preview(self, code: str, viewer: Player | None) -> dict:
        """What an invite link offers before it is taken: who invited, the game, its seats and
        pace; nothing a seat hides. A seat kept for a named player is open to them alone.
        Unknown or used links are one and the same 404."""
        game_id = self.storage.lobby.invite(code)
        stored = self.games.find(game_id) if game_id else None
        seat = None if stored is None else next(
            (index for index, s in enumerate(stored.seats) if s.invite == code and s.open), None)
        if seat is None:
            raise NotFound("this invite link is unknown or was already used")
        meta = stored.meta
        # The creator sits at seat 0; a rematch keeps that seat for its player until taken.
        host = next((s.name for s in stored.seats if s.name), None)
        return {"game": stored.id, "type": stored.game.name, "title": stored.game.title,
                "players": meta.players, "seat": seat, "host": host, "options": meta.options,
                "pace": meta.pace, "time_bank": meta.time_bank, "public": meta.public,
                "seats": [preview_seat(i, s, viewer) for i, s in enumerate(stored.seats)]}

    def accept_invite(self, code: str, player: Player) -> StoredGame:
        game_id = self.storage.lobby.invite(code)
        if game_id is None:
            raise NotFound("this invite link is unknown or was already used")

        def take(stored: StoredGame) -> int:
            for index, seat in enumerate(stored.seats):
                if seat.invite == code and seat.player_id is None:
                    if seat.reserved_for not in (None, player.id):
                        raise Forbidden("this seat is kept for another player")
                    return index
            raise Conflict("this invite's seat is already taken")
        return self._seat(game_id, player, take)

    def _seat(self, game_id: str, player: Player, choose: Callable[[StoredGame], int],
              loaded: StoredGame | None = None) -> StoredGame:
        taken = {}

        def sit(stored: StoredGame) -> None:
            if stored.seat_of(player.id) is not None:
                raise Conflict("you already have a seat in this game")
            if self.storage.friends.blocking_any(stored.humans(), player.id):
                raise Forbidden("you cannot take a seat at this table")
            if self.storage.friends.blocks_any(player.id, stored.humans()):
                raise Conflict("you block a player at this table: unblock them first")
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
                               f"(POST /api/v1/games/{game_id}/resign) and a bot plays your seat",
                               "game_started")
            if stored.status() != WAITING:
                raise Conflict("the game is over", "game_over")
            if stored.humans() == [player.id]:
                dropped["game"] = stored
                return DROP
            # The old link was spent when the seat was taken: the open seat gets a new one,
            # stored first so the commit never names a link that does not work.
            invite = new_invite_code()
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
            self._tell_inboxes([seat.reserved_for for seat in gone.seats if seat.reserved_for])
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

    def rematch(self, game_id: str, player: Player, address: str | None = None) -> StoredGame:
        """The next game with the same seats and options, created by the first who asks; the
        other humans' seats wait for them. It counts in the asker's quotas like a new game."""
        stored = self.games.load(game_id)
        seat = stored.seat_of(player.id)
        if seat is None:
            raise Forbidden("only the game's players may ask for a rematch")
        if stored.status() != FINISHED:
            raise Conflict("a rematch can follow only a finished game")
        if stored.meta.rematch:
            return self.games.load(stored.meta.rematch)
        quotas.check_new_game(self.games, player, sum(s.bot == "hard" for s in stored.seats),
                              stored.meta.public, address)
        seats = []
        for index, old in enumerate(stored.seats):
            if old.bot is not None:
                seats.append(Seat(name=old.name, bot=old.bot))
            elif index == seat:
                seats.append(Seat(name=old.name, player_id=player.id, automated=old.automated))
                self._sit_clock(seats[-1], player.id, stored.meta)
            else:
                seats.append(Seat(name=old.name, reserved_for=old.player_id,
                                  invite=new_invite_code(), automated=old.automated))
        meta = Meta(**{**vars(stored.meta), "created": self.games.clock.now(),
                       "rematch_of": game_id, "rematch": None})
        # Only one rematch per game: the first to claim the link creates it.
        if not self.storage.games.claim_rematch(game_id):
            raise Conflict("a rematch is being created; reload in a moment")
        new = self._new_game(stored.game, meta, seats, player.id, address)

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
