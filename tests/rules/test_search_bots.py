"""The shared search loop every game's medium and hard bots call."""
import random
import time
from collections import Counter

import pytest

from rules.search import (FIRST_BATCH, MAX_BATCH, SETTLE_FIRST, SETTLED_AT, Batched, Budget, Clock,
                          Problem, margin, search)


def counting_problem(values, **options):
    """Candidates whose value is fixed, plus noise from the round's shared stream."""
    calls = Counter()

    def simulate(candidate, world, rng):
        calls[candidate] += 1
        return values[candidate] + world + rng.random()

    return Problem(list(values), lambda rng: rng.random(), simulate, **options), calls


def test_the_best_mean_wins_and_every_candidate_sees_the_same_rounds():
    problem, calls = counting_problem({"a": 0.0, "b": 0.3, "c": 0.1})
    assert search(problem, Clock(Budget(iterations=300)), random.Random(1), lambda: "a") == "b"
    assert calls == {"a": 100, "b": 100, "c": 100}


def test_common_random_numbers_let_a_tiny_edge_show():
    # The noise (world + stream) is shared by the candidates of a round, so an edge far
    # smaller than the noise still decides after a handful of rounds.
    problem, _ = counting_problem({"a": 0.0, "b": 0.001})
    assert search(problem, Clock(Budget(iterations=6)), random.Random(2), lambda: "a") == "b"


def test_ties_go_to_the_earliest_candidate():
    problem = Problem(["x", "y", "z"], lambda rng: None, lambda c, world, rng: 1.0)
    assert search(problem, Clock(Budget(iterations=30)), random.Random(3), lambda: "z") == "x"


def test_no_simulation_means_the_fallback_and_one_candidate_needs_none():
    problem, calls = counting_problem({"a": 0.0, "b": 1.0})
    assert search(problem, Clock(Budget(iterations=0)), random.Random(4), lambda: "a") == "a"
    single, single_calls = counting_problem({"only": 0.0})
    assert search(single, Clock(Budget(iterations=50)), random.Random(4), lambda: "x") == "only"
    assert not calls and not single_calls


def test_a_certain_world_is_valued_once():
    problem, calls = counting_problem({"a": 0.0, "b": 1.0, "c": 0.5}, certain=True)
    assert search(problem, Clock(Budget(iterations=300)), random.Random(5), lambda: "a") == "b"
    assert calls == {"a": 1, "b": 1, "c": 1}


def test_halving_spends_the_budget_on_the_close_contest():
    values = {name: value for name, value in zip("abcdefgh", (0, 5, 1, 4.9, 2, 0.5, 3, 1.5))}
    problem, calls = counting_problem(values, halving=2)
    assert search(problem, Clock(Budget(iterations=200)), random.Random(6), lambda: "a") == "b"
    assert calls["b"] == calls["d"] > 4 * calls["a"]
    assert calls["a"] == 2  # dropped after the first two rounds


def test_a_time_budget_stops_the_search():
    problem = Problem(["a", "b"], lambda rng: None, lambda c, world, rng: 0.0)
    clock = Clock(Budget(seconds=0.02))
    search(problem, clock, random.Random(7), lambda: "a")
    assert clock.done > 0


def test_a_deadline_stops_the_search_on_the_wall_clock_with_cpu_seconds_left():
    """Simulations that wait (as a process the machine gives little CPU waits) spend wall
    time without CPU time: the deadline ends the search all the same."""
    def waiting(candidate, world, rng):
        time.sleep(0.005)
        return 0.0

    problem = Problem(["a", "b"], lambda rng: None, waiting)
    clock = Clock(Budget(seconds=60.0, deadline=time.monotonic() + 0.1))
    search(problem, clock, random.Random(8), lambda: "a")
    assert 0 < clock.done < 100, "twenty 5 ms waits fill 0.1 s; 60 s of CPU would be 12,000"
    late = Clock(Budget(seconds=60.0, deadline=time.monotonic() - 1))
    assert search(problem, late, random.Random(8), lambda: "b") == "b" and late.done == 0


def batched_problem(values, simulate_cost=0.0):
    """Candidates of fixed value plus each world's shared noise, dealt in batches."""
    batches = []

    def deal(rng, count):
        batches.append(count)
        return [rng.random() for _ in range(count)]

    def values_in(worlds):
        if simulate_cost:
            time.sleep(simulate_cost * len(worlds))
        return [[value + world for world in worlds] for value in values.values()]

    return Batched(list(values), deal, values_in), batches


def test_a_batched_search_keeps_the_best_total_and_counts_every_candidate_in_every_world():
    problem, batches = batched_problem({"a": 0.0, "b": 0.001, "c": -1.0})
    clock = Clock(Budget(iterations=300))
    assert search(problem, clock, random.Random(1), lambda: "a") == "b"
    assert sum(batches) == 100 and clock.done == 300
    ties, _ = batched_problem({"x": 1.0, "y": 1.0})
    assert search(ties, Clock(Budget(iterations=10)), random.Random(1), lambda: "y") == "x"
    none, untouched = batched_problem({"a": 0.0, "b": 1.0})
    assert search(none, Clock(Budget(iterations=0)), random.Random(1), lambda: "a") == "a"
    assert not untouched


