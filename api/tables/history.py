"""What happened in a game: its events as the caller may know them, and once it is over its
record (the seed, the deals as dealt, every action) and a replay of any step with every hand.

Access: the events follow the game's watch rule; the record and the replay wait for the end,
and of a private game are shown only to its players.
"""
from __future__ import annotations

from api.tables.errors import Forbidden, NotFound, no_game
from api.tables.games import Games
from api.tables.model import FINISHED, Player, StoredGame
from api.tables.views import Watching


def _replayed(stored: StoredGame, actions: list[dict], recording: bool = False) -> dict:
    """The game's state after `actions`, replayed from its seed."""
    game, meta = stored.game, stored.meta
    state = game.new_game(meta.players, meta.options, stored.state["seed"], recording)
    for entry in actions:
        game.apply_action(state, entry["seat"], entry["action"])
    return state


class History:
    def __init__(self, games: Games, watching: Watching):
        self.games = games
        self.watching = watching
        self.store = games.storage.games

    def events(self, game_id: str, player: Player | None, after: int) -> dict:
        """The events after number `after` that the caller may see, and the number of the last,
        read at one instant so a reader that goes on from `last` never skips one."""
        found = self.store.events(game_id, player and player.id, after)
        if found is None:
            raise no_game(game_id)
        self.watching.may_watch(game_id, player, found.seat, found.public)
        visible = []
        for number, event in enumerate(found.events, start=max(after, 0) + 1):
            audience = event.pop("to", None)
            if audience is None or found.seat in audience:
                visible.append({"number": number, **event})
        return {"type": found.type, "events": visible, "last": found.count}

    def _finished(self, game_id: str, player: Player | None, refusal: str) -> StoredGame:
        stored = self.games.load(game_id)
        if (stored.status() == FINISHED and not stored.meta.public
                and stored.seat_of(player.id if player else None) is None):
            raise Forbidden("this game is private: only its players may see its record")
        if stored.status() != FINISHED:
            raise Forbidden(refusal)
        return stored

    def record(self, game_id: str, player: Player | None) -> dict:
        stored = self._finished(game_id, player, "the record is published when the game is over")
        actions = self.store.actions(game_id)
        return {
            "id": game_id,
            "type": stored.game.name,
            "players": stored.meta.players,
            "options": stored.meta.options,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot}
                      for i, s in enumerate(stored.seats)],
            **stored.game.record(_replayed(stored, actions, recording=True)),
            "actions": [{"seat": a["seat"], "action": a["action"]} for a in actions],
            "outcome": stored.game.outcome(stored.state),
        }

    def replay(self, game_id: str, player: Player | None, step: int) -> dict:
        """A finished game after its first `step` actions, every hand shown."""
        stored = self._finished(game_id, player, "a game can be replayed when it is over")
        actions = self.store.actions(game_id)
        if not 0 <= step <= len(actions):
            raise NotFound(f"this game has steps 0 to {len(actions)}")
        game = stored.game
        state = _replayed(stored, actions[:step])
        seen = game.view(state, None)
        last = actions[step - 1] if step else None
        return {
            "step": step, "steps": len(actions),
            "seat": last and last["seat"], "action": last and last["action"],
            "hands": [game.view(state, seat)["hand"] for seat in range(stored.meta.players)],
            "view": {"type": game.name, "title": game.title, "phase": seen["phase"],
                     "deal": seen["deal"], "scores": seen["scores"], "table": seen["table"],
                     "seats": [{"seat": i, "name": s.name, "bot": s.bot}
                               for i, s in enumerate(stored.seats)]},
        }
