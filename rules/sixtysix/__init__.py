"""Sixty-six (66): a Schnapsen-like trick game for 2-4 players."""
from rules.base import BotLevel, Option
from rules.sixtysix.bots import appraise, easy_action, hard_action, medium_action
from rules.sixtysix.game import CARD, SixtySix
from rules.sixtysix.shapes import EVENTS, TABLE

GAME = SixtySix(
    name="sixtysix", title="Sixty-six", min_players=2, max_players=4,
    options=(
        Option("preset", "choice", "seed",
               "seed: the rules as written; classic: adds marriages and the trump "
               "exchange, and 2 players use the 24-card deck",
               choices=("seed", "classic")),
        Option("deck", "choice", 32,
               "32 cards (7-A) or 24 cards (9-A); 24 only with 2 players. "
               "4 players always use two 24-card decks",
               choices=(32, 24)),
        Option("match_points", "int", 7, "game points that win the match", minimum=1,
               maximum=21),
    ),
    bot_levels=(BotLevel("easy", "wins tricks with points cheaply, keeps its trumps "
                                 "and declares as soon as it has enough",
                        easy_action),
                BotLevel("medium", "imagines where the unseen cards may be and plays each "
                                   "option out quickly before choosing", medium_action),
                BotLevel("hard", "searches longer, and once the stock is gone with two "
                                 "players works the last tricks out exactly", hard_action)),
    lower_score_wins=False,
    card=CARD, table_shape=TABLE, event_shapes=EVENTS,
    rules_page="sixtysix.md",
    typical_players=2, quick_options={"match_points": 1},
    appraise=appraise,
)

__all__ = ["GAME"]