def test_a_batched_search_learns_its_pace_then_ends_near_its_budget():
    """A few worlds first, then batches of half the time left: the search stops within a
    small batch of its budget, and no batch outgrows MAX_BATCH."""
    problem, batches = batched_problem({"a": 0.0, "b": 1.0})
    started = time.process_time()
    clock = Clock(Budget(seconds=0.05))
    spin = problem.values

    def busy(worlds):  # CPU time, which the budget counts
        until = time.process_time() + 0.0001 * len(worlds)
        while time.process_time() < until:
            pass
        return spin(worlds)

    problem.values = busy
    assert search(problem, clock, random.Random(2), lambda: "a") == "b"
    spent = time.process_time() - started
    assert 0.04 < spent < 0.06
    assert batches[0] < batches[1] and max(batches) <= MAX_BATCH and len(batches) < 30


def test_a_batched_search_stops_at_its_deadline_on_the_wall_clock():
    problem, batches = batched_problem({"a": 0.0, "b": 1.0}, simulate_cost=0.001)
    started = time.monotonic()
    clock = Clock(Budget(seconds=60.0, deadline=started + 0.1))
    search(problem, clock, random.Random(3), lambda: "a")
    # At the deadline, not at the budget's 60 s: the margin above it is for a loaded machine's
    # late wake from a batch's sleep; the worlds dealt say no batch ran past it.
    assert 0.08 < time.monotonic() - started < 0.5 and sum(batches) < 150


@pytest.mark.parametrize("scores, seat, against_best, expected", [
    ([10, 4, 6], 0, 0.0, 5.0),          # over the others' mean
    ([10, 4, 6], 0, 1.0, 4.0),          # over the best other
    ([10, 4, 6], 0, 0.5, 4.5),
    ([-3, -1, -8, -4], 1, 0.0, 4.0),    # negated penalties: fewer is better
    ([0, 3], 1, 1.0, 3.0),
])
def test_margin(scores, seat, against_best, expected):
    assert margin(scores, seat, against_best) == pytest.approx(expected)


def test_a_settled_decision_stops_long_before_its_budget():
    """b beats a by 1 in every deal: after the first rounds no simulation can change that."""
    problem, calls = counting_problem({"a": 0.0, "b": 1.0, "c": 0.5})
    started = time.process_time()
    clock = Clock(Budget(seconds=5.0, settled_at=SETTLED_AT))
    assert search(problem, clock, random.Random(9), lambda: "a") == "b"
    assert calls == {"a": SETTLE_FIRST, "b": SETTLE_FIRST, "c": SETTLE_FIRST}
    assert time.process_time() - started < 1.0


def test_a_close_contest_spends_its_whole_budget():
    """Each candidate's own noise hides an edge of 0.001: the search thinks to the end."""
    noise = random.Random(0)  # apart from the shared stream, so each candidate's own

    def simulate(candidate, world, rng):
        return {"a": 0.0, "b": 0.001}[candidate] + noise.random()

    problem = Problem(["a", "b"], lambda rng: None, simulate)
    started = time.process_time()
    clock = Clock(Budget(seconds=0.05, settled_at=SETTLED_AT))
    search(problem, clock, random.Random(10), lambda: "a")
    assert time.process_time() - started >= 0.05 and clock.done > 4 * SETTLE_FIRST


def test_candidates_that_play_alike_settle_on_the_earliest():
    problem = Problem(["x", "y"], lambda rng: None, lambda c, world, rng: rng.random())
    clock = Clock(Budget(seconds=5.0, settled_at=SETTLED_AT))
    assert search(problem, clock, random.Random(11), lambda: "y") == "x"
    assert clock.done == 2 * SETTLE_FIRST


def test_an_iteration_count_never_settles():
    problem, calls = counting_problem({"a": 0.0, "b": 1.0})
    clock = Clock(Budget(iterations=300, settled_at=SETTLED_AT))
    assert search(problem, clock, random.Random(12), lambda: "a") == "b"
    assert calls == {"a": 150, "b": 150}


def test_a_batched_search_settles_too_and_only_when_settled():
    clear, batches = batched_problem({"a": 0.0, "b": 1.0, "c": -1.0})
    started = time.process_time()
    assert search(clear, Clock(Budget(seconds=5.0, settled_at=SETTLED_AT)), random.Random(13),
                  lambda: "a") == "b"
    assert time.process_time() - started < 1.0 and sum(batches) <= FIRST_BATCH + MAX_BATCH

    noise = random.Random(0)

    def noisy(worlds):  # each candidate's own noise hides b's edge of 0.001
        return [[value + noise.random() for _ in worlds] for value in (0.0, 0.001)]

    close = Batched(["a", "b"], lambda rng, count: [None] * count, noisy)
    started = time.process_time()
    search(close, Clock(Budget(seconds=0.05, settled_at=SETTLED_AT)), random.Random(14),
           lambda: "a")
    assert time.process_time() - started >= 0.05
