"""Choosing ahead: a player not yet to act picks the card to play when their turn comes (in 6
nimmt!, the card of their next turn). When the turn comes, the card is played at once as the
player if it is still legal (`StoredGame.automatic_action`, moved by the bots' job), and
dropped if not; until then it can be changed or cleared.

Nothing of it reaches another seat before it is played: the choice is kept in the game's hash
beside its version (`GameStore.preselect`), so no view, ETag or event changes and no long-poll
wakes; a commit computed while a choice changed is refused and made again, so a turn never
begins without seeing the card chosen for it. Only the seat's player reads it back.
"""
from __future__ import annotations

import json
from typing import Any

from api.tables.errors import Conflict, Unprocessable
from api.tables.games import CAS_ATTEMPTS, Games
from api.tables.model import ACTIVE, Player, StoredGame
from api.tables.play import own_seat
from api.tables.player_clock import PlayerClocks
from rules import IllegalAction

AHEAD = "play"   # the action type chosen ahead: a card from the hand


class Preselection:
    def __init__(self, games: Games, clocks: PlayerClocks):
        self.games = games
        self.clocks = clocks

    def get(self, game_id: str, player: Player) -> dict:
        stored = self.games.load(game_id)
        return {"action": stored.preselected.get(own_seat(stored, player))}

    def choose(self, game_id: str, player: Player, action: Any) -> dict:
        if not self.clocks.get_clock(player.id).preselect:
            raise Conflict("choosing ahead is off: turn it on in your settings first")
        return self._change(game_id, player, action)

    def clear(self, game_id: str, player: Player) -> None:
        self._change(game_id, player, None)

    def _change(self, game_id: str, player: Player, action: Any) -> dict:
        for _ in range(CAS_ATTEMPTS):
            stored = self.games.load(game_id)
            seat = own_seat(stored, player)
            if action is not None:
                _check(stored, seat, action)
            if self.games.storage.games.preselect(
                    game_id, stored.version, seat, None if action is None else json.dumps(action)):
                return {"action": action}
        raise Conflict("the game is too busy right now; try again", "busy")


def _check(stored: StoredGame, seat: int, action: Any) -> None:
    """A card the seat may choose ahead now: a game in progress, a seat its player plays and
    that is not to act, a card in its hand."""
    if stored.status() != ACTIVE:
        raise Conflict("only a game in progress takes a card chosen ahead")
    if stored.played_by_bot(seat):
        raise Conflict("a bot plays your seat: take it back first")
    if seat in stored.to_act():
        raise Conflict("it is your turn: play your card now")
    declared = stored.game.action_types.get(AHEAD)
    if declared is None:
        raise Unprocessable(f"{stored.game.title} has no card to choose ahead")
    if type(action) is not dict or action.get("type") != AHEAD:
        raise Unprocessable(f"a card chosen ahead is a '{AHEAD}' action: "
                            f"{{\"type\": \"{AHEAD}\", \"card\": ...}}")
    try:
        declared.check(action)
    except IllegalAction as error:
        raise Unprocessable(str(error)) from None
    hand = stored.game.view(stored.state, seat)["hand"] or []
    if action.get("card") not in hand:
        raise Unprocessable(f"card {action.get('card')!r} is not in your hand")
