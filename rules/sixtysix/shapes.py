"""What Sixty-six shows: the view's table and the events, as published in the API."""
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, SEAT_CARD, STR, array, choice,
                          described, event, nullable, per_seat, record)

SUIT = choice("S", "H", "D", "C", description="a suit: S, H, D or C")
TRICK = array(SEAT_CARD, "cards in playing order")
HAND_RESULT = {
    "deal": INT, "ended_by": choice("declare", "cards_out"),
    "declarer": nullable(SEAT), "correct": nullable(BOOL), "closed_by": nullable(SEAT),
    "points": per_seat(INT, "card points of the seat's side"),
    "tricks": per_seat(INT, "tricks of the seat's side"),
    "game_points": per_seat(INT, "game points awarded (carry included)"),
    "reason": described(STR, "why the hand scored as it did"),
}

TABLE = record(
    "Everything public on a Sixty-six table, and the viewer's own side's card points",
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    players=described(INT, "number of seats"),
    preset=choice("seed", "classic"),
    deck_size={"type": "integer", "enum": [24, 32, 48],
                "description": "24, 32 or 48 (the 4-player double deck)"},
    target=described(INT, "card points needed to declare: 66, or 101 with 4 players"),
    match_points=described(INT, "game points that end the match"),
    side_of=per_seat(INT, "side index ([0, 1, 0, 1] with 4 players, else one side per seat)"),
    dealer=SEAT, leader=described(SEAT, "the seat that leads (or led) the trick in progress"),
    turn=nullable(SEAT, "the seat to act now; null once the match is over"),
    trump=SUIT,
    trump_card=nullable(CARD, "the face-up trump card under the stock while it is open"),
    stock_size=described(INT, "cards that can still be drawn (0 once closed or exhausted)"),
    set_aside=described(INT, "cards set aside unplayed (3 players, stock exhausted)"),
    closed_by=nullable(SEAT, "the seat that closed the stock"),
    hand_sizes=per_seat(INT, "cards in hand"),
    trick=described(TRICK, "the trick in progress"),
    last_trick=nullable(record(winner=SEAT, cards=TRICK)),
    played=array(record(leader=SEAT, winner=SEAT, cards=TRICK, strict=described(
        BOOL, "played under the strict rules (stock closed or exhausted)")),
        "every completed trick of this hand, in order"),
    closed_tricks=nullable(per_seat(INT, "tricks of the seat's side when the stock was "
                                         "closed")),
    exchanged=nullable(record("classic: this hand's trump exchange", seat=SEAT, gave=CARD,
                              took=CARD)),
    face_up=nullable(record("the face-up trump card as last shown", card=CARD,
                            drawn_by=nullable(SEAT, "the seat that drew it"))),
    tricks=per_seat(INT, "tricks taken by the seat's side"),
    my_points=nullable(INT, "card points of the viewer's side (marriages once they count); "
                            "null for a spectator"),
    marriages=array(record(seat=SEAT, suit=SUIT, points=INT, counted=BOOL)),
    carry=described(INT, "extra game points waiting for the side(s) that score next hand"),
    last_hand=nullable(record("the previous hand's result", **HAND_RESULT)),
)

EVENTS = (
    event("closed", "The leader closed the stock", seat=SEAT),
    event("exchanged", "Classic: the lowest trump (gave) now lies face up; took was face up",
          seat=SEAT, gave=CARD, took=CARD),
    event("married", "Classic: a marriage shown (counted false: it waits for the side's "
                     "first trick)", seat=SEAT, suit=SUIT, cards=array(CARD), points=INT,
          counted=BOOL),
    event("played", "A card put into the trick", seat=SEAT, card=CARD),
    event("trick", "The trick is taken; points is the card value of its cards", winner=SEAT,
          cards=TRICK, points=INT),
    event("drew", "The card that seat drew from the stock", private=True, seat=SEAT, card=CARD),
    event("drawn", "Everyone drew, the trick's winner first", order=array(SEAT),
          trump_card_to=nullable(SEAT), stock_size=INT, set_aside=INT),
    event("declared", "\"I have enough\"; suit names the marriage shown with it (classic)",
          seat=SEAT, suit=nullable(SUIT)),
    event("hand_over", "The hand's result, with the match score per seat and the carry",
          **HAND_RESULT, scores=SCORES, carry=INT),
    event("match_over", "The match has ended", scores=SCORES, winners=array(SEAT)),
    event("dealt", "A new hand is dealt", deal=INT, dealer=SEAT, leader=SEAT, trump=SUIT,
          trump_card=CARD, stock_size=INT),
    event("dealt_hand", "That seat's new hand, sorted", private=True, seat=SEAT,
          cards=array(CARD)),
)
