"""6 nimmt! medium and hard bots: legal, blind to hidden cards, on budget, deterministic,
and built on a compact simulator that agrees with game.py."""
import copy
import random
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rules.search import Budget
from rules.sixnimmt import GAME
from rules.sixnimmt.game import HAND_SIZE
from rules.sixnimmt.bots import Seen, caution
from rules.sixnimmt.game import default_row
from rules.sixnimmt.search import (OPPONENT_WEIGHTS, Rows, baseline, card_features,
                                   card_problem, fitted_opponents, play_out, play_out_batch,
                                   play_turn)

SEARCHERS = ("medium", "hard")
VARIANTS = ({}, {"tactical_deck": True}, {"draft": True}, {"tactical_deck": True, "draft": True})
FEW = Budget(iterations=40)


def random_position(players, options, seed, phase=None):
    """A position after some random moves; with `phase`, the first one then in that phase."""
    rng = random.Random(seed)
    state = GAME.new_game(players, GAME.normalise_options(players, options), seed)
    steps = rng.randrange(0, 60)
    while GAME.outcome(state) is None and (steps > 0 or phase not in (None, state["phase"])):
        seat = rng.choice(GAME.to_act(state))
        GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        steps -= 1
    return state


def positions(count):
    for index in range(count):
        players = 2 + index % 9
        state = random_position(players, VARIANTS[index % len(VARIANTS)], index)
        if GAME.outcome(state) is None:
            yield state


def decide(state, seat, level, seed, budget=FEW):
    return GAME.bot_action(GAME.view(state, seat), GAME.legal_actions(state, seat), level,
                           random.Random(seed), budget)


# --- the simulator against game.py ---------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_the_simulator_places_every_turn_as_the_rules_do(seed):
    rng = random.Random(seed)
    players = 2 + seed % 9
    state = GAME.new_game(players, GAME.normalise_options(players, VARIANTS[seed % 4]), seed)
    turns = 0
    while GAME.outcome(state) is None:
        if state["phase"] != "choose":
            seat = GAME.to_act(state)[0]
            GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            continue
        rows = Rows.of(state["rows"])
        penalties = list(state["round_penalties"])
        cards = [rng.choice(hand) for hand in state["hands"]]
        low_row = rng.randrange(4)
        for seat, card in enumerate(cards):
            GAME.apply_action(state, seat, {"type": "play", "card": card})
        assert (state["phase"] == "take_row") == (rows.target(min(cards)) < 0)
        if state["phase"] == "take_row":
            GAME.apply_action(state, state["row_chooser"], {"type": "take_row", "row": low_row})
        play_turn(rows, cards, penalties, low_row)
        placed = state["last_turn"]
        if state["turn"] > 1:
            after = Rows.of(state["rows"])
            assert (after.ends, after.lengths, after.heads) == (rows.ends, rows.lengths, rows.heads)
            assert penalties == state["round_penalties"]
        else:  # the turn ended the round: its penalties are on record, the rows dealt anew
            assert penalties == state["round_scores"][-1]
        assert sorted(entry["card"] for entry in placed) == sorted(cards)
        turns += 1
    assert turns >= HAND_SIZE


@pytest.mark.parametrize("seed", range(12))
def test_a_rollout_plays_a_whole_round_as_the_rules_do(seed):
    """play_out, the rollouts' inner loop, against game.py with the rules' default row."""
    rng = random.Random(seed)
    players = 2 + seed % 9
    state = GAME.new_game(players, GAME.normalise_options(players, VARIANTS[seed % 2]), seed)
    orders = [rng.sample(hand, len(hand)) for hand in state["hands"]]
    penalties = [0] * players
    play_out(Rows.of(state["rows"]), orders, penalties)
    for turn in range(HAND_SIZE):
        for seat in range(players):
            GAME.apply_action(state, seat, {"type": "play", "card": orders[seat][turn]})
        if state["phase"] == "take_row":
            GAME.apply_action(state, state["row_chooser"],
                              {"type": "take_row", "row": default_row(state["rows"])})
    assert state["round_scores"][-1] == penalties
    assert any(penalties)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 10), st.integers(1, HAND_SIZE), st.lists(st.integers(1, 5), min_size=4,
       max_size=4), st.integers(1, 8), st.randoms(use_true_random=False))
