"""The Sticheln bots. "easy" is one-trick-ahead greed from the view alone; "medium" and "hard"
search (see search.py) and differ only in their budget and in how many options they weigh: hard
8 pain choices and every card it may play; medium, on a fifth of hard's clock, the 5 cards the
playout policy rates best and 4 pain choices (weighing every card, a short clock left it no better
than easy with 6 players under "reverse" and "dark"). With 6 or more players under "tough" hard
weighs the 5 favourites too: there spending its clock on fewer cards scored more points than
weighing them all and told it apart from medium, while the same shortlist came first less often
with 4 players, under "mild" and under "late", and was level under "reverse" (bench/RESULTS.md,
"Hard's shortlist"). With 6 or more players under "reverse" or "dark" hard's playouts let the
others play as the easy bot does (search.Playout.easy_card): a third as many playouts, which on
hard's clock still reach the search's plateau, and a closer model of the table than the playout
policy; there the cheap policy left hard no stronger than medium (bench/RESULTS.md, "The easy
model").

Easy picks a cheap pain colour (a low card of a colour the others hold little of), wins a trick only
when the cards in it pay for this bot, and otherwise throws its own pain cards into tricks that
someone else takes.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations

from rules.sticheln import search
from rules.sticheln.cards import CARD_IDS, COLOR_IDS, SETUP, SPAN, deal_score
from rules.sticheln.search import EASY_DUMP, EASY_WASTE, HARM, WILLING
from rules.search import Appraisal, Budget, Clock, Problem

# How far the guesses below are trusted; tuned by the tournament, not derived.
EXPOSURE = 1.0        # share of the others' pain-colour cards expected to land on this bot
OWN_RISK = 0.2        # share of its own remaining pain-colour cards it may end up taking
MEDIUM_PLAYS = 5      # cards medium weighs in play: on its short clock, few but well
# Players from which hard, too, weighs only MEDIUM_PLAYS cards under "tough", and plays its
# playouts against the easy model under "reverse" and "dark".
CROWDED = 6


def easy_action(view: dict, legal: list[dict], rng: random.Random, budget: Budget) -> dict:
    # Easy does not search, so it leaves the budget unspent.
    return easy_choice(search.read_view(view), legal, rng)


def easy_choice(knowledge: search.Knowledge, legal: list[dict], rng: random.Random) -> dict:
    bot = EasyRater(knowledge)
    kind = legal[0]["type"]
    if kind == "choose_pain":
        rate = bot.rate_choice
    elif kind == "name_pain":
        rate = bot.rate_naming
    else:
        rate = bot.rate_play
    rated = [(rate(action), rng.random(), index) for index, action in enumerate(legal)]
    return legal[max(rated)[2]]


def search_bot(shortlist: int, plays: Callable[[search.Knowledge], int | None],
               easy_opponents: Callable[[search.Knowledge], bool] = lambda knowledge: False):
    """A search level that weighs the `shortlist` most promising pain choices by playouts, and
    in play the playout policy's `plays(knowledge)` favourites, or every card where that is
    None; where `easy_opponents(knowledge)`, the others in its playouts play as easy does."""
    def play(view: dict, legal: list[dict], rng: random.Random, budget: Budget) -> dict:
        clock = Clock(budget)
        knowledge = search.read_view(view)
        kind = legal[0]["type"]
        if kind == "name_pain":
            return search.name_pain(knowledge, legal)

        def fallback() -> dict:
            return easy_choice(knowledge, legal, rng)
        model = easy_opponents(knowledge)
        if kind == "choose_pain":
            return search.choose_pain(knowledge, legal, rng, clock, shortlist, fallback, model)
        return search.choose_play(knowledge, legal, rng, clock, fallback,
                                  plays(knowledge), model)
    return play


def hard_plays(knowledge: search.Knowledge) -> int | None:
    shortlists = knowledge.players >= CROWDED and knowledge.tough and not knowledge.late
    return MEDIUM_PLAYS if shortlists else None


def hard_models_easy(knowledge: search.Knowledge) -> bool:
    return knowledge.players >= CROWDED and (knowledge.reverse or knowledge.dark)


medium_action = search_bot(shortlist=4, plays=lambda knowledge: MEDIUM_PLAYS)
hard_action = search_bot(shortlist=8, plays=hard_plays, easy_opponents=hard_models_easy)


def appraise(view: dict, legal: list[dict], deal_only: bool = False) -> Appraisal:
    """Hard's problem over every legal action (no shortlist), with hard's model of the others.
    The naming of "late" is exact: its value is the seat's own score of the deal."""
    knowledge = search.read_view(view)
    if deal_only:
        knowledge = replace(knowledge, totals=[0] * knowledge.players, rank=0.0)
    kind = legal[0]["type"]
    everyone = list(range(len(legal)))
    if kind == "name_pain":
        scores = [search.naming_score(knowledge, action) for action in legal]
        return Appraisal(Problem(everyone, lambda rng: None,
                                 lambda index, world, rng: scores[index], certain=True),
                         everyone)
    model = hard_models_easy(knowledge)
    if kind == "choose_pain":
        return Appraisal(search.pain_problem(knowledge, search.pain_choices(legal), everyone,
                                             model), everyone)
    cards = [CARD_IDS[action["card"]] for action in legal]
    return Appraisal(search.play_problem(knowledge, cards, model), everyone)


