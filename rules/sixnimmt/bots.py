"""Bots for 6 nimmt!: they see only a seat's view and its legal actions.

`Seen` reads a view once, for every level: what the seat holds, what it has seen
and what it cannot place. Easy plays from it directly; the search levels
(search.py) deal the unseen cards from it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from rules.base import Action
from rules.search import Budget
from rules.sixnimmt.game import HAND_SIZE, ROW_LIMIT, default_row, target_row


@dataclass
class Seen:
    """What one seat's view fixes about the round, and what it leaves to chance."""

    me: int
    players: int
    phase: str
    rows: list[list[int]]
    row_bullheads: list[int]
    hand: list[int]          # the cards the seat may still choose from
    own: list[int]           # own cards still to play, a chosen card included
    unseen: list[int]        # cards that may be in an opponent's hand (or taken, or unused)
    cards_each: list[int]    # cards each seat has yet to play or draft into its hand
    cards_in_use: int
    revealed: list[tuple[int, int]]   # (seat, card) of the turn waiting for a row choice
    draft_display: list[int]

    @classmethod
    def of(cls, view: dict) -> "Seen":
        table = view["table"]
        phase = view["phase"]
        players = len(table["hand_sizes"])
        own = list(view["hand"])
        if table["my_choice"] is not None:
            own.append(table["my_choice"])
        seen = set(own)
        for row in table["rows"]:
            seen.update(row)
        revealed = [(entry["seat"], entry["card"]) for entry in table["revealed"] or ()]
        if phase == "draft":
            seen.update(table["draft_display"])
            cards_each = list(table["hand_sizes"])
        else:
            seen.update(card for _, card in revealed)
            # Every card played this round was face up, and so was every card it took.
            for placement in table["played"]:
                seen.add(placement["card"])
                seen.update(placement["took"])
            # A revealed card is on its way to a row: the seat holds one card per turn after this.
            remaining = HAND_SIZE - table["turn"] + (0 if phase == "take_row" else 1)
            cards_each = [remaining] * players
        unseen = [card for card in range(1, table["cards_in_use"] + 1) if card not in seen]
        return cls(view["seat"], players, phase, table["rows"], table["row_bullheads"],
                   list(view["hand"]), own, unseen, cards_each, table["cards_in_use"], revealed,
                   list(table["draft_display"] or ()))

    def deal(self, rng: random.Random) -> list[list[int]]:
        """A random determinization: every seat's cards, own ones as they are; each
        opponent's cards come in a random order, which rollouts may play them in."""
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


def _draft_pick(seen: Seen, legal: list[Action]) -> Action:
    """A hand spread over the range, leaning to the middle, leaves a choice on every turn;
    a block of neighbouring cards (all high or all low) leaves none."""
    top = seen.cards_in_use

    def spread(action: Action) -> float:
        card = action["card"]
        nearest = min((abs(card - mine) for mine in seen.hand), default=top)
        return nearest - abs(card - top / 2) / 4

    return max(legal, key=spread)


def easy_choice(seen: Seen, legal: list[Action]) -> Action:
    """Play the card least likely to take a row (closest fit on ties); take the cheapest
    row; draft a hand spread over the range."""
    kind = legal[0]["type"]
    if kind == "take_row":
        return legal[default_row(seen.rows)]
    if kind == "draft":
        return _draft_pick(seen, legal)
    opponents = seen.players - 1
    return min(legal, key=lambda action: caution(action["card"], seen.rows, seen.row_bullheads,
                                                 seen.unseen, opponents))


def easy(view: dict, legal: list[Action], rng: random.Random, budget: Budget) -> Action:
    # Easy does not search, so it spends no budget.
    return easy_choice(Seen.of(view), legal)