def test_a_batch_of_rollouts_plays_each_deal_as_one_rollout_does(players, turns, lengths,
                                                                 worlds, rng):
    """play_out_batch, hard's rollouts on arrays, against play_out on every deal of a batch:
    rows of any length, cards too low for every row, any number of turns left."""
    deck = rng.sample(range(1, 105), 104)
    rows = [sorted(deck.pop() for _ in range(length)) for length in lengths]
    turns = min(turns, len(deck) // players)
    shuffled = [rng.sample(deck, len(deck)) for _ in range(worlds)]
    deals = [[cards[seat * turns:(seat + 1) * turns] for seat in range(players)]
             for cards in shuffled]
    expected = []
    for orders in deals:
        penalties = [0] * players
        play_out(Rows.of(rows), orders, penalties)
        expected.append(penalties)
    assert play_out_batch(Rows.of(rows), np.array(deals)).tolist() == expected


def test_every_true_deal_is_one_the_search_may_sample():
    """The unseen pool holds every card the opponents really have; own cards are exact."""
    for state in positions(200):
        for seat in GAME.to_act(state):
            view = GAME.view(state, seat)
            known = Seen.of(view)
            own = sorted(state["hands"][seat] + [c for c in [state["chosen"][seat]] if c])
            assert sorted(known.own) == own
            truth = {s: state["hands"][s] + [c for c in [state["chosen"][s]] if c]
                     for s in range(state["players"]) if s != seat}
            for other, cards in truth.items():
                assert set(cards) <= set(known.unseen)
            # The search may name itself seat 0 while choosing; seats are alike then.
            sizes = sorted(len(cards) for cards in truth.values())
            assert sizes == sorted(n for s, n in enumerate(known.cards_each) if s != known.me)
            assert len(known.own) == known.cards_each[known.me]
            assert len(known.unseen) >= sum(sizes)


def test_no_card_played_this_round_is_dealt_to_an_opponent():
    """Every card of this round that was face up is out of the pool, not only the last turn's."""
    for state in positions(200):
        if state["phase"] == "draft" or state["turn"] < 3:
            continue
        for seat in GAME.to_act(state):
            known = Seen.of(GAME.view(state, seat))
            face_up = {card for entry in state["played"] for card in [entry["card"], *entry["took"]]}
            assert face_up and not face_up & set(known.unseen)


def test_hard_deals_each_opponent_this_turns_card_as_often_as_the_fitted_model_says():
    """Hard's deals put each opponent's card of this turn first, drawn with the fitted
    conditional logit's chances (OPPONENT_WEIGHTS over card_features and the card's place
    in its hand); medium's leave it to chance."""
    state = random_position(4, {}, 3, phase="choose")
    while state["turn"] < 5:  # six cards a hand
        for seat in range(4):
            GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
        if state["phase"] == "take_row":
            GAME.apply_action(state, state["row_chooser"], {"type": "take_row", "row": 0})
    seen = Seen.of(GAME.view(state, 0))
    cards = [action["card"] for action in GAME.legal_actions(state, 0)]
    size = seen.cards_each[1]
    features = card_features(seen, np.array(seen.unseen))
    logit = dict(zip(seen.unseen, features @ np.array(OPPONENT_WEIGHTS[:-1])))
    rng = random.Random(5)
    for model in (fitted_opponents, None):
        hands, own = card_problem(seen, cards, model).deal(rng, 3000)
        assert all(sorted(order) == sorted(seen.own) for order in own.tolist())
        # By the model's order of each hand, likeliest first: how often each place was dealt
        # first, against the model's chances (or a uniform draw's) summed over the hands.
        dealt, expected = np.zeros(size), np.zeros(size)
        for world in hands.tolist():
            assert not set().union(*world) - set(seen.unseen)
            assert len(set().union(*world)) == 3 * size
            for hand in world:
                places = {card: place for place, card in enumerate(sorted(hand))}
                scores = np.array([logit[card] + OPPONENT_WEIGHTS[-1] * places[card] / (size - 1)
                                   for card in hand])
                order = np.argsort(-scores)
                chances = np.exp(scores - scores.max())
                chances = chances / chances.sum() if model else np.full(size, 1 / size)
                dealt[list(order).index(0)] += 1
                expected += chances[order]
        assert np.abs(dealt - expected).max() / dealt.sum() < 0.02
        if model:  # far enough from a uniform draw for the test to tell them apart
            assert np.abs(expected / dealt.sum() - 1 / size).max() > 0.06


def test_the_models_risk_is_easys_expected_penalty():
    """The first of the model's features is easy's own estimate of what a card costs this turn."""
    for seed in range(20):
        state = random_position(2 + seed % 9, {}, seed, phase="choose")
        if GAME.outcome(state) is not None:
            continue
        seen = Seen.of(GAME.view(state, 0))
        hidden = seen.unseen + seen.own
        risk = card_features(seen, np.array(seen.hand))[:, 0]
        easy = [caution(card, seen.rows, seen.row_bullheads, hidden, seen.players - 1)[0]
                for card in seen.hand]
        assert risk == pytest.approx(easy)


def last_two_turns_with_every_card_known():
    """Two players, the tactical deck (24 cards), turn 9: everything but the opponent's
    21 and 22 has been seen. Playing 20 now and 6 next costs nothing; 6 now fills row 0,
    and 20 must then take it. Both are safe this turn."""
    state = GAME.new_game(2, GAME.normalise_options(2, {"tactical_deck": True}), 1)
    state["turn"] = HAND_SIZE - 1
    state["rows"] = [[1, 2, 3, 5], [23], [24], [17, 18, 19]]
    state["hands"] = [[6, 20], [21, 22]]
    state["played"] = [{"turn": 1 + index // 2, "seat": index % 2, "card": card, "row": 0,
                        "took": []} for index, card in enumerate([4, *range(7, 17)])]
    return state


def test_the_baseline_plays_the_whole_round_out():
    state = last_two_turns_with_every_card_known()
    known = Seen.of(GAME.view(state, 0))
    assert sorted(known.unseen) == [21, 22]
    for seed in range(5):
        assert baseline(GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(seed),
                        Budget()) == {"type": "play", "card": 20}


# --- the bots --------------------------------------------------------------------------

@pytest.mark.parametrize("level", SEARCHERS)
def test_search_bots_choose_legal_actions_in_every_variant(level):
    checked = set()
    for state in positions(150):
        for seat in GAME.to_act(state):
            legal = GAME.legal_actions(state, seat)
            assert decide(state, seat, level, seat) in legal
            checked.add((state["players"], state["phase"]))
    assert {phase for _, phase in checked} == {"choose", "take_row", "draft"}
    assert {players for players, _ in checked} == set(range(2, 11))


def swap_hidden_cards(state, seat, rng):
    """The same position for `seat` with other opponents' cards and stock."""
    other = copy.deepcopy(state)
    opponents = [s for s in range(other["players"]) if s != seat]
    pool = [card for s in opponents for card in other["hands"][s]] + other["unused"]
    rng.shuffle(pool)
    for s in opponents:
        size = len(other["hands"][s])
        other["hands"][s], pool = sorted(pool[:size]), pool[size:]
    other["unused"] = pool
    return other


@pytest.mark.parametrize("phase", ["choose", "take_row", "draft"])
def test_decisions_depend_only_on_the_view(phase):
    compared = 0
    for seed in range(40):
        players = 3 + seed % 6
        state = random_position(players, {"draft": phase == "draft"}, seed, phase)
        if state["phase"] != phase:
            continue
        seat = GAME.to_act(state)[0]
        other = swap_hidden_cards(state, seat, random.Random(seed))
        if other["hands"] == state["hands"]:
            continue  # too few hidden cards left to tell the two apart
        assert GAME.view(other, seat) == GAME.view(state, seat)
        for level in SEARCHERS:
            assert decide(other, seat, level, seed) == decide(state, seat, level, seed)
        compared += 1
    assert compared >= 10


def test_an_iteration_budget_makes_decisions_repeatable_and_the_seed_matters():
    differ = 0
    for state in positions(60):
        seat = GAME.to_act(state)[0]
        first = decide(state, seat, "hard", 7, Budget(iterations=30))
        assert decide(state, seat, "hard", 7, Budget(iterations=30)) == first
        differ += decide(state, seat, "hard", 8, Budget(iterations=30)) != first
    assert differ > 0


@pytest.mark.parametrize("players, options", [(4, {}), (10, {}), (10, {"draft": True})])
def test_a_time_budget_is_kept(players, options):
    budget = Budget(seconds=0.2)
    for seed in range(3):
        state = random_position(players, options, seed, "draft" if options else None)
        seat = GAME.to_act(state)[0]
        started = time.process_time()
        decide(state, seat, "medium", seed, budget)
        assert time.process_time() - started <= 0.22


def test_search_avoids_a_full_row_and_takes_the_cheap_row():
    state = GAME.new_game(4, GAME.normalise_options(4, {}), 1)
    state["turn"] = HAND_SIZE - 1
    # 56 now would be the sixth card of row 0 (11 bullheads); after 103 it may be spared.
    state["rows"] = [[51, 52, 53, 54, 55], [60], [70], [80]]
    state["hands"] = [[56, 103], [2, 57], [3, 58], [4, 59]]
    assert decide(state, 0, "hard", 1, Budget(iterations=400)) == {"type": "play", "card": 103}

    state["turn"] = HAND_SIZE
    state["rows"] = [[10, 20, 30], [40], [50, 55], [66, 77]]
    state["hands"] = [[1], [97], [98], [99]]
    for seat in range(4):
        GAME.apply_action(state, seat, {"type": "play", "card": state["hands"][seat][0]})
    assert state["phase"] == "take_row"
    # Row 1 costs 3 bullheads, the others 9 or 10, and no later card depends on the choice.
    assert decide(state, 0, "hard", 1, Budget(iterations=400)) == {"type": "take_row", "row": 1}


# --- the benchmark-only baseline --------------------------------------------------------

def test_the_baseline_is_for_benchmarks_only_and_plays_legal_actions():
    assert "baseline" not in {level.name for level in GAME.bot_levels}
    for state in positions(40):
        for seat in GAME.to_act(state):
            legal = GAME.legal_actions(state, seat)
            assert baseline(GAME.view(state, seat), legal, random.Random(seat), Budget()) in legal


def test_the_baseline_dodges_a_full_row_this_turn():
    state = GAME.new_game(4, GAME.normalise_options(4, {}), 1)
    state["turn"] = HAND_SIZE - 1
    state["rows"] = [[51, 52, 53, 54, 55], [60], [70], [80]]
    state["hands"] = [[56, 103], [2, 57], [3, 58], [4, 59]]
    view = GAME.view(state, 0)
    assert baseline(view, GAME.legal_actions(state, 0), random.Random(1), Budget()) == {
        "type": "play", "card": 103}
