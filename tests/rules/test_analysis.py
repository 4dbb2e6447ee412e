"""The review of a finished game (rules/analysis.py): what it may read, and what its figures
must satisfy, in every game that can be analysed."""
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from rules import GAMES
from rules.analysis import (Record, analysable, as_json, deal_luck, evaluations, review,
                            weigh)
from rules.search import Budget, Clock, Problem, evaluate

ANALYSED = sorted(name for name, game in GAMES.items() if analysable(game))
QUICK = Budget(iterations=60)


def played(game, players, seed, levels, budget=Budget(iterations=40)):
    """A whole game of the game's quickest options played by `levels`, as a record."""
    options = game.normalise_options(players, game.quick_options)
    state = game.new_game(players, options, seed)
    rng = random.Random(seed)
    actions = []
    while game.outcome(state) is None:
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        action = game.bot_action(game.view(state, seat), legal, levels[seat], rng, budget)
        actions.append({"seat": seat, "action": action})
        game.apply_action(state, seat, action)
    return Record(players, options, seed, actions)


def state_at(game, record, step):
    state = game.new_game(record.players, record.options, record.seed)
    for entry in record.actions[:step]:
        game.apply_action(state, entry["seat"], entry["action"])
    return state


def dealt_anew(state, seat, rng):
    """The state with the cards `seat` cannot see dealt anew among the places it cannot see
    into, each keeping its size: the other hands, and 6 nimmt!'s unused cards or Sixty-six's
    stock under its face-up trump."""
    other = copy.deepcopy(state)
    places = [hand for index, hand in enumerate(other["hands"]) if index != seat]
    if other.get("unused"):
        places.append(other["unused"])
    if other.get("stock") and len(other["stock"]) > 1:
        places.append(other["stock"])
        hidden_stock = len(other["stock"]) - 1
    pool = []
    for place in places:
        size = hidden_stock if place is other.get("stock") else len(place)
        pool.extend(place[:size])
    rng.shuffle(pool)
    for place in places:
        size = hidden_stock if place is other.get("stock") else len(place)
        place[:size], pool = pool[:size], pool[size:]
        if place is not other.get("stock") and all(isinstance(card, int) for card in place):
            place.sort()
    return other


@pytest.mark.parametrize("name", ANALYSED)
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), moment=st.floats(0, 0.95), redeal=st.integers(0, 10**6))
def test_no_hidden_card_informs_the_analysis_of_a_decision(name, seed, moment, redeal):
    """Whatever the cards hidden from the seat, as long as its view is the same, its decision
    and its deal's luck are weighed the same, with the same seed."""
    game = GAMES[name]
    record = played(game, game.typical_players, seed, ["easy"] * game.typical_players)
    step = int(moment * len(record.actions))
    state, entry = state_at(game, record, step), record.actions[step]
    seat = entry["seat"]
    other = dealt_anew(state, seat, random.Random(redeal))
    assume(other != state)
    assume(game.view(other, seat) == game.view(state, seat))
    assume(game.legal_actions(other, seat) == game.legal_actions(state, seat))
    for reading in (weigh, deal_luck):
        arguments = ((step, seat, entry["action"]) if reading is weigh else (step, seat))
        assert (reading(game, state, *arguments, QUICK, seed)
                == reading(game, other, *arguments, QUICK, seed))