class EasyRater:
    """Easy's ratings of the actions, from what the seat knows."""

    def __init__(self, knowledge: search.Knowledge):
        self.me = knowledge.me
        self.leader = knowledge.leader
        self.players = knowledge.players
        self.options = {"reverse": knowledge.reverse, "mild": knowledge.mild,
                        "tough": knowledge.tough, "late": knowledge.late}
        self.reverse = knowledge.reverse
        self.hand = knowledge.held
        self.trick = knowledge.trick
        self.collected = knowledge.won
        self.pain = knowledge.named
        self.top = SETUP[self.players][0]
        self.unseen = knowledge.unseen

    def worth(self, card: int) -> int:
        return 5 if self.options["mild"] else card % SPAN

    # --- choosing the pain (or lucky) colour -------------------------------------------------
    def rate_choice(self, action: dict) -> float:
        cards = [CARD_IDS[name] for name in action.get("cards", [action.get("card")])]
        return sum(self._rate_colour(card) for card in cards)

    def _rate_colour(self, card: int) -> float:
        colour = card // SPAN
        others = sum(self.worth(c) for c in self.unseen if c // SPAN == colour)
        own = sum(self.worth(c) for c in self.hand if c // SPAN == colour and c != card)
        expected = self.worth(card) + EXPOSURE * others / self.players + OWN_RISK * own
        return expected if self.reverse else -expected

    # --- naming the colour at the end ("late") ------------------------------------------------
    def rate_naming(self, action: dict) -> float:
        colours = action.get("colors", [action.get("color")])
        return deal_score(self.collected[self.me], [COLOR_IDS[c] for c in colours], self.options)

    # --- playing ------------------------------------------------------------------------------
    def my_score(self, cards: list[int]) -> float:
        """This bot's deal score for `cards`; under "late" with the best colour it could name."""
        pain = self.pain[self.me]
        if pain is not None:
            return deal_score(cards, pain, self.options)
        colours = sorted({c // SPAN for c in cards})
        if not colours:
            return 0
        size = 2 if self.options["tough"] and len(colours) > 1 else 1
        return max(deal_score(cards, list(named), self.options)
                   for named in combinations(colours, size))

    def rate_play(self, action: dict) -> float:
        card = CARD_IDS[action["card"]]
        cards = self.trick + [card]
        led = cards[0] // SPAN
        after_me = self.players - len(cards)
        keys = [self._key(c, led) for c in cards]
        winning = keys[-1] is not None and all(k is None or keys[-1] > k for k in keys[:-1])
        if not cards[1:] and keys[0] is None:
            winning = True  # a lone zero lead under "reverse" still wins if all play zeros
        losing = self._rate_losing(card, keys)
        if not winning:
            return losing
        hold = self._chance_to_hold(keys[-1], led, after_me)
        mine = self.collected[self.me]
        gain = self.my_score(mine + cards) - self.my_score(mine) + after_me * self._average_card()
        return hold * gain + (1 - hold) * losing

    def _key(self, card: int, led: int):
        """Trick strength as in the rules' trick_winner; None for a card that cannot win."""
        colour, value = divmod(card, SPAN)
        if value == 0 and (self.reverse or colour != led):
            return None
        return (colour != led, -value if self.reverse else value)

    def _chance_to_hold(self, key, led: int, after_me: int) -> float:
        if not after_me or not self.unseen:
            return 1.0
        beaters = sum(1 for c in self.unseen
                      if (k := self._key(c, led)) is not None and (key is None or k > key))
        per_card = beaters / len(self.unseen)
        in_hand = len(self.hand) - 1
        can_beat = 1 - (1 - per_card) ** in_hand
        return (1 - WILLING * can_beat) ** after_me

    def _average_card(self) -> float:
        pain = self.pain[self.me]
        if pain is None or not self.unseen:
            return -0.5 if self.reverse else 0.5
        return deal_score(self.unseen, pain, self.options) / len(self.unseen)

    def _rate_losing(self, card: int, keys: list) -> float:
        value = card % SPAN
        strength = (self.top - value if self.reverse else value) / self.top if value else 0.0
        rating = -EASY_DUMP * self.my_score([card]) - EASY_WASTE * strength
        if not self.trick:
            return rating
        best = max(range(len(keys) - 1), key=lambda i: (keys[i] is not None, keys[i] or (0, 0)))
        taker = (self.leader + best) % self.players
        rival_pain = self.pain[taker]
        if rival_pain is not None and card // SPAN in rival_pain:
            rating += -HARM * self.worth(card) if self.reverse else HARM * self.worth(card)
        return rating
