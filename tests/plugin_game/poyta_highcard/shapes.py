"""What High card shows: the view's table and the events, as published in the API."""
from rules.shapes import (CARD, INT, SCORES, SEAT, array, described, event, nullable, per_seat,
                          record)

PLAYED = record(seat=described(SEAT, "the seat that played the card"),
                card=described(CARD, "the card it played"))
TRICK = array(PLAYED, "the trick's cards in playing order")

TABLE = record(
    "Everything on a High card table (all of it public). Phases: play, then over once the "
    "last deal's last trick is taken. The view's deal counts from 1; its scores are the "
    "points (tricks) of the whole match so far; its hand is the seat's cards, ascending",
    deals=described(INT, "number of deals in the match"),
    leader=described(SEAT, "the seat that leads (or led) the current trick"),
    turn=nullable(SEAT, "the seat to play now; null once the match is over"),
    trick=TRICK,
    tricks=per_seat(INT, "tricks taken in this deal"),
    hand_sizes=per_seat(INT, "cards in hand"),
    last_trick=nullable(record(cards=TRICK, winner=described(SEAT, "the seat that took it")),
                        "the trick taken last; null at the start of a deal"),
)

EVENTS = (
    event("played", "A card played into the trick", seat=described(SEAT, "who played it"),
          card=described(CARD, "the card")),
    event("trick_won", "The higher card takes the trick, a point and the next lead",
          winner=described(SEAT, "the seat taking the trick"), cards=TRICK),
    event("dealt", "A new deal: each seat reads its new hand from its view",
          deal=described(INT, "the deal's number, from 1"),
          leader=described(SEAT, "the seat that leads its first trick")),
    event("game_over", "The last deal is over: the match is decided",
          scores=described(SCORES, "points per seat"),
          winners=described(array(SEAT), "the seats with the most points")),
)
