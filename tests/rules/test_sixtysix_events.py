"""Sixty-six events: what each action reports, and that no seat learns a card early."""
import json
import random

from hypothesis import given, settings, strategies as st

from rules.sixtysix import GAME
from rules.sixtysix.cards import SUIT


def new(players=2, seed=1, **options):
    return GAME.new_game(players, GAME.normalise_options(players, options), seed)


def position(players=2, hands=(), stock=(), trump="S", leader=0, points=None, tricks=None,
             just_won=None, **options):
    """A constructed position in which seat `leader` is about to lead."""
    state = new(players, **options)
    sides = 2 if players == 4 else players
    state.update({
        "hands": [list(h) for h in hands], "stock": list(stock), "trump": trump,
        "leader": leader, "turn": leader, "trick": [], "just_won": just_won,
        "points": list(points or [0] * sides), "tricks": list(tricks or [0] * sides),
    })
    return state


def act(state, seat, **action):
    return GAME.apply_action(state, seat, action)


def visible_to(events, seat):
    return [e for e in events if "to" not in e or seat in e["to"]]


# --- scenarios ---------------------------------------------------------------------

def test_a_trick_reports_both_cards_the_winner_and_each_seat_its_own_draw():
    state = position(hands=[["AH", "7C"], ["10H", "8C"]], stock=["9D", "JD", "KD", "QS"])
    assert act(state, 0, type="play", card="AH") == [{"type": "played", "seat": 0, "card": "AH", "holder": 0}]
    events = act(state, 1, type="play", card="10H")
    assert events == [
        {"type": "played", "seat": 1, "card": "10H", "holder": 0},
        {"type": "trick", "winner": 0, "points": 21,
         "cards": [{"seat": 0, "card": "AH"}, {"seat": 1, "card": "10H"}]},
        {"type": "drew", "seat": 0, "card": "9D", "to": [0]},
        {"type": "drew", "seat": 1, "card": "JD", "to": [1]},
        {"type": "drawn", "order": [0, 1], "trump_card_to": None, "stock_size": 2,
         "set_aside": 0},
    ]
    assert "9D" not in json.dumps(visible_to(events, 1))
    assert "JD" not in json.dumps(visible_to(events, 0))


def test_drawing_the_face_up_trump_card_is_public():
    state = position(hands=[["7H", "7C"], ["10H", "8C"]], stock=["9D", "QS"])
    act(state, 0, type="play", card="7H")
    events = act(state, 1, type="play", card="10H")
    assert events[-1] == {"type": "drawn", "order": [1, 0], "trump_card_to": 0,
                          "stock_size": 0, "set_aside": 0}


def test_three_players_report_the_cards_set_aside():
    hands = [["AH", "7C"], ["7H", "8C"], ["8H", "9C"]]
    state = position(3, hands=hands, stock=["9D", "JD", "KD", "QS", "AS"])
    act(state, 0, type="play", card="AH")
    act(state, 1, type="play", card="7H")
    events = act(state, 2, type="play", card="8H")
    assert events[-1] == {"type": "drawn", "order": [0, 1, 2], "trump_card_to": None,
                          "stock_size": 0, "set_aside": 2}


def test_closing_is_public():
    state = position(hands=[["AH", "7C"], ["10H", "8C"]], stock=["9D", "JD", "QS"])
    assert act(state, 0, type="close") == [{"type": "closed", "seat": 0}]


def test_a_declaration_reports_the_result_then_the_new_deal_with_private_hands():
    state = position(hands=[["AH", "7C"], ["10H", "8C"]], stock=["9D", "JD", "QS"],
                     points=[70, 20], tricks=[3, 1], just_won=0)
    events = act(state, 0, type="declare")
    assert events[0] == {"type": "declared", "seat": 0, "suit": None}
    assert events[1] == {
        "type": "hand_over", "deal": 1, "ended_by": "declare", "declarer": 0, "correct": True,
        "closed_by": None, "points": [70, 20], "tricks": [3, 1], "game_points": [2, 0],
        "carried": 0, "reason": "correct declaration", "scores": [2, 0], "carry": 0}
    dealt, *hands = events[2:]
    assert dealt == {"type": "dealt", "deal": 2, "dealer": 0, "leader": 1,
                     "trump": state["trump"], "trump_card": state["stock"][-1], "stock_size": 20}
    assert hands == [{"type": "dealt_hand", "seat": seat, "to": [seat],
                      "cards": GAME.view(state, seat)["hand"]} for seat in (0, 1)]


