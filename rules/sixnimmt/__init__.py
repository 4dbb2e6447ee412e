"""6 nimmt!: see game.py for the rules, the actions and the view."""
from rules.sixnimmt.game import GAME

__all__ = ["GAME"]
