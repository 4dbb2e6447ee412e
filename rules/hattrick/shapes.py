"""What Hattrick shows: the view's table and the events, as published in the API."""
from rules.hattrick.game import COLOURS
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, array, choice, described, event,
                          mapping, nullable, per_seat, record)

COLOUR = choice(*COLOURS, description="a colour")
TRICK_CARD = record(seat=SEAT, card=CARD, passed=described(
    BOOL, "laid face down after showing it: it does not count in the trick"))
PILES = per_seat(mapping(array(CARD), COLOURS, "collected cards by colour, ascending"),
                 "collected cards, face up")
PASSED = per_seat(array(CARD), "cards laid face down, in order (they were shown: public)")
LAST_TRICK = record(cards=array(TRICK_CARD), taken=mapping(SEAT, COLOURS, "colour -> the "
                                                                           "seat taking it"),
                    next_leader=SEAT)

TABLE = record(
    "Everything on a Hattrick table (all of it public)",
    optional=("seat",),
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    deals=described(INT, "number of deals in the match"),
    dealer=SEAT, leader=described(SEAT, "the seat that leads (led) the current trick"),
    turn=nullable(SEAT, "the seat to act; null when the game is over"),
    hand_sizes=per_seat(INT, "cards in hand"),
    trick=array(TRICK_CARD, "the current trick in acting order; passed cards show too"),
    trick_colours=array(COLOUR, "colours of the played (not passed) cards, in order of "
                                "appearance"),
    piles=PILES, passed=PASSED, passed_counts=per_seat(INT, "passed cards"),
    deal_scores=per_seat(INT, "this deal's score so far, from piles and passed cards"),
    sheet=array(SCORES, "one row of scores per finished deal"),
    last_trick=nullable(LAST_TRICK, "null at the start of a deal"),
    previous_deal=nullable(record(
        "the end of the last finished deal", deal=INT, piles=PILES, passed=PASSED,
        set_aside=per_seat(CARD, "the last card, not played"), last_trick=nullable(LAST_TRICK),
        scores=SCORES)),
)

EVENTS = (
    event("played", "A card put into the trick", seat=SEAT, card=CARD),
    event("passed", "A card shown and laid face down (-2 at scoring)", seat=SEAT, card=CARD),
    event("trick_taken", "After the trick's last card: who takes which colour",
          taken=array(record(seat=SEAT, colour=COLOUR, cards=array(CARD)),
                      "in colour order red, blue, green"), next_leader=SEAT),
    event("deal_ended", "After the deal's last trick", deal=INT, set_aside=per_seat(
        CARD, "the last card, not played"), scores=SCORES, totals=SCORES),
    event("dealt", "The next deal has started; each seat finds its new hand in its view",
          deal=INT, dealer=SEAT, leader=SEAT, hand_size=INT),
    event("game_over", "The game has ended", scores=SCORES, winners=array(SEAT)),
)
