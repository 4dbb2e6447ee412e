"""Sticheln search bots: legal, blind to hidden cards, on budget, repeatable, and their compact
rules agree with game.py."""
from __future__ import annotations

import random
import time

import pytest

from rules.search import Budget
from rules.sticheln import GAME, search
from rules.sticheln.bots import CROWDED, MEDIUM_PLAYS, EasyRater, easy_action
from rules.sticheln.cards import (CARD_IDS, CARD_NAMES, SETUP, SPAN, deal_score, deck_for,
                                  trick_winner)

NAMES = ("reverse", "mild", "tough", "dark", "late")
VARIANTS = [combo for combo in
            ({name: bool(mask >> i & 1) for i, name in enumerate(NAMES)} for mask in range(32))
            if not (combo["late"] and combo["dark"])]
SMALL = Budget(iterations=12)


def random_position(players: int, variants: dict, seed: int) -> tuple[dict, int]:
    """A state reached by random play, stopped at a random point, and a seat that may act."""
    rng = random.Random(seed)
    state = GAME.new_game(players, GAME.normalise_options(players, dict(variants, deals=2)), seed)
    stop = rng.randrange(players * 16)
    for _ in range(stop):
        seat = rng.choice(GAME.to_act(state))
        GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if GAME.outcome(state) is not None:
            break
    if GAME.outcome(state) is not None:
        state = GAME.new_game(players, GAME.normalise_options(players, variants), seed)
    return state, rng.choice(GAME.to_act(state))


def decide(state: dict, seat: int, level: str, seed: int, budget: Budget = SMALL) -> dict:
    return GAME.bot_action(GAME.view(state, seat), GAME.legal_actions(state, seat), level,
                           random.Random(seed), budget)


# --- the bots ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(3, 9))
def test_search_levels_choose_only_legal_actions(players):
    for index, variants in enumerate(VARIANTS):
        for level in ("medium", "hard"):
            seed = players * 1000 + index * 10 + len(level)
            state, seat = random_position(players, variants, seed)
            legal = GAME.legal_actions(state, seat)
            assert decide(state, seat, level, seed) in legal, (variants, level)


def test_medium_and_crowded_hard_play_one_of_the_playout_policys_favourite_cards():
    """Medium, and hard with 6 players or more under "tough" (but not "late"), weigh only the few
    cards the playout policy rates best, so the clock is not spread over every card in hand; hard
    elsewhere weighs them all, and so sometimes plays a card outside them."""
    checked = 0
    outside = {"fewer players": 0, "tough, late": 0, "not tough": 0}
    for seed in range(120):
        state, seat = random_position(3 + seed % 6, VARIANTS[seed % len(VARIANTS)], seed)
        legal = GAME.legal_actions(state, seat)
        if legal[0]["type"] != "play" or len(legal) <= MEDIUM_PLAYS:
            continue
        knowledge = search.read_view(GAME.view(state, seat))
        favourites = search.Playout(knowledge, random.Random(seed)).favourites(MEDIUM_PLAYS)
        assert len(set(favourites)) == MEDIUM_PLAYS
        assert set(favourites) < {CARD_IDS[action["card"]] for action in legal}
        assert favourites == search.Playout(knowledge, random.Random(seed + 1)).favourites(
            MEDIUM_PLAYS), "the favourites depend on the view alone, not on the deal"
        assert CARD_IDS[decide(state, seat, "medium", seed)["card"]] in favourites
        hard_card = CARD_IDS[decide(state, seat, "hard", seed)["card"]]
        options = state["options"]
        if state["players"] >= CROWDED and options["tough"] and not options["late"]:
            assert hard_card in favourites, state["players"]
        else:
            kind = ("fewer players" if state["players"] < CROWDED
                    else "not tough" if not options["late"]
                    else "tough, late" if options["tough"] else None)
            if kind:
                outside[kind] += hard_card not in favourites
        checked += 1
    assert checked >= 30
    assert all(outside.values()), ("elsewhere hard weighs more than the favourites", outside)


