"""Sixty-six medium and hard bots: legal, view-only, on budget, deterministic, and a
simulator that agrees with game.py."""
import copy
import random
import time

import pytest

from rules.search import Budget
from rules.sixtysix import GAME
from rules.sixtysix.search import (CODE, NAME, Endgame, Knowledge, apply, legal_actions,
                                   score)

VARIANTS = [(2, "seed", 32), (2, "seed", 24), (2, "classic", 24), (3, "seed", 32),
            (3, "classic", 32), (4, "seed", 32), (4, "classic", 32)]
FEW = Budget(iterations=12)


def new_match(players, preset, deck, seed, match_points=7):
    raw = {"preset": preset, "match_points": match_points}
    if players == 2 and preset == "seed":
        raw["deck"] = deck
    return GAME.new_game(players, GAME.normalise_options(players, raw), seed)


def positions(players, preset, deck, seed, every=3):
    """(state, seat) snapshots along a match played by easy bots and random moves."""
    rng = random.Random(seed)
    state = new_match(players, preset, deck, seed)
    step = 0
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        if step % every == 0:
            yield copy.deepcopy(state), seat
        step += 1
        if rng.random() < 0.6:
            action = GAME.bot_action(GAME.view(state, seat), legal, "easy", rng)
        else:
            action = rng.choice([a for a in legal if a["type"] != "declare"] or legal)
        GAME.apply_action(state, seat, action)


def to_dict(action):
    kind, card = action
    return {"type": kind} if card is None else {"type": kind, "card": NAME[card]}


def simulated(state, seat):
    """The search's Position built from the full state, with the hidden cards as they are."""
    legal = GAME.legal_actions(state, seat)
    knowledge = Knowledge(GAME.view(state, seat), legal)
    hands = [[CODE[c] for c in hand] for hand in state["hands"]]
    position = knowledge.position(hands, [CODE[c] for c in state["stock"]], 0)
    # Neither is in a seat's view: the opponents' card points, and when the stock was closed.
    position.points = list(state["points"])
    position.closed_tricks = state["closed_tricks"] and tuple(state["closed_tricks"])
    return position


def same_position(position, state):
    assert position.turn == state["turn"]
    assert position.points == state["points"]
    assert position.tricks == state["tricks"]
    assert [sorted(h) for h in position.hands] == [sorted(CODE[c] for c in h) for h in state["hands"]]
    assert sorted(to_dict(a)["type"] + to_dict(a).get("card", "") for a in legal_actions(position)) == \
        sorted(a["type"] + a.get("card", "") for a in GAME.legal_actions(state, state["turn"]))


@pytest.mark.parametrize("players,preset,deck", VARIANTS)
def test_the_simulator_plays_by_the_rules_of_game_py(players, preset, deck):
    rng = random.Random(players * 100 + deck)
    checked = 0
    for state, seat in positions(players, preset, deck, seed=11 + players, every=4):
        position = simulated(state, seat)
        deal = state["deal"]
        while state["deal"] == deal and GAME.outcome(state) is None:
            same_position(position, state)
            action = rng.choice(legal_actions(position))
            GAME.apply_action(state, state["turn"], to_dict(action))
            apply(position, action)
            checked += 1
        hand = state["last_hand"]
        gains = [hand["game_points"][s] for s in range(position.sides)]
        assert position.gains == gains
    assert checked > 100


def brute_force(position, side):
    """Plain minimax over every legal action, for checking the pruned solver."""
    if position.gains is not None:
        return score(position, side)
    values = []
    for action in legal_actions(position):
        child = position.copy()
        apply(child, action)
        values.append(brute_force(child, side))
    return max(values) if position.side(position.turn) == side else min(values)


@pytest.mark.parametrize("preset,deck", [("seed", 32), ("classic", 24)])
def test_the_endgame_solver_finds_the_minimax_value(preset, deck):
    compared = 0
    for seed in range(40):
        for state, seat in positions(2, preset, deck, seed, every=1):
            if state["closed_by"] is None and len(state["stock"]) >= 2 or len(state["hands"][seat]) > 4:
                continue
            position = simulated(state, seat)
            for side in (0, 1):
                assert Endgame(position, side).value(position) == brute_force(position, side)
            compared += 1
    assert compared > 100


