"""The review of a finished game: how each seat played, and how good its cards were.

For every decision a seat made, the game's record is replayed to that moment and the seat's
view read, as its bot would read it (nothing else: no other hand, no seed). The game poses the
decision as its strongest search does (`Game.appraise`), with every legal action a candidate,
and `rules.search.evaluate` plays each out on the same determinizations: its expected result,
the best action, and what the choice cost against it. Luck is the expected result of each deal
the seat was dealt, had the reference bot played it at every seat. docs/analysis.md defines the
figures.

Pure: a record in, figures out. The rng of each evaluation is seeded by the record's step, so a
review is reproducible, and two positions the seat cannot tell apart get the same figures.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from rules.base import Action, Game
from rules.search import Budget, Clock, Estimate, Problem, evaluate

COSTLIEST = 3  # decisions a seat's summary names
# The most CPU seconds one evaluation gets, however large the game's budget: the hard bot's own
# clock for a move, where the verdicts are already stable (`python -m bench.analysis stability`).
EVALUATION_SECONDS = 0.3


@dataclass(frozen=True)
class Record:
    """What replays a game: its players, options, seed and every action in order."""

    players: int
    options: dict
    seed: int
    actions: Sequence[dict]  # {"seat", "action"}


@dataclass(frozen=True)
class ActionValue:
    action: Action
    expected: float  # in the game's measure and direction (`Review.better`)
    error: float


@dataclass(frozen=True)
class Decision:
    step: int  # the action's index in the record
    seat: int
    chosen: Action
    best: Action
    values: list[ActionValue]
    loss: float  # how much worse than the best the choice was expected to do: never negative
    error: float
    forced: bool  # every legal action did the same: nothing to choose


@dataclass(frozen=True)
class DealLuck:
    deal: int
    value: float  # positive: cards better than the table's average, in the game's units
    error: float


@dataclass
class SeatReview:
    seat: int
    decisions: list[Decision] = field(default_factory=list)
    luck: list[DealLuck] = field(default_factory=list)

    @property
    def total_loss(self) -> float:
        return sum(decision.loss for decision in self.decisions)

    @property
    def choices(self) -> list[Decision]:
        return [decision for decision in self.decisions if not decision.forced]

    @property
    def costliest(self) -> list[Decision]:
        return sorted(self.choices, key=lambda decision: (-decision.loss, decision.step)
                      )[:COSTLIEST]

    @property
    def accuracy(self) -> float | None:
        """The mean expected loss per decision that was a choice; None without one."""
        choices = self.choices
        return self.total_loss / len(choices) if choices else None


@dataclass
class Review:
    game: str
    better: str  # "higher" or "lower": which way the expected results are better
    seats: list[SeatReview]


def analysable(game: Game) -> bool:
    return game.appraise is not None


def evaluations(game: Game, record: Record) -> int:
    """How many evaluations a review of the record runs, so a budget per game can be shared."""
    count, deals = 0, set()
    for state, step, seat, _ in _replay(game, record):
        view = game.view(state, seat)
        appraisal = game.appraise(view, game.legal_actions(state, seat), False)
        count += len(set(appraisal.candidate_of)) > 1
        deals.add((seat, view["deal"]))
    return count + len(deals)


def evaluation_budget(game: Game, record: Record, game_seconds: float) -> tuple[Budget, int]:
    """The budget of each evaluation when the review of the record may take `game_seconds` of
    CPU, shared equally (at most EVALUATION_SECONDS each), and how many evaluations it runs."""
    count = evaluations(game, record)
    return Budget(seconds=min(EVALUATION_SECONDS, game_seconds / max(count, 1))), count


def review(game: Game, record: Record, budget: Budget, seed: int = 0,
           seats: Sequence[int] | None = None) -> Review:
    """Every decision of `seats` (all by default) weighed, each evaluation within `budget`,
    and the luck of each of their deals."""
    if not analysable(game):
        raise ValueError(f"{game.title} does not say how to weigh its decisions")
    wanted = set(range(record.players) if seats is None else seats)
    by_seat = {seat: SeatReview(seat) for seat in sorted(wanted)}
    lucky: set[tuple[int, int]] = set()
    for state, step, seat, action in _replay(game, record):
        if seat not in wanted:
            continue
        reviewed = by_seat[seat]
        reviewed.decisions.append(weigh(game, state, step, seat, action, budget, seed))
        deal = game.view(state, seat)["deal"]
        if (seat, deal) not in lucky:
            lucky.add((seat, deal))
            reviewed.luck.append(deal_luck(game, state, step, seat, budget, seed))
    return Review(game.name, "lower" if game.lower_score_wins else "higher",
                  list(by_seat.values()))


def _replay(game: Game, record: Record):
    """(state, step, seat, action) for every action of the record, the state before it."""
    state = game.new_game(record.players, record.options, record.seed)
    for step, entry in enumerate(record.actions):
        yield state, step, entry["seat"], entry["action"]
        game.apply_action(state, entry["seat"], entry["action"])


def weigh(game: Game, state: dict, step: int, seat: int, action: Action, budget: Budget,
          seed: int = 0) -> Decision:
    """The decision `action` of `seat` at `step`, weighed from the seat's view alone."""
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    chosen = _index_of(legal, action)
    appraisal = game.appraise(view, legal, False)
    candidate_of = appraisal.candidate_of
    if len(set(candidate_of)) == 1:
        return Decision(step, seat, legal[chosen], legal[chosen], [], 0.0, 0.0, True)
    estimates = evaluate(appraisal.problem, Clock(budget), random.Random(f"{seed}:{step}"))
    # Ties go to the earliest legal action, as the bots' do to the game's order.
    best = max(range(len(legal)), key=lambda i: (estimates[candidate_of[i]].mean, -i))
    mine, top = estimates[candidate_of[chosen]], estimates[candidate_of[best]]
    same = candidate_of[chosen] == candidate_of[best]
    sign = -1.0 if game.lower_score_wins else 1.0
    values = [ActionValue(legal[i], _rounded(sign * estimates[candidate_of[i]].mean),
                          _rounded(estimates[candidate_of[i]].error))
              for i in range(len(legal))]
    return Decision(step, seat, legal[chosen], legal[best], values,
                    0.0 if same else _rounded(max(0.0, top.mean - mine.mean)),
                    0.0 if same else _rounded(_difference_error(top, mine)), False)


