"""Determinized search for the Hattrick bots, on a compact copy of one deal.

The search only ever reads the seat's view: the cards it has not seen are dealt
at random to the other seats in the numbers their hand sizes show (a
determinization), each candidate action is played out to the end of the deal in
that same sample (common random numbers, so candidates differ by their own
merit, not by the luck of the sample), and the candidate with the best mean
score relative to the opponents wins.

Nothing in Hattrick lets a seat infer a void: passing is voluntary and the
passed card is shown, so the unseen cards are dealt uniformly.

The rules engine is the hot loop, so a deal here is plain lists of ints:
hands[seat][colour] is the ascending list of values held, piles[seat][colour]
counts collected cards, passed[seat] counts passed cards, and the trick is a
list of (seat, colour, value, passed). tests/rules/test_hattrick_bots.py checks
that it agrees with rules/hattrick/game.py.
"""
from __future__ import annotations

import random
from bisect import bisect_left
from dataclasses import dataclass

from rules.hattrick.game import settle_trick
from rules.search import Clock, Problem, margin, search

COLOURS = ("red", "blue", "green")
COLOUR_INDEX = {name: index for index, name in enumerate(COLOURS)}


def parse(card: str) -> tuple[int, int]:
    colour, value = card.split("-")
    return COLOUR_INDEX[colour], int(value)


def name(colour: int, value: int) -> str:
    return f"{COLOURS[colour]}-{value}"


# --- the compact deal ----------------------------------------------------------------

@dataclass
class Deal:
    players: int
    hands: list          # [seat][colour] -> ascending values
    piles: list          # [seat][colour] -> number of collected cards
    passed: list         # [seat] -> number of passed cards
    trick: list          # [(seat, colour, value, passed)] in acting order
    turn: int

    def copy(self) -> Deal:
        return Deal(self.players, [[list(values) for values in hand] for hand in self.hands],
                    [list(pile) for pile in self.piles], list(self.passed), list(self.trick),
                    self.turn)

    def shown(self) -> list[int]:
        """Colours of the played (not passed) cards of the trick, in order."""
        colours = []
        for _seat, colour, _value, passed in self.trick:
            if not passed and colour not in colours:
                colours.append(colour)
        return colours

    def legal(self) -> list[tuple[bool, int, int]]:
        """(is_pass, colour, value) for every card the seat to act may put down."""
        hand = self.hands[self.turn]
        shown = self.shown()
        return [(len(shown) == 2 and colour not in shown, colour, value)
                for colour in range(3) for value in hand[colour]]

    def apply(self, is_pass: bool, colour: int, value: int) -> None:
        seat = self.turn
        self.hands[seat][colour].remove(value)
        if is_pass:
            self.passed[seat] += 1
        self.trick.append((seat, colour, value, is_pass))
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self.finish_trick()

    def finish_trick(self) -> None:
        taken, leader = resolve(self.trick)
        for seat, colour, _value, passed in self.trick:
            if not passed:
                self.piles[taken[colour]][colour] += 1
        self.trick = []
        self.turn = leader

    def over(self) -> bool:
        """The deal ends when every hand is down to the card set aside."""
        return not self.trick and sum(map(len, self.hands[0])) <= 1

    def scores(self) -> list[int]:
        return [score(pile, passed) for pile, passed in zip(self.piles, self.passed)]


def score(pile: list[int], passed: int) -> int:
    best = max(pile)
    return 2 * best - sum(pile) - 2 * passed


def resolve(trick: list) -> tuple[dict[int, int], int]:
    """({colour: seat taking it}, next leader), as game.resolve_trick."""
    return settle_trick([(value, colour, seat) for seat, colour, value, passed in trick if not passed])


@dataclass
class Seen:
    """What one seat's view shows, read once for every level: the seat's hand, the
    table, and the cards it has not seen, which are exactly the other hands' cards."""

    me: int
    players: int
    lowest: int                      # the deck's lowest value: 0 with 7 players
    hand: list[str]
    piles: list[dict[str, list[str]]]
    passed_counts: list[int]
    trick: list[dict]                # view entries: seat, card, passed
    hand_sizes: list[int]
    unseen: list[str]
    totals: list[int]                # each seat's score in the finished deals

    @classmethod
    def of(cls, view: dict) -> "Seen":
        table = view["table"]
        players = len(table["hand_sizes"])
        lowest = 0 if players == 7 else 1
        seen = set(view["hand"])
        for piles in table["piles"]:
            for cards in piles.values():
                seen.update(cards)
        for cards in table["passed"]:
            seen.update(cards)
        seen.update(entry["card"] for entry in table["trick"])
        unseen = [name(colour, value) for colour in range(3) for value in range(lowest, 21)
                  if name(colour, value) not in seen]
        return cls(view["seat"], players, lowest, list(view["hand"]), table["piles"],
                   list(table["passed_counts"]), table["trick"], list(table["hand_sizes"]),
                   unseen, list(view["scores"]))

    def deal_with(self, other_hands: dict[int, list[str]]) -> Deal:
        """The deal the view shows, with `other_hands` filling in the hidden hands."""
        cards = {seat: list(hand) for seat, hand in other_hands.items()}
        cards[self.me] = self.hand
        hands = []
        for seat in range(self.players):
            hand: list[list[int]] = [[], [], []]
            for colour, value in map(parse, cards[seat]):
                hand[colour].append(value)
            hands.append([sorted(values) for values in hand])
        piles = [[len(seat_piles[colour]) for colour in COLOURS] for seat_piles in self.piles]
        trick = [(entry["seat"], *parse(entry["card"]), entry["passed"]) for entry in self.trick]
        return Deal(self.players, hands, piles, list(self.passed_counts), trick, self.me)

    def deal(self, rng: random.Random) -> Deal:
        """A determinization: the unseen cards dealt at random in the hands' sizes."""
        cards = list(self.unseen)
        rng.shuffle(cards)
        hands, start = {}, 0
        for seat, size in enumerate(self.hand_sizes):
            if seat != self.me:
                hands[seat] = cards[start:start + size]
                start += size
        return self.deal_with(hands)