def test_deals_keep_to_what_the_view_shows():
    state = new_match(2, "seed", 32, 5)
    # Seat 1 has led a spade into a closed stock; we learn what seat 0 can deal for it.
    state["hands"] = [["AH", "10H", "KH", "QH", "JH", "9H"], ["QS", "JS", "9S", "AC", "10C", "KC"]]
    state["closed_by"], state["closed_tricks"], state["trump"] = 1, [0, 0], "D"
    state["trick"], state["turn"], state["leader"] = [[0, "AS"]], 1, 0
    state["hands"][0].remove("AH")
    knowledge = Knowledge(GAME.view(state, 1), GAME.legal_actions(state, 1))
    rng = random.Random(3)
    for _ in range(200):
        position = knowledge.deal(rng)
        assert sorted(position.hands[1]) == sorted(CODE[c] for c in state["hands"][1])
        assert len(position.hands[0]) == 5 and CODE["AS"] not in position.hands[0]
    # Seat 0 discarded a heart on a spade lead in strict play: no spades and no trumps.
    state["hands"] = [["AH", "10H", "KH", "QH", "JH"], ["JS", "9S", "AC", "10C", "KC"]]
    state["trick"], state["last_trick"] = [], [1, [[1, "QS"], [0, "9H"]]]
    state["leader"] = state["turn"] = state["just_won"] = 1
    state["tricks"], state["points"] = [0, 1], [0, 3]
    knowledge = Knowledge(GAME.view(state, 1), GAME.legal_actions(state, 1))
    for _ in range(200):
        hand = knowledge.deal(rng).hands[0]
        assert len(hand) == 5 and all(NAME[c][-1] not in "SD" for c in hand)


def test_a_correct_declaration_is_made_at_once():
    for state, seat in positions(2, "seed", 32, 3, every=1):
        legal = GAME.legal_actions(state, seat)
        if {"type": "declare"} in legal and state["points"][seat] >= 66:
            for level in ("medium", "hard"):
                assert GAME.bot_action(GAME.view(state, seat), legal, level, random.Random(1),
                                       FEW) == {"type": "declare"}
            return
    pytest.fail("no declaration came up")


@pytest.mark.parametrize("players,preset,deck", VARIANTS)
def test_search_bots_choose_legal_actions(players, preset, deck):
    for index, (state, seat) in enumerate(positions(players, preset, deck, seed=players + deck, every=5)):
        legal = GAME.legal_actions(state, seat)
        for level in ("medium", "hard"):
            action = GAME.bot_action(GAME.view(state, seat), legal, level, random.Random(index), FEW)
            assert action in legal


def hidden_swap(state, seat):
    """The same state with cards the seat cannot see exchanged: between two other hands,
    or between another hand and the face-down stock."""
    other = copy.deepcopy(state)
    others = [s for s in range(state["players"]) if s != seat and other["hands"][s]]
    face_down = len(other["stock"]) - 1 if GAME.stock_open(other) else 0
    if not others:
        return None
    first = other["hands"][others[0]]
    if len(others) > 1:
        second = other["hands"][others[1]]
        first[0], second[-1] = second[-1], first[0]
    elif face_down > 0:
        first[0], other["stock"][0] = other["stock"][0], first[0]
    else:
        return None
    return other


@pytest.mark.parametrize("players,preset,deck", [(2, "seed", 32), (2, "classic", 24), (3, "seed", 32),
                                                 (4, "classic", 32)])
def test_the_search_reads_only_the_view(players, preset, deck):
    compared = 0
    for index, (state, seat) in enumerate(positions(players, preset, deck, seed=40 + players, every=7)):
        other = hidden_swap(state, seat)
        if other is None or other["hands"] == state["hands"]:
            continue
        assert GAME.view(other, seat) == GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        for level in ("medium", "hard"):
            decisions = [GAME.bot_action(GAME.view(s, seat), legal, level, random.Random(index),
                                         Budget(iterations=30)) for s in (state, other)]
            assert decisions[0] == decisions[1]
        compared += 1
    assert compared >= 5


