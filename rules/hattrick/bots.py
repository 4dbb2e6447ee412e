"""The Hattrick bots: each reads only the view and the legal actions.

Medium and hard search (rules/hattrick/search.py). Easy picks a target colour (what
it has collected most of, then what it holds most of), then scores each legal action
by the expected change of its deal score: taking target cards is good, taking any
other colour is bad, passing costs 2 for sure. Whether a card keeps the colour is
estimated from the unseen higher cards of that colour and the number of players
still to act.
"""
from __future__ import annotations

import random

from rules.hattrick.search import (Policy, Seen, action_problem, equivalent_actions,
                                   search_action)
from rules.search import Appraisal, Budget, Clock

COLOURS = ("red", "blue", "green")
# Rough number of cards each later player adds to a given colour of the trick.
LATER_CARDS_PER_COLOUR = 0.4
# Chance that a player holding a higher card of the colour actually plays it.
PLAYS_HIGHER = 0.5


def split(card: str) -> tuple[str, int]:
    colour, value = card.split("-")
    return colour, int(value)


def target_colour(hand: list[str], piles: dict[str, list[str]]) -> str:
    held = {colour: 0 for colour in COLOURS}
    for card in hand:
        held[split(card)[0]] += 1
    return max(COLOURS, key=lambda colour: (3 * len(piles[colour]) + held[colour], colour == "red"))


def easy_action(view: dict, legal: list[dict], rng: random.Random, budget: Budget) -> dict:
    # Easy does not search, so it leaves the budget unspent.
    return easy_choice(Seen.of(view), legal, rng)


def easy_choice(seen: Seen, legal: list[dict], rng: random.Random) -> dict:
    hand = seen.hand
    target = target_colour(hand, seen.piles[seen.me])
    unseen = [split(card) for card in seen.unseen]
    later = seen.players - len(seen.trick) - 1
    others_hand = max(1, len(hand) - 1)

    played = [split(entry["card"]) for entry in seen.trick if not entry["passed"]]
    best_in = {colour: -1 for colour in COLOURS}
    count_in = {colour: 0 for colour in COLOURS}
    for colour, value in played:
        best_in[colour] = max(best_in[colour], value)
        count_in[colour] += 1

    def keeps_colour(colour: str, value: int) -> float:
        if later == 0:
            return 1.0
        higher = sum(1 for c, v in unseen if c == colour and v > value)
        share = higher / max(1, len(unseen))
        holds = 1 - (1 - share) ** others_hand
        return (1 - PLAYS_HIGHER * holds) ** later

    def worth(action: dict) -> float:
        colour, value = split(action["card"])
        if action["type"] == "pass":
            return -2.0
        # Small nudges for the rest of the deal: keep high target cards, shed high others.
        shed = -0.02 * value if colour == target else 0.02 * value
        if value < best_in[colour]:
            return shed
        taken = count_in[colour] + 1 + later * LATER_CARDS_PER_COLOUR
        sign = 1 if colour == target else -1
        return keeps_colour(colour, value) * sign * taken + shed

    best = max(worth(action) for action in legal)
    return rng.choice([action for action in legal if worth(action) >= best - 1e-9])


# The search bots differ in how sensibly their simulated players act: hard's
# playouts follow a rule of thumb, medium's are closer to random, so medium
# misjudges more of what its moves lead to.
MEDIUM_PLAYOUTS = Policy(randomness=0.5)
HARD_PLAYOUTS = Policy(randomness=0.1)
# Only first place wins: hard plays mostly for its lead over the best rival in the
# match totals (weight 1: first in 51.0% against 45.0% for the lead over the others'
# mean, 4 players, 200 one-deal games at 0.05 s; 0.5: 44.5%); a tenth on the mean
# breaks the ties between shared firsts. Medium keeps the mean.
HARD_AGAINST_BEST = 0.9


def searcher(policy: Policy, against_best: float = 0.0):
    def play(view: dict, legal: list[dict], rng: random.Random, budget: Budget) -> dict:
        clock = Clock(budget)
        seen = Seen.of(view)
        return search_action(seen, legal, rng, clock, policy,
                             lambda: easy_choice(seen, legal, rng), against_best)
    return play


medium_action = searcher(MEDIUM_PLAYOUTS)
hard_action = searcher(HARD_PLAYOUTS, HARD_AGAINST_BEST)


def appraise(view: dict, legal: list[dict], deal_only: bool = False) -> Appraisal:
    """Hard's problem, its sensible opponents and its weight on the best rival; for a deal's
    luck the deal's scores alone over the others' mean."""
    seen = Seen.of(view)
    groups = equivalent_actions(seen, legal)
    candidate_of = [0] * len(legal)
    for candidate, group in enumerate(groups):
        for index in group:
            candidate_of[index] = candidate
    totals = [0] * seen.players if deal_only else seen.totals
    problem = action_problem(seen, [legal[group[0]] for group in groups], HARD_PLAYOUTS,
                             0.0 if deal_only else HARD_AGAINST_BEST, totals)
    return Appraisal(problem, candidate_of)
