"""6 nimmt! hard-bot ablations: bench.tournament with extra benchmark levels, each a search bot
with one part changed, so a change is measured against the published baseline before it is kept.

    nice -n 15 python -m bench.sixnimmt_ablation --players 4 \\
        --seats hard,greedy_self,baseline,baseline --games 200 --seconds 0.03 \\
        --option threshold=1 --jobs 2

Two variants at one table with two baselines face the same deals and opponents (levels rotate
round the table), so their ratios to the baseline are paired by seed.

Levels added (besides the game's own and `baseline`); each is hard with one part changed.
    ranked         hard before its fitted opponent model (as at 4450283): each opponent's card
                   of this turn drawn by its rank in easy's order of caution (OPPONENT_RANKS)
`valued` plays hard's own rollouts on arrays; the others are hard as it was before those (one
world at a time, its deal as at c858562) and play their rollouts in this module:
    valued         each opponent's card of this turn the one a flat Monte Carlo of its own
                   would pick: the lowest value of its hand from VALUE_WORLDS shared random
                   rollouts a card, with Gumbel noise of VALUE_TEMPERATURE bullheads
    careful        hard as it was before OPPONENT_RANKS (as at df30589): each opponent's card
                   of this turn easy's own CAREFUL_OPPONENTS of the time, else a random one
    selfish        hard valuing a rollout by its own bullheads, not its margin over the others
    greedy_self    hard whose own later cards in a rollout are the greedy ones, not random
    greedy_all     greedy_self, and every opponent's later cards greedy too (GREEDY_OPPONENTS
                   of the time)
    oracle_hands   `careful` dealt the opponents' real cards (not a fair level): the headroom
                   of guessing them better
    hard_as_variant
                   hard as it was, one world at a time, a level to set constants on, e.g.
                   careful+CAREFUL_OPPONENTS=1 or hard_as_variant+HALVING=16 (the weaker half of the cards dropped after
                   that many rounds, again after twice as many, and so on)
    LEVEL+NAME=VALUE[+NAME=VALUE...]
                   LEVEL with constants of this module or rules/sixnimmt/search.py set to
                   these numbers while it decides, e.g. greedy_all+GREEDY_OPPONENTS=0.5
"""
from __future__ import annotations

import random
import sys

import numpy as np

from bench import ablation
from rules.search import Clock, Problem, search
from rules.sixnimmt import search as sixnimmt
from rules.sixnimmt.bots import Seen, caution, easy_choice
from rules.sixnimmt.game import BULLHEADS, ROW_LIMIT, SixNimmt

GREEDY_OPPONENTS = 0.5
VALUE_WORLDS = 20
VALUE_TEMPERATURE = 1.0
HALVING = 0
CAREFUL_OPPONENTS = 0.75
ROWS = sixnimmt.ROWS


# How often the published baseline (at 0.03 s of CPU) played the card of each rank in easy's
# order of caution, by the number of cards in its hand: 100 four-player rounds, 400 decisions
# a hand size (bench.sixnimmt_opponent_ranks, which bench.sixnimmt_opponent_model replaced).
# Hard's rollouts drew each opponent's card of this turn so until the fitted model
# (OPPONENT_WEIGHTS) replaced it: level `ranked`. Early in a round a strong
# player's card is nearly unrelated to easy's order, late it is often the safest or the one
# easy likes least (a low card taking a cheap row): easy's own card every time, or three
# times in four as hard did before, overrated it (0.909x the bullheads of that hard, 300
# one-round games).
OPPONENT_RANKS = {
    2: (0.67, 0.33), 3: (0.44, 0.27, 0.29), 4: (0.37, 0.14, 0.17, 0.32),
    5: (0.32, 0.09, 0.10, 0.17, 0.32), 6: (0.29, 0.14, 0.12, 0.07, 0.16, 0.22),
    7: (0.37, 0.14, 0.06, 0.06, 0.08, 0.11, 0.18),
    8: (0.24, 0.16, 0.10, 0.07, 0.07, 0.10, 0.14, 0.12),
    9: (0.17, 0.10, 0.07, 0.09, 0.11, 0.09, 0.12, 0.12, 0.13),
    10: (0.12, 0.12, 0.11, 0.08, 0.09, 0.12, 0.09, 0.07, 0.10, 0.10),
}


def opponents_preference(seen: Seen) -> dict[int, tuple[float, int]]:
    """Easy's order of caution for each card an opponent may hold now; the cards it cannot
    see are roughly those we cannot, plus our own."""
    hidden = seen.unseen + seen.own
    return {card: caution(card, seen.rows, seen.row_bullheads, hidden, seen.players - 1)
            for card in seen.unseen}


