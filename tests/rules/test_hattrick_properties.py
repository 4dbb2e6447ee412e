"""Hattrick properties over random whole games for 4-7 players."""
import json
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from rules.base import IllegalAction
from rules.hattrick import GAME
from rules.hattrick.game import COLOUR_OF, COLOURS, deck_for

players_st = st.integers(min_value=4, max_value=7)
seed_st = st.integers(min_value=10**12, max_value=10**15)
choice_st = st.integers(min_value=0, max_value=2**32)


def new(players, seed, deals):
    return GAME.new_game(players, GAME.normalise_options(players, {"deals": deals}), seed,
                         recording=True)


def cards_on_table(state):
    """Every card of the current deal, wherever it is now."""
    cards = [card for hand in state["hands"] for card in hand]
    cards += [card for piles in state["piles"] for pile in piles for card in pile]
    cards += [card for passed in state["passed"] for card in passed]
    cards += [card for _seat, card, passed in state["trick"] if not passed]
    return cards


def expected_score(piles: dict, passed: list) -> int:
    counts = [len(piles[colour]) for colour in COLOURS]
    return max(counts) - (sum(counts) - max(counts)) - 2 * len(passed)


def check_view_privacy(state):
    seed = str(state["seed"])
    for viewer in [None, *range(state["players"])]:
        view = GAME.view(state, viewer)
        # The finished deal's cards are public and are dealt again in the new deal.
        view["table"].pop("previous_deal")
        text = json.dumps(view)
        assert seed not in text and '"seed"' not in text
        for seat, hand in enumerate(state["hands"]):
            if seat != viewer:
                for card in hand:
                    assert f'"{card}"' not in text, (viewer, seat, card)


def random_game(players, seed, choice, deals, every_step):
    rng = random.Random(choice)
    state = new(players, seed, deals)
    actions = []
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = rng.choice(legal)
        every_step(state, seat, legal, action)
        GAME.apply_action(state, seat, action)
        actions.append((seat, action))
    return state, actions


@settings(max_examples=150, deadline=None)
@given(players_st, seed_st, choice_st)
def test_cards_are_conserved_and_tricks_hold_at_most_two_colours(players, seed, choice):
    deck = Counter(deck_for(players))

    def check(state, seat, legal, action):
        assert Counter(cards_on_table(state)) == deck
        assert len({COLOUR_OF[card] for _s, card, passed in state["trick"] if not passed}) <= 2
        sizes = [len(hand) for hand in state["hands"]]
        acted = {s for s, _card, _passed in state["trick"]}
        assert len(acted) == len(state["trick"]) and seat not in acted
        assert all(sizes[s] == sizes[seat] - 1 for s in acted)
        assert all(sizes[s] == sizes[seat] for s in range(players) if s not in acted)
        assert sizes[seat] >= 2  # the last card is never played
        last = state["last_trick"]
        if last is not None:
            assert len(last["cards"]) == players and 1 <= len(last["taken"]) <= 2
            assert [entry["seat"] for entry in last["cards"]] == [
                (last["cards"][0]["seat"] + i) % players for i in range(players)]

    state, _ = random_game(players, seed, choice, 2, check)
    end = state["previous_deal"]
    final = [card for piles in end["piles"] for pile in piles.values() for card in pile]
    final += [card for passed in end["passed"] for card in passed] + end["set_aside"]
    assert Counter(final) == deck
    assert all(hand == [] for hand in state["hands"])


