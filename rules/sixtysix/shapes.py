"""What Sixty-six shows: the view's table and the events, as published in the API."""
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, SEAT_CARD, STR, array, choice,
                          described, event, nullable, per_seat, record)

SUIT = choice("S", "H", "D", "C", description="a suit: S, H, D or C")
TRICK = array(SEAT_CARD, "cards in playing order")
HAND_RESULT = {
    "deal": described(INT, "the hand's number, from 1"),
    "ended_by": choice("declare", "cards_out", description=(
        "declare: a seat said \"I have enough\" (or the closer's side reached the target "
        "with the last trick); cards_out: the cards ran out")),
    "declarer": nullable(SEAT, "the seat that declared; null when the cards ran out"),
    "correct": nullable(BOOL, "whether the declaration was right; null without one"),
    "closed_by": nullable(SEAT, "the seat that closed the stock; null if nobody did"),
    "points": per_seat(INT, "card points of the seat's side"),
    "tricks": per_seat(INT, "tricks of the seat's side"),
    "game_points": per_seat(INT, "game points awarded (carry included)"),
    "carried": described(INT, "game points carried over from earlier hands, included in each "
                              "scoring side's game_points"),
    "reason": described(STR, "why the hand scored as it did"),
}

TABLE = record(
    "Everything public on a Sixty-six table, and the viewer's own side's card points. Phases: "
    "play while the match runs, over afterwards; every action is by the one seat to act. "
    "The view's deal is the hand, from 1; its scores are the match's game points of each "
    "seat's side; its hand is the viewer's own cards, sorted. With 4 players the double "
    "24-card deck holds every card twice, so two identical names may be in play at once",
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    players=described(INT, "number of seats"),
    preset=choice("seed", "classic", description="the rules played: seed as written, or "
                                                 "classic with marriages and the trump "
                                                 "exchange"),
    deck_size={"type": "integer", "enum": [24, 32, 48],
               "description": "24, 32 or 48 (the 4-player double deck)"},
    target=described(INT, "card points needed to declare: 66, or 101 with 4 players"),
    match_points=described(INT, "game points that end the match"),
    side_of=per_seat(INT, "side index ([0, 1, 0, 1] with 4 players, else one side per seat)"),
    dealer=described(SEAT, "the dealer of this hand"),
    leader=described(SEAT, "the seat that leads (or led) the trick in progress"),
    turn=nullable(SEAT, "the seat to act now; null once the match is over"),
    trump=described(SUIT, "the trump suit"),
    trump_card=nullable(CARD, "the face-up trump card under the stock while it is open, else "
                              "null"),
    stock_size=described(INT, "cards that can still be drawn (0 once closed or exhausted)"),
    set_aside=described(INT, "cards set aside unplayed (3 players, stock exhausted)"),
    closed_by=nullable(SEAT, "the seat that closed the stock; null if nobody did"),
    hand_sizes=per_seat(INT, "cards in hand"),
    trick=described(TRICK, "the trick in progress"),
    trick_holder=nullable(SEAT, "the seat whose card holds the trick in progress so far; null "
                                "while it has no card"),
    last_trick=nullable(record(winner=described(SEAT, "the seat that took it"), cards=TRICK,
                               points=described(INT, "the card points of its cards")),
                        "the trick taken last; null before the hand's first"),
    played=array(record(
        leader=described(SEAT, "the seat that led it"),
        winner=described(SEAT, "the seat that took it"), cards=TRICK,
        strict=described(BOOL, "played under the strict rules (stock closed or exhausted)")),
        "every completed trick of this hand, in order (all were shown face up)"),
    closed_tricks=nullable(per_seat(INT, "tricks of the seat's side when the stock was "
                                         "closed, null if it was not")),
    exchanged=nullable(record(
        "classic: this hand's trump exchange; null if nobody has exchanged",
        seat=described(SEAT, "the seat that exchanged"),
        gave=described(CARD, "the lowest trump, laid face up in its place"),
        took=described(CARD, "the face-up card, now in that seat's hand"))),
    face_up=nullable(record(
        "the face-up trump card as last shown (after any exchange), also once the stock is "
        "closed or exhausted; null when there is none",
        card=described(CARD, "the card"),
        drawn_by=nullable(SEAT, "the seat that drew it; null while it lies under the stock "
                                "or once it was set aside"))),
    tricks=per_seat(INT, "tricks taken by the seat's side"),
    my_points=nullable(INT, "card points of the viewer's side (marriages once they count); "
                            "null for a spectator, who never sees card points"),
    marriages=array(record(
        seat=described(SEAT, "the seat that showed it"), suit=described(SUIT, "its suit"),
        points=described(INT, "20, or 40 in trumps"),
        counted=described(BOOL, "false while it waits for its side's first trick")),
        "the marriages shown this hand (classic)"),
    carry=described(INT, "extra game points waiting for the side(s) that score next hand"),
    last_hand=nullable(record("the previous hand's result, kept until the next one ends; "
                              "null before the first hand has ended", **HAND_RESULT)),
)