def test_levels_are_registered_with_descriptions():
    levels = {bot.name: bot.description for bot in GAME.bot_levels}
    assert set(levels) == {"easy", "medium", "hard"}
    assert all(levels.values())


def hidden_swap(state: dict, seat: int) -> dict | None:
    """A copy of `state` with one card the seat cannot see traded between two other places it
    cannot see (two opponents' hands, or a hand and a still secret put-down card)."""
    copy = {**state, "hands": [list(h) for h in state["hands"]],
            "pain": [list(p) for p in state["pain"]]}
    secret_pain = state["phase"] == "choose" or (state["phase"] == "play"
                                                 and state["options"]["dark"])
    places = [copy["hands"][s] for s in range(state["players"]) if s != seat and copy["hands"][s]]
    if secret_pain:
        places += [copy["pain"][s] for s in range(state["players"]) if s != seat and copy["pain"][s]]
    for first in places:
        for second in places:
            for i, a in enumerate(first):
                for j, b in enumerate(second):
                    # Same colour keeps "tough" pain pairs two-coloured; a different card changes
                    # what lies where.
                    if first is not second and a != b and a // SPAN == b // SPAN:
                        first[i], second[j] = b, a
                        for cards in (first, second):
                            cards.sort()
                        return copy
    return None


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_decisions_depend_only_on_the_view(level):
    compared = 0
    for seed in range(60):
        players = 3 + seed % 6
        state, seat = random_position(players, VARIANTS[seed % len(VARIANTS)], seed)
        other = hidden_swap(state, seat)
        if other is None:
            continue
        assert other["hands"] != state["hands"] or other["pain"] != state["pain"]
        assert GAME.view(other, seat) == GAME.view(state, seat)
        assert decide(other, seat, level, seed) == decide(state, seat, level, seed)
        compared += 1
    assert compared >= 40


def test_iteration_budget_makes_decisions_repeatable():
    for seed in range(12):
        state, seat = random_position(4 + seed % 3, VARIANTS[seed], seed)
        first = decide(state, seat, "hard", seed, Budget(iterations=40))
        assert all(decide(state, seat, "hard", seed, Budget(iterations=40)) == first
                   for _ in range(2))


def heavy_positions():
    """The costliest decisions: the pain choice and the first tricks, with many players."""
    for players, variants in ((8, {"tough": True}), (8, {}), (6, {"dark": True, "tough": True}),
                              (7, {"late": True})):
        state = GAME.new_game(players, GAME.normalise_options(players, variants), players)
        if state["phase"] == "choose":
            yield state, 0
            for seat in GAME.to_act(state):
                GAME.apply_action(state, seat, GAME.legal_actions(state, seat)[0])
        yield state, state["turn"]


def test_time_budget_is_respected():
    budget = Budget(seconds=0.2)
    for state, seat in heavy_positions():
        for level in ("medium", "hard"):
            started = time.process_time()
            decide(state, seat, level, 1, budget)
            assert time.process_time() - started <= 0.22


