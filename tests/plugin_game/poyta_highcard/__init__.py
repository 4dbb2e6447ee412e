"""High card: a two-player trick game of twenty cards, a game package outside `rules/` that
joins the server through the `poyta.games` entry point (see tests/api/test_plugin_game.py)."""
from rules.base import BotLevel, Option

from poyta_highcard.bots import easy
from poyta_highcard.game import CARD, HighCard
from poyta_highcard.shapes import EVENTS, TABLE

GAME = HighCard(
    name="highcard", title="High card", min_players=2, max_players=2,
    options=(Option("deals", "int", 3, "number of deals in the match", minimum=1, maximum=9),),
    bot_levels=(BotLevel("easy", "takes a trick with its lowest card that does, else gives "
                                 "its lowest card away", easy),),
    card=CARD, table_shape=TABLE, event_shapes=EVENTS,
    rules_page="highcard.md",
    quick_options={"deals": 1},
)

__all__ = ["GAME"]
