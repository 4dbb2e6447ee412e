"""6 nimmt! for the shared search (rules/search.py): the medium and hard bots, and the
published flat Monte Carlo (ThingsAI's `mcs`) as a benchmark-only `baseline`.

A search never sees more than one seat's view. It deals the cards that seat cannot
place (a determinization), tries a candidate action, plays the round out with
random cards, and scores the round's bullheads relative to the opponents. Random
rollouts are enough here (published results find flat Monte Carlo with them as
strong as PUCT in 6 nimmt!); hard only draws each opponent's card of the current
turn as a strong player picks it (see OPPONENT_WEIGHTS).

The rules are re-implemented compactly because the rollouts are the hot loop: a
row is only its end card, its length and its bullheads, and a seat's remaining
cards are drawn in a pre-shuffled order, so a rollout needs no copies of the game
state. The card choice, nearly every decision, plays its rollouts many deals at a
time on arrays (`play_out_batch`), about fifteen times the rollouts of one at a time in
the same CPU. tests/rules/test_sixnimmt_bots.py checks both against game.py.
"""
from __future__ import annotations

import random
from typing import Callable

import numpy as np

from rules.base import Action
from rules.search import Appraisal, Batched, Budget, Clock, Problem, margin, search
from rules.sixnimmt.bots import Seen, caution, easy_choice
from rules.sixnimmt.game import BULLHEADS, ROW_COUNT, ROW_LIMIT

# Hard's model of an opponent's card of this turn (fitted_opponents): weights of
# card_features, then of the card's place in its hand, fitted to the published baseline's own
# choices at 0.03 s of CPU (`python -m bench.sixnimmt_opponent_model --rounds 400 --seconds
# 0.03 --jobs 2`: 10,800 four-player card choices). On 3,600 more it gives the card played
# 0.25 nats a choice more log-likelihood than the rank table it replaced (OPPONENT_RANKS,
# bench.sixnimmt_ablation), and its likeliest card is the one played 46.0% of the time,
# against 29.8% (21.4% for a uniform draw). Cards likely to take a row are avoided, more so
# when the row is dear; among safe ones the lowest and the highest are kept for later.
OPPONENT_WEIGHTS = (-0.668, -1.082, -0.063, -0.339, 0.153, -0.101, -0.237, -7.442, 8.855, 0.498)
ROWS = tuple(range(ROW_COUNT))
ROW_INDEX = np.arange(ROW_COUNT, dtype=np.int16)
HEADS = np.array(BULLHEADS, dtype=np.int16)
SEAT_BITS = 16  # a batched rollout sorts card * SEAT_BITS + seat: at most 10 seats
# A batched rollout's row as one number, bullheads * 256 + cards * 4 + index, which is also
# Rows.cheapest's order: a row's cards and index never reach one bullhead's weight.
ROW_ORDER = (np.int16(256), np.int16(4))
HEADS_SHIFT, LENGTH_BITS = np.int16(8), np.int16(255 - 3)
FULL_LENGTH, NONE = np.int16(ROW_LIMIT * 4), np.int16(0)


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
    """The remaining turns, seat s playing orders[s][0], then orders[s][1], ...

    The same rules as `play_turn`, written out on local lists: this is the inner loop of
    every rollout, and half the time of Rows.place went to calls and attribute look-ups."""
    ends, lengths, heads = rows.ends, rows.lengths, rows.heads
    seat_of = {card: seat for seat, order in enumerate(orders) for card in order}
    for cards in zip(*orders):
        for card in sorted(cards):
            row, row_end = -1, 0
            for index in ROWS:
                end = ends[index]
                if row_end < end < card:
                    row, row_end = index, end
            if row >= 0 and lengths[row] < ROW_LIMIT:
                ends[row] = card
                lengths[row] += 1
                heads[row] += BULLHEADS[card]
                continue
            if row < 0:
                row = rows.cheapest()
            penalties[seat_of[card]] += heads[row]
            ends[row], lengths[row], heads[row] = card, 1, BULLHEADS[card]


def relative(penalties: list[int], me: int) -> float:
    """Bullheads are bad: the margin over the opponents of the negated penalties."""
    return margin([-penalty for penalty in penalties], me)


