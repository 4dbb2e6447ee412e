"""Hattrick: collect one colour in double tricks, dodge the other two."""
from rules.base import BotLevel, Option
from rules.hattrick.bots import appraise, easy_action, hard_action, medium_action
from rules.hattrick.game import CARD, Hattrick
from rules.hattrick.shapes import EVENTS, TABLE

GAME = Hattrick(
    name="hattrick", title="Hattrick", min_players=4, max_players=7,
    options=(Option("deals", "int", 5, "number of deals in the match", minimum=1,
                    maximum=20),),
    bot_levels=(BotLevel("easy", "builds one colour, dodges other colours, passes only to "
                                 "avoid a big unwanted take",
                        easy_action),
                BotLevel("medium", "thinks ahead by playing the deal out many times over guessed "
                                   "hands, with careless opponents", medium_action),
                BotLevel("hard", "plays the deal out many times over guessed hands against "
                                 "sensible opponents before every card", hard_action)),
    lower_score_wins=False, card=CARD, table_shape=TABLE, event_shapes=EVENTS,
    rules_page="hattrick.md",
    typical_players=4, quick_options={"deals": 1},
    appraise=appraise,
)

__all__ = ["GAME"]
