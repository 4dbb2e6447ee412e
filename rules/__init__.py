"""Pure game rules: no I/O, no web, no storage. See rules/base.py for the shape, and
rules/registry.py for how a game joins `GAMES`."""
from rules.base import (Action, Game, IllegalAction, InvalidOptions, MalformedAction, NotToAct,
                        State)
from rules.registry import installed_games

GAMES: dict[str, Game] = installed_games()

__all__ = ["Action", "Game", "GAMES", "IllegalAction", "InvalidOptions", "MalformedAction", "NotToAct", "State"]