def deal_luck(game: Game, state: dict, step: int, seat: int, budget: Budget,
              seed: int = 0) -> DealLuck:
    """The deal's expected result for the seat at its decision at `step` (its first of the
    deal), over the others' cards dealt anew consistently with its view, every seat played
    as the reference does: the easy bot's choice now, then the game's playouts; the deal
    alone, over the others' mean."""
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    appraisal = game.appraise(view, legal, True)
    reference = _index_of(legal, game.bot_action(view, legal, "easy", random.Random(seed)))
    candidate = appraisal.candidate_of[reference]
    problem = appraisal.problem
    if isinstance(problem, Problem):
        # The budget goes to the reference's action alone; an array simulator plays them all.
        problem, candidate = replace(problem, candidates=[problem.candidates[candidate]]), 0
    estimate = evaluate(problem, Clock(budget), random.Random(f"{seed}:{step}:luck"))[candidate]
    return DealLuck(view["deal"], _rounded(estimate.mean), _rounded(estimate.error))


def _difference_error(first: Estimate, second: Estimate) -> float:
    """The standard error of a difference of two means, as if they were independent: an upper
    bound, since common random numbers correlate them positively."""
    return math.sqrt(first.error ** 2 + second.error ** 2)


def _index_of(legal: list[Action], action: Action) -> int:
    """The legal action `action` is: the same fields, a list of cards in any order."""
    wanted = _canonical(action)
    for index, candidate in enumerate(legal):
        if _canonical(candidate) == wanted:
            return index
    raise ValueError(f"{action!r} is not among the legal actions")


def _canonical(action: Action) -> tuple:
    return tuple(sorted((key, tuple(sorted(value)) if isinstance(value, list) else value)
                        for key, value in action.items()))


def _rounded(value: float) -> float:
    return round(value, 4)


def as_json(review: Review) -> dict[str, Any]:
    """The review as the API publishes it (docs/analysis.md)."""
    return {"type": review.game, "better": review.better,
            "seats": [{"seat": seat.seat, "total_loss": _rounded(seat.total_loss),
                       "accuracy": None if seat.accuracy is None else _rounded(seat.accuracy),
                       "costliest": [decision.step for decision in seat.costliest],
                       "decisions": [_decision_json(decision) for decision in seat.decisions],
                       "luck": [{"deal": luck.deal, "value": luck.value, "error": luck.error}
                                for luck in seat.luck]}
                      for seat in review.seats]}


def _decision_json(decision: Decision) -> dict:
    return {"step": decision.step, "chosen": decision.chosen, "best": decision.best,
            "values": [{"action": value.action, "expected": value.expected,
                        "error": value.error} for value in decision.values],
            "loss": decision.loss, "error": decision.error, "forced": decision.forced}
