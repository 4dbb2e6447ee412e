"""The one search behind every game's medium and hard bots.

Every search bot decides the same way: deal the cards its seat cannot see
consistently with its view (a determinization), play each candidate action out
in that deal with a fast simulator, and keep the candidate with the best mean
value. A game supplies only those three parts in a `Problem`; this module owns
the loop, the clock, the tie rule and the fallback.

All candidates of a round share the round's deal and replay the same random
stream (common random numbers), so they are compared on equal luck and their
differences are far less noisy than with a fresh deal each. A game whose
simulator runs on arrays poses a `Batched` problem instead: the same loop, many
deals at a time.

`evaluate` runs the same loop for the analysis of a finished game: every candidate's mean
value and its standard error instead of a choice.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Generic, Sequence, TypeVar

import numpy as np

Candidate = TypeVar("Candidate")


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: CPU seconds, or exactly `iterations` simulations.

    An iteration count makes a search deterministic given its random source,
    which tests rely on; seconds are what players get. `deadline` (a reading of
    `time.monotonic()`) also stops the seconds' search when it passes, however much
    CPU time is left: the player waits on the wall clock, which a busy machine
    turns slower than the CPU clock. With `settled_at`, a seconds' search also stops once its
    decision is settled (see SETTLED_AT).
    """

    seconds: float | None = None
    iterations: int | None = None
    deadline: float | None = None
    settled_at: float | None = None


# A decision is settled when the best candidate's lead over every other is SETTLED_AT standard
# errors of their paired difference: more simulations would almost never change the choice, so
# the search stops there and leaves the rest of its budget unspent. Only seconds' budgets
# settle; an iteration count stays an exact count.
SETTLED_AT = 3.0

DEFAULT_BUDGETS = {
    "easy": Budget(iterations=0),
    "medium": Budget(seconds=0.04, settled_at=SETTLED_AT),
    "hard": Budget(seconds=0.2, settled_at=SETTLED_AT),
}


