"""Bots for 6 nimmt!: they see only a seat's view and its legal actions."""
from __future__ import annotations

import random
from math import comb

from rules.base import Action
from rules.search import Budget
from rules.sixnimmt.game import ROW_LIMIT, default_row, target_row


def _chance_of_at_least(needed: int, trials: int, chance: float) -> float:
    return sum(comb(trials, hits) * chance ** hits * (1 - chance) ** (trials - hits)
               for hits in range(needed, trials + 1))


def _expected_penalty(card: int, rows: list[list[int]], row_bullheads: list[int],
                      unseen: list[int], opponents: int) -> float:
    """Bullheads `card` may cost this turn, guessing each opponent plays a uniform unseen card."""
    row = target_row(rows, card)
    if row is None:
        return min(row_bullheads)
    needed = ROW_LIMIT - len(rows[row])
    if needed == 0:
        return row_bullheads[row]
    end = rows[row][-1]
    # A row fills up before our card only when opponents' cards land between its end and ours.
    between = sum(1 for other in unseen if end < other < card)
    risk = _chance_of_at_least(needed, opponents, between / len(unseen)) if unseen else 0.0
    return risk * (row_bullheads[row] + needed)


def caution(card: int, rows: list[list[int]], row_bullheads: list[int], unseen: list[int],
            opponents: int) -> tuple[float, int]:
    """Easy's order of preference: the risk a card takes a row, then how snugly it fits."""
    row = target_row(rows, card)
    gap = card - rows[row][-1] if row is not None else card + 1000
    return (_expected_penalty(card, rows, row_bullheads, unseen, opponents), gap)


def _safest_card(view: dict) -> int:
    table = view["table"]
    rows = table["rows"]
    hand = view["hand"]
    seen = set(hand).union(*rows)
    unseen = [card for card in range(1, table["cards_in_use"] + 1) if card not in seen]
    opponents = len(table["hand_sizes"]) - 1
    return min(hand, key=lambda card: caution(card, rows, table["row_bullheads"], unseen, opponents))


def _draft_pick(view: dict, legal: list[Action]) -> Action:
    """A hand spread over the range, leaning to the middle, leaves a choice on every turn;
    a block of neighbouring cards (all high or all low) leaves none."""
    hand = view["hand"]
    top = view["table"]["cards_in_use"]

    def spread(action: Action) -> float:
        card = action["card"]
        nearest = min((abs(card - mine) for mine in hand), default=top)
        return nearest - abs(card - top / 2) / 4

    return max(legal, key=spread)


def easy(view: dict, legal: list[Action], rng: random.Random, budget: Budget) -> Action:
    """Easy does not search, so it spends no budget. Play the card least likely to take a row (closest fit on ties); take the cheapest row;
    draft a hand spread over the range."""
    kind = legal[0]["type"]
    if kind == "take_row":
        return legal[default_row(view["table"]["rows"])]
    if kind == "draft":
        return _draft_pick(view, legal)
    best = _safest_card(view)
    return next(action for action in legal if action["card"] == best)


