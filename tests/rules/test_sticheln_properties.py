"""Sticheln: properties of random games over every player count and variant combination."""
from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings, strategies as st

from rules.sticheln import GAME
from rules.sticheln.cards import CARD_NAMES, COLORS, deck_for

NAMES = ("reverse", "mild", "tough", "dark", "late")
COMBINATIONS = [combo for combo in
                ({name: bool(mask >> i & 1) for i, name in enumerate(NAMES)} for mask in range(32))
                if not (combo["late"] and combo["dark"])]

# Every string of a view as JSON writes it (card names hold no quote).
QUOTED = re.compile(r'"([^"]*)"')
games = st.tuples(st.integers(3, 8), st.sampled_from(COMBINATIONS), st.integers(0, 2**31))


def expected_deal_scores(previous: dict, options: dict) -> list[int]:
    """The rule book's definition, written out independently of the rules module."""
    scores = []
    for seat, won in enumerate(previous["won"]):
        if options["late"]:
            named = previous["named"][seat] or []
        else:
            named = {card // 21 for card in previous["pain"][seat]}
        total = 0
        for card in previous["pain"][seat] + won:
            value = card % 21
            if card // 21 in named:
                worth = 5 if options["mild"] else value
                total += worth if options["reverse"] else -worth
            else:
                total += -1 if options["reverse"] else 1
        scores.append(total)
    return scores


def secret_names(state: dict, seat: int, viewer) -> list[str]:
    """Names of cards that `viewer` must not find as a string anywhere in his view."""
    hidden = [CARD_NAMES[card] for card in state["hands"][seat]]
    secret_pain = state["phase"] == "choose" or (state["phase"] == "play"
                                                 and state["options"]["dark"])
    if secret_pain:
        hidden += [CARD_NAMES[card] for card in state["pain"][seat]]
    return hidden


def check_views(state: dict) -> None:
    players = state["players"]
    for viewer in list(range(players)) + [None]:
        view = GAME.view(state, viewer)
        whole = json.dumps(view)
        assert "seed" not in whole and str(state["seed"]) not in whole
        table = view["table"]
        # the finished deal used the same deck, so its cards are searched for apart
        previous = table.pop("previous_deal")
        quoted = set(QUOTED.findall(json.dumps(view)))
        if previous is not None:
            assert previous["scores"] == state["deal_scores"][-1]
        for seat in range(players):
            if seat == viewer:
                continue
            for name in secret_names(state, seat, viewer):
                assert name not in quoted, (viewer, seat, name)
            phase, options = state["phase"], state["options"]
            if phase == "name" or (phase == "choose" and not options["late"]):
                assert table["pain_colors"][seat] is None
            if phase in ("choose", "name") or (options["dark"] and phase == "play"):
                assert table["pain"][seat] == [] and table["deal_score"][seat] is None
        if viewer is not None:
            assert view["hand"] == [CARD_NAMES[c] for c in sorted(state["hands"][viewer])]


def check_cards(state: dict) -> None:
    where = state["leftover"] + [card for _, card in state["trick"]]
    for seat in range(state["players"]):
        where += state["hands"][seat] + state["pain"][seat] + state["won"][seat]
    assert sorted(where) == deck_for(state["players"])


def play_random_game(players, options, seed, on_step=None, bot_seats=(), round_trip=False):
    """Play to the end with random (or easy-bot) seats; returns the final state and action log."""
    state = GAME.new_game(players, GAME.normalise_options(players, options), seed,
                          recording=True)
    rng = random.Random(seed)
    log = []
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        if seat in bot_seats:
            action = GAME.bot_action(GAME.view(state, seat), legal, "easy", rng)
            assert action in legal
        else:
            action = rng.choice(legal)
        GAME.apply_action(state, seat, action)
        log.append((seat, action))
        if round_trip:
            state = json.loads(json.dumps(state))
        if on_step:
            on_step(state)
    return state, log


@settings(max_examples=30, deadline=None)
@given(games)
def test_cards_are_conserved_and_views_keep_secrets(game):
    players, combo, seed = game
    seed += 10**12  # long enough not to turn up in a view by chance
    finished = []

    def on_step(state):
        check_cards(state)
        check_views(state)
        if len(state["deal_scores"]) > len(finished):
            finished.append(state["deal_scores"][-1])
            expected = expected_deal_scores(state["previous"], state["options"])
            assert state["deal_scores"][-1] == expected
            won = sum(len(cards) for cards in state["previous"]["won"])
            assert won == players * state["tricks_per_deal"]

    state, _ = play_random_game(players, dict(combo, deals=2), seed, on_step)
    assert len(finished) == 2
    assert state["scores"] == [sum(row[s] for row in finished) for s in range(players)]
    outcome = GAME.outcome(state)
    best = max(state["scores"])
    assert outcome["winners"] == [s for s in range(players) if state["scores"][s] == best]


@settings(max_examples=15, deadline=None)
@given(games)
def test_json_round_trip_at_every_step_changes_nothing(game):
    players, combo, seed = game
    plain, log = play_random_game(players, combo, seed, bot_seats=(0,))
    tripped, tripped_log = play_random_game(players, combo, seed, bot_seats=(0,), round_trip=True)
    assert len(tripped["deal_scores"]) == 5
    assert tripped_log == log
    assert json.dumps(tripped, sort_keys=True) == json.dumps(plain, sort_keys=True)


@settings(max_examples=30, deadline=None)
@given(games)
def test_game_replays_exactly_from_seed_and_actions(game):
    players, combo, seed = game
    state, log = play_random_game(players, dict(combo, deals=2), seed)
    record = GAME.record(state)
    replay = GAME.new_game(players, GAME.normalise_options(players, dict(combo, deals=2)), seed,
                           recording=True)
    dealt = []
    for seat, action in log:
        if not dealt or dealt[-1][0] != replay["deal"]:
            dealt.append((replay["deal"], [[CARD_NAMES[c] for c in h] for h in replay["hands"]]))
        GAME.apply_action(replay, seat, action)
    assert GAME.record(replay) == record
    assert [hands for _, hands in dealt] == [deal["hands"] for deal in record["deals"]]
    assert [deal["scores"] for deal in record["deals"]] == replay["deal_scores"]
    for deal in record["deals"]:
        cards = sorted(sum(deal["hands"], []) + deal["leftover"])
        assert cards == sorted(CARD_NAMES[c] for c in deck_for(players))


@settings(max_examples=40, deadline=None)
@given(games)
def test_easy_bot_always_returns_a_legal_action(game):
    players, combo, seed = game
    state, _ = play_random_game(players, dict(combo, deals=1), seed,
                                bot_seats=range(0, players, 2))
    assert GAME.outcome(state) is not None


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([combo for combo in COMBINATIONS if combo["late"]]), st.integers(0, 2**31))
def test_name_phase_only_asks_seats_that_won_cards(combo, seed):
    state = GAME.new_game(3, GAME.normalise_options(3, dict(combo, deals=1)), seed)
    while state["phase"] == "play":
        seat = GAME.to_act(state)[0]
        GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
    assert GAME.to_act(state) == [s for s in range(3) if state["won"][s]]
    for seat in GAME.to_act(state):
        colours = {COLORS[c // 21] for c in state["won"][seat]}
        for action in GAME.legal_actions(state, seat):
            assert set(action.get("colors", [action.get("color")])) <= colours