def ranked_opponents(seen: Seen):
    """Hard's opponent model before the fitted one (`ranked`): each opponent's card of this
    turn drawn by its rank in easy's order of caution with OPPONENT_RANKS' shares."""
    shares = OPPONENT_RANKS[seen.cards_each[seen.me]]
    preference = opponents_preference(seen)
    position = np.zeros(seen.cards_in_use + 1, dtype=np.int64)
    position[sorted(seen.unseen, key=preference.__getitem__)] = np.arange(len(seen.unseen))
    cumulative = np.cumsum(shares) / sum(shares)

    def guess(hands, draw):
        by_rank = np.argsort(position[hands], axis=2)
        rank = np.minimum(np.searchsorted(cumulative, draw.random(hands.shape[:2]),
                                          side="right"), hands.shape[2] - 1)
        return np.take_along_axis(by_rank, rank[..., None], axis=2)[..., 0]
    return guess


def _greedy_pick(hand: list[int], ends: list[int], lengths: list[int], heads: list[int]) -> int:
    """The index of the card that costs least if placed now, the snuggest fit on ties."""
    best, best_key = 0, None
    for index, card in enumerate(hand):
        row, row_end = -1, 0
        for r in ROWS:
            end = ends[r]
            if row_end < end < card:
                row, row_end = r, end
        if row < 0:
            key = (min(heads), 200)
        elif lengths[row] == ROW_LIMIT:
            key = (heads[row], card - row_end)
        else:
            key = (0, card - row_end + 8 * lengths[row])
        if best_key is None or key < best_key:
            best, best_key = index, key
    return best


def play_out_greedy(rows: sixnimmt.Rows, hands: list[list[int]], penalties: list[int],
                    greedy: list[float], first: list[int], rng: random.Random) -> None:
    """`first` is every seat's card of this turn; later, seat s plays its greedy card with
    chance greedy[s], else the next card of its (random) order."""
    ends, lengths, heads = rows.ends, rows.lengths, rows.heads
    hands = [hand[:] for hand in hands]
    cards = first
    players = len(hands)
    while True:
        for card, seat in sorted((card, seat) for seat, card in enumerate(cards)):
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
            penalties[seat] += heads[row]
            ends[row], lengths[row], heads[row] = card, 1, BULLHEADS[card]
        if not hands[0]:
            return
        cards = []
        for seat in range(players):
            hand = hands[seat]
            index = (_greedy_pick(hand, ends, lengths, heads)
                     if greedy[seat] and rng.random() < greedy[seat] else len(hand) - 1)
            hand[index], hand[-1] = hand[-1], hand[index]
            cards.append(hand.pop())


def _score(penalties: list[int], me: int, selfish: bool) -> float:
    return -penalties[me] if selfish else sixnimmt.relative(penalties, me)


def _careful_first(seen: Seen):
    """Hard before OPPONENT_RANKS: an opponent's card of this turn is easy's own
    CAREFUL_OPPONENTS of the time, else a random one."""
    preference = opponents_preference(seen)

    def first(hand, rng):
        if rng.random() < CAREFUL_OPPONENTS:
            index = min(range(len(hand)), key=lambda index: preference[hand[index]])
            hand[0], hand[index] = hand[index], hand[0]
    return first


def _careful_deal(seen: Seen):
    first = _careful_first(seen)

    def deal(rng):
        hands = seen.deal(rng)
        for seat, hand in enumerate(hands):
            if seat == seen.me:
                rng.shuffle(hand)
            elif hand:
                first(hand, rng)
        return hands
    return deal


def _oracle_deal(seen: Seen):
    """The opponents' real cards (not a fair level): what knowing them is worth. Their card
    of this turn is chosen as `careful` chooses it (the hard it was measured against)."""
    state = ablation.STATES["state"]
    first = _careful_first(seen)

    def deal(rng):
        hands = []
        for seat in range(seen.players):
            if seat == seen.me:
                hand = seen.own[:]
            else:
                chosen = state["chosen"][seat]
                hand = state["hands"][seat] + ([chosen] if chosen is not None else [])
            rng.shuffle(hand)
            if seat != seen.me:
                first(hand, rng)
            hands.append(hand)
        return hands
    return deal


def _ranked_deal(seen: Seen):
    """Hard's deal before its rollouts ran on arrays (at c858562), one world at a time: each
    opponent's card of this turn drawn by its rank in easy's order (OPPONENT_RANKS)."""
    preference = opponents_preference(seen)
    ranks = OPPONENT_RANKS

    def deal(rng):
        hands = seen.deal(rng)
        for seat, hand in enumerate(hands):
            if seat == seen.me:
                rng.shuffle(hand)
            elif len(hand) > 1:
                order = sorted(range(len(hand)), key=lambda index: preference[hand[index]])
                first = order[rng.choices(range(len(hand)), ranks[len(hand)])[0]]
                hand[0], hand[first] = hand[first], hand[0]
        return hands
    return deal


