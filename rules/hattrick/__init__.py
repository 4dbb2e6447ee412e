"""Hattrick: collect one colour in double tricks, dodge the other two."""
from rules.hattrick.game import GAME

__all__ = ["GAME"]
