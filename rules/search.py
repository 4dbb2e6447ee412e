"""Shared parts of the search bots: the thinking budget and flat Monte Carlo.

Every game's medium and hard bots search the same way at heart: sample a full
position consistent with what the seat's view shows (a determinization), try a
candidate action in it, play on with a fast policy, and score the result
relative to the opponents. The game supplies the simulation; this module
spends the budget fairly over the candidates and picks the best mean.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

Candidate = TypeVar("Candidate")


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: CPU seconds, or exactly `iterations` simulations.

    An iteration count makes a search deterministic given its random source,
    which tests rely on; seconds are what players get.
    """

    seconds: float | None = None
    iterations: int | None = None


DEFAULT_BUDGETS = {
    "easy": Budget(iterations=0),
    "medium": Budget(seconds=0.2),
    "hard": Budget(seconds=1.0),
}


class Clock:
    """Counts simulations against a Budget, reading the CPU clock sparingly."""

    def __init__(self, budget: Budget):
        self.budget = budget
        self.started = time.process_time()
        self.done = 0

    def more(self) -> bool:
        if self.budget.iterations is not None:
            return self.done < self.budget.iterations
        return time.process_time() - self.started < self.budget.seconds

    def tick(self) -> None:
        self.done += 1


def flat_monte_carlo(candidates: Sequence[Candidate],
                     simulate: Callable[[Candidate, random.Random], float],
                     budget: Budget, rng: random.Random) -> Candidate:
    """The candidate with the best mean simulated value; simulations go round-robin.

    `simulate(candidate, rng)` plays one sampled continuation and returns its
    value for the searching seat (higher is better).
    """
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    clock = Clock(budget)
    index = 0
    while clock.more():
        totals[index] += simulate(candidates[index], rng)
        counts[index] += 1
        clock.tick()
        index = (index + 1) % len(candidates)
    if not any(counts):
        return candidates[0]
    means = [totals[i] / counts[i] if counts[i] else float("-inf") for i in range(len(candidates))]
    best = max(means)
    # Ties go to the earliest candidate, so the order the game gives decides, not chance.
    return candidates[means.index(best)]