def test_the_last_hand_ends_the_match():
    state = position(hands=[["AH", "7C"], ["10H", "8C"]], stock=["9D", "JD", "QS"],
                     points=[70, 20], tricks=[3, 1], just_won=0, match_points=2)
    events = act(state, 0, type="declare")
    assert [e["type"] for e in events] == ["declared", "hand_over", "match_over"]
    assert events[-1] == {"type": "match_over", "scores": [2, 0], "winners": [0]}


def test_running_out_of_cards_ends_the_hand_after_the_last_trick():
    state = position(hands=[["AH"], ["10H"]], points=[60, 40], tricks=[2, 2])
    act(state, 0, type="play", card="AH")
    events = act(state, 1, type="play", card="10H")
    assert [e["type"] for e in events][:4] == ["played", "trick", "hand_over", "dealt"]
    assert events[2]["ended_by"] == "cards_out" and events[2]["points"] == [91, 40]


def test_classic_marriage_exchange_and_declaring_with_a_marriage():
    hands = [["KH", "QH", "9S", "7C"], ["7H", "8C", "9C", "AH"]]
    state = position(hands=hands, stock=["9D", "JD", "AS"], tricks=[1, 0], points=[10, 0],
                     just_won=0, preset="classic")
    assert act(state, 0, type="exchange") == [
        {"type": "exchanged", "seat": 0, "gave": "9S", "took": "AS"}]
    events = act(state, 0, type="marry", card="QH")
    assert events == [
        {"type": "married", "seat": 0, "suit": "H", "cards": ["KH", "QH"], "points": 20,
         "counted": True},
        {"type": "played", "seat": 0, "card": "QH", "holder": 0}]

    declaring = position(hands=hands, stock=["9D", "JD", "AS"], tricks=[2, 0], points=[50, 0],
                         just_won=0, preset="classic")
    events = act(declaring, 0, type="declare", card="KH")
    assert events[0]["type"] == "married" and events[0]["points"] == 20
    assert events[1] == {"type": "declared", "seat": 0, "suit": "H"}
    assert events[2]["points"] == [70, 0] and events[2]["correct"] is True


# --- property: what each seat is told --------------------------------------------------

def cards_in(value):
    """Every card name anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value} if value in SUIT else set()
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values()))
    if isinstance(value, list):
        return set().union(*map(cards_in, value))
    return set()


def public_cards(state):
    """Cards every seat may know in the current hand: face-up, played or shown."""
    known = {c for _, c in state["trick"]}
    if GAME.stock_open(state):
        known.add(state["stock"][-1])
    for seat, suit, _, _ in state["marriages"]:
        known |= {"K" + suit, "Q" + suit}
    return known


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), preset=st.sampled_from(["seed", "classic"]),
       seed=st.integers(0, 10**6), match_points=st.integers(1, 3))
def test_events_never_show_a_seat_a_card_it_cannot_know(players, preset, seed, match_points):
    state = new(players, seed=seed, preset=preset, match_points=match_points)
    rng = random.Random(seed)
    n = players
    # Per seat: cards it has held or seen in the current hand (reset when a hand is dealt).
    known = [set(state["hands"][s]) | public_cards(state) for s in range(n)]
    steps = 0
    while GAME.outcome(state) is None and steps < 400:
        seat = GAME.to_act(state)[0]
        action = rng.choice(GAME.legal_actions(state, seat))
        deal = state["deal"]
        for s in range(n):
            known[s] |= public_cards(state)
        if action["type"] == "play":
            for s in range(n):
                known[s].add(action["card"])
        if action["type"] in ("marry", "declare") and "card" in action:
            # A marriage shows its king and queen, even when declaring ends the hand at once.
            suit = SUIT[action["card"]]
            for s in range(n):
                known[s] |= {"K" + suit, "Q" + suit}
        if action["type"] == "exchange":
            for s in range(n):
                known[s].add(GAME.lowest_trump(state))
        events = GAME.apply_action(state, seat, action)
        assert json.loads(json.dumps(events)) == events
        for s in range(n):
            # Events of the action that ends a hand tell of both the old hand and the new one.
            knowable = known[s] | set(state["hands"][s]) | public_cards(state)
            leaked = cards_in(visible_to(events, s)) - knowable
            assert not leaked, (s, action, events)
            known[s] = knowable if state["deal"] == deal else (
                set(state["hands"][s]) | public_cards(state))
        steps += 1


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_private_events_go_to_one_seat_and_public_ones_carry_no_running_points(players, seed):
    state = new(players, seed=seed, match_points=2)
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        events = GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for event in events:
            if "to" in event:
                assert event["to"] == [event["seat"]]
            elif "points" in event:
                # Card totals are secret until the hand ends; a trick's or a marriage's own
                # value is public, as its cards are.
                assert event["type"] in ("trick", "married", "hand_over")
