"""Sticheln's events and changeable secret choices: what a phone may animate and log, and
nothing it may not know."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from rules.base import IllegalAction
from rules.sticheln import GAME
from rules.sticheln.cards import CARD_IDS, CARD_NAMES

VARIANTS = ("reverse", "mild", "tough", "dark", "late")
COMBINATIONS = [combo for combo in
                ({name: bool(mask >> i & 1) for i, name in enumerate(VARIANTS)} for mask in range(32))
                if not (combo["late"] and combo["dark"])]


def new(players: int = 3, seed: int = 7, **options) -> dict:
    return GAME.new_game(players, GAME.normalise_options(players, options), seed)


def ids(names: list[str]) -> list[int]:
    return sorted(CARD_IDS[name] for name in names)


def in_play(hands: list[list[str]], pain: list[list[str]], **options) -> dict:
    """Phase "play" with the given hands, pain cards already revealed, seat 0 to lead."""
    state = new(len(hands), **options)
    state.update(phase="play", hands=[ids(h) for h in hands], pain=[ids(p) for p in pain],
                 chosen=[True] * len(hands), leader=0, turn=0, trick=[])
    state["tricks_played"] = state["tricks_per_deal"] - len(hands[0])
    return state


def snapshot(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def visible(events: list[dict], seat) -> list[dict]:
    return [e for e in events if "to" not in e or seat in e["to"]]


# --- choosing, changing and revealing ---------------------------------------------------------
def test_a_choice_tells_everybody_who_chose_and_only_the_chooser_what():
    state = new(3)
    card = CARD_NAMES[state["hands"][1][0]]
    events = GAME.apply_action(state, 1, {"type": "choose_pain", "card": card})
    assert events == [{"type": "chose", "seat": 1, "phase": "choose", "changed": False},
                      {"type": "choice", "seat": 1, "cards": [card], "to": [1]}]
    assert card not in json.dumps(visible(events, 0))


def test_a_choice_can_be_changed_until_the_last_seat_has_chosen():
    state = new(3)
    first, second = (CARD_NAMES[c] for c in state["hands"][1][:2])
    GAME.apply_action(state, 1, {"type": "choose_pain", "card": first})
    assert GAME.to_act(state) == [0, 2]
    offered = [a["card"] for a in GAME.legal_actions(state, 1)]
    assert first not in offered and second in offered and len(offered) == 14
    for seat in (0, 2, None):
        table = GAME.view(state, seat)["table"]
        assert table["chosen"] == [False, True, False] and table["pain"][1] == []

    events = GAME.apply_action(state, 1, {"type": "choose_pain", "card": second})
    assert events == [{"type": "chose", "seat": 1, "phase": "choose", "changed": True},
                      {"type": "choice", "seat": 1, "cards": [second], "to": [1]}]
    assert first in GAME.view(state, 1)["hand"] and second not in GAME.view(state, 1)["hand"]
    assert GAME.view(state, 1)["table"]["pain"][1] == [second]
    assert GAME.to_act(state) == [0, 2]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="already your choice"):
        GAME.apply_action(state, 1, {"type": "choose_pain", "card": second})
    assert snapshot(state) == before

    GAME.apply_action(state, 0, GAME.legal_actions(state, 0)[0])
    last = GAME.legal_actions(state, 2)[0]["card"]
    events = GAME.apply_action(state, 2, {"type": "choose_pain", "card": last})
    assert events[2:] == [
        {"type": "all_chosen", "phase": "choose"},
        {"type": "revealed", "pain": [GAME.view(state, 0)["table"]["pain"][0], [second], [last]],
         "pain_colors": [[name.split("-")[0]] for name in
                         (GAME.view(state, 0)["table"]["pain"][0][0], second, last)]}]
    # Once all have chosen the choice is final.
    assert GAME.legal_actions(state, 1) == [] and GAME.to_act(state) == [0]
    with pytest.raises(IllegalAction, match="not to act"):
        GAME.apply_action(state, 1, {"type": "choose_pain", "card": first})


def test_tough_change_may_keep_one_of_the_two_cards():
    state = new(3, tough=True)
    state["hands"][0] = ids(["red-1", "red-2", "blue-3", "green-4"])
    GAME.apply_action(state, 0, {"type": "choose_pain", "cards": ["red-1", "blue-3"]})
    offered = [a["cards"] for a in GAME.legal_actions(state, 0)]
    assert ["blue-3", "red-1"] not in offered
    assert ["blue-3", "red-2"] in offered and ["red-1", "green-4"] in offered
    events = GAME.apply_action(state, 0, {"type": "choose_pain", "cards": ["green-4", "red-1"]})
    assert events[1] == {"type": "choice", "seat": 0, "cards": ["red-1", "green-4"], "to": [0]}
    assert GAME.view(state, 0)["hand"] == ["blue-3", "red-2"]


def test_dark_reveals_the_pain_cards_only_when_the_deal_ends():
    state = new(3, dark=True, deals=2)
    events = []
    for seat in range(3):
        events += GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
    pain = [list(GAME.view(state, s)["table"]["pain"][s]) for s in range(3)]
    assert events[-1] == {"type": "all_chosen", "phase": "choose"}
    assert not any(e["type"] == "revealed" for e in events)
    while state["deal"] == 1:
        events = GAME.apply_action(state, state["turn"], GAME.legal_actions(state, state["turn"])[0])
    kinds = [e["type"] for e in events]
    assert kinds == ["played", "trick_won", "revealed", "deal_end", "dealt"]
    assert events[2]["pain"] == pain


def test_late_naming_is_changeable_then_revealed_and_scored():
    state = new(3, late=True, deals=1)
    state.update(hands=[ids(["red-9"]), ids(["blue-0"]), ids(["green-0"])],
                 won=[ids(["red-2", "yellow-4"]), ids(["blue-6"]), []])
    state["tricks_played"] = state["tricks_per_deal"] - 1
    for card in ("red-9", "blue-0"):
        GAME.apply_action(state, state["turn"], {"type": "play", "card": card})
    assert GAME.apply_action(state, 2, {"type": "play", "card": "green-0"})[-1]["type"] == "trick_won"
    assert state["phase"] == "name"
    events = GAME.apply_action(state, 0, {"type": "name_pain", "color": "red"})
    assert events == [{"type": "chose", "seat": 0, "phase": "name", "changed": False},
                      {"type": "choice", "seat": 0, "colors": ["red"], "to": [0]}]
    assert {"type": "name_pain", "color": "red"} not in GAME.legal_actions(state, 0)
    assert {"type": "name_pain", "color": "yellow"} in GAME.legal_actions(state, 0)
    GAME.apply_action(state, 0, {"type": "name_pain", "color": "yellow"})
    assert GAME.view(state, 1)["table"]["pain_colors"][0] is None
    events = GAME.apply_action(state, 1, {"type": "name_pain", "color": "blue"})
    assert events[2:] == [
        {"type": "all_chosen", "phase": "name"},
        {"type": "revealed", "pain": [[], [], []], "pain_colors": [["yellow"], ["blue"], None]},
        {"type": "deal_end", "deal": 1, "scores": [4 - 4, -6 - 0, 0], "totals": [0, -6, 0]},
        {"type": "game_over", "scores": [0, -6, 0], "winners": [0, 2]}]


# --- playing and scoring ------------------------------------------------------------------------
def test_plays_and_the_trick_won_are_told_to_everybody():
    state = in_play([["red-3", "red-7"], ["blue-2", "blue-5"], ["red-9", "green-1"]],
                    [["yellow-1"], ["yellow-2"], ["yellow-3"]])
    assert GAME.apply_action(state, 0, {"type": "play", "card": "red-3"}) == [
        {"type": "played", "seat": 0, "card": "red-3", "led_color": "red", "trick": 13}]
    GAME.apply_action(state, 1, {"type": "play", "card": "blue-2"})
    assert GAME.apply_action(state, 2, {"type": "play", "card": "red-9"}) == [
        {"type": "played", "seat": 2, "card": "red-9", "led_color": "red", "trick": 13},
        {"type": "trick_won", "winner": 1, "trick": 13, "tricks_per_deal": 14,
         "cards": [{"seat": 0, "card": "red-3"}, {"seat": 1, "card": "blue-2"},
                   {"seat": 2, "card": "red-9"}]}]


def test_the_deal_end_tells_the_scores_and_the_new_deal_without_any_hand():
    state = in_play([["red-3"], ["blue-2"], ["red-9"], ["yellow-5"], ["brown-4"], ["blue-8"],
                     ["green-1"]], [["yellow-1"]] * 7, deals=2)
    events = []
    for card in ("red-3", "blue-2", "red-9", "yellow-5", "brown-4", "blue-8", "green-1"):
        events = GAME.apply_action(state, state["turn"], {"type": "play", "card": card})
    assert events[1]["winner"] == 5  # blue-8 is the highest trump
    # everybody's yellow-1 costs 1; seat 5 also took yellow-5 and six other cards
    scores = [-1, -1, -1, -1, -1, -1 - 5 + 6, -1]
    assert events[2:] == [
        {"type": "deal_end", "deal": 1, "scores": scores, "totals": scores},
        {"type": "dealt", "deal": 2, "dealer": 0, "leader": 1,
         "leftover": [CARD_NAMES[c] for c in state["leftover"]], "hand_size": 15}]
    assert len(events[-1]["leftover"]) == 3


# --- nothing leaks ----------------------------------------------------------------------------
def card_names_in(value) -> set[str]:
    if isinstance(value, str):
        return {value} if value in CARD_IDS else set()
    if isinstance(value, dict):
        return set().union(*(card_names_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_names_in(v) for v in value)) if value else set()
    return set()


def hidden_from(state: dict, seat: int, pain_secret: bool) -> set[str]:
    """Cards in the others' hands, and their put-down cards while those are secret."""
    hidden = set()
    for other in range(state["players"]):
        if other != seat:
            hidden |= {CARD_NAMES[c] for c in state["hands"][other]}
            if pain_secret:
                hidden |= {CARD_NAMES[c] for c in state["pain"][other]}
    return hidden


