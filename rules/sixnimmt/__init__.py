"""6 nimmt!: game.py has the rules and the actions, shapes.py what the view and the events show."""
from rules.base import BotLevel, Option
from rules.sixnimmt.bots import easy
from rules.sixnimmt.game import CARD, SixNimmt
from rules.sixnimmt.shapes import EVENTS, TABLE
from rules.sixnimmt.search import appraise, hard, medium

GAME = SixNimmt(
    name="sixnimmt",
    title="6 nimmt!",
    min_players=2,
    max_players=10,
    options=(
        Option("tactical_deck", "bool", False,
               "Use only the cards 1 to 10 x players + 4, so everyone knows the cards in play"),
        Option("draft", "bool", False,
               "Lay the round's cards face up; players take them one at a time instead of a deal"),
        Option("threshold", "int", 66,
               "The game ends after the round in which someone reaches this many bullheads",
               minimum=1, maximum=200),
    ),
    bot_levels=(
        BotLevel("easy", "Plays the card least likely to take a row; takes the cheapest row", easy),
        BotLevel("medium", "Tries each card against guesses of the others' hands, played at random",
                 medium),
        BotLevel("hard", "Thinks longer, and expects the others to play as a strong player does",
                 hard),
    ),
    lower_score_wins=True,
    card=CARD, table_shape=TABLE, event_shapes=EVENTS,
    rules_page="sixnimmt.md",
    typical_players=4, quick_options={"threshold": 1},
    appraise=appraise,
)

__all__ = ["GAME"]
