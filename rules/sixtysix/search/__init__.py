"""Search for the medium and hard Sixty-six bots: determinize the view, then simulate.

engine.py re-implements the rules compactly for speed; endgame.py solves two-player
endgames exactly; knowledge.py deals the unseen cards.

A determinization deals the cards the seat cannot see (opponents' hands, the face-down
stock and the set-aside cards) consistently with what the view reveals: own hand, the
trick on the table, every completed trick of the hand (view "played"), the face-up trump
card, the voids and missing high cards that strict play in those tricks revealed, the
cards known to be held (the other half of a shown marriage, the card taken by the trump
exchange, the drawn face-up card) and every side's card points. With two players and the
stock exhausted the opponent's hand is exact, so the endgame solver is exact too.
"""
from rules.sixtysix.search.endgame import Endgame, finish
from rules.sixtysix.search.engine import CODE, NAME, Position, apply, legal_actions, score
from rules.sixtysix.search.knowledge import Knowledge

__all__ = ["CODE", "NAME", "Endgame", "Knowledge", "Position", "apply", "finish",
           "legal_actions", "score"]
