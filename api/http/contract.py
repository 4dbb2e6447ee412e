"""The game contract in OpenAPI, made from the games' own declarations.

Every game publishes, under its own prefix (`SixNimmt...`, `Hattrick...`): its card
format (a named string pattern or integer range), one schema per action type and their
union `<Game>Action` (a `oneOf` with a `discriminator` on the action's `type`), its
options, the view's table and hand, the outcome, one schema per event type and their
union `<Game>Event`, and `<Game>GameView` / `<Game>Events` for the two answers that
carry them.

Two games may share an action type name ("play" is in all four, and Sticheln's and
Hattrick's card names overlap: `{"type": "play", "card": "red-5"}` is legal in both).
So the game is chosen first and the action type second: `GameView` and `Events` are a
`oneOf` discriminated by the game's `type` ("sixnimmt", ...), and each game's view lists
`legal_actions` of its own `<Game>Action` union only. `ActionRequest.action` is an
`anyOf` of the four game unions, because the body alone cannot name the game (the path's
game id does), and a `oneOf` would reject an action that is valid in two games.

`ContractPlugin` is the one place that sets these schemas and examples, and the
conditional reads' `If-None-Match` and 304 (`api.http.conditional`); each route declares its
operation id and security itself. A game view is built by
`api.tables.views.view` and described here only (`VIEW_PROPERTIES`, then per game); the other
routes keep their marshmallow schemas for serialising.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from apispec import BasePlugin

from api.http import conditional, http_contract
from api.http.resources.games.analysis.contract import (ANALYSIS_WAITING, analysis_schema,
                                                       analysis_union)
from api.http.resources.games.contract import NAMED_ENUMS, SEAT_REQUESTS, SEAT_SPEC
from api.http.resources.players.profile.contract import GAME_RESULTS, SEAT_RESULT
from rules import GAMES
from rules.base import ActionType, CardFormat, Field, Game, Option

SCHEMAS = "#/components/schemas/"

# Events the server adds to every game's log, whoever's rules they are.
SERVICE_EVENTS = (
    {"type": "object", "description": "A bot played this move for a seat after repeated "
                                      "time-outs",
     "properties": {"type": {"const": "stand_in"}, "seat": {"type": "integer", "minimum": 0}},
     "required": ["type", "seat"]},
    {"type": "object", "description": "A seat's time ran out and a bot played its move; "
                                      "standin: a bot keeps the seat from now on",
     "properties": {"type": {"const": "timeout"}, "seat": {"type": "integer", "minimum": 0},
                    "standin": {"type": "boolean"}},
     "required": ["type", "seat", "standin"]},
    {"type": "object", "description": "The seat's player resigned. ends_game: a two-player "
                                      "game is over, the other player won; else a bot plays "
                                      "the seat to the end",
     "properties": {"type": {"const": "resigned"}, "seat": {"type": "integer", "minimum": 0},
                    "ends_game": {"type": "boolean"}},
     "required": ["type", "seat", "ends_game"]},
    {"type": "object", "description": "The player a seat was kept for declined it: it is open "
                                      "again, with a new invite link",
     "properties": {"type": {"const": "declined"}, "seat": {"type": "integer", "minimum": 0}},
     "required": ["type", "seat"]},
    {"type": "object", "description": "The server made the seat's next move for its player: "
                                      "their card chosen ahead, or their only legal action",
     "properties": {"type": {"const": "automatic"}, "seat": {"type": "integer", "minimum": 0},
                    "how": {"enum": ["preselected", "forced"]}},
     "required": ["type", "seat", "how"]},
    {"type": "object", "description": "The game's log reached the most actions a game may "
                                      "have: the game ends here, scored as it stands",
     "properties": {"type": {"const": "ended"}, "reason": {"const": "log_full"},
                    "actions": {"type": "integer", "minimum": 1}},
     "required": ["type", "reason", "actions"]},
)
NULLABLE_STRING = {"type": ["string", "null"]}
SEAT = {"type": "object", "additionalProperties": False, "properties": {
    "seat": {"type": "integer"},
    "name": NULLABLE_STRING,
    "bot": {**NULLABLE_STRING, "description": "Bot level, or null for a human"},
    "player": {**NULLABLE_STRING, "description": "Whose profile the seat's name opens "
                                                 "(getPlayerProfile): its player's or its bot "
                                                 "level's; null while the seat is open"},
    "automated": {"type": "boolean", "description": "Taken by a player registered as a bot"},
    "joined": {"type": "boolean"},
    "score": {},
    "to_act": {"type": "boolean"},
    "standin": {"type": "boolean", "description": "A bot plays this seat after time-outs"},
    "standin_level": {**NULLABLE_STRING, "description": "The level of the bot playing the seat "
                                                        "while `standin`, else null"},
    "resigned": {"type": "boolean",
                 "description": "Its player resigned: a two-player game ended there, in a "
                                "larger one a bot plays the seat to the end"},
    "timeouts": {"type": "integer", "description": "Time-outs in a row"},
    "deadline": {**NULLABLE_STRING, "description": "When a bot stands in (an instant; counted "
                                                   "in its player's waking hours)"},
    "vacation_until": {**NULLABLE_STRING, "description": "Its player is on vacation until "
                                                         "then: their clock stands still"},
    "time_left": {"type": ["integer", "null"], "description": "Seconds in its table time "
                                                              "bank (when its turn began)"}}}


def ref(name: str) -> dict:
    return {"$ref": SCHEMAS + name}


INVITE = {"type": "object", "additionalProperties": False, "properties": {
    "seat": {"type": "integer"},
    "code": {"type": "string", "description": "Open /#/invite/<code> to take the seat"}}}
# A game view's properties; `type`, `options`, `hand`, `legal_actions`, `table` and `outcome`
# are each game's own.
VIEW_PROPERTIES = {
    "id": {"type": "string"},
    "title": {"type": "string"},
    "version": {"type": "integer"},
    "status": ref("GameStatus"),
    "phase": {"type": "string"},
    "deal": {"type": "integer"},
    "seats": {"type": "array", "items": {"$ref": SCHEMAS + "Seat"}},
    "your_seat": {"type": ["integer", "null"]},
    "to_act": {"type": "array", "items": {"type": "integer"}},
    "pace": {"type": "string"},
    "public": {"type": "boolean"},
    "invites": {"type": "array", "description": "Open seats' invite codes (players only)",
                "items": {"$ref": SCHEMAS + "Invite"}},
    "rematch_of": NULLABLE_STRING,
    "rematch": NULLABLE_STRING,
    "your_waking": {"type": ["array", "null"], "items": {
        "type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}}},
        "description": "Your turn: the stretches of your waking hours from this version to "
                       "your deadline, when your time runs"},
    "rated": {"type": "boolean", "description": "The result changes its players' ratings"},
    "results": {"anyOf": [{"$ref": SCHEMAS + "GameResults"}, {"type": "null"}],
                "description": "Each seat's place and rating change: recorded moments after "
                               "the game finishes (the view's version moves on then)"},
}
VIEW_ORDER = ("id", "type", "title", "options", "version", "status", "phase", "deal", "seats",
              "your_seat", "to_act", "hand", "legal_actions", "table", "outcome", "pace",
              "public", "invites", "rematch_of", "rematch", "your_waking", "rated", "results")
NUMBERED = {"number": {"type": "integer", "description": "position in the game's log, from 1"},
            "version": {"type": "integer", "description": "the game version it led to"}}


def prefix(game: Game) -> str:
    return type(game).__name__


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def card_schema(card: CardFormat) -> dict:
    if card.python_type is int:
        return {"type": "integer", "minimum": min(card.names), "maximum": max(card.names),
                "description": card.description, "examples": [card.example]}
    return {"type": "string", "pattern": card.pattern, "description": card.description,
            "examples": [card.example]}


def field_schema(field: Field) -> dict:
    if field.card is not None:
        one = ref(field.card.name)
    elif field.choices:
        one = {"type": "string", "enum": list(field.choices)}
    else:
        one = {"type": "integer", "minimum": field.minimum, "maximum": field.maximum}
    if field.many is not None:
        one = {"type": "array", "items": one, "minItems": field.many[0],
               "maxItems": field.many[1], "uniqueItems": True}
    return {**one, "description": field.description}


def action_schema(action: ActionType) -> dict:
    description = action.summary
    if action.phases:
        description += f" (phase {' or '.join(action.phases)})"
    if action.one_field_of:
        description += f"; exactly one of {', '.join(f.name for f in action.fields)}"
    schema = {
        "type": "object", "description": description, "additionalProperties": False,
        "properties": {"type": {"const": action.type},
                       **{field.name: field_schema(field) for field in action.fields}},
        "required": ["type", *(field.name for field in action.fields if field.required)],
        "examples": [action.example_action()],
    }
    if action.one_field_of:
        schema["minProperties"] = schema["maxProperties"] = 2
    return schema


def option_schema(option: Option) -> dict:
    described = {"description": option.description, "default": option.default}
    if option.type == "bool":
        return {"type": "boolean", **described}
    if option.type == "int":
        return {"type": "integer", "minimum": option.minimum, "maximum": option.maximum,
                **described}
    return {"enum": list(option.choices), **described}


def with_cards(shape: Any, card: CardFormat) -> Any:
    """A game's shape with its `card` placeholders pointing at the game's card format."""
    if isinstance(shape, dict):
        if shape.get("$ref") == "card":  # OpenAPI 3.1 keeps a description beside a $ref
            return {**ref(card.name), **{key: value for key, value in shape.items()
                                         if key != "$ref"}}
        return {key: with_cards(value, card) for key, value in shape.items()}
    if isinstance(shape, list):
        return [with_cards(item, card) for item in shape]
    return shape


def discriminated(variants: dict[str, str], description: str, on: str = "type") -> dict:
    return {"oneOf": [ref(name) for name in variants.values()], "description": description,
            "discriminator": {"propertyName": on,
                              "mapping": {key: SCHEMAS + name for key, name in variants.items()}}}


def game_components(game: Game) -> dict[str, dict]:
    """Every schema a game publishes, by name, except its view (made from the API's)."""
    name, card = prefix(game), game.card
    schemas: dict[str, dict] = {}
    for action in game.actions:
        for field in action.fields:
            if field.card is not None:
                schemas[field.card.name] = card_schema(field.card)
    schemas[card.name] = card_schema(card)
    actions = {action.type: f"{name}{camel(action.type)}Action" for action in game.actions}
    for action in game.actions:
        schemas[actions[action.type]] = action_schema(action)
    schemas[f"{name}Action"] = discriminated(actions, f"An action in {game.title}")
    schemas[f"{name}Options"] = {
        "type": "object", "additionalProperties": False,
        "description": f"{game.title}'s options; any left out take their default",
        "properties": {option.name: option_schema(option) for option in game.options}}
    schemas[f"{name}Table"] = with_cards(game.table_shape, card)
    schemas[f"{name}Hand"] = {"anyOf": [{"type": "array", "items": ref(card.name)},
                                        {"type": "null"}],
                              "description": "The caller's own cards; null for a spectator"}
    schemas[f"{name}Outcome"] = {
        "type": "object", "required": ["scores", "winners"],
        "description": "The final result: " + ("the lowest score wins" if game.lower_score_wins
                                               else "the highest score wins"),
        "properties": {"scores": {"type": "array", "items": {"type": "integer"}},
                       "winners": {"type": "array", "items": {"type": "integer"}},
                       "resigned": {"type": "integer", "minimum": 0,
                                    "description": "The seat whose player resigned a "
                                                   "two-player game: it ended there, with "
                                                   "the scores as they stood"}}}
    events = {}
    for shape in (*game.event_shapes, *SERVICE_EVENTS):
        kind = shape["properties"]["type"]["const"]
        events[kind] = f"{name}{camel(kind)}Event"
        published = with_cards(copy.deepcopy(shape), card)
        published["properties"].update(NUMBERED)
        published["required"] += list(NUMBERED)
        schemas[events[kind]] = published
    schemas[f"{name}Event"] = discriminated(events, f"Something that happened in {game.title}")
    schemas[f"{name}Events"] = {
        "type": "object", "required": ["type", "events", "last"],
        "properties": {"type": {"const": game.name},
                       "events": {"type": "array", "items": ref(f"{name}Event")},
                       "last": {"type": "integer",
                                "description": "Send as `after` to get only newer events"}}}
    return schemas


def example_view(game: Game) -> dict:
    """A real position: a new game at its smallest table, as seat 0 sees it."""
    players = game.min_players
    options = game.normalise_options(players, {})
    state = game.new_game(players, options, random.Random(game.name).randrange(2**31))
    seen = game.view(state, 0)
    return {
        "id": "Xq3vL9dTq2kP0aBc", "type": game.name, "title": game.title, "options": options,
        "pace": "1d", "public": False, "version": 1, "status": "active",
        "phase": seen["phase"], "deal": seen["deal"],
        "seats": [{"seat": seat, "name": "Anna" if seat == 0 else f"Bot {seat + 1} (easy)",
                   "bot": None if seat == 0 else "easy",
                   "player": "3f9a0c21d4e5b687" if seat == 0 else "bot-easy",
                   "joined": True, "automated": False,
                   "score": seen["scores"][seat], "to_act": seat in game.to_act(state),
                   "standin": False, "timeouts": 0, "deadline": None,
                   "vacation_until": None, "time_left": None}
                  for seat in range(players)],
        "your_seat": 0, "to_act": game.to_act(state), "hand": seen["hand"],
        "legal_actions": game.legal_actions(state, 0), "table": seen["table"], "outcome": None,
        "invites": [], "rematch_of": None, "rematch": None, "your_waking": None,
        "rated": True, "results": None,
    }


class ContractPlugin(BasePlugin):
    """Publishes the games' contract: per-game schemas in place of the API's free-form
    ones, and worked examples."""

    def init_spec(self, spec) -> None:
        self.spec = spec
        for game in GAMES.values():
            for name, schema in game_components(game).items():
                spec.components.schema(name, schema)
            if game.appraise is not None:
                spec.components.schema(f"{prefix(game)}Analysis",
                                       analysis_schema(game, ref(f"{prefix(game)}Action")))
        spec.components.schema("AnalysisWaiting", ANALYSIS_WAITING)
        spec.components.schema("Seat", SEAT)
        for name, schema in {**NAMED_ENUMS, **SEAT_REQUESTS}.items():
            spec.components.schema(name, schema)
        spec.components.schema("Invite", INVITE)
        spec.components.schema("SeatResult", SEAT_RESULT)
        spec.components.schema("GameResults", GAME_RESULTS)
        for name, response in http_contract.error_responses().items():
            spec.components.response(name, response, lazy=True)
        self._game_views()

    def schema_helper(self, name: str, definition: dict, **kwargs) -> dict | None:
        rewrite = {"ActionRequest": self._action_request, "Events": self._events,
                   "Analysis": self._analysis,
                   "GameCreate": self._game_create, "Error": http_contract.error_schema}.get(name)
        if rewrite is not None:
            rewrite(definition)  # in place: this is the dict the spec keeps
        return None

    def _game_views(self) -> None:
        views = {}
        for game in GAMES.values():
            name = prefix(game)
            own = {"type": {"const": game.name},
                   "options": ref(f"{name}Options"), "hand": ref(f"{name}Hand"),
                   "table": ref(f"{name}Table"),
                   "legal_actions": {"type": "array", "items": ref(f"{name}Action"),
                                     "description": "What the caller may do now"},
                   "outcome": {"anyOf": [ref(f"{name}Outcome"), {"type": "null"}]}}
            properties = {key: own[key] if key in own else copy.deepcopy(VIEW_PROPERTIES[key])
                          for key in VIEW_ORDER}
            views[game.name] = f"{name}GameView"
            self.spec.components.schema(views[game.name], {
                "type": "object", "description": f"A {game.title} game as the caller may "
                                                 "see it", "properties": properties,
                "required": list(properties), "examples": [example_view(game)]})
        self.spec.components.schema("GameView", discriminated(
            views, "A game as the caller may see it; `type` names the game and so the shape "
                   "of its table, hand and actions"))
        self.spec.components.schema("GameOutcome", {
            "anyOf": [ref(f"{prefix(game)}Outcome") for game in GAMES.values()],
            "description": "A finished game's outcome: the `<Game>Outcome` of its type"})

    @staticmethod
    def _action_request(request: dict) -> None:
        request["properties"]["action"] = {
            "anyOf": [ref(f"{prefix(game)}Action") for game in GAMES.values()],
            "description": "One of the game's actions: the view's `legal_actions` lists "
                           "exactly those allowed now"}

    @staticmethod
    def _analysis(analysis: dict) -> None:
        analysis.clear()
        analysis.update(analysis_union(ref("AnalysisWaiting"), [
            ref(f"{prefix(game)}Analysis") for game in GAMES.values() if game.appraise]))

    @staticmethod
    def _events(events: dict) -> None:
        events.clear()
        events.update(discriminated({game.name: f"{prefix(game)}Events"
                                     for game in GAMES.values()},
                                    "The game's log as the caller may know it"))

    @staticmethod
    def _game_create(create: dict) -> None:
        create["properties"]["type"] = {"type": "string", "enum": list(GAMES),
                                        "description": "the game"}
        create["properties"]["seats"]["items"] = SEAT_SPEC
        create["properties"]["pace"] = {
            **ref("Pace"), "description": create["properties"]["pace"]["description"]}
        create["properties"]["options"] = {
            "anyOf": [ref(f"{prefix(game)}Options") for game in GAMES.values()],
            "description": "The game's options (see its `<Game>Options`); any left out take "
                           "their default"}

    def operation_helper(self, path: str, operations: dict, **kwargs) -> None:
        for method, operation in operations.items():
            http_contract.document(path, method, operation)
            conditional.document(operation)
            name = operation.get("operationId")
            if name == "act":
                operation["requestBody"]["content"]["application/json"]["examples"] = {
                    game.name: {"summary": f"{game.title}: {game.actions[0].summary}",
                                "value": {"action": game.actions[0].example_action(),
                                          "version": 1}}
                    for game in GAMES.values()}
            if name == "getGame":
                operation["responses"][200]["content"]["application/json"]["examples"] = {
                    game.name: {"summary": f"{game.title}, seat 0 to act",
                                "value": example_view(game)} for game in GAMES.values()}