# --- the playout policy --------------------------------------------------------------

@dataclass(frozen=True)
class Policy:
    """How the simulated players act: a fast rule of thumb, with some random moves
    so the playouts cover what real opponents might do."""

    randomness: float


def target_colour(deal: Deal, seat: int) -> int:
    """The colour a seat collects: what it took most of, then what it holds most of."""
    pile, hand = deal.piles[seat], deal.hands[seat]
    # max() by a key, written out (a hot spot of the playouts); ties to the first colour.
    red, blue, green = (3 * pile[0] + len(hand[0]), 3 * pile[1] + len(hand[1]),
                        3 * pile[2] + len(hand[2]))
    if red >= blue:
        return 0 if red >= green else 2
    return 1 if blue >= green else 2


def policy_move(deal: Deal, policy: Policy, rng: random.Random) -> tuple[bool, int, int]:
    seat = deal.turn
    hand = deal.hands[seat]
    top = [-1, -1, -1]
    shown: list[int] = []
    for _seat, colour, value, passed in deal.trick:
        if not passed:
            if colour not in shown:
                shown.append(colour)
            top[colour] = max(top[colour], value)
    allowed = shown if len(shown) == 2 else [0, 1, 2]
    third = 3 - shown[0] - shown[1] if len(shown) == 2 else -1
    if rng.random() < policy.randomness:
        options = deal.legal()
        return options[int(rng.random() * len(options))]
    target = target_colour(deal, seat)
    last = len(deal.trick) == deal.players - 1
    held = hand[target]
    # Take the target colour when a card of it beats the trick: the lowest that does
    # when nobody follows, else the highest, to keep it.
    if target in allowed and held and held[-1] > top[target]:
        value = held[bisect_left(held, top[target] + 1)] if last else held[-1]
        return False, target, value
    # Duck under another colour with the highest card that stays below, shedding it.
    best_duck = None
    for colour in allowed:
        values = hand[colour]
        if colour != target and values and values[0] < top[colour]:
            value = values[bisect_left(values, top[colour]) - 1]
            if best_duck is None or value > best_duck[2]:
                best_duck = (False, colour, value)
    if best_duck:
        return best_duck
    if target in allowed and held:
        return False, target, held[0]
    if third >= 0 and hand[third]:
        values = hand[third]
        return True, third, values[0] if third == target else values[-1]
    colour = min((c for c in allowed if hand[c]), key=lambda c: hand[c][0])
    return False, colour, hand[colour][0]


def playout(deal: Deal, policy: Policy, rng: random.Random) -> list[int]:
    while not deal.over():
        deal.apply(*policy_move(deal, policy, rng))
    return deal.scores()


# --- choosing an action --------------------------------------------------------------

def equivalent_actions(seen: Seen, legal: list[dict]) -> list[list[int]]:
    """The indices of `legal` in groups that do exactly the same: two cards of a colour with
    no card between them that is still in play (in another hand or in the trick)."""
    unseen = {parse(card) for card in seen.unseen}
    in_trick = {parse(e["card"]) for e in seen.trick if not e["passed"]}
    live = unseen | in_trick
    groups: list[list[int]] = []
    previous: tuple[str, int, int] | None = None
    for index in sorted(range(len(legal)),
                        key=lambda i: (legal[i]["type"], *parse(legal[i]["card"]))):
        action = legal[index]
        colour, value = parse(action["card"])
        if previous and previous[:2] == (action["type"], colour) and not any(
                (colour, between) in live for between in range(previous[2] + 1, value)):
            groups[-1].append(index)
            continue
        groups.append([index])
        previous = (action["type"], colour, value)
    return groups


def distinct_candidates(seen: Seen, legal: list[dict]) -> list[dict]:
    """Legal actions up to equivalence (`equivalent_actions`), the lowest card of each group."""
    return [legal[group[0]] for group in equivalent_actions(seen, legal)]


def action_problem(seen: Seen, candidates: list[dict], policy: Policy, against_best: float,
                   totals: list[int]) -> Problem:
    """Each candidate played out, scored as the margin (rules/search.margin, weighing the best
    rival by `against_best`) in the totals before the deal plus the deal's scores."""
    def simulate(action: dict, sampled: Deal, rng: random.Random) -> float:
        deal = sampled.copy()
        deal.apply(action["type"] == "pass", *parse(action["card"]))
        scores = playout(deal, policy, rng)
        return margin([total + score for total, score in zip(totals, scores)], seen.me,
                      against_best)

    return Problem(candidates, seen.deal, simulate)


def search_action(seen: Seen, legal: list[dict], rng: random.Random, clock: Clock,
                  policy: Policy, fallback, against_best: float = 0.0) -> dict:
    """The candidate with the best mean margin in the match totals the deal's playouts lead
    to."""
    problem = action_problem(seen, distinct_candidates(seen, legal), policy, against_best,
                             seen.totals)
    return search(problem, clock, rng, fallback)
