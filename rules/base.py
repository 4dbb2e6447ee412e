"""The one shape every game shares.

A game is a `Game` object. Its state is a plain JSON-serialisable dict that the
game alone reads and writes; everything else (the API, the worker, the bots'
benchmarks) goes through these methods:

    options = game.normalise_options(players, raw_options)   # InvalidOptions
    state = game.new_game(players, options, seed)   # recording=True keeps the deals for record
    game.to_act(state)                  -> seats that must act now
    game.legal_actions(state, seat)     -> list of action dicts
    game.apply_action(state, seat, action) -> events  # mutates state; IllegalAction
    game.actions                        -> the declared action types (see below)
    game.view(state, seat_or_None)      -> what that seat (or a spectator) may see
    game.outcome(state)                 -> None while running, else scores/winners
    game.record(state)                  -> every deal as dealt, of a recording state
    game.bot_action(view, legal, level, rng, budget) -> an action chosen from the view alone

Actions are declared as data: each game lists its `ActionType`s (type -> fields,
each field with its type, range or card spelling -> the method that handles it,
and the phases it belongs to). The declaration checks an action's shape and
names the faulty field, dispatches it to its handler, and is what the HTTP
API publishes as each game's action schemas; adding an action to a game means
adding one entry and its handler there.

Randomness only ever comes from `deal_rng(seed, deal)`, so a game is exactly
replayable from its seed and its actions. The seed lives in the state under
"seed" and must never appear in a view.

Events tell what an action made happen, for game logs and animations: a list
of JSON objects, each with a "type" and its details. An event that only some
seats may know carries "to": [seats]; every other event is public and must
hide whatever the rules hide (a secret choice is public only as "seat 2 has
chosen"; the card shows in the "revealed" event once all have chosen).

A simultaneous secret choice may be changed until the last seat has chosen:
`to_act` lists only the seats that have not chosen, while `legal_actions` of a
seat that has chosen still offers the other choices, and applying one replaces
its choice.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from rules.search import DEFAULT_BUDGETS, Appraisal, Budget

State = dict[str, Any]
Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class MalformedAction(IllegalAction):
    """An action that does not fit its game's declared shape, the schema the contract
    publishes: an unknown type, a missing or unexpected field, a value that is no card."""


class NotToAct(IllegalAction):
    """The seat may not act now: another seat is to act, or the game is over."""


class InvalidOptions(ValueError):
    """A player count or option value the game cannot be created with."""


def deal_rng(seed: int, deal: int) -> random.Random:
    """The shuffle source of one deal: independent of every other deal."""
    return random.Random(f"{seed}:{deal}")


DEALT = "dealt"  # a recording state's list of deals as dealt (see Game.new_game)


def start_recording(state: State, recording: bool) -> State:
    if recording:
        state[DEALT] = []
    return state


def record_deal(state: State, entry: dict) -> None:
    """Keep a new deal as dealt, when the state records."""
    if DEALT in state:
        state[DEALT].append(entry)


def recorded_deal(state: State) -> dict:
    """The current deal's entry of a recording state, to complete; a throwaway otherwise."""
    return state[DEALT][-1] if DEALT in state else {}


@dataclass(frozen=True)
class CardFormat:
    """How a game spells its cards: every valid name, and how to publish them."""

    name: str  # the schema's name, e.g. "HattrickCard"
    description: str
    names: frozenset  # every valid card: all ints or all strings
    example: Any
    pattern: str = ""  # a regular expression matching exactly `names` (string cards)
    spelling: str = ""  # how an error message says what is expected; made up if empty

    @property
    def python_type(self) -> type:
        return type(self.example)

    def spelled(self) -> str:
        if self.spelling:
            return self.spelling
        if self.python_type is int:
            return f"a card number from {min(self.names)} to {max(self.names)}"
        return f"a card name like {self.example!r}"


