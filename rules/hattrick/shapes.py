"""What Hattrick shows: the view's table and the events, as published in the API."""
from rules.hattrick.game import COLOURS
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, array, choice, described, event,
                          mapping, nullable, per_seat, record)

COLOUR = choice(*COLOURS, description="a colour")
TRICK_CARD = record(
    seat=described(SEAT, "the seat that acted"), card=described(CARD, "its card"),
    passed=described(BOOL, "laid face down after showing it: it does not count in the trick"))
PILES = per_seat(mapping(array(CARD), COLOURS, "collected cards by colour, ascending"),
                 "collected cards, face up")
PASSED = per_seat(array(CARD), "cards laid face down, in order (they were shown: public)")
LAST_TRICK = record(cards=array(TRICK_CARD, "the trick's cards in acting order"),
                    taken=mapping(SEAT, COLOURS, "colour -> the seat taking it"),
                    next_leader=described(SEAT, "the seat that leads the next trick"))

TABLE = record(
    "Everything on a Hattrick table (all of it public). Phases: play while the match runs, "
    "over afterwards; every action is by the seat in turn. The view's deal counts from 1; "
    "its scores are the match score of each seat over the finished deals only; its hand is "
    "the viewer's own cards by colour (red, blue, green), then value",
    optional=("seat",),
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    deals=described(INT, "number of deals in the match"),
    dealer=described(SEAT, "the seat that dealt this deal"),
    leader=described(SEAT, "the seat that leads (led) the current trick"),
    turn=nullable(SEAT, "the seat to act; null when the game is over"),
    hand_sizes=per_seat(INT, "cards in hand"),
    trick=array(TRICK_CARD, "the current trick in acting order; passed cards show too (they "
                            "were shown) but do not count"),
    trick_colours=array(COLOUR, "colours of the played (not passed) cards, in order of "
                                "appearance"),
    piles=PILES, passed=PASSED, passed_counts=per_seat(INT, "passed cards"),
    deal_scores=per_seat(INT, "this deal's score so far, from piles and passed cards"),
    sheet=array(SCORES, "one row of scores per finished deal"),
    last_trick=nullable(LAST_TRICK, "null at the start of a deal"),
    tricks=array(LAST_TRICK, "every finished trick of this deal, oldest first (each card was "
                             "shown, a passed one too)"),
    previous_deal=nullable(record(
        "the end of the last finished deal; null until a deal has ended",
        deal=described(INT, "its number, from 1"), piles=PILES, passed=PASSED,
        set_aside=per_seat(CARD, "the last card, not played"),
        last_trick=nullable(LAST_TRICK, "its last trick"),
        scores=per_seat(INT, "that deal's score"))),
)

# Every event is public (none has "to"): every card one names has been shown to everyone.
EVENTS = (
    event("played", "A card put into the trick", seat=described(SEAT, "the seat that played"),
          card=described(CARD, "the card")),
    event("passed", "A card shown and laid face down (-2 at scoring)",
          seat=described(SEAT, "the seat that passed"), card=described(CARD, "the card")),
    event("trick_taken", "After the trick's last card: who takes which colour",
          taken=array(record(seat=described(SEAT, "the seat taking the colour"),
                             colour=described(COLOUR, "the colour"),
                             cards=array(CARD, "its cards in the trick, ascending")),
                      "in colour order red, blue, green"),
          next_leader=described(SEAT, "the seat that leads the next trick")),
    event("deal_ended", "After the deal's last trick",
          deal=described(INT, "the deal's number, from 1"),
          set_aside=per_seat(CARD, "the last card, not played"),
          scores=per_seat(INT, "this deal's score"), totals=per_seat(INT, "the match score")),
    event("dealt", "The next deal has started; it names no card: each seat finds its new hand "
                   "in its view", deal=described(INT, "the deal's number"),
          dealer=described(SEAT, "its dealer"), leader=described(SEAT, "the seat to lead"),
          hand_size=described(INT, "cards in each hand")),
    event("game_over", "The game has ended", scores=per_seat(INT, "the match score"),
          winners=array(SEAT, "the winning seats")),
)
