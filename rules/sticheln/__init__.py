"""Sticheln: tricks where every other colour is trump and your own pain colour hurts."""
from rules.base import BotLevel, Option
from rules.sticheln.bots import appraise, easy_action, hard_action, medium_action
from rules.sticheln.game import CARD, Sticheln
from rules.sticheln.shapes import EVENTS, TABLE

GAME = Sticheln(
    name="sticheln",
    title="Sticheln",
    min_players=3,
    max_players=8,
    options=(
        Option("deals", "int", 5, "number of deals in the match", minimum=1, maximum=20),
        Option("reverse", "bool", False,
               "lucky colour instead of pain colour; the lowest card wins the trick"),
        Option("mild", "bool", False, "every pain (or lucky) card counts 5, zeros too"),
        Option("tough", "bool", False, "two pain (or lucky) colours; one trick fewer"),
        Option("dark", "bool", False, "pain cards stay hidden until the deal ends"),
        Option("late", "bool", False,
               "no card is put down; after the last trick name a colour you won "
               "(not with 'dark')"),
    ),
    bot_levels=(BotLevel("easy", "picks a sensible pain colour, dumps its pain cards "
                                 "on others and wins the tricks that pay",
                        easy_action),
                BotLevel("medium", "imagines where the unseen cards may lie and plays the deal "
                                   "out in its head before each card", medium_action),
                BotLevel("hard", "the same thinking, longer and over more pain colours: "
                                 "a tough opponent", hard_action)),
    lower_score_wins=False,
    card=CARD, table_shape=TABLE, event_shapes=EVENTS,
    rules_page="sticheln.md",
    typical_players=4, quick_options={"deals": 1},
    appraise=appraise,
)