@dataclass(frozen=True)
class Field:
    """One field of an action: a card, a whole number in a range, or one of some words;
    `many` = (fewest, most) makes it a list of such values."""

    name: str
    description: str
    card: CardFormat | None = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    noun: str = ""  # what a choice is, for messages: "a colour"
    many: tuple[int, int] | None = None
    required: bool = True

    def __post_init__(self) -> None:
        # One type test and one set (or range) lookup per value: apply stays cheap.
        if self.card is not None:
            value_type, values = self.card.python_type, self.card.names
        elif self.choices:
            value_type, values = str, frozenset(self.choices)
        else:
            value_type, values = int, range(self.minimum, self.maximum + 1)
        object.__setattr__(self, "value_type", value_type)
        object.__setattr__(self, "values", values)

    def accepts(self, value: Any) -> bool:
        return type(value) is self.value_type and value in self.values

    def what(self) -> str:
        if self.card is not None:
            return self.card.spelled()
        if self.choices:
            return f"{self.noun or 'one of'} ({', '.join(self.choices)})"
        return f"a whole number from {self.minimum} to {self.maximum}"

    def check(self, value: Any) -> None:
        if self.many is None:
            if type(value) is not self.value_type or value not in self.values:
                raise MalformedAction(
                    f"field '{self.name}': {_shown(value)} is not {self.what()}")
            return
        fewest, most = self.many
        if type(value) is not list or not fewest <= len(value) <= most:
            count = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise MalformedAction(f"field '{self.name}' must be a list of {count} values, "
                                f"each {self.what()}")
        for item in value:
            if not self.accepts(item):
                raise MalformedAction(
                    f"field '{self.name}': {_shown(item)} is not {self.what()}")
        if len(set(value)) != len(value):
            raise MalformedAction(f"field '{self.name}' must name different values")

    def example(self) -> Any:
        one = (self.card.example if self.card is not None else
               self.choices[0] if self.choices else self.minimum)
        return one if self.many is None else [one] * self.many[0]


@dataclass(frozen=True)
class ActionType:
    """One kind of action of a game, and the game method that carries it out:
    `handler(state, seat, action) -> events`, called once the shape is checked."""

    type: str
    summary: str
    handler: str
    fields: tuple[Field, ...] = ()
    phases: tuple[str, ...] = ()  # the phases it belongs to; empty: whenever the seat acts
    one_field_of: bool = False  # exactly one of `fields` (all optional) is given
    example: dict | None = None  # defaults to one made from the fields' examples

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", frozenset(["type", *(f.name for f in self.fields)]))

    def check(self, action: dict) -> None:
        keys = self.keys
        for key in action:
            if key not in keys:
                extra = sorted(str(k) for k in action if k not in keys)
                raise MalformedAction(f"unexpected field(s) in a '{self.type}' action: "
                                    f"{', '.join(_shown(k, 24) for k in extra)}")
        known = self.fields
        for field in known:
            if field.name in action:
                field.check(action[field.name])
            elif field.required:
                raise MalformedAction(f"a '{self.type}' action needs the field '{field.name}' "
                                    f"({field.what()})")
        if self.one_field_of and len(action) != 2:
            raise MalformedAction(f"a '{self.type}' action takes exactly one of the fields "
                                f"{', '.join(repr(field.name) for field in known)}")

    def example_action(self) -> dict:
        if self.example is not None:
            return dict(self.example)
        chosen = self.fields[:1] if self.one_field_of else [f for f in self.fields if f.required]
        return {"type": self.type, **{field.name: field.example() for field in chosen}}