@pytest.mark.parametrize("name", ANALYSED)
def test_the_best_action_is_legal_no_loss_is_negative_and_a_forced_move_costs_nothing(name):
    game = GAMES[name]
    players = game.typical_players
    record = played(game, players, 11, ["easy"] * players)
    reviewed = review(game, record, QUICK, seed=3)
    assert [seat.seat for seat in reviewed.seats] == list(range(players))
    forced = 0
    for seat in reviewed.seats:
        for decision in seat.decisions:
            entry = record.actions[decision.step]
            legal = game.legal_actions(state_at(game, record, decision.step), entry["seat"])
            assert decision.seat == entry["seat"] == seat.seat
            assert decision.best in legal and decision.chosen in legal
            assert decision.loss >= 0 and decision.error >= 0
            if decision.forced:
                forced += 1
                assert decision.loss == 0 and decision.chosen == decision.best
                assert not decision.values
            else:
                assert [value.action for value in decision.values] == legal
                best = max(value.expected for value in decision.values)
                if reviewed.better == "lower":
                    best = min(value.expected for value in decision.values)
                shown = next(v.expected for v in decision.values if v.action == decision.best)
                assert shown == best
                chosen = next(v.expected for v in decision.values if v.action == decision.chosen)
                assert decision.loss == pytest.approx(abs(shown - chosen), abs=2e-4)
        assert seat.total_loss == pytest.approx(sum(d.loss for d in seat.decisions))
        assert len(seat.costliest) == min(3, len(seat.choices))
        assert [d.loss for d in seat.costliest] == sorted((d.loss for d in seat.choices),
                                                           reverse=True)[:3]
        assert len(seat.luck) == len({luck.deal for luck in seat.luck}) >= 1
    assert evaluations(game, record) == sum(len(s.choices) + len(s.luck)
                                            for s in reviewed.seats)
    published = json.loads(json.dumps(as_json(reviewed)))
    assert published["seats"][0]["decisions"][0]["step"] == reviewed.seats[0].decisions[0].step
    assert forced or name != "sixtysix"  # a two-player hand ends in moves with one card left


def test_a_review_is_reproducible_and_can_weigh_one_seat():
    game = GAMES["hattrick"]
    record = played(game, 4, 5, ["easy", "hard", "easy", "hard"])
    whole = review(game, record, QUICK, seed=1)
    assert review(game, record, QUICK, seed=1) == whole
    assert review(game, record, QUICK, seed=1, seats=[2]).seats == [whole.seats[2]]


def test_evaluate_weighs_every_candidate_on_the_same_deals_without_halving():
    noise = {}

    def simulate(candidate, world, rng):
        return candidate + world + rng.random()
    problem = Problem([0.0, 1.0, 2.0, 3.0], lambda rng: rng.gauss(0, 1), simulate, halving=1)
    estimates = evaluate(problem, Clock(Budget(iterations=400)), random.Random(4))
    assert [estimate.count for estimate in estimates] == [100] * 4
    assert [round(b.mean - a.mean, 9) for a, b in zip(estimates, estimates[1:])] == [1.0] * 3
    assert all(0.05 < estimate.error < 0.15 for estimate in estimates)
    starved = evaluate(problem, Clock(Budget(iterations=0)), random.Random(4))
    assert [estimate.count for estimate in starved] == [2] * 4
    certain = Problem(["a", "b"], lambda rng: noise, lambda c, world, rng: len(c), certain=True)
    assert [(e.mean, e.error, e.count) for e in
            evaluate(certain, Clock(Budget(iterations=100)), random.Random(1))] == [(1, 0, 1)] * 2


@pytest.mark.parametrize("name, games, iterations", [("sixnimmt", 8, 300), ("hattrick", 1, 200)])
def test_the_analysis_tells_the_hard_bot_from_the_easy_one(name, games, iterations):
    """Seats of easy and hard bots at one table: the easy ones lose more per decision."""
    game = GAMES[name]
    levels = ["easy", "hard", "easy", "hard"]
    lost = {"easy": [0.0, 0], "hard": [0.0, 0]}
    for seed in range(games):
        record = played(game, 4, 100 + seed, levels, Budget(iterations=iterations))
        for seat in review(game, record, Budget(iterations=iterations), seed=seed).seats:
            lost[levels[seat.seat]][0] += seat.total_loss
            lost[levels[seat.seat]][1] += len(seat.choices)
    easy, hard = (total / count for total, count in (lost["easy"], lost["hard"]))
    assert hard < 0.75 * easy
