"""The events the streams send, as JSON schemas: one object with a `type` per event, the same
in SSE's `data:` and on an NDJSON line (`create_app` publishes them)."""
from __future__ import annotations

REF = "#/components/schemas/"
GAME = {"game": {"type": "string", "description": "The game's id"},
        "game_type": {"type": "string", "description": "The game's type (`listGameTypes`)"},
        "version": {"type": "integer", "description": "The game's version when it was told"},
        "id": {"type": "string", "description": "Send it back as `Last-Event-ID` to resume "
                                                "after this event"}}
_TOLD = ["type", "game", "game_type", "version", "id"]


def _event(kind: str, description: str, properties: dict, required: list[str]) -> dict:
    return {"type": "object", "description": description,
            "properties": {**GAME, **properties, "type": {"const": kind}},
            "required": required}


STREAM_EVENTS = {
    "StreamGameStarted": _event(
        "game_started", "A game of yours is going on: every seat is taken (told at each "
                        "connect for every game going on)",
        {"seat": {"type": "integer", "minimum": 0, "description": "Your seat"}},
        [*_TOLD, "seat"]),
    "StreamYourTurn": _event(
        "your_turn", "It is your turn: once per turn (`game` and `since`)",
        {"seat": {"type": "integer", "minimum": 0},
         "since": {"type": "integer", "description": "The version your turn began at"},
         "deadline": {"type": ["string", "null"], "format": "date-time",
                      "description": "When a bot plays the turn for you"}},
        [*_TOLD, "seat", "since", "deadline"]),
    "StreamGameFinished": _event(
        "game_finished", "A game of yours is over",
        {"outcome": {"$ref": f"{REF}GameOutcome", "description": "As in the game's view"},
         "your_place": {"type": "integer", "minimum": 1}},
        [*_TOLD, "outcome", "your_place"]),
    "StreamChat": {
        "type": "object", "description": "A line said at one of your tables: once per "
                                         "line (`game` and `number`)",
        "properties": {"type": {"const": "chat"}, "game": GAME["game"], "id": GAME["id"],
                       "number": {"type": "integer", "minimum": 1},
                       "seat": {"type": "integer", "minimum": 0}, "name": {"type": "string"},
                       "text": {"type": "string"},
                       "at": {"type": "string", "format": "date-time"}},
        "required": ["type", "game", "id", "number", "seat", "name", "text", "at"]},
    "StreamHeartbeat": {
        "type": "object", "description": "Sent every 20 seconds while nothing else is",
        "properties": {"type": {"const": "heartbeat"},
                       "at": {"type": "string", "format": "date-time"}},
        "required": ["type", "at"]},
    "GameStreamView": {
        "type": "object", "description": "The game as you may see it now",
        "properties": {"type": {"const": "view"},
                       "etag": {"type": "string", "description": "The view's ETag, as "
                                                                 "getGame gives it"},
                       "view": {"$ref": f"{REF}GameView"}},
        "required": ["type", "etag", "view"]},
}


def _union(names: list[str], description: str) -> dict:
    return {"oneOf": [{"$ref": f"{REF}{name}"} for name in names],
            "description": description}


UNIONS = {
    "StreamEvent": _union(["StreamGameStarted", "StreamYourTurn", "StreamGameFinished",
                           "StreamChat", "StreamHeartbeat"],
                          "One event of `streamEvents`, chosen by `type`"),
    "GameStreamEvent": _union(["GameStreamView", "StreamHeartbeat"],
                              "One event of `streamGame`, chosen by `type`"),
}
SCHEMAS = {**STREAM_EVENTS, **UNIONS}