class Clock:
    """Counts simulations against a Budget, on the CPU clock of this process (and the wall
    clock, when the budget has a deadline).

    Start it before reading the view: preparing a search is thinking time too. Reading
    the CPU clock costs as much as a tenth of a quick simulation, so it is read again
    only after about a tenth of the time left, judged by the simulations' pace so far.
    """

    def __init__(self, budget: Budget):
        self.budget = budget
        self.started = time.process_time()
        self.wall_started = time.monotonic() if budget.deadline is not None else 0.0
        self.done = 0
        self.next_reading = 0
        self._last_batch: tuple[list[tuple[float, float]], int] | None = None

    def more(self) -> bool:
        if self.budget.iterations is not None:
            return self.done < self.budget.iterations
        if self.done < self.next_reading:
            return True
        clocks = self._readings()
        if min(left for left, _ in clocks) <= 0:
            return False
        # Simulations until a tenth of the time left, at each clock's pace so far.
        self.next_reading = self.done + 1 + min(
            int(left * self.done / used / 10) if used > 0 else 0 for left, used in clocks)
        return True

    def _readings(self) -> list[tuple[float, float]]:
        """(time left, time used) on each clock."""
        spent = time.process_time() - self.started
        clocks = [(self.budget.seconds - spent, spent)]
        if self.budget.deadline is not None:
            now = time.monotonic()
            clocks.append((self.budget.deadline - now, now - self.wall_started))
        return clocks

    def tick(self, simulations: int = 1) -> None:
        self.done += simulations

    @property
    def settles(self) -> float | None:
        """How many standard errors settle a decision, None when it runs its whole budget."""
        return self.budget.settled_at if self.budget.iterations is None else None

    def batch(self, per_world: int, share: float | None = None) -> int:
        """How many worlds of `per_world` simulations the next batch may hold, 0 when the
        budget is spent: a few to learn the pace, then each batch BATCH_SHARE of the time
        left (`share`) at the pace of the batch before. A batch's fixed cost makes a small batch's
        pace slower than a larger one's, so the batches grow quickly and the last one ends
        near the budget, rarely beyond it."""
        if self.budget.iterations is not None:
            left = self.budget.iterations - self.done
            return 0 if left <= 0 else max(1, min(MAX_BATCH, left // per_world))
        clocks = self._readings()
        last_clocks, last_done = self._last_batch or (clocks, 0)
        self._last_batch = (clocks, self.done)
        if not self.done:
            return FIRST_BATCH if min(left for left, _ in clocks) > 0 else 0
        simulations = self.done - last_done
        share = BATCH_SHARE if share is None else share
        worlds = min(int(share * left / (used - used_before) * simulations / per_world)
                     if used > used_before else MAX_BATCH
                     for (left, used), (_, used_before) in zip(clocks, last_clocks))
        return max(0, min(MAX_BATCH, worlds))


def margin(scores: Sequence[float], seat: int, against_best: float = 0.0) -> float:
    """How far `seat` is ahead, higher being better (negate penalties first).

    Its score less the others' mean, blended with its lead over the best of the
    others by the weight `against_best`: what an opponent loses helps a seat
    too, but where only first place counts the leading rival matters most.
    """
    mine = scores[seat]
    others = [score for other, score in enumerate(scores) if other != seat]
    over_mean = mine - sum(others) / len(others)
    if not against_best:
        return over_mean
    return (1 - against_best) * over_mean + against_best * (mine - max(others))


# A batched search's first batch only measures the pace; no batch outgrows the memory of
# a few megabytes of arrays. A search that may settle takes smaller batches, so it can stop
# with much of its budget left.
FIRST_BATCH = 4
MAX_BATCH = 2048
BATCH_SHARE = 0.8
SETTLING_BATCH_SHARE = 0.3
# Whether a decision is settled is judged after SETTLE_FIRST rounds (too few to estimate
# the noise before), then each time the rounds have grown by a quarter.
SETTLE_FIRST = 16
SETTLE_GROWTH = 1.25


@dataclass
class Problem(Generic[Candidate]):
    """One decision as a game poses it to the search.

    `candidates` come in the game's order of preference: ties go to the
    earliest. `deal(rng)` returns a world consistent with the seat's view;
    `simulate(candidate, world, rng)` plays the candidate out in that world
    without changing it and returns its value for the seat (higher is better,
    usually a `margin`). With `certain`, the view fixes the world, so one round
    values every candidate exactly. With `halving`, the weaker half of the
    candidates is dropped after that many rounds, again after twice as many,
    and so on: the budget goes to the close contests.
    """

    candidates: Sequence[Candidate]
    deal: Callable[[random.Random], Any]
    simulate: Callable[[Candidate, Any, random.Random], float]
    certain: bool = False
    halving: int | None = None


@dataclass
class Batched(Generic[Candidate]):
    """A decision whose simulator runs on arrays: `deal(rng, count)` returns `count` worlds
    consistent with the seat's view, and `values(worlds)` every candidate's value in each of
    them, one line a candidate (each candidate played out in every world: common random
    numbers)."""

    candidates: Sequence[Candidate]
    deal: Callable[[random.Random, int], Any]
    values: Callable[[Any], Any]


@dataclass
class Appraisal(Generic[Candidate]):
    """A decision posed for its analysis: the problem of the game's strongest search with
    every legal action a candidate, `candidate_of[i]` the index of the candidate that
    legal action i is (actions the game knows to do the same share one)."""

    problem: Problem[Candidate] | Batched[Candidate]
    candidate_of: Sequence[int]


@dataclass(frozen=True)
class Estimate:
    """A candidate's mean simulated value, the standard error of that mean, and how many
    simulations it rests on."""

    mean: float
    error: float
    count: int


class _Tally:
    """Each candidate's simulations so far: their count, sum and sum of squares."""

    def __init__(self, size: int):
        self.counts = [0] * size
        self.totals = [0.0] * size
        self.squares = [0.0] * size

    def add(self, index: int, value: float, count: int = 1, square: float | None = None) -> None:
        self.counts[index] += count
        self.totals[index] += value
        self.squares[index] += value * value if square is None else square

    def mean(self, index: int) -> float:
        count = self.counts[index]
        return self.totals[index] / count if count else float("-inf")

    def estimate(self, index: int) -> Estimate:
        count = self.counts[index]
        if count < 2:
            return Estimate(self.mean(index) if count else 0.0, 0.0, count)
        mean = self.totals[index] / count
        variance = max(0.0, (self.squares[index] - count * mean * mean) / (count - 1))
        return Estimate(mean, math.sqrt(variance / count), count)


def search(problem: Problem[Candidate] | Batched[Candidate], clock: Clock, rng: random.Random,
           fallback: Callable[[], Candidate]) -> Candidate:
    """The candidate with the best mean simulated value; `fallback()` when the
    budget allowed not one simulation."""
    candidates = problem.candidates
    if len(candidates) == 1:
        return candidates[0]
    tally, alive = _simulate(problem, clock, rng, rounds_at_least=0, settle=clock.settles)
    if not any(tally.counts):
        return fallback()
    # Ties go to the earliest candidate, so the game's order decides, not chance.
    return candidates[max(alive, key=lambda i: (tally.mean(i), -i))]


def evaluate(problem: Problem[Candidate] | Batched[Candidate], clock: Clock,
             rng: random.Random, rounds_at_least: int = 2) -> list[Estimate]:
    """Every candidate's estimate, in the order of `problem.candidates`: the loop of `search`
    without halving, so each candidate meets every deal, and at least `rounds_at_least` deals
    (one where the view fixes the world) whatever the budget."""
    if isinstance(problem, Problem):
        problem = replace(problem, halving=None)
        if problem.certain:
            rounds_at_least = 1
    tally, _ = _simulate(problem, clock, rng, rounds_at_least)
    return [tally.estimate(index) for index in range(len(problem.candidates))]


def _simulate(problem: Problem[Candidate] | Batched[Candidate], clock: Clock,
              rng: random.Random, rounds_at_least: int,
              settle: float | None = None) -> tuple[_Tally, list[int]]:
    """Play the candidates out on shared deals until the clock stops (after at least
    `rounds_at_least` deals) or, given `settle`, the decision is settled at that many standard
    errors: the tally, and the candidates still in the running."""
    if isinstance(problem, Batched):
        return _simulate_batched(problem, clock, rng, rounds_at_least, settle)
    candidates = problem.candidates
    tally = _Tally(len(candidates))
    alive = list(range(len(candidates)))
    rounds, cut = 0, problem.halving
    # Each candidate's value in every round it was played, while the decision may settle.
    played: list[list[float]] = [[] for _ in candidates]
    check = SETTLE_FIRST

    def more() -> bool:
        return rounds < rounds_at_least or clock.more()

    while more():
        world = problem.deal(rng)
        stream = rng.getrandbits(64)
        for index in alive:
            if not more():
                break
            value = problem.simulate(candidates[index], world, random.Random(stream))
            tally.add(index, value)
            if settle:
                played[index].append(value)
            clock.tick()
        rounds += 1
        if problem.certain and tally.counts[alive[-1]]:
            break
        if rounds == cut and len(alive) > 2:
            alive = sorted(sorted(alive, key=lambda i: (-tally.mean(i), i))[:(len(alive) + 1) // 2])
            cut *= 2
        if settle and rounds >= check and tally.counts[alive[-1]] == rounds:
            # Every candidate still in the running met each of these rounds' deals.
            if _settled(np.array([played[index] for index in alive]), settle):
                break
            check = math.ceil(rounds * SETTLE_GROWTH)
    return tally, alive


def _settled(values: np.ndarray, settle: float) -> bool:
    """Whether the best candidate (a row of `values`, one column a shared deal; ties to the
    first) leads every other by `settle` standard errors of their paired difference, or plays
    exactly as it does in every deal so far (the tie would go its way)."""
    best = int(np.argmax(values.sum(axis=1)))
    differences = np.delete(values[best] - values, best, axis=0)
    count = differences.shape[1]
    means = differences.mean(axis=1)
    errors = differences.std(axis=1, ddof=1) / math.sqrt(count)
    return bool(np.all((means - settle * errors > 0) | ~differences.any(axis=1)))


def _simulate_batched(problem: Batched[Candidate], clock: Clock, rng: random.Random,
                      rounds_at_least: int, settle: float | None = None
                      ) -> tuple[_Tally, list[int]]:
    candidates = problem.candidates
    tally = _Tally(len(candidates))
    # The sums of each pair of candidates' products over the worlds: the paired differences'
    # spread, without keeping every world's values.
    products = np.zeros((len(candidates), len(candidates)))
    share = SETTLING_BATCH_SHARE if settle else BATCH_SHARE
    while worlds := (clock.batch(len(candidates), share)
                     or max(0, rounds_at_least - tally.counts[0])):
        values = np.asarray(problem.values(problem.deal(rng, worlds)), dtype=float)
        for index, (total, square) in enumerate(zip(values.sum(axis=1).tolist(),
                                                     (values * values).sum(axis=1).tolist())):
            tally.add(index, total, worlds, square)
        clock.tick(worlds * len(candidates))
        if settle:
            products += values @ values.T
            if tally.counts[0] >= SETTLE_FIRST and _settled_sums(
                    np.array(tally.totals), products, tally.counts[0], settle):
                break
    # Every candidate met every world: the best total is the best mean.
    return tally, list(range(len(candidates)))


def _settled_sums(totals: np.ndarray, products: np.ndarray, count: int, settle: float) -> bool:
    """`_settled` from the candidates' totals and the sums of their pairwise products over
    `count` worlds."""
    best = int(np.argmax(totals))
    squares = np.diag(products)
    # Each other candidate's sum of squared differences from the best, and their mean.
    spread = np.delete(squares[best] + squares - 2 * products[best], best)
    means = np.delete(totals[best] - totals, best) / count
    # A difference the floating sums leave is no difference: those two play alike.
    alike = spread <= 1e-9 * (np.delete(squares, best) + squares[best] + 1)
    variances = np.maximum(spread - count * means * means, 0.0) / (count - 1)
    return bool(np.all((means - settle * np.sqrt(variances / count) > 0) | alike))
