"""6 nimmt!'s rollouts compiled to machine code (numba): the search's hot loop.

A rollout places every remaining card of one deal by rules 1-4 on four rows kept as end
card, length and bullheads, the same rules as `search.play_out`. Compiled, one rollout of a
four-player round costs under a microsecond, about six times less than on numpy arrays
many deals at a time (`python -m bench.search_rate`). tests/rules/test_sixnimmt_bots.py
checks these against `play_out` and game.py.

The functions compile when this module is first imported (the entry points' signatures are
given), or load from numba's cache beside this file: a search must not spend its clock
compiling. Only a process that searches imports it (a worker at start, or search.py before a
process's first search), so the API's processes never load the compiler.
"""
from __future__ import annotations

import numba
import numpy as np

from rules.sixnimmt.game import BULLHEADS, ROW_COUNT, ROW_LIMIT

HEADS = np.array(BULLHEADS, dtype=np.int64)


# Inlined into its callers: as a call it cost a quarter of a rollout's time.
@numba.njit(cache=True, nogil=True, inline="always")
def _play(start, rows, orders, penalties, cards, seats):
    """Play orders[s, t], seat s's card of turn t, from the rows `start` (end cards, lengths
    and bullheads); penalties grow. `rows`, `cards` and `seats` are scratch space."""
    rows[:] = start
    ends, lengths, heads = rows[0], rows[1], rows[2]
    players, turns = orders.shape
    for turn in range(turns):
        for seat in range(players):  # this turn's cards in ascending order, with their seats
            card, place = orders[seat, turn], seat
            while place > 0 and cards[place - 1] > card:
                cards[place], seats[place] = cards[place - 1], seats[place - 1]
                place -= 1
            cards[place], seats[place] = card, seat
        for place in range(players):
            card = cards[place]
            row, row_end = -1, 0
            for index in range(ROW_COUNT):
                if row_end < ends[index] < card:
                    row, row_end = index, ends[index]
            if row >= 0 and lengths[row] < ROW_LIMIT:
                ends[row] = card
                lengths[row] += 1
                heads[row] += HEADS[card]
                continue
            if row < 0:  # too low for every row: the cheapest (fewest bullheads, cards, lowest)
                row = 0
                for index in range(1, ROW_COUNT):
                    if heads[index] < heads[row] or (heads[index] == heads[row]
                                                     and lengths[index] < lengths[row]):
                        row = index
            penalties[seats[place]] += heads[row]
            ends[row], lengths[row], heads[row] = card, 1, HEADS[card]


@numba.njit("int64[:, :](int64[:, :], int64[:, :, :])", cache=True, nogil=True)
def play_worlds(start, orders):
    """Each world w of orders[w, s, t] played out from the rows `start` (end cards, lengths
    and bullheads); its penalties per seat."""
    worlds, players, _ = orders.shape
    penalties = np.zeros((worlds, players), dtype=np.int64)
    rows = np.empty_like(start)
    cards, seats = np.empty(players, np.int64), np.empty(players, np.int64)
    for world in range(worlds):
        _play(start, rows, orders[world], penalties[world], cards, seats)
    return penalties


@numba.njit("float64[:](int64[:, :], int64[:, :, :], int64[:, :], int64[:], int64)",
            cache=True, nogil=True)
def card_totals(start, hands, own, candidates, me):
    """Every candidate card played now by seat `me` in every world, summed: the opponents'
    mean penalty less our own. hands[w, o, t] is the o-th opponent's card of turn t (the
    opponents in seat order), own[w] our cards in the order the world plays them after the
    candidate."""
    worlds, opponents, turns = hands.shape
    players = opponents + 1
    totals = np.zeros(len(candidates), dtype=np.float64)
    orders = np.empty((players, turns), dtype=np.int64)
    penalties = np.empty(players, dtype=np.int64)
    rows = np.empty_like(start)
    cards, seats = np.empty(players, np.int64), np.empty(players, np.int64)
    for world in range(worlds):
        for opponent in range(opponents):
            seat = opponent if opponent < me else opponent + 1
            orders[seat] = hands[world, opponent]
        for index in range(len(candidates)):
            candidate = candidates[index]
            orders[me, 0] = candidate
            turn = 1
            for card in own[world]:
                if card != candidate:
                    orders[me, turn] = card
                    turn += 1
            penalties[:] = 0
            _play(start, rows, orders, penalties, cards, seats)
            mine = penalties[me]
            totals[index] += (penalties.sum() - mine) / opponents - mine
    return totals


@numba.njit("Tuple((int64[:, :, :], int64[:, :]))(int64[:], int64[:], int64, int64, int64[:],"
            " float64[:], int64, int64)", cache=True, nogil=True)
def deal_worlds(unseen, own, opponents, turns, position, cumulative, count, seed):
    """`count` worlds: each opponent's `turns` cards drawn from `unseen` in a random playing
    order, and our `own` cards in a random order. With shares in `cumulative` (the running
    sum of OPPONENT_RANKS' row), each opponent's card of this turn is the card of its hand
    whose `position` (easy's order of caution) has the rank drawn by those shares."""
    np.random.seed(seed)
    hands = np.empty((count, opponents, turns), dtype=np.int64)
    orders = np.empty((count, turns), dtype=np.int64)
    pool, mine = unseen.copy(), own.copy()
    for world in range(count):
        # A partial Fisher-Yates shuffle of the pool: uniform from whatever order it is in.
        for index in range(opponents * turns):
            other = index + np.random.randint(len(pool) - index)
            pool[index], pool[other] = pool[other], pool[index]
            hands[world, index // turns, index % turns] = pool[index]
        if len(cumulative):
            for opponent in range(opponents):
                hand = hands[world, opponent]
                rank = min(np.searchsorted(cumulative, np.random.random(), side="right"),
                           turns - 1)
                for index in range(turns):
                    below = 0
                    for card in hand:
                        below += position[card] < position[hand[index]]
                    if below == rank:
                        hand[0], hand[index] = hand[index], hand[0]
                        break
        for index in range(turns - 1):
            other = index + np.random.randint(turns - index)
            mine[index], mine[other] = mine[other], mine[index]
        orders[world] = mine
    return hands, orders