# "to" marks an event only those seats receive. Running card points stay hidden until a hand
# ends, so no event carries them before hand_over.
EVENTS = (
    event("closed", "The leader closed the stock",
          seat=described(SEAT, "the seat that closed it")),
    event("exchanged", "Classic: the lowest trump (gave) now lies face up; took was face up",
          seat=described(SEAT, "the seat that exchanged"),
          gave=described(CARD, "the lowest trump, now face up"),
          took=described(CARD, "the card that was face up, now in that seat's hand")),
    event("married", "Classic: a marriage shown (counted false: it waits for the side's "
                     "first trick)", seat=described(SEAT, "the seat that showed it"),
          suit=described(SUIT, "its suit"), cards=array(CARD, "its king and queen"),
          points=described(INT, "20, or 40 in trumps"),
          counted=described(BOOL, "whether its points count yet")),
    event("played", "A card put into the trick", seat=described(SEAT, "the seat that played"),
          card=described(CARD, "the card"),
          holder=described(SEAT, "the seat whose card holds the trick after this one")),
    event("trick", "The trick is taken; points is the card value of its cards (public: all "
                   "were seen)", winner=described(SEAT, "the seat that took it"),
          cards=TRICK, points=described(INT, "the card points of its cards")),
    event("drew", "The card that seat drew from the stock", private=True,
          seat=described(SEAT, "the seat that drew"), card=described(CARD, "the card drawn")),
    event("drawn", "Everyone drew, the trick's winner first",
          order=array(SEAT, "the seats in drawing order"),
          trump_card_to=nullable(SEAT, "the seat that drew the face-up trump card; null if "
                                       "nobody did"),
          stock_size=described(INT, "cards left to draw"),
          set_aside=described(INT, "cards set aside once the stock is exhausted (3 players)")),
    event("declared", "\"I have enough\"; suit names the marriage shown with it (classic)",
          seat=described(SEAT, "the seat that declared"),
          suit=nullable(SUIT, "the suit of the marriage shown with it; null without one")),
    event("hand_over", "The hand's result (as the view's last_hand), with the match score per "
                       "seat and the carry",
          **HAND_RESULT, scores=per_seat(INT, "the match's game points of the seat's side"),
          carry=described(INT, "game points waiting for the side(s) that score next hand")),
    event("match_over", "The match has ended (as the outcome)",
          scores=per_seat(INT, "the match's game points of the seat's side"),
          winners=array(SEAT, "the winning seats")),
    event("dealt", "A new hand is dealt (not the first one: a new game has no events)",
          deal=described(INT, "the hand's number, from 1"),
          dealer=described(SEAT, "its dealer"), leader=described(SEAT, "the seat to lead"),
          trump=described(SUIT, "the trump suit"),
          trump_card=described(CARD, "the face-up trump card under the stock"),
          stock_size=described(INT, "cards that can be drawn")),
    event("dealt_hand", "That seat's new hand, sorted", private=True,
          seat=described(SEAT, "the seat it was dealt to"), cards=array(CARD, "its cards")),
)
