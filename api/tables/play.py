"""Acting at a table: a player's move, a bot's move for a seat, taking a seat back from a
stand-in, resigning. A move is checked by the game's rules; the seat's player (or the bot that
plays for it) is the only one who may make it."""
from __future__ import annotations

from typing import Any

from api.tables.errors import Conflict, Forbidden, Unprocessable
from api.tables.games import Games, Logged
from api.tables.model import ACTIVE, FINISHED, WAITING, Player, StoredGame
from rules import IllegalAction, MalformedAction, NotToAct


def move(stored: StoredGame, seat: int, action: Any) -> Logged:
    """Apply `action` for `seat` to the loaded game: the rules' events and the log entry."""
    status = stored.status()
    if status == WAITING:
        raise Unprocessable("the game has not started: it is waiting for players to join",
                            "game_not_started")
    if status == FINISHED:
        raise Unprocessable("the game is over", "game_over")
    to_act = set(stored.to_act())
    was_to_act = seat in to_act
    try:
        events = stored.game.apply_action(stored.state, seat, action)
    except NotToAct as error:
        raise Unprocessable(str(error), "not_your_turn") from None
    except MalformedAction as error:  # the contract's schema refuses it too
        raise Unprocessable(str(error), "invalid_body",
                            errors={"json": {"action": [str(error)]}}) from None
    except IllegalAction as error:
        raise Unprocessable(str(error), "illegal_action") from None
    # A secret choice resolves nothing: the others still to act are the same, and no event is
    # told to another seat alone. Their views show only that the seat has chosen, so their
    # `version` does not go stale by it.
    secret = (stored.status() == ACTIVE and set(stored.to_act()) == to_act - {seat}
              and all(event.get("to") in (None, [seat]) for event in events))
    # Acting ends the seat's turn (and a card played uses up the one chosen ahead); if it must
    # act again, a new turn (and clock) starts.
    stored.seats[seat].turn_since = None
    if was_to_act and stored.preselected.get(seat, {}).get("type") == action["type"]:
        del stored.preselected[seat]
    # A seat that was not to act changed its secret choice: the log keeps one entry.
    return Logged(events, {"seat": seat, "action": action, "version": stored.version},
                  replaces=not was_to_act, secret_of=seat if secret else None)


def stale(stored: StoredGame, version: int) -> Conflict:
    return Conflict(f"the game is at version {stored.version}, not {version}; reload it",
                    "stale_version", current_version=stored.version)


def unseen_since(stored: StoredGame, seat: int, version: int) -> bool:
    """Nothing `seat` could see changed after `version`: only other seats' secret choices."""
    seen = stored.seats[seat].seen
    return version == stored.version or (seen is not None and seen <= version < stored.version)


def own_seat(stored: StoredGame, player: Player) -> int:
    seat = stored.seat_of(player.id)
    if seat is None:
        raise Forbidden("you have no seat in this game")
    return seat


class Play:
    def __init__(self, games: Games):
        self.games = games

    def act(self, game_id: str, player: Player, action: Any, version: int | None) -> StoredGame:
        """The player's move in their seat; with `version`, only if nothing the seat could see
        changed after it (another seat's secret choice is not seen)."""
        loaded = self.games.load(game_id)
        seat = own_seat(loaded, player)
        if loaded.seats[seat].standin:
            raise Unprocessable("a bot plays this seat after repeated time-outs; "
                                "take it back first", "stood_in")

        def play(stored: StoredGame) -> Logged:
            if version is not None and not unseen_since(stored, seat, version):
                raise stale(stored, version)
            logged = move(stored, seat, action)
            stored.seats[seat].timeouts = 0
            return logged
        return self.games.transact(game_id, play, loaded)

    def play_for(self, seen: StoredGame, seat: int, action: Any, note: dict | None,
                 **seat_changes) -> StoredGame:
        """A move made for a seat by a bot (its own, a stand-in's, or a timed-out player's), on
        the game as `seen`: Conflict when it moved on meanwhile. `note` is told before the
        move's own events; `seat_changes` update the seat in the same commit."""
        def play(stored: StoredGame) -> Logged:
            if stored.version != seen.version:
                raise stale(stored, seen.version)
            logged = move(stored, seat, action)
            for name, value in seat_changes.items():
                setattr(stored.seats[seat], name, value)
            if note is not None:
                logged.events.insert(0, note)
            if note is not None or seat_changes:  # a time-out or a stand-in shows at the table
                logged.secret_of = None
            return logged
        return self.games.transact(seen.id, play, seen)

    def take_back(self, game_id: str, player: Player) -> StoredGame:
        def give_back(stored: StoredGame) -> None:
            seat = stored.seats[own_seat(stored, player)]
            if seat.resigned:
                raise Conflict("you resigned this game: a bot plays your seat to the end")
            if not seat.standin:
                raise Conflict("you already play your seat yourself")
            seat.standin, seat.timeouts, seat.turn_since, seat.deadline = False, 0, None, None
        return self.games.transact(game_id, give_back)

    def resign(self, game_id: str, player: Player) -> StoredGame:
        """The player gives up their seat for good: in a two-player game the other player wins
        there and then (as on Lichess or Board Game Arena), with more a bot plays it to the end."""
        def give_up(stored: StoredGame) -> Logged:
            index = own_seat(stored, player)
            if stored.status() != ACTIVE:
                raise Conflict("only a game in progress can be resigned")
            seat = stored.seats[index]
            if seat.resigned:
                raise Conflict("you have resigned this game already")
            seat.resigned, seat.turn_since, seat.deadline = True, None, None
            ends = stored.resigned_seat() == index
            seat.standin = not ends
            return Logged([{"type": "resigned", "seat": index, "ends_game": ends}])
        return self.games.transact(game_id, give_up)
