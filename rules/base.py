"""The one shape every game shares.

A game is a `Game` object. Its state is a plain JSON-serialisable dict that the
game alone reads and writes; everything else (the API, the worker, the bots'
benchmarks) goes through these methods:

    options = game.normalise_options(players, raw_options)   # InvalidOptions
    state = game.new_game(players, options, seed)
    game.to_act(state)                  -> seats that must act now
    game.legal_actions(state, seat)     -> list of action dicts
    game.apply_action(state, seat, action) -> events  # mutates state; IllegalAction
    game.view(state, seat_or_None)      -> what that seat (or a spectator) may see
    game.outcome(state)                 -> None while running, else scores/winners
    game.record(state)                  -> every deal as dealt, for replays
    game.bot_action(view, legal, level, rng, budget) -> an action chosen from the view alone

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
from typing import Any, Callable

from rules.search import DEFAULT_BUDGETS, Budget

State = dict[str, Any]
Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class InvalidOptions(ValueError):
    """A player count or option value the game cannot be created with."""


def deal_rng(seed: int, deal: int) -> random.Random:
    """The shuffle source of one deal: independent of every other deal."""
    return random.Random(f"{seed}:{deal}")


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

    # --- the rules -------------------------------------------------------------
    def new_game(self, players: int, options: dict, seed: int) -> State:
        raise NotImplementedError

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply_action(self, state: State, seat: int, action: Action) -> list[dict]:
        """Validate fully, then mutate `state` and return the events; an IllegalAction
        leaves the state untouched."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict:
        """{"seat", "phase", "deal", "scores", "hand", "table"}: `seat` and `hand` are None
        for spectators."""
        raise NotImplementedError

    def outcome(self, state: State) -> dict | None:
        """None while the game runs, else {"scores": [...], "winners": [seats]}."""
        raise NotImplementedError

    def record(self, state: State) -> dict:
        """{"deals": [{"hands": [...], ..., "scores": [...]}]}: each deal as dealt."""
        raise NotImplementedError

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
                raise IllegalAction("the game is over")
            raise IllegalAction(f"seat {seat} is not to act now")


def winners_of(scores: list[int], lower_wins: bool) -> list[int]:
    best = min(scores) if lower_wins else max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]


def action_type(action: Any, fields: dict[str, tuple[str, ...]]) -> str:
    """The action's type after checking its shape; IllegalAction otherwise.

    `fields` names, for each action type, the fields it may carry besides "type".
    """
    if not isinstance(action, dict):
        raise IllegalAction("an action must be a JSON object")
    kind = action.get("type")
    if kind not in fields:
        raise IllegalAction(
            f"unknown action type {kind!r}; expected one of {', '.join(fields)}")
    extra = sorted(set(action) - {"type", *fields[kind]})
    if extra:
        raise IllegalAction(f"unexpected field(s) in a {kind!r} action: {', '.join(map(str, extra))}")
    return kind
