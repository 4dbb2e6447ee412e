"""What 6 nimmt! shows: the view's table and the events, as published in the API."""
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, SEAT_CARD, array, described, event,
                          nullable, per_seat, record)

PLACEMENT = record(seat=described(SEAT, "the seat whose card it was"),
                   card=described(CARD, "the card placed"),
                   row=described(INT, "row index, 0-3"),
                   took=array(CARD, "cards taken with the row; empty unless rule 3 or 4"))

PLAYED = record(turn=described(INT, "the turn of the round it was played in, 1-10"),
                seat=described(SEAT, "the seat whose card it was"),
                card=described(CARD, "the card placed"),
                row=described(INT, "row index, 0-3"),
                took=array(CARD, "cards taken with the row; empty unless rule 3 or 4"))

TABLE = record(
    "Everything public on a 6 nimmt! table, and the viewer's own choice. Phases: draft (option "
    "draft), then choose (10 turns, with a take_row pause when the lowest card fits no row), "
    "then the next round, or over after the round in which someone reached the threshold. "
    "The view's deal is the round, from 1; its scores are each seat's bullheads so far, the "
    "current round's included; its hand is the viewer's own cards, ascending",
    optional=("seat",),
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    rows=array(array(CARD), "4 rows of cards, oldest first; the last card is the row's end "
                            "(4 empty rows during the draft)"),
    row_bullheads=array(INT, "bullheads in each row"),
    chosen=per_seat(BOOL, "true once that seat has chosen its card this turn (never which)"),
    my_choice=nullable(CARD, "the card this seat has chosen this turn, else null; null for "
                             "spectators"),
    revealed=nullable(array(SEAT_CARD), "during take_row: the turn's cards in placing "
                                        "(ascending) order; otherwise null"),
    row_chooser=nullable(SEAT, "during take_row: the seat that must take a row; otherwise "
                               "null"),
    last_turn=nullable(array(PLACEMENT), "the most recently completed turn (possibly of the "
                                         "previous round), in placing order; null before "
                                         "the first"),
    played=array(PLAYED, "every card placed this round, turn by turn in placing order (all "
                         "were face up); empty at the round's start"),
    round_penalties=per_seat(INT, "bullheads taken this round"),
    round_scores=array(SCORES, "the bullheads of every finished round, one row per round"),
    taken_counts=per_seat(INT, "cards taken this round"),
    hand_sizes=per_seat(INT, "cards in hand (a chosen card has left the hand)"),
    draft_display=nullable(array(CARD), "during the draft: face-up cards still to take, "
                                        "ascending; otherwise null"),
    draft_turn=nullable(SEAT, "during the draft: the seat to take a card; otherwise null"),
    dealer=described(SEAT, "this round's dealer (the seat before the round's first player)"),
    round=described(INT, "round number, from 1"),
    turn=described(INT, "turn within the round, 1-10"),
    threshold=described(INT, "the game ends after the round in which someone reaches this "
                             "many bullheads"),
    cards_in_use=described(INT, "the highest card in the deck (104, or 10 x players + 4 "
                                "with the tactical deck)"),
)

# Every event is public, and none names a card still secret.
EVENTS = (
    event("drafted", "A card taken from the face-up display",
          seat=described(SEAT, "the seat that took it"), card=described(CARD, "the card")),
    event("chose", "A seat chose (or changed) its card: never which",
          seat=described(SEAT, "the seat that chose"),
          changed=described(BOOL, "true when it replaced a card it had chosen")),
    event("revealed", "Every choice, ascending, once all have chosen",
          cards=array(SEAT_CARD, "each seat's card, ascending")),
    event("row_choice", "The lowest card fits no row: that seat takes one",
          seat=described(SEAT, "the seat that must take a row")),
    event("placed", "One card placed by rules 1-4", seat=described(SEAT, "whose card it was"),
          card=described(CARD, "the card placed"), row=described(INT, "row index, 0-3"),
          took=array(CARD, "cards taken with the row; empty unless rule 3 or 4")),
    event("round_over", "A round has ended", round=described(INT, "the round, from 1"),
          penalties=per_seat(INT, "bullheads taken in the round"),
          scores=per_seat(INT, "bullheads in all, the round's included")),
    event("dealt", "A new round began (each hand is in its seat's view)",
          round=described(INT, "the new round, from 1")),
    event("game_over", "The game has ended", scores=per_seat(INT, "bullheads in all"),
          winners=array(SEAT, "the seats with the fewest bullheads")),
)
