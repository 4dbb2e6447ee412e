"""Sixty-six: properties over whole random matches (2-4 players, both presets)."""
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from rules.base import DEALT, IllegalAction
from rules.sixtysix import GAME
from rules.sixtysix.cards import DECK_24, DECK_32, POINTS, STRENGTH, SUIT

SEED_BASE = 7_000_000_000  # large seeds, so a leak is recognisable in view text


def options_for(players, preset, small_deck):
    raw = {"preset": preset}
    if players == 2 and small_deck:
        raw["deck"] = 24
    return GAME.normalise_options(players, raw)


def choose(state, seat, rng):
    """Half the time the easy bot, otherwise random play that declares only rarely, so
    hands also run out of cards."""
    legal = GAME.legal_actions(state, seat)
    if rng.random() < 0.5:
        return GAME.bot_action(GAME.view(state, seat), legal, "easy", rng)
    quiet = [a for a in legal if a["type"] != "declare"]
    return rng.choice(quiet if quiet and rng.random() > 0.05 else legal)


def play_match(players, preset, small_deck, seed, rng, check=None, round_trip=False):
    state = GAME.new_game(players, options_for(players, preset, small_deck), SEED_BASE + seed,
                          recording=True)
    actions = []
    while GAME.outcome(state) is None:
        assert len(GAME.to_act(state)) == 1
        seat = GAME.to_act(state)[0]
        action = choose(state, seat, rng)
        before = json.loads(json.dumps(state))
        GAME.apply_action(state, seat, action)
        actions.append((seat, action))
        if check:
            check(before, seat, action, state)
        if round_trip:
            state = json.loads(json.dumps(state))
        assert len(actions) < 5000
    return state, actions


