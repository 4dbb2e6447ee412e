"""A new game's request in the contract: each kind of seat and the enums a client spells, as
named schemas, so that a generated client names them too (`BotSeat`, `Pace.FIVE_MINUTES`, not
`GameCreateSeatsItemType2` and `VALUE_1`)."""
from __future__ import annotations

from api.tables.seating import PACES
from rules import GAMES

SCHEMAS = "#/components/schemas/"


def ref(name: str) -> dict:
    return {"$ref": SCHEMAS + name}


BOT_LEVELS = sorted({level.name for game in GAMES.values() for level in game.bot_levels})
SEAT_REQUESTS = {
    "HumanSeat": {"type": "string", "const": "human",
                  "description": "A human's seat; seat 0 is the creator's"},
    "ReservedSeat": {
        "type": "object", "additionalProperties": False, "required": ["player"],
        "description": "A seat kept for a player (a challenge)",
        "properties": {"player": {"type": "string", "pattern": "^[0-9a-f]{16}$",
                                  "description": "A seat kept for this player: it waits in "
                                                 "their inbox until they take it (joinGame) or "
                                                 "decline it (declineSeat)"}}},
    "BotSeat": {
        "type": "object", "additionalProperties": False, "required": ["bot"],
        "description": "A server bot's seat",
        "properties": {"bot": {**ref("BotLevelName"),
                               "description": "A server bot of this level (GET /games/types "
                                              "lists each game's)"}}},
}
# The string member last: openapi-python-client tries the members in order and gives up at
# a `const` that does not match.
SEAT_SPEC = {"anyOf": [ref("BotSeat"), ref("ReservedSeat"), ref("HumanSeat")]}
# Names a generated client can spell (`Pace.FIVE_MINUTES`, not `VALUE_1`).
PACE_NAMES = {"none": "NONE", "5m": "FIVE_MINUTES", "1h": "ONE_HOUR", "1d": "ONE_DAY",
              "3d": "THREE_DAYS"}
NAMED_ENUMS = {
    "Pace": {"type": "string", "enum": list(PACES),
             "x-enum-varnames": [PACE_NAMES[pace] for pace in PACES],
             "description": "Time per move before a bot stands in: none (only against bots), "
                            "5m, 1h, 1d (the default) or 3d; counted in each player's waking "
                            "hours"},
    "BotLevelName": {"type": "string", "enum": BOT_LEVELS, "description": "A server bot's level"},
    "GameStatus": {"type": "string", "enum": ["waiting", "active", "finished"],
                   "description": "waiting for players, active, or finished"},
}
