"""Pure game rules: no I/O, no web, no storage. See rules/base.py for the shape."""
from importlib import import_module

from rules.base import Action, Game, IllegalAction, InvalidOptions, State

GAME_MODULES = ("sixnimmt", "sixtysix", "sticheln", "hattrick")

GAMES: dict[str, Game] = {
    module: import_module(f"rules.{module}").GAME for module in GAME_MODULES
}

__all__ = ["Action", "Game", "GAMES", "IllegalAction", "InvalidOptions", "State"]