def full_deck(state):
    size = state["deck_size"]
    return Counter(DECK_32 if size == 32 else DECK_24 * (size // 24))


def all_cards(state):
    cards = sum(state["hands"], []) + state["stock"] + [c for _, c in state["trick"]]
    return Counter(cards + sum(state["taken"], []))


def strict_oracle(hand, trick, trump):
    """The four steps of the rule book, written out independently."""
    led = SUIT[trick[0][1]]
    best = trick[0][1]
    for _, card in trick[1:]:
        if (SUIT[card] == SUIT[best] and STRENGTH[card] > STRENGTH[best]) or \
                (SUIT[card] == trump and SUIT[best] != trump):
            best = card
    same = [c for c in hand if SUIT[c] == led]
    head = [c for c in same if SUIT[best] == led and STRENGTH[c] > STRENGTH[best]]
    if head:
        return set(head)
    if same:
        return set(same)
    over = [c for c in hand if SUIT[c] == trump and
            (SUIT[best] != trump or STRENGTH[c] > STRENGTH[best])]
    return set(over or hand)


games = st.tuples(st.sampled_from([2, 3, 4]), st.sampled_from(["seed", "classic"]),
                  st.booleans(), st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(games)
def test_cards_conserved_and_card_points_add_up(game):
    players, preset, small_deck, seed = game
    def check(before, seat, action, after):
        assert all_cards(after) == full_deck(after)
        if after["deal"] == before["deal"] and not after["over"]:
            return
        last = after["last_hand"]
        if action["type"] == "declare":
            return
        # The hand ended with its last trick: every hand card was played.
        sides = range(len(before["points"]))  # seat s < sides belongs to side s
        side_points = [last["points"][s] for s in sides]
        tricks_now = [last["tricks"][s] for s in sides]
        marriages = sum(p for m_seat, _, p, _ in before["marriages"]
                        if tricks_now[GAME.side(before, m_seat)] > 0)
        left_over = sum(POINTS[c] for c in before["stock"])
        bonus = 0 if before["closed_by"] is not None else 10
        deck_points = 240 if before["deck_size"] == 48 else 120
        assert sum(side_points) == deck_points - left_over + bonus + marriages
        if before["closed_by"] is None and before["players"] != 3:
            assert sum(side_points) - marriages == (250 if players == 4 else 130)

    play_match(players, preset, small_deck, seed, random.Random(seed), check)


@settings(max_examples=40, deadline=None)
@given(games)
def test_scores_are_the_sum_of_hand_results_and_each_result_follows_the_rules(game):
    players, preset, small_deck, seed = game

    def check(before, seat, action, after):
        if after["deal"] == before["deal"] and not after["over"]:
            return
        gains = after[DEALT][before["deal"] - 1]["scores"]
        carry = before["carry"]
        assert gains == after["last_hand"]["game_points"]
        if any(gains):
            assert after["carry"] == 0
            assert {g for g in gains if g} <= {1 + carry, 2 + carry, 3 + carry}
        else:
            assert after["carry"] == carry + 1
            assert after["last_hand"]["ended_by"] == "cards_out"
        if players == 4:
            assert gains[0] == gains[2] and gains[1] == gains[3]

    state, _ = play_match(players, preset, small_deck, seed, random.Random(seed), check)
    outcome = GAME.outcome(state)
    totals = [sum(deal["scores"][s] for deal in GAME.record(state)["deals"]) for s in range(players)]
    assert outcome["scores"] == totals
    assert max(totals) >= state["options"]["match_points"]
    assert outcome["winners"] == [s for s in range(players) if totals[s] == max(totals)]


@settings(max_examples=30, deadline=None)
@given(games)
def test_strict_play_follows_head_and_trump(game):
    players, preset, small_deck, seed = game
    strict_seen = []

    def check(before, seat, action, after):
        if not after["trick"] or after["over"]:
            return
        turn = after["turn"]
        if GAME.stock_open(after):
            expected = set(after["hands"][turn])
        else:
            expected = strict_oracle(after["hands"][turn], after["trick"], after["trump"])
            strict_seen.append(1)
        legal = GAME.legal_actions(after, turn)
        assert {a["type"] for a in legal} == {"play"}
        cards = [a["card"] for a in legal]
        assert len(cards) == len(set(cards)) and set(cards) == expected

    play_match(players, preset, small_deck, seed, random.Random(seed), check)


def hidden_shuffled(state, seat, rng):
    """The same position with every card `seat` cannot see dealt differently."""
    twin = json.loads(json.dumps(state))
    others = [s for s in range(state["players"]) if s != seat]
    pool = sum((twin["hands"][s] for s in others), []) + twin["stock"][:-1]
    rng.shuffle(pool)
    for s in others:
        size = len(twin["hands"][s])
        twin["hands"][s], pool = pool[:size], pool[size:]
    if twin["stock"]:
        twin["stock"][:-1] = pool
    twin["seed"] = state["seed"] + 1
    return twin


@settings(max_examples=25, deadline=None)
@given(games)
def test_views_depend_only_on_what_the_seat_may_see(game):
    players, preset, small_deck, seed = game
    rng = random.Random(seed)

    def check(before, seat, action, after):
        for viewer in [None] + list(range(players)):
            view = GAME.view(after, viewer)
            assert GAME.view(hidden_shuffled(after, viewer, rng), viewer) == view
            assert str(after["seed"]) not in json.dumps(view)
            if viewer is not None:
                assert Counter(view["hand"]) == Counter(after["hands"][viewer])
            # The listed tricks are exactly the cards taken this hand, by the right sides.
            played = view["table"]["played"]
            assert Counter(p["card"] for t in played for p in t["cards"]) == \
                Counter(c for taken in after["taken"] for c in taken)
            assert [sum(1 for t in played if view["table"]["side_of"][t["winner"]] == side)
                    for side in range(len(after["tricks"]))] == after["tricks"]

    play_match(players, preset, small_deck, seed, random.Random(seed), check)


@settings(max_examples=25, deadline=None)
@given(games)
def test_json_round_trip_at_every_step_changes_nothing(game):
    players, preset, small_deck, seed = game
    plain, _ = play_match(players, preset, small_deck, seed, random.Random(seed))
    trip, _ = play_match(players, preset, small_deck, seed, random.Random(seed), round_trip=True)
    assert GAME.outcome(trip) == GAME.outcome(plain)
    assert GAME.record(trip) == GAME.record(plain)


@settings(max_examples=25, deadline=None)
@given(games)
def test_replaying_the_seed_and_actions_gives_the_same_record(game):
    players, preset, small_deck, seed = game
    first, actions = play_match(players, preset, small_deck, seed, random.Random(seed))
    replay = GAME.new_game(players, first["options"], first["seed"], recording=True)
    for seat, action in actions:
        GAME.apply_action(replay, seat, action)
    assert GAME.record(replay) == GAME.record(first)
    for deal in GAME.record(first)["deals"]:
        assert len(deal["stock"]) + sum(len(h) for h in deal["hands"]) == first["deck_size"]


@settings(max_examples=25, deadline=None)
@given(games)
def test_illegal_actions_are_rejected_without_change(game):
    players, preset, small_deck, seed = game
    rng = random.Random(seed)
    probes = [{"type": "play", "card": c} for c in DECK_32] + [
        {"type": t} for t in ("close", "declare", "exchange")] + [
        {"type": "marry", "card": c} for c in ("KH", "QS")] + [{"type": "declare", "card": "KD"}]

    def check(before, seat, action, after):
        if after["over"]:
            return
        turn = after["turn"]
        legal = GAME.legal_actions(after, turn)
        for probe in rng.sample(probes, 6):
            if probe in legal:
                continue
            text = json.dumps(after, sort_keys=True)
            with pytest.raises(IllegalAction):
                GAME.apply_action(after, turn, probe)
            assert json.dumps(after, sort_keys=True) == text
        other = (turn + 1) % players
        with pytest.raises(IllegalAction, match="not to act"):
            GAME.apply_action(after, other, legal[0])

    play_match(players, preset, small_deck, seed, rng, check)


@settings(max_examples=40, deadline=None)
@given(games)
def test_easy_bot_always_returns_a_legal_action(game):
    players, preset, small_deck, seed = game
    rng = random.Random(seed)

    def check(before, seat, action, after):
        if after["over"]:
            return
        turn = after["turn"]
        legal = GAME.legal_actions(after, turn)
        assert GAME.bot_action(GAME.view(after, turn), legal, "easy", rng) in legal

    play_match(players, preset, small_deck, seed, rng, check)


def test_easy_bot_beats_random_play():
    wins = 0
    for seed in range(40):
        state = GAME.new_game(2, GAME.normalise_options(2, {}), seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            if seat == seed % 2:
                action = GAME.bot_action(GAME.view(state, seat), legal, "easy", rng)
            else:
                action = rng.choice(legal)
            GAME.apply_action(state, seat, action)
        wins += (seed % 2) in GAME.outcome(state)["winners"]
    assert wins >= 36