def play_out_batch(rows: Rows, orders: np.ndarray) -> np.ndarray:
    """`play_out` for many worlds at once: orders[w, s, t] is seat s's card of turn t in
    world w, every world starting from `rows`; returns each world's penalties per seat.

    Each step places the next card of every world together, so the Python loop runs once
    per card of a turn, not once per card of every world. The rows lie row by row with the
    worlds along the last axis, in 16 bits, and a row's bullheads, length and index share
    one number, its order as the cheapest row (ROW_ORDER): a step is a few element-wise
    operations and reductions over four rows, with no gathers (`python -m
    bench.search_rate`)."""
    worlds, players, turns = orders.shape
    ends = np.repeat(np.array(rows.ends, dtype=np.int16)[:, None], worlds, axis=1)
    index = np.repeat(ROW_INDEX, worlds)
    order = np.repeat((np.array(rows.heads, dtype=np.int16) * ROW_ORDER[0]
                       + np.array(rows.lengths, dtype=np.int16) * ROW_ORDER[1]
                       + ROW_INDEX)[:, None], worlds, axis=1)
    penalties = np.zeros(players * worlds, dtype=np.int32)
    # Each turn's cards in ascending order, each with its seat in the low bits; then one
    # line of every world's card per step, in playing order.
    keys = sort_lines(orders.transpose(1, 2, 0).astype(np.int16) * SEAT_BITS
                      + np.arange(players, dtype=np.int16)[:, None, None])
    keys = keys.transpose(1, 0, 2).reshape(turns * players, worlds)
    cards = keys // SEAT_BITS
    growth = HEADS[cards] * ROW_ORDER[0] + ROW_ORDER[1]  # a card added to a row
    takers = (keys % SEAT_BITS).astype(np.int32) * worlds + np.arange(worlds, dtype=np.int32)
    for step in range(turns * players):
        card = cards[step]
        highest_below = (ends * (ends < card)).max(axis=0)  # row ends are distinct and > 0
        target = ends == highest_below
        fits = highest_below != NONE
        full = order & LENGTH_BITS == FULL_LENGTH
        if not fits.all():
            # Too low for every row: the cheapest (fewest bullheads, fewest cards, lowest).
            low = ~fits
            target |= (order == order.min(axis=0)) & low
            full |= low
        full &= target
        np.add.at(penalties, takers[step],
                  ((order >> HEADS_SHIFT) * full).sum(axis=0, dtype=np.int32))
        np.putmask(ends, target, card)  # putmask repeats `card` once per row
        np.putmask(order, full, index)  # a taken row starts again: no bullheads, no cards
        order += target * growth[step]
    return penalties.reshape(players, worlds).T


def sort_lines(lines: np.ndarray) -> np.ndarray:
    """`lines` sorted along its first axis, by an insertion sort of whole lines: numpy's
    sort along a short axis pays a call per line, forty times the time of these
    element-wise minimums and maximums for four seats (`bench.search_rate`)."""
    lines = lines.copy()
    for end in range(1, len(lines)):
        for index in range(end, 0, -1):
            lower, upper = lines[index - 1], lines[index]
            low = np.minimum(lower, upper)
            np.maximum(lower, upper, out=upper)
            lower[...] = low
    return lines


# Which card the others play this turn: a function of a seat's view that returns a guess,
# which given a batch of dealt hands (worlds x opponents x cards) and a random source returns
# the index of each hand's card of this turn.
Guess = Callable[[np.ndarray, np.random.Generator], np.ndarray]


