"""What Sticheln shows: the view's table and the events, as published in the API."""
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, SEAT_CARD, array, choice, described,
                          event, mapping, nullable, per_seat, record)
from rules.sticheln.cards import COLORS, VARIANTS

COLOUR = choice(*COLORS, description="a colour")
TRICK = record(cards=array(SEAT_CARD, "in playing order"),
               winner=described(SEAT, "the seat that took it"))
PAIN = per_seat(array(CARD), "put-down pain (or lucky) cards the viewer may see; empty while "
                             "still secret (until all have chosen; under dark until the deal "
                             "ends)")
PAIN_COLOURS = per_seat(nullable(array(COLOUR)), "pain (or lucky) colours, null while unknown "
                                                 "to the viewer")
COLLECTED = per_seat(mapping(array(CARD), COLORS, "collected cards by colour, one key per "
                                                  "colour in play"), "every collected card")
PHASE = choice("choose", "name", description="the phase of the choice: choose (cards put "
                                             "down) or name (late: colours named)")

TABLE = record(
    "Everything public on a Sticheln table, and the viewer's own secret choice. Colours in "
    "table order: blue, red, green (0-20), yellow, purple, brown (0-18); purple only from six "
    "players on. Phases: choose (simultaneous, secret), play, name (option late only; "
    "simultaneous, secret), over. A secret choice may be changed until the last seat has "
    "chosen: to_act lists only the seats that have not chosen, the legal actions of a seat "
    "that has chosen offer the other choices (its put-down cards count as back in hand), and "
    "acting replaces its choice. A deal is scored as soon as its last action is applied and "
    "the next deal starts at once, so the finished deal shows under previous_deal; in phase "
    "over the last deal stays on the table with everything revealed. The view's deal counts "
    "from 1; its scores are the match scores of the finished deals; its hand is the viewer's "
    "own cards, sorted",
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    dealer=described(SEAT, "the dealer of this deal"),
    leader=described(SEAT, "the seat that led (or leads) the current trick"),
    turn=nullable(SEAT, "the seat to play now; null outside phase play"),
    to_act=described(array(SEAT), "seats that still have to act now"),
    tricks_played=described(INT, "tricks finished in this deal"),
    tricks_per_deal=described(INT, "tricks in a deal (hand size minus cards put down)"),
    trick=array(SEAT_CARD, "the current trick in playing order"),
    led_color=nullable(COLOUR, "colour of the trick's first card; null while the trick is "
                               "empty"),
    last_trick=nullable(TRICK, "the last trick of this deal; null before its first"),
    tricks=array(TRICK, "every finished trick of this deal, oldest first (all were played "
                        "face up)"),
    leftover=array(CARD, "cards set aside face up for the whole deal (7 and 8 players), "
                         "sorted"),
    chosen=per_seat(BOOL, "has made this phase's secret choice (never what)"),
    pain=PAIN, pain_colors=PAIN_COLOURS, collected=COLLECTED,
    collected_count=per_seat(INT, "cards collected"),
    deal_score=per_seat(nullable(INT), "this deal's score so far, null while that seat's pain "
                                       "colours are unknown to the viewer"),
    deal_scores=array(SCORES, "the score sheet: one row per finished deal"),
    deals=described(INT, "number of deals in the match"),
    variants=array(choice(*VARIANTS), "the variant options switched on"),
    previous_deal=nullable(record(
        "the deal that finished last, everything revealed; null before the first has",
        deal=described(INT, "its number, from 1"),
        pain=per_seat(array(CARD), "put-down cards"),
        pain_colors=per_seat(nullable(array(COLOUR)), "pain (or lucky) colours"),
        collected=COLLECTED, scores=per_seat(INT, "that deal's score"),
        last_trick=nullable(TRICK, "its last trick"))),
)

# Events come in the order things happened; "to" marks the only seats that may see one.
EVENTS = (
    event("chose", "A seat made (or, changed, replaced) its secret choice; never what",
          seat=described(SEAT, "the seat that chose"), phase=PHASE,
          changed=described(BOOL, "true when it replaced a choice it had made")),
    event("choice", "What that seat chose, told to it alone right after its chose: cards "
                    "(phase choose) or colors (late naming)",
          private=True, optional=("cards", "colors"), seat=described(SEAT, "the seat"),
          cards=array(CARD, "the cards it put down"),
          colors=array(COLOUR, "the colours it named")),
    event("all_chosen", "The last seat has chosen: the choices are final", phase=PHASE),
    event("revealed", "Every seat's choice turned up: once all have chosen, but under dark "
                      "only at the end of the deal (just before deal_end), and under late "
                      "after the naming", pain=per_seat(array(CARD), "cards put down"),
          pain_colors=PAIN_COLOURS),
    event("played", "A card played to the trick numbered trick (from 1 within the deal)",
          seat=described(SEAT, "the seat that played"), card=described(CARD, "the card"),
          led_color=described(COLOUR, "the colour of the trick's first card"),
          trick=described(INT, "the trick's number within the deal, from 1")),
    event("trick_won", "The trick's winner takes these cards and leads next",
          winner=described(SEAT, "the seat that took the trick"),
          cards=array(SEAT_CARD, "the trick's cards in playing order"),
          trick=described(INT, "the trick's number within the deal, from 1"),
          tricks_per_deal=described(INT, "tricks in the deal")),
    event("deal_end", "The deal is scored; totals are the match scores after it",
          deal=described(INT, "the deal's number, from 1"),
          scores=per_seat(INT, "the deal's score"), totals=per_seat(INT, "the match score")),
    event("dealt", "A new deal (from deal 2 on: a new game has no events); no hand is told, "
                   "each seat reads its new hand from its view",
          deal=described(INT, "the deal's number"), dealer=described(SEAT, "its dealer"),
          leader=described(SEAT, "the seat to lead"),
          leftover=array(CARD, "cards set aside face up for the deal (7 and 8 players)"),
          hand_size=described(INT, "cards in each hand")),
    event("game_over", "The last deal is scored and the match is over",
          scores=per_seat(INT, "the match score"), winners=array(SEAT, "the winning seats")),
)