def _shown(value: Any, limit: int = 40) -> str:
    """A value quoted in an error message, cut short: messages never echo big inputs."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass(frozen=True)
class Option:
    name: str
    type: str  # "bool", "int" or "choice"
    default: Any
    description: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        if self.type == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions(f"option '{self.name}' must be true or false")
        elif self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(f"option '{self.name}' must be a whole number")
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptions(f"option '{self.name}' must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptions(f"option '{self.name}' must be at most {self.maximum}")
        elif self.type == "choice":
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise InvalidOptions(f"option '{self.name}' must be one of {allowed}")
        return value

    def describe(self) -> dict:
        described = {"name": self.name, "type": self.type, "default": self.default,
                     "description": self.description}
        if self.choices:
            described["choices"] = list(self.choices)
        if self.minimum is not None:
            described["minimum"] = self.minimum
        if self.maximum is not None:
            described["maximum"] = self.maximum
        return described


@dataclass(frozen=True)
class BotLevel:
    name: str
    description: str
    # play(view, legal, rng, budget) -> one of legal, from the view alone
    play: Callable[[dict, list, random.Random, Budget], dict]


@dataclass
class Game:
    """Base of every game; subclasses fill in the rules."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    bot_levels: tuple[BotLevel, ...] = field(default_factory=tuple)
    lower_score_wins: bool = False
    rules_page: str = ""  # file name in seeds/
    card: CardFormat | None = None  # how the game's views and events spell a card
    table_shape: dict = field(default_factory=dict)  # the view's table (rules/shapes.py)
    event_shapes: tuple[dict, ...] = ()  # every event apply_action may return
    # What benches and tests play when they need one table of the game: its usual player
    # count (0: min_players), and the options of its shortest whole game.
    typical_players: int = 0
    quick_options: dict = field(default_factory=dict)
    # appraise(view, legal, deal_only) -> how the analysis weighs each legal action (see
    # rules/analysis.py); `deal_only` values the deal alone, over the others' mean, for luck.
    # None: the game's decisions are not analysed.
    appraise: Callable[[dict, list, bool], Appraisal] | None = None
    actions: ClassVar[tuple[ActionType, ...]] = ()  # declared by each game's class

    def __post_init__(self) -> None:
        self.typical_players = self.typical_players or self.min_players
        self.action_types = {action.type: action for action in self.actions}
        self._handlers = {action.type: getattr(self, action.handler) for action in self.actions}

    # --- options -------------------------------------------------------------
    def normalise_options(self, players: Any, raw: dict | None) -> dict:
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptions("players must be a whole number")
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {players}")
        raw = dict(raw or {})
        known = {option.name: option for option in self.options}
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise InvalidOptions(f"unknown option(s) for {self.title}: {', '.join(unknown)}")
        options = {name: option.check(raw[name]) if name in raw else option.default
                   for name, option in known.items()}
        self.check_option_combination(players, options)
        return options

    def check_option_combination(self, players: int, options: dict) -> None:
        """Raise InvalidOptions for combinations the rules forbid."""

    def describe(self) -> dict:
        return {
            "type": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "lower_score_wins": self.lower_score_wins,
            "options": [option.describe() for option in self.options],
            "bot_levels": [{"name": b.name, "description": b.description} for b in self.bot_levels],
            "rules_page": self.rules_page,
        }

    def has_bot_level(self, level: str) -> bool:
        return any(bot.name == level for bot in self.bot_levels)

    # --- the rules -------------------------------------------------------------
    def new_game(self, players: int, options: dict, seed: int, recording: bool = False
                 ) -> State:
        """The first position. With `recording`, the state also keeps every deal as dealt
        (`record_deal`), which `record` reads; play leaves it out, so the state stays the size
        of one deal, and a record is rebuilt by replaying the seed and the actions."""
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply_action(self, state: State, seat: int, action: Action) -> list[dict]:
        """Validate fully, then mutate `state` and return the events; an IllegalAction
        leaves the state untouched.

        The seat is checked first (NotToAct), then the declaration checks the shape and the
        phase; the action's handler checks the rest against the position before it changes
        anything."""
        if not self.may_change_choice(state, seat):
            self.check_seat_may_act(state, seat)
        kind = action.get("type") if type(action) is dict else None
        declared = self.action_types.get(kind) if type(kind) is str else None
        if declared is None:
            if type(action) is not dict:
                raise MalformedAction("an action must be a JSON object")
            raise MalformedAction(f"unknown action type {_shown(action.get('type'))}; expected "
                                f"one of {', '.join(self.action_types)}")
        declared.check(action)
        if declared.phases:
            phase = self.phase(state)
            if phase not in declared.phases:
                expected = " or ".join(repr(a.type) for a in self.actions if phase in a.phases)
                raise IllegalAction(f"now is the time for {expected}, not '{declared.type}'")
        return self._handlers[declared.type](state, seat, action)

    def phase(self, state: State) -> str:
        return state["phase"]

    def may_change_choice(self, state: State, seat: int) -> bool:
        """Whether `seat`, not to act, may still replace a secret choice it has made."""
        return False

    def view(self, state: State, seat: int | None) -> dict:
        """{"seat", "phase", "deal", "scores", "hand", "table"}: `seat` and `hand` are None
        for spectators."""
        raise NotImplementedError

    def trick_number(self, state: State) -> int | None:
        """The number, from 1 in each deal, of the trick (in 6 nimmt! the turn) now being
        played, or None while none is (a deal's first choices, the game's end) or if the game
        has no tricks: where a replay can jump to within a deal."""
        return None

    def outcome(self, state: State) -> dict | None:
        """None while the game runs, else {"scores": [...], "winners": [seats]}."""
        raise NotImplementedError

    def record(self, state: State) -> dict:
        """{"deals": [{"hands": [...], ..., "scores": [...]}]}: each deal as dealt, from a
        state made with `recording`."""
        raise NotImplementedError

    def teams(self, players: int) -> list[list[int]]:
        """The seats that win or lose together: each seat alone unless the game has
        partnerships."""
        return [[seat] for seat in range(players)]

    def bot_action(self, view: dict, legal: list[Action], level: str,
                   rng: random.Random, budget: Budget | None = None) -> Action:
        """One of `legal`, chosen from `view` alone; `budget` caps the thinking of
        search levels, None meaning the level's default."""
        for bot in self.bot_levels:
            if bot.name == level:
                return bot.play(view, legal, rng, budget or DEFAULT_BUDGETS.get(level, Budget()))
        raise ValueError(f"{self.title} has no bot level {level!r}")

    # --- shared helpers ---------------------------------------------------------
    def check_seat_may_act(self, state: State, seat: int) -> None:
        if seat not in self.to_act(state):
            if self.outcome(state) is not None:
                raise NotToAct("the game is over")
            raise NotToAct(f"seat {seat} is not to act now")


def winners_of(scores: list[int], lower_wins: bool) -> list[int]:
    best = min(scores) if lower_wins else max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]