def card_problem(seen: Seen, cards: list[int], opponents_model: Callable[[Seen], Guess] | None
                 ) -> Batched:
    """Each opponent's card of this turn is drawn by `opponents_model` (hard's:
    `fitted_opponents`); without one, it is a random card like the rest."""
    rows = Rows.of(seen.rows)
    me, players = seen.me, seen.players
    opponents = [seat for seat in range(players) if seat != me]
    turns = seen.cards_each[me]  # every seat holds as many cards, this turn's included
    unseen, own = np.array(seen.unseen, dtype=np.int16), np.array(seen.own, dtype=np.int16)
    candidates = np.array(cards)
    guess = opponents_model(seen) if opponents_model and turns > 1 else None

    def deal(rng: random.Random, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Each opponent's cards in a random playing order, but this turn's card as guessed;
        our own in a random order."""
        draw = np.random.default_rng(rng.getrandbits(64))
        hands = shuffled(draw, unseen, count)[:, :len(opponents) * turns].reshape(
            count, len(opponents), turns)
        if guess:
            put_first(hands, guess(hands, draw)[..., None])
        return hands, shuffled(draw, own, count)

    def values(worlds: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        hands, own_orders = worlds
        count = len(hands)
        orders = np.empty((len(candidates), count, players, turns), dtype=np.int16)
        orders[:, :, opponents, :] = hands[None]
        # The candidate now, then the other own cards in the world's order.
        mine = np.broadcast_to(own_orders, (len(candidates), count, turns))
        orders[:, :, me, 0] = candidates[:, None]
        orders[:, :, me, 1:] = mine[mine != candidates[:, None, None]].reshape(
            len(candidates), count, turns - 1)
        penalties = play_out_batch(rows, orders.reshape(-1, players, turns))
        own_penalty = penalties[:, me]
        # relative(): the opponents' mean penalty less our own
        value = (penalties.sum(axis=1) - own_penalty) / (players - 1) - own_penalty
        return value.reshape(len(candidates), count)

    return Batched(cards, deal, values)


def shuffled(draw: np.random.Generator, cards: np.ndarray, count: int) -> np.ndarray:
    """`count` independent random orders of `cards`, one a line."""
    lines = np.tile(cards, (count, 1))
    return draw.permuted(lines, axis=1, out=lines)


def put_first(hands: np.ndarray, index: np.ndarray) -> None:
    """Swap the card at `index` (one per hand, on the last axis) to the front of its hand,
    where a rollout plays it this turn."""
    card = np.take_along_axis(hands, index, axis=-1)
    np.put_along_axis(hands, index, hands[..., :1].copy(), axis=-1)
    hands[..., :1] = card


def fitted_opponents(seen: Seen) -> Guess:
    """Each opponent plays a card of its hand with a chance proportional to
    exp(features . OPPONENT_WEIGHTS): the conditional logit fitted to the published
    baseline's own choices."""
    card_weights, rank_weight = np.array(OPPONENT_WEIGHTS[:-1]), OPPONENT_WEIGHTS[-1]
    unseen = np.array(seen.unseen)
    logits = np.zeros(seen.cards_in_use + 1)
    logits[unseen] = card_features(seen, unseen) @ card_weights
    return lambda hands, draw: (logits[hands] + rank_weight * hand_rank(hands)
                                + draw.gumbel(size=hands.shape)).argmax(axis=-1)


def card_features(seen: Seen, cards: np.ndarray) -> np.ndarray:
    """What the opponent model (OPPONENT_WEIGHTS) knows of each of `cards` in the hand of an
    opponent of `seen`'s seat, one line a card: the bullheads it may take this turn if every
    other seat plays a uniform hidden card (easy's risk), whether it is too low for every row
    and the cheapest row then, how far above its row's end it lies, how many hidden cards lie
    between, the bullheads and free places of its row, and its height in the deck. The cards
    hidden from that opponent are roughly those hidden from this seat, plus its own."""
    rows, opponents = seen.rows, seen.players - 1
    hidden = seen.unseen + seen.own
    ends = np.array([row[-1] for row in rows])
    lengths = np.array([len(row) for row in rows])
    heads = np.array(seen.row_bullheads, dtype=float)
    below = np.where(ends[None, :] < cards[:, None], ends[None, :], 0)
    target = below.argmax(axis=1)
    end = below.max(axis=1)
    low = end == 0
    ordered = np.sort(np.array(hidden))
    between = np.where(low, 0, np.searchsorted(ordered, cards)
                       - np.searchsorted(ordered, end, side="right"))
    risk = [caution(card, rows, seen.row_bullheads, hidden, opponents)[0]
            for card in cards.tolist()]
    fits = ~low
    return np.stack([risk, low, low * heads.min(), fits * np.log1p(cards - end),
                     fits * between / 10, fits * heads[target],
                     fits * (ROW_LIMIT - lengths[target]),
                     cards / seen.cards_in_use, (cards / seen.cards_in_use) ** 2], axis=1
                    ).astype(float)


def hand_rank(hands: np.ndarray) -> np.ndarray:
    """Each card's place in its hand (the last axis) from the lowest, 0, to the highest, 1."""
    size = hands.shape[-1]
    return np.argsort(np.argsort(hands, axis=-1), axis=-1) / max(size - 1, 1)


def row_problem(seen: Seen) -> Problem:
    rows = Rows.of(seen.rows)
    me = seen.me

    def deal(rng: random.Random) -> list[list[int]]:
        hands = seen.deal(rng)
        rng.shuffle(hands[me])
        return hands

    def simulate(row: int, hands: list[list[int]], rng: random.Random) -> float:
        after = rows.copy()
        penalties = [0] * seen.players
        low_row = row
        for seat, card in seen.revealed:
            penalties[seat] += after.place(card, low_row)
            low_row = None
        play_out(after, hands, penalties)
        return relative(penalties, me)

    return Problem(list(range(ROW_COUNT)), deal, simulate)


def draft_problem(seen: Seen, cards: list[int]) -> Problem:
    me = seen.me

    def simulate(card: int, hands: list[list[int]], rng: random.Random) -> float:
        hands = [hand[:] for hand in hands]
        left = [other for other in seen.draft_display if other != card]
        hands[me].append(card)
        seat = (me + 1) % seen.players
        while len(left) > ROW_COUNT:
            hands[seat].append(left.pop(rng.randrange(len(left))))
            seat = (seat + 1) % seen.players
        for hand in hands:
            rng.shuffle(hand)
        penalties = [0] * seen.players
        play_out(Rows.of([[start] for start in left]), hands, penalties)
        return relative(penalties, me)

    return Problem(cards, seen.deal, simulate)


def _key(legal: list[Action]) -> str:
    return "row" if legal[0]["type"] == "take_row" else "card"


def _values(legal: list[Action]) -> list[int]:
    key = _key(legal)
    return [action[key] for action in legal]


def _action(legal: list[Action], value: int) -> Action:
    key = _key(legal)
    return next(action for action in legal if action[key] == value)


def problem_of(seen: Seen, legal: list[Action],
               opponents_model: Callable[[Seen], Guess] | None) -> Problem | Batched:
    if seen.phase == "take_row":
        return row_problem(seen)
    if seen.phase == "choose":
        return card_problem(seen, _values(legal), opponents_model)
    return draft_problem(seen, _values(legal))


def searcher(opponents_model: Callable[[Seen], Guess] | None):
    """A bot's play function: the searched action, easy's when the budget allows no simulation.

    `opponents_model` draws a rollout's opponent's card of this turn as a strong player
    picks it; None is the plain flat Monte Carlo with random rollouts."""
    def play(view: dict, legal: list[Action], rng: random.Random, budget: Budget) -> Action:
        clock = Clock(budget)
        seen = Seen.of(view)
        return _action(legal, search(problem_of(seen, legal, opponents_model), clock, rng,
                                     lambda: _values([easy_choice(seen, legal)])[0]))
    return play


medium = searcher(None)
hard = searcher(fitted_opponents)


def appraise(view: dict, legal: list[Action], deal_only: bool = False) -> Appraisal:
    """Hard's problem. Its value is already the round's alone: the others' mean bullheads
    this round less the seat's own."""
    problem = problem_of(Seen.of(view), legal, fitted_opponents)
    candidates = list(problem.candidates)
    return Appraisal(problem, [candidates.index(value) for value in _values(legal)])


# --- the published baseline, for benchmarks only ---------------------------------------
# ThingsAI's 6-nimmt-agent (MIT), its strongest published strategy `mcs:mcPerCard=100`, as
# its src/engine/strategies/mcs.ts and mcs-base.ts describe it, re-implemented here: for
# each candidate, deal the opponents' hands afresh from the cards not yet seen this round,
# play the whole rest of the round with every seat's cards in uniformly random order, and
# keep the candidate with the lowest mean own penalty. The row choice is searched the same
# way (the published one leaves out the turn's other revealed cards; the rules place them).

BASELINE_SIMULATIONS = 100


def baseline(view: dict, legal: list[Action], rng: random.Random, budget: Budget) -> Action:
    """The published flat Monte Carlo: 100 whole-round simulations per candidate, each on
    its own deal (no shared luck between candidates); it drafts as easy does. A budget in
    seconds replaces the 100 simulations (to compare at equal CPU)."""
    clock = Clock(budget if budget.seconds is not None else
                  Budget(iterations=BASELINE_SIMULATIONS * len(legal)))
    seen = Seen.of(view)
    if seen.phase == "draft" or len(legal) == 1:
        return easy_choice(seen, legal)
    rows = Rows.of(seen.rows)
    me = seen.me

    def own_penalty(candidate: int) -> int:
        hands = seen.deal(rng)
        penalties = [0] * seen.players
        after = rows.copy()
        if seen.phase == "take_row":
            play_turn(after, [card for _, card in sorted(seen.revealed)], penalties, candidate)
            rng.shuffle(hands[me])
        else:
            rest = [card for card in hands[me] if card != candidate]
            rng.shuffle(rest)
            hands[me] = [candidate] + rest
        play_out(after, hands, penalties)
        return penalties[me]

    values = _values(legal)
    totals = [0] * len(values)
    counts = [0] * len(values)
    while clock.more():
        for index, candidate in enumerate(values):
            if not clock.more():
                break
            totals[index] += own_penalty(candidate)
            counts[index] += 1
            clock.tick()
    means = [total / count if count else float("inf") for total, count in zip(totals, counts)]
    return _action(legal, values[means.index(min(means))])


BENCHMARK_LEVELS = {"baseline": baseline}
