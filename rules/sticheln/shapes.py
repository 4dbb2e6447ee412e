"""What Sticheln shows: the view's table and the events, as published in the API."""
from rules.shapes import (BOOL, CARD, INT, SCORES, SEAT, SEAT_CARD, array, choice, described,
                          event, mapping, nullable, per_seat, record)
from rules.sticheln.cards import COLORS, VARIANTS

COLOUR = choice(*COLORS, description="a colour")
TRICK = record(cards=array(SEAT_CARD, "in playing order"), winner=SEAT)
PAIN = per_seat(array(CARD), "put-down pain (or lucky) cards the viewer may see; empty while "
                             "still secret")
PAIN_COLOURS = per_seat(nullable(array(COLOUR)), "pain (or lucky) colours, null while unknown "
                                                 "to the viewer")
COLLECTED = per_seat(mapping(array(CARD), COLORS, "collected cards by colour, one key per "
                                                  "colour in play"), "every collected card")
PHASE = choice("choose", "name")

TABLE = record(
    "Everything public on a Sticheln table, and the viewer's own secret choice",
    seat=nullable(SEAT, "the viewing seat, null for a spectator"),
    dealer=SEAT, leader=described(SEAT, "the seat that led (or leads) the current trick"),
    turn=nullable(SEAT, "the seat to play now; null outside phase play"),
    to_act=described(array(SEAT), "seats that still have to act now"),
    tricks_played=described(INT, "tricks finished in this deal"),
    tricks_per_deal=described(INT, "tricks in a deal (hand size minus cards put down)"),
    trick=array(SEAT_CARD, "the current trick in playing order"),
    led_color=nullable(COLOUR, "colour of the trick's first card"),
    last_trick=nullable(TRICK, "the last trick of this deal"),
    leftover=array(CARD, "cards set aside face up for the whole deal (7 and 8 players)"),
    chosen=per_seat(BOOL, "has made this phase's secret choice (never what)"),
    pain=PAIN, pain_colors=PAIN_COLOURS, collected=COLLECTED,
    collected_count=per_seat(INT, "cards collected"),
    deal_score=per_seat(nullable(INT), "this deal's score so far, null while that seat's pain "
                                       "colours are unknown to the viewer"),
    deal_scores=array(SCORES, "the score sheet: one row per finished deal"),
    deals=described(INT, "number of deals in the match"),
    variants=array(choice(*VARIANTS), "the variant options switched on"),
    previous_deal=nullable(record(
        "the deal that finished last, everything revealed", deal=INT,
        pain=per_seat(array(CARD), "put-down cards"),
        pain_colors=per_seat(nullable(array(COLOUR)), "pain (or lucky) colours"),
        collected=COLLECTED, scores=SCORES, last_trick=nullable(TRICK))),
)

EVENTS = (
    event("chose", "A seat made (or, changed, replaced) its secret choice; never what",
          seat=SEAT, phase=PHASE, changed=BOOL),
    event("choice", "What that seat chose: cards (phase choose) or colors (late naming)",
          private=True, optional=("cards", "colors"), seat=SEAT, cards=array(CARD), colors=array(COLOUR)),
    event("all_chosen", "The last seat has chosen: the choices are final", phase=PHASE),
    event("revealed", "Every seat's choice turned up", pain=per_seat(array(CARD), "cards"),
          pain_colors=PAIN_COLOURS),
    event("played", "A card played to the trick numbered trick (from 1 within the deal)",
          seat=SEAT, card=CARD, led_color=COLOUR, trick=INT),
    event("trick_won", "The trick's winner takes these cards and leads next", winner=SEAT,
          cards=array(SEAT_CARD), trick=INT, tricks_per_deal=INT),
    event("deal_end", "The deal is scored; totals are the match scores after it", deal=INT,
          scores=SCORES, totals=SCORES),
    event("dealt", "A new deal: each seat reads its new hand from its view", deal=INT,
          dealer=SEAT, leader=SEAT, leftover=array(CARD), hand_size=INT),
    event("game_over", "The last deal is scored and the match is over", scores=SCORES,
          winners=array(SEAT)),
)
