"""Sixty-six (66): a Schnapsen-like trick game for 2-4 players."""
from rules.sixtysix.game import GAME

__all__ = ["GAME"]
