"""Determinized Monte Carlo for 6 nimmt!: the search behind the medium and hard bots.

A search never sees more than one seat's view. It deals the cards that seat cannot
place (a determinization), tries a candidate action, plays the round out with
random cards, and scores the round's bullheads relative to the opponents. Random
rollouts are enough here (published results find flat Monte Carlo with them as
strong as PUCT in 6 nimmt!); hard only lets the opponents' card of the current
turn be a careful one, which measurably helps (see CAREFUL_OPPONENTS).

The rules are re-implemented compactly because the rollouts are the hot loop: a
row is only its end card, its length and its bullheads, and a seat's remaining
cards are drawn in a pre-shuffled order, so a rollout needs no copies of the game
state. tests/rules/test_sixnimmt_bots.py checks this against game.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from rules.base import Action
from rules.search import Budget, Clock
from rules.sixnimmt.bots import caution, easy
from rules.sixnimmt.game import BULLHEADS, HAND_SIZE, ROW_COUNT, ROW_LIMIT

# How often hard's rollouts let an opponent play this turn's card as a careful player
# would (the rest of its cards come at random): players avoid sure penalties, so a
# purely random guess overrates the risk of snug cards.
CAREFUL_OPPONENTS = 0.75


class Rows:
    """The four rows as the rules need them: end card, length and bullheads of each."""

    __slots__ = ("ends", "lengths", "heads")

    def __init__(self, ends: list[int], lengths: list[int], heads: list[int]):
        self.ends, self.lengths, self.heads = ends, lengths, heads

    @classmethod
    def of(cls, rows: list[list[int]]) -> "Rows":
        return cls([row[-1] for row in rows], [len(row) for row in rows],
                   [sum(BULLHEADS[card] for card in row) for row in rows])

    def copy(self) -> "Rows":
        return Rows(self.ends[:], self.lengths[:], self.heads[:])

    def target(self, card: int) -> int:
        """The row `card` goes to, or -1 when it is lower than every end."""
        best, best_end = -1, 0
        for index, end in enumerate(self.ends):
            if best_end < end < card:
                best, best_end = index, end
        return best

    def cheapest(self) -> int:
        """The rollouts' row choice, and the rules' default: fewest bullheads, fewest cards, lowest."""
        heads, lengths = self.heads, self.lengths
        return min(range(ROW_COUNT), key=lambda index: (heads[index], lengths[index], index))

    def restart(self, index: int, card: int) -> int:
        """Start row `index` again with `card`; the bullheads taken."""
        taken = self.heads[index]
        self.ends[index], self.lengths[index], self.heads[index] = card, 1, BULLHEADS[card]
        return taken

    def place(self, card: int, low_row: int | None = None) -> int:
        """Rules 1-4 for one card; the bullheads its player takes.

        A card too low for every row takes `low_row`, or the cheapest row when None.
        """
        index = self.target(card)
        if index < 0:
            return self.restart(self.cheapest() if low_row is None else low_row, card)
        if self.lengths[index] == ROW_LIMIT:
            return self.restart(index, card)
        self.ends[index] = card
        self.lengths[index] += 1
        self.heads[index] += BULLHEADS[card]
        return 0


def play_turn(rows: Rows, cards: list[int], penalties: list[int], low_row: int | None = None) -> None:
    """Every seat's card of one turn placed in ascending order; penalties[seat] grows."""
    for card, seat in sorted((card, seat) for seat, card in enumerate(cards)):
        penalties[seat] += rows.place(card, low_row)
        low_row = None  # only the lowest card can be too low for every row


def play_out(rows: Rows, orders: list[list[int]], penalties: list[int]) -> None:
    """The remaining turns, seat s playing orders[s][0], then orders[s][1], ..."""
    for turn in range(len(orders[0])):
        play_turn(rows, [order[turn] for order in orders], penalties)