def variant(selfish: bool = False, greedy_self: bool = False, greedy_opponents: bool = False,
            oracle: bool = False, careful: bool = False):
    def play(view, legal, rng, budget):
        clock = Clock(budget)
        seen = Seen.of(view)
        if seen.phase != "choose":
            return sixnimmt.hard(view, legal, rng, budget)
        deal = _ranked_deal(seen)
        if careful:
            deal = _careful_deal(seen)
        if oracle:
            deal = _oracle_deal(seen)
        rows = sixnimmt.Rows.of(seen.rows)
        me = seen.me
        others = GREEDY_OPPONENTS if greedy_opponents else 0.0
        greedy = [1.0 if seat == me and greedy_self else others if seat != me else 0.0
                  for seat in range(seen.players)]

        def simulate(card, hands, rng):
            first = [hand[0] if seat != me else card for seat, hand in enumerate(hands)]
            rest = [hand[1:] if seat != me else [other for other in hand if other != card]
                    for seat, hand in enumerate(hands)]
            penalties = [0] * seen.players
            play_out_greedy(rows.copy(), rest, penalties, greedy, first, rng)
            return _score(penalties, me, selfish)

        problem = Problem(sixnimmt._values(legal), deal, simulate,
                          halving=int(HALVING) if HALVING else None)
        return sixnimmt._action(legal, search(problem, clock, rng,
                                              lambda: easy_choice(seen, legal)["card"]))
    return play


def _card_values(seen: Seen, rows: sixnimmt.Rows, draw: np.random.Generator) -> np.ndarray:
    """What playing each card now costs a seat over the rest of the round, every seat then
    playing at random (an opponent's own estimate, if it thinks as the published baseline
    does): VALUE_WORLDS random deals shared by every card, indexed by card."""
    turns, players, worlds = seen.cards_each[seen.me], seen.players, int(VALUE_WORLDS)
    pool = np.array(seen.unseen + seen.own)
    cards = np.array(seen.unseen)
    dealt = np.argsort(draw.random((worlds, len(pool))), axis=1)[:, :players * turns]
    hands = pool[dealt].reshape(worlds, players, turns)
    orders = np.repeat(hands[None], len(cards), axis=0)
    orders[:, :, 0, 0] = cards[:, None]
    penalties = sixnimmt.play_out_batch(rows, orders.reshape(-1, players, turns))[:, 0]
    table = np.zeros(seen.cards_in_use + 1)
    table[cards] = penalties.reshape(len(cards), worlds).mean(axis=1)
    return table


def valued(view, legal, rng, budget):
    """Hard with each opponent's card of this turn drawn by `_card_values`: the lowest value
    in its hand, give or take Gumbel noise of VALUE_TEMPERATURE bullheads."""
    clock = Clock(budget)
    seen = Seen.of(view)
    if seen.phase != "choose" or seen.cards_each[seen.me] == 1:
        return sixnimmt.hard(view, legal, rng, budget)
    problem = sixnimmt.card_problem(seen, sixnimmt._values(legal), ranked_opponents)
    dealt, table = problem.deal, []

    def deal(rng, count):
        hands, own = dealt(rng, count)
        draw = np.random.default_rng(rng.getrandbits(64))
        if not table:
            table.append(_card_values(seen, sixnimmt.Rows.of(seen.rows), draw))
        noisy = -table[0][hands] / VALUE_TEMPERATURE + draw.gumbel(size=hands.shape)
        sixnimmt.put_first(hands, noisy.argmax(axis=2)[..., None])
        return hands, own

    problem.deal = deal
    return sixnimmt._action(legal, search(problem, clock, rng,
                                          lambda: easy_choice(seen, legal)["card"]))


LEVELS = {
    "ranked": sixnimmt.searcher(ranked_opponents),
    "valued": valued,
    "hard_as_variant": variant(),
    "careful": variant(careful=True),
    "oracle_hands": variant(oracle=True, careful=True),
    "selfish": variant(selfish=True),
    "greedy_self": variant(greedy_self=True),
    "greedy_all": variant(greedy_self=True, greedy_opponents=True),
}


def main(argv: list[str] | None = None) -> int:
    ablation.remember_states(SixNimmt)
    return ablation.run("sixnimmt", sixnimmt, LEVELS,
                        {"hard": sixnimmt.hard, "medium": sixnimmt.medium, **LEVELS},
                        [sys.modules[__name__], sixnimmt], argv)


if __name__ == "__main__":
    sys.exit(main())