@settings(max_examples=150, deadline=None)
@given(players_st, seed_st, choice_st)
def test_legal_actions_are_exactly_the_allowed_moves(players, seed, choice):
    def check(state, seat, legal, action):
        hand = state["hands"][seat]
        colours = {COLOUR_OF[card] for _s, card, passed in state["trick"] if not passed}
        assert sorted(a["card"] for a in legal) == sorted(hand)
        for entry in legal:
            if len(colours) < 2:
                assert entry["type"] == "play"
            else:
                assert (entry["type"] == "play") == (COLOUR_OF[entry["card"]] in colours)
        other = next(s for s in range(players) if s != seat)
        before = json.dumps(state, sort_keys=True)
        for wrong in ({"type": "pass" if action["type"] == "play" else "play", "card": action["card"]},
                      {"type": "play", "card": state["hands"][other][0]}):
            try:
                GAME.apply_action(state, seat, wrong)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{wrong} was accepted")
        assert GAME.legal_actions(state, other) == []
        assert json.dumps(state, sort_keys=True) == before

    random_game(players, seed, choice, 1, check)


@settings(max_examples=100, deadline=None)
@given(players_st, seed_st, choice_st, st.integers(min_value=1, max_value=3))
def test_scores_equal_their_definition(players, seed, choice, deals):
    def check(state, seat, legal, action):
        view = GAME.view(state, None)
        table = view["table"]
        assert table["deal_scores"] == [expected_score(piles, passed)
                                        for piles, passed in zip(table["piles"], table["passed"])]
        assert view["scores"] == [sum(deal[s] for deal in table["sheet"]) for s in range(players)]
        end = table["previous_deal"]
        if end is not None:
            assert end["scores"] == [expected_score(piles, passed)
                                     for piles, passed in zip(end["piles"], end["passed"])]
            assert table["sheet"][-1] == end["scores"]

    state, _ = random_game(players, seed, choice, deals, check)
    outcome = GAME.outcome(state)
    assert len(state["sheet"]) == deals
    assert outcome["scores"] == [sum(deal[s] for deal in state["sheet"]) for s in range(players)]
    assert outcome["winners"] == [s for s, x in enumerate(outcome["scores"]) if x == max(outcome["scores"])]


@settings(max_examples=60, deadline=None)
@given(players_st, seed_st, choice_st)
def test_no_view_shows_another_hand_or_the_seed(players, seed, choice):
    def check(state, seat, legal, action):
        check_view_privacy(state)

    state, _ = random_game(players, seed, choice, 2, check)
    check_view_privacy(state)


@settings(max_examples=80, deadline=None)
@given(players_st, seed_st, choice_st)
def test_json_round_trip_at_every_step_and_replay_from_record(players, seed, choice):
    rng = random.Random(choice)
    state = new(players, seed, 2)
    actions = []
    dealt = []
    while GAME.outcome(state) is None:
        if not state["trick"] and all(len(h) == len(state["hands"][0]) for h in state["hands"]) \
                and len(state["hands"][0]) == len(deck_for(players)) // players:
            dealt.append([list(hand) for hand in state["hands"]])
        (seat,) = GAME.to_act(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        GAME.apply_action(state, seat, action)
        actions.append((seat, action))
        state = json.loads(json.dumps(state))
    record = GAME.record(state)
    assert record["seed"] == seed
    assert [deal["hands"] for deal in record["deals"]] == dealt
    assert [deal["scores"] for deal in record["deals"]] == state["sheet"]

    replay = new(players, record["seed"], 2)
    for seat, action in actions:
        GAME.apply_action(replay, seat, action)
    assert json.dumps(replay, sort_keys=True) == json.dumps(state, sort_keys=True)


@settings(max_examples=150, deadline=None)
@given(players_st, seed_st, choice_st)
def test_easy_bot_always_returns_a_legal_action(players, seed, choice):
    rng = random.Random(choice)
    state = new(players, seed, 1)
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        snapshot = json.dumps(view, sort_keys=True)
        action = GAME.bot_action(view, legal, "easy", random.Random(rng.random()))
        assert action in legal
        assert json.dumps(view, sort_keys=True) == snapshot
        # Mix bot and random moves so the bot meets many kinds of positions.
        GAME.apply_action(state, seat, action if rng.random() < 0.5 else rng.choice(legal))