def relative_value(penalties: list[int], me: int) -> float:
    """Higher is better: the opponents' mean bullheads minus one's own."""
    others = sum(penalties) - penalties[me]
    return others / (len(penalties) - 1) - penalties[me]


# --- what the seat knows ----------------------------------------------------------

@dataclass
class Knowledge:
    """What one seat's view fixes about the round, and what it leaves to chance."""

    me: int
    players: int
    own: list[int]           # own cards still to play, a chosen card included
    unseen: list[int]        # cards that may be in an opponent's hand (or taken, or unused)
    cards_each: list[int]    # cards each seat has yet to play or draft into its hand

    def deal(self, rng: random.Random) -> list[list[int]]:
        """A random determinization: every seat's cards, own ones as they are."""
        pool = self.unseen[:]
        rng.shuffle(pool)
        hands, start = [], 0
        for seat, count in enumerate(self.cards_each):
            if seat == self.me:
                hands.append(self.own[:])
                continue
            hands.append(pool[start:start + count])
            start += count
        return hands


def knowledge_of(view: dict) -> Knowledge:
    table = view["table"]
    phase = view["phase"]
    players = len(table["hand_sizes"])
    me = _my_seat(view)
    own = list(view["hand"])
    if table["my_choice"] is not None:
        own.append(table["my_choice"])
    seen = set(own)
    for row in table["rows"]:
        seen.update(row)
    if phase == "draft":
        seen.update(table["draft_display"])
        cards_each = list(table["hand_sizes"])
    else:
        if table["revealed"]:
            seen.update(entry["card"] for entry in table["revealed"])
        if table["turn"] > 1 and table["last_turn"]:
            # Turn 1's last_turn belongs to the previous round, whose cards are back in the deck.
            for placement in table["last_turn"]:
                seen.add(placement["card"])
                seen.update(placement["took"])
        # A revealed card is on its way to a row: the seat holds one card per turn after this.
        remaining = HAND_SIZE - table["turn"] + (0 if phase == "take_row" else 1)
        cards_each = [remaining] * players
    unseen = [card for card in range(1, table["cards_in_use"] + 1) if card not in seen]
    return Knowledge(me, players, own, unseen, cards_each)


def _my_seat(view: dict) -> int:
    """The view does not name its seat. Taking a row and drafting name the seat to act;
    while choosing, every seat holds as many cards and the rest of the round treats
    seats alike, so the search may call itself seat 0."""
    table = view["table"]
    if view["phase"] == "take_row":
        return table["row_chooser"]
    if view["phase"] == "draft":
        return table["draft_turn"]
    return 0


# --- the searches ------------------------------------------------------------------

def best_candidate(candidates: list, deal, simulate, clock: Clock, rng: random.Random):
    """The candidate with the best mean value, or None when the budget allowed no simulation.

    Each determinization from `deal(rng)` is shared by all candidates in turn (common
    random numbers), so candidates are compared on the same cards and their
    difference is far less noisy than with a fresh deal each.
    """
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    while clock.more():
        world = deal(rng)
        for index, candidate in enumerate(candidates):
            if not clock.more():
                break
            totals[index] += simulate(candidate, world, rng)
            counts[index] += 1
            clock.tick()
    if not counts[0]:
        return None
    means = [totals[i] / counts[i] if counts[i] else float("-inf") for i in range(len(candidates))]
    # Ties go to the earliest candidate, so the order of `legal` decides, not chance.
    return candidates[means.index(max(means))]