def test_name_pain_takes_the_best_colour():
    state = GAME.new_game(3, GAME.normalise_options(3, {"late": True, "deals": 1}), 5)
    rng = random.Random(5)
    while state["phase"] == "play":
        seat = state["turn"]
        GAME.apply_action(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    for seat in GAME.to_act(state):
        legal = GAME.legal_actions(state, seat)
        scores = [deal_score(state["won"][seat], [CARD_IDS[a["color"] + "-0"] // SPAN],
                             state["options"]) for a in legal]
        chosen = decide(state, seat, "hard", 1)
        assert scores[legal.index(chosen)] == max(scores)


# --- the compact rules against game.py ----------------------------------------------------------
def test_trick_strengths_agree_with_trick_winner():
    rng = random.Random(7)
    for _ in range(3000):
        players = rng.randrange(3, 9)
        reverse = rng.random() < 0.5
        trick = rng.sample(deck_for(players), players)
        row = search.strengths(SETUP[players][0], reverse)[trick[0] // SPAN]
        ranks = [row[card] for card in trick]
        assert ranks.index(max(ranks)) == trick_winner(trick, reverse)


class Recorder(search.Playout):
    """A playout whose hidden cards are the true ones, recording every card it plays."""

    def __init__(self, knowledge, rng, state):
        super().__init__(knowledge, rng)
        self.hands = [list(hand) for hand in state["hands"]]
        self.pain = [list(p) if p or not state["options"]["late"] else None
                     for p in state["pain"]]
        self.played = []

    def policy(self, seat, *args):
        card = super().policy(seat, *args)
        self.played.append(card)
        return card


@pytest.mark.parametrize("players", range(3, 9))
def test_playouts_follow_the_rules_of_game_py(players):
    for index, variants in enumerate(VARIANTS):
        seed = players * 100 + index
        state, _ = random_position(players, variants, seed)
        if state["phase"] != "play":
            continue
        seat = state["turn"]
        knowledge = search.read_view(GAME.view(state, seat))
        hidden = sum(len(h) for s, h in enumerate(state["hands"]) if s != seat)
        if variants["dark"]:
            hidden += sum(len(p) for s, p in enumerate(state["pain"]) if s != seat)
        assert sorted(knowledge.unseen) == sorted(
            [c for s, h in enumerate(state["hands"]) if s != seat for c in h]
            + [c for s, p in enumerate(state["pain"]) if s != seat and variants["dark"] for c in p])
        assert len(knowledge.unseen) == hidden
        totals = list(state["scores"])
        playout = Recorder(knowledge, random.Random(seed), state)
        card = knowledge.hand[0]
        value = playout.value_after_play(card)
        for played in [card] + playout.played:
            GAME.apply_action(state, state["turn"], {"type": "play", "card": CARD_NAMES[played]})
        # Outside "late" the finished deal is scored at once and moves to "previous".
        won = state["won"] if variants["late"] else state["previous"]["won"]
        assert [sorted(cards) for cards in playout.won] == [sorted(cards) for cards in won]
        if variants["late"]:
            finals = []
            for s in range(players):
                options = GAME.legal_actions(state, s)
                finals.append(max((deal_score(state["won"][s], _colours(a), state["options"])
                                   for a in options), default=0))
        else:
            finals = state["deal_scores"][-1]
        ends = [total + final for total, final in zip(totals, finals)]
        over_mean = ends[seat] - (sum(ends) - ends[seat]) / (players - 1)
        over_best = ends[seat] - max(end for s, end in enumerate(ends) if s != seat)
        assert value == pytest.approx((1 - search.RANK) * over_mean + search.RANK * over_best)


def _colours(action: dict) -> list[int]:
    return [CARD_IDS[c + "-0"] // SPAN for c in action.get("colors", [action.get("color")])]


def test_dark_pain_hints_read_the_cards_passed_on():
    # Seat 0 looks on: in trick 1 seat 1 led blue-8, seat 2 won with a trump, seat 3 passed on
    # red-3; trick 2 is led by seat 2 with red-9.
    last = {"cards": [{"seat": 1, "card": "blue-8"}, {"seat": 2, "card": "green-10"},
                      {"seat": 3, "card": "red-3"}, {"seat": 0, "card": "blue-2"}], "winner": 2}
    table = {"tricks_played": 1, "trick": [{"seat": 2, "card": "red-9"}], "last_trick": last}
    blue, red = CARD_IDS["blue-0"] // SPAN, CARD_IDS["red-0"] // SPAN
    likely, unlikely = search.pain_hints(table, 4, 0, False)
    assert likely == [[], [blue], [red], [red]]
    assert unlikely == [set()] * 4
    # Late in the deal such a seat has no pain left to pass on: the colour is ruled out instead.
    late = dict(table, tricks_played=search.EARLY_TRICKS + 3)
    likely, unlikely = search.pain_hints(late, 4, 0, False)
    assert likely == [[]] * 4
    assert unlikely == [set(), {blue}, {red}, {red}]
    assert search.pain_hints(table, 4, 0, True) == ([[]] * 4, [set()] * 4)


def test_dark_pain_hints_remember_the_first_tricks_all_deal():
    # Seat 1 led blue-8 and seat 3 passed on red-3 in the first trick; then seat 0 (looking on)
    # led yellow in six tricks that each later card beat, so they tell nothing of the others.
    first = {"cards": [{"seat": 1, "card": "blue-8"}, {"seat": 2, "card": "green-10"},
                       {"seat": 3, "card": "red-3"}, {"seat": 0, "card": "blue-2"}], "winner": 2}
    rising = {"cards": [{"seat": seat, "card": f"yellow-{2 * seat + 1}"} for seat in range(4)],
              "winner": 3}
    played = search.EARLY_TRICKS + 3
    later = [rising] * (played - 1)
    blue, red = CARD_IDS["blue-0"] // SPAN, CARD_IDS["red-0"] // SPAN
    table = {"tricks_played": played, "trick": [], "last_trick": rising,
             "tricks": [first, *later]}
    assert search.pain_hints(table, 4, 0, False) == ([[], [blue], [], [red]], [set()] * 4)
    # A deal stored before the view listed its tricks lists only the later ones.
    table_then = dict(table, tricks=later[-2:])
    assert search.pain_hints(table_then, 4, 0, False) == ([[]] * 4, [set()] * 4)


def test_dark_playouts_deal_hidden_pain_of_the_hinted_colours():
    for seed in range(20):
        options = GAME.normalise_options(4, {"deals": 1, "dark": True})
        state = GAME.new_game(4, options, seed)
        rng = random.Random(seed)
        while state["phase"] == "choose" or state["tricks_played"] < 2:
            seat = GAME.to_act(state)[0]
            GAME.apply_action(state, seat, easy_action(GAME.view(state, seat),
                                                       GAME.legal_actions(state, seat), rng, None))
        seat = state["turn"]
        knowledge = search.read_view(GAME.view(state, seat))
        playout = search.Playout(knowledge, random.Random(seed))
        for other, colours in enumerate(knowledge.hints):
            if colours and other != seat and any(c // SPAN == colours[0] for c in knowledge.unseen):
                assert playout.pain_colours(other) == [colours[0]]
        dealt = sorted(card for other in range(4) if other != seat
                       for card in playout.hands[other] + playout.pain[other])
        assert dealt == sorted(knowledge.unseen)


@pytest.mark.parametrize("players", [4, 6])
@pytest.mark.parametrize("variant", ["plain", "reverse", "mild", "tough", "dark"])
def test_the_playouts_easy_model_plays_a_card_easy_rates_as_its_own(players, variant):
    """In an easy bot's own position, every card known, the playouts' easy model plays easy's
    card (or one easy rates as high: easy breaks ties at random)."""
    variants = {} if variant == "plain" else {variant: True}
    options = GAME.normalise_options(players, {"deals": 1, **variants})
    plays = 0
    for seed in range(3):
        state = GAME.new_game(players, options, seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            action = easy_action(view, legal, rng, None)
            if state["phase"] == "play" and len(legal) > 1:
                knowledge = search.read_view(view)
                playout = search.Playout(knowledge, random.Random(seed), easy_opponents=True)
                playout.hands = [list(hand) for hand in state["hands"]]
                playout.pain = [list(cards) if cards else None for cards in state["pain"]]
                card = playout.easy_choice(seat, state["leader"], list(knowledge.trick))
                rate = EasyRater(knowledge).rate_play
                assert rate({"type": "play", "card": CARD_NAMES[card]}) == rate(action), (
                    seed, view["table"]["trick"], CARD_NAMES[card], action)
                plays += 1
            GAME.apply_action(state, seat, action)
    assert plays > 30
