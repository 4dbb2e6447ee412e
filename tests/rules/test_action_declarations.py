"""Every game's declared actions: the one source of validation, dispatch and the API's schemas."""
import random
import re

import pytest

from rules import GAMES, IllegalAction
from rules.base import ActionType, CardFormat, Field

from tests.rules.test_every_game import random_game, step_randomly


def card_formats(game):
    return {field.card for action in game.actions for field in action.fields if field.card}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_legal_action_fits_its_declaration(name):
    game = GAMES[name]
    seen = set()
    for players in (game.min_players, game.max_players):
        rng = random.Random(players)
        state = random_game(game, players, seed=players)
        for _ in range(400):
            if game.outcome(state) is not None:
                break
            for seat in game.to_act(state):
                for action in game.legal_actions(state, seat):
                    game.action_types[action["type"]].check(action)
                    seen.add(action["type"])
            step_randomly(game, state, rng)
    assert seen <= set(game.action_types)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_handlers_exist_and_examples_fit(name):
    game = GAMES[name]
    assert game.actions and len(game.action_types) == len(game.actions)
    for action in game.actions:
        assert callable(getattr(game, action.handler))
        action.check(action.example_action())
        for phase in action.phases:
            assert isinstance(phase, str)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_card_patterns_match_exactly_the_card_names(name):
    for card in card_formats(GAMES[name]):
        assert card.example in card.names
        if card.python_type is str:
            pattern = re.compile(card.pattern)
            assert all(pattern.fullmatch(n) for n in card.names)
            near_misses = {n + "0" for n in card.names} | {n[:-1] for n in card.names} | {
                n.lower() for n in card.names} | {n.upper() for n in card.names}
            for miss in near_misses - card.names:
                assert not pattern.fullmatch(miss), miss
        else:
            assert card.names == frozenset(range(min(card.names), max(card.names) + 1))


def test_fields_check_types_ranges_lists_and_name_the_field():
    card = CardFormat("TestCard", "a test card", frozenset({"a-1", "b-2"}), example="a-1",
                      pattern="^(?:a-1|b-2)$")
    declared = ActionType("pick", "pick", "_pick", (
        Field("card", "a card", card=card, required=False),
        Field("cards", "cards", card=card, many=(2, 2), required=False),
        Field("row", "a row", minimum=0, maximum=3, required=False)), one_field_of=True)
    declared.check({"type": "pick", "card": "a-1"})
    declared.check({"type": "pick", "cards": ["a-1", "b-2"]})
    declared.check({"type": "pick", "row": 3})
    for action, words in [
            ({"type": "pick", "card": "c-3"}, "field 'card': 'c-3' is not a card name like 'a-1'"),
            ({"type": "pick", "card": ["a-1"]}, "field 'card'"),
            ({"type": "pick", "cards": ["a-1"]}, "field 'cards' must be a list of 2 values"),
            ({"type": "pick", "cards": ["a-1", "a-1"]}, "different values"),
            ({"type": "pick", "cards": ["a-1", 5]}, "field 'cards': 5 is not"),
            ({"type": "pick", "row": 4}, "field 'row': 4 is not a whole number from 0 to 3"),
            ({"type": "pick", "row": True}, "field 'row': True"),
            ({"type": "pick", "row": 1.0}, "field 'row': 1.0"),
            ({"type": "pick"}, "exactly one of the fields 'card', 'cards', 'row'"),
            ({"type": "pick", "card": "a-1", "row": 1}, "exactly one of"),
            ({"type": "pick", "colour": "red"}, r"unexpected field\(s\) in a 'pick' action: 'colour'"),
            ({"type": "pick", "card": "x" * 1000}, r"field 'card': 'xxx.*\.\.\. is not")]:
        with pytest.raises(IllegalAction, match=words):
            declared.check(action)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_whole_number_option_has_a_range(name):
    for option in GAMES[name].options:
        if option.type == "int":
            assert option.minimum is not None and option.maximum is not None, option.name
            assert option.minimum <= option.default <= option.maximum