def choose_card(view: dict, legal: list[Action], rng: random.Random, clock: Clock,
                careful: float) -> Action | None:
    known = knowledge_of(view)
    rows = Rows.of(view["table"]["rows"])
    me = known.me

    preference = _opponents_preference(view, known) if careful else {}

    def deal(rng: random.Random) -> list[list[int]]:
        # The pool is shuffled, so each opponent's slice is already a random playing order;
        # only this turn's card is often the one a careful player would pick.
        hands = known.deal(rng)
        for seat, hand in enumerate(hands):
            if seat == me:
                rng.shuffle(hand)
            elif hand and rng.random() < careful:
                first = min(range(len(hand)), key=lambda index: preference[hand[index]])
                hand[0], hand[first] = hand[first], hand[0]
        return hands

    def simulate(card: int, hands: list[list[int]], rng: random.Random) -> float:
        orders = hands[:]
        orders[me] = [card] + [other for other in hands[me] if other != card]
        penalties = [0] * known.players
        play_out(rows.copy(), orders, penalties)
        return relative_value(penalties, me)

    return _pick(legal, "card", best_candidate([a["card"] for a in legal], deal, simulate, clock, rng))


def _opponents_preference(view: dict, known: Knowledge) -> dict[int, tuple[float, int]]:
    """How much a careful opponent (easy's rule) likes playing each card it may hold now;
    the cards it cannot see are roughly those we cannot, plus our own."""
    table = view["table"]
    hidden = known.unseen + known.own
    return {card: caution(card, table["rows"], table["row_bullheads"], hidden, known.players - 1)
            for card in known.unseen}


def choose_row(view: dict, legal: list[Action], rng: random.Random, clock: Clock) -> Action | None:
    known = knowledge_of(view)
    table = view["table"]
    rows = Rows.of(table["rows"])
    revealed = [(entry["seat"], entry["card"]) for entry in table["revealed"]]
    me = known.me

    def deal(rng: random.Random) -> list[list[int]]:
        hands = known.deal(rng)
        rng.shuffle(hands[me])
        return hands

    def simulate(row: int, hands: list[list[int]], rng: random.Random) -> float:
        after = rows.copy()
        penalties = [0] * known.players
        low_row = row
        for seat, card in revealed:
            penalties[seat] += after.place(card, low_row)
            low_row = None
        play_out(after, hands, penalties)
        return relative_value(penalties, me)

    return _pick(legal, "row", best_candidate([a["row"] for a in legal], deal, simulate, clock, rng))


def choose_draft(view: dict, legal: list[Action], rng: random.Random, clock: Clock) -> Action | None:
    known = knowledge_of(view)
    display = view["table"]["draft_display"]
    me = known.me

    def simulate(card: int, hands: list[list[int]], rng: random.Random) -> float:
        hands = [hand[:] for hand in hands]
        left = [other for other in display if other != card]
        hands[me].append(card)
        seat = (me + 1) % known.players
        while len(left) > ROW_COUNT:
            hands[seat].append(left.pop(rng.randrange(len(left))))
            seat = (seat + 1) % known.players
        for hand in hands:
            rng.shuffle(hand)
        penalties = [0] * known.players
        play_out(Rows.of([[start] for start in left]), hands, penalties)
        return relative_value(penalties, me)

    return _pick(legal, "card", best_candidate([a["card"] for a in legal], known.deal, simulate,
                                               clock, rng))


def _pick(legal: list[Action], key: str, value) -> Action | None:
    if value is None:
        return None
    return next(action for action in legal if action[key] == value)


def searcher(careful: float):
    """A bot's play function: the searched action, easy's when the budget allows no simulation.

    `careful` is how often a rollout's opponent plays this turn's card with easy's care;
    0 is the plain flat Monte Carlo with random rollouts."""
    def play(view: dict, legal: list[Action], rng: random.Random, budget: Budget) -> Action:
        clock = Clock(budget)  # started first: reading the view is part of the thinking time
        if view["phase"] == "choose":
            chosen = choose_card(view, legal, rng, clock, careful)
        elif view["phase"] == "take_row":
            chosen = choose_row(view, legal, rng, clock)
        else:
            chosen = choose_draft(view, legal, rng, clock)
        return chosen or easy(view, legal, rng, budget)
    return play


medium = searcher(0.0)
hard = searcher(CAREFUL_OPPONENTS)