def test_an_iteration_budget_makes_the_choice_repeatable():
    choices = []
    for players, preset, deck in VARIANTS:
        for index, (state, seat) in enumerate(positions(players, preset, deck, seed=7, every=9)):
            view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
            first = GAME.bot_action(view, legal, "hard", random.Random(index), Budget(iterations=40))
            again = GAME.bot_action(view, legal, "hard", random.Random(index), Budget(iterations=40))
            assert first == again
            choices.append(first)
    assert len({str(c) for c in choices}) > 5


@pytest.mark.parametrize("players,preset,deck", [(2, "seed", 32), (2, "classic", 24), (3, "seed", 32),
                                                 (4, "seed", 32)])
def test_the_time_budget_is_kept(players, preset, deck):
    measured = 0
    for index, (state, seat) in enumerate(positions(players, preset, deck, seed=9, every=11)):
        legal = GAME.legal_actions(state, seat)
        if len(legal) < 2 or measured == 3:
            continue
        started = time.process_time()
        GAME.bot_action(GAME.view(state, seat), legal, "hard", random.Random(index), Budget(seconds=0.2))
        assert time.process_time() - started <= 0.22
        measured += 1
    assert measured == 3


def test_deals_remove_every_played_card_and_use_old_strict_tricks():
    """Seat 1 has seen the whole hand: a card played three tricks ago is never dealt,
    and a void shown in an early strict trick still holds."""
    state = new_match(2, "seed", 32, 5)
    state["trump"], state["stock"] = "D", ["8D", "7D", "9C", "AD"]
    state["hands"] = [["AH", "10H", "KH", "QC", "JC", "8C"], ["QS", "JS", "9S", "AC", "10C", "KC"]]
    GAME.apply_action(state, 0, {"type": "close"})
    for seat, card in ((0, "8C"), (1, "AC"), (1, "QS"), (0, "KH")):
        GAME.apply_action(state, seat, {"type": "play", "card": card})
    # Seat 0 discarded a heart on a spade in strict play: no spades and no trumps; the
    # next trick hides that trick from last_trick.
    for seat, card in ((1, "JS"), (0, "10H")):
        GAME.apply_action(state, seat, {"type": "play", "card": card})
    assert GAME.view(state, 1)["table"]["last_trick"]["cards"][0]["card"] == "JS"
    knowledge = Knowledge(GAME.view(state, 1), GAME.legal_actions(state, 1))
    played = {CODE[c] for c in ("8C", "AC", "QS", "KH", "JS", "10H")}
    rng = random.Random(4)
    for _ in range(100):
        position = knowledge.deal(rng)
        hand = position.hands[0]
        assert len(hand) == 3 and not played & set(hand)
        assert all(NAME[c][-1] not in "SD" for c in hand)
        assert not played & set(position.stock)
        # Every side's card points follow from the listed tricks.
        assert position.points == list(state["points"])
        assert position.closed_tricks == (0, 0)


def test_two_players_know_the_opponents_hand_once_the_stock_is_exhausted():
    checked = 0
    for seed in range(6):
        for state, seat in positions(2, "classic", 24, seed, every=1):
            if GAME.stock_open(state) or state["closed_by"] is not None:
                continue
            knowledge = Knowledge(GAME.view(state, seat), GAME.legal_actions(state, seat))
            position = knowledge.deal(random.Random(seed))
            assert [sorted(h) for h in position.hands] == \
                [sorted(CODE[c] for c in h) for h in state["hands"]]
            assert position.points == state["points"]
            checked += 1
    assert checked > 20


def test_known_cards_go_to_the_seat_that_holds_them():
    """The card taken by the trump exchange is dealt to the exchanger until played."""
    for seed in range(30):
        for state, seat in positions(2, "classic", 24, seed, every=1):
            exchange = state.get("exchange")
            if not exchange or exchange[0] == seat or exchange[2] not in state["hands"][exchange[0]]:
                continue
            knowledge = Knowledge(GAME.view(state, seat), GAME.legal_actions(state, seat))
            for index in range(10):
                assert CODE[exchange[2]] in knowledge.deal(random.Random(index)).hands[exchange[0]]
            return
    pytest.fail("no exchange came up")