def pain_is_secret(state: dict) -> bool:
    return state["phase"] == "choose" or (state["phase"] == "play" and state["options"]["dark"])


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 8), st.sampled_from(COMBINATIONS), st.integers(0, 2**31))
def test_events_never_show_a_seat_a_card_it_could_not_know(players, combo, seed):
    seed += 10**12  # long enough not to turn up in an event by chance
    state = new(players, seed=seed, deals=2, **combo)
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state) + [s for s in range(players) if state["chosen"][s]
                                                  and GAME.legal_actions(state, s)])
        action = rng.choice(GAME.legal_actions(state, seat))
        deal, before = state["deal"], json.loads(json.dumps(state))
        events = GAME.apply_action(state, seat, action)
        text = json.dumps(events)
        assert json.loads(text) == events and str(seed) not in text
        assert all(isinstance(e["type"], str) for e in events)
        # Events up to a new deal belong to the old one: they may show the card just played
        # and, when the rules turn them up now, the put-down cards; nothing else held secret.
        split = next((i for i, e in enumerate(events) if e["type"] == "dealt"), len(events))
        reveal_now = not pain_is_secret(state) or state["deal"] != deal
        for viewer in range(players):
            old_hidden = hidden_from(before, viewer, pain_is_secret(before) and not reveal_now)
            if action["type"] == "play" or reveal_now:
                old_hidden -= card_names_in(action)
            for event in visible(events[:split], viewer):
                assert not card_names_in(event) & old_hidden, (viewer, event)
            new_hidden = hidden_from(state, viewer, pain_is_secret(state))
            for event in visible(events[split:], viewer):
                assert not card_names_in(event) & new_hidden, (viewer, event)
