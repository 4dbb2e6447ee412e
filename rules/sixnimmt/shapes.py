"""What 6 nimmt! shows: the view's table and the events, as published in the API."""
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, SEAT_CARD, array, described, event,
                          nullable, per_seat, record)

PLACEMENT = record(seat=SEAT, card=CARD, row=described(INT, "row index, 0-3"),
                   took=array(CARD, "cards taken with the row; empty unless rule 3 or 4"))

TABLE = record(
    "Everything public on a 6 nimmt! table, and the viewer's own choice",
    optional=("seat",),
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    rows=array(array(CARD), "4 rows of cards, oldest first; the last card is the row's end "
                            "(4 empty rows during the draft)"),
    row_bullheads=array(INT, "bullheads in each row"),
    chosen=per_seat(BOOL, "true once that seat has chosen its card this turn (never which)"),
    my_choice=nullable(CARD, "the card this seat has chosen this turn; null for spectators"),
    revealed=nullable(array(SEAT_CARD), "during take_row: the turn's cards in placing "
                                        "(ascending) order; otherwise null"),
    row_chooser=nullable(SEAT, "during take_row: the seat that must take a row"),
    last_turn=nullable(array(PLACEMENT), "the most recently completed turn, in placing order"),
    round_penalties=per_seat(INT, "bullheads taken this round"),
    round_scores=array(SCORES, "the bullheads of every finished round"),
    taken_counts=per_seat(INT, "cards taken this round"),
    hand_sizes=per_seat(INT, "cards in hand (a chosen card has left the hand)"),
    draft_display=nullable(array(CARD), "during the draft: face-up cards still to take"),
    draft_turn=nullable(SEAT, "during the draft: the seat to take a card"),
    dealer=described(SEAT, "this round's dealer (the seat before the round's first player)"),
    round=described(INT, "round number, from 1"),
    turn=described(INT, "turn within the round, 1-10"),
    threshold=described(INT, "the game ends after the round in which someone reaches this "
                             "many bullheads"),
    cards_in_use=described(INT, "the highest card in the deck (104, or 10 x players + 4 "
                                "with the tactical deck)"),
)

EVENTS = (
    event("drafted", "A card taken from the face-up display", seat=SEAT, card=CARD),
    event("chose", "A seat chose (or changed) its card: never which", seat=SEAT, changed=BOOL),
    event("revealed", "Every choice, ascending, once all have chosen", cards=array(SEAT_CARD)),
    event("row_choice", "The lowest card fits no row: that seat takes one", seat=SEAT),
    event("placed", "One card placed by rules 1-4", seat=SEAT, card=CARD, row=INT,
          took=array(CARD)),
    event("round_over", "A round has ended", round=INT, penalties=SCORES, scores=SCORES),
    event("dealt", "A new round began (each hand is in its seat's view)", round=INT),
    event("game_over", "The game has ended", scores=SCORES, winners=array(SEAT)),
)
