"""The JSON schemas of a finished game's results in its view (`GameView.results`): published
by `api.http.contract`, which describes the views built by `api.tables.views`."""

SCHEMAS = "#/components/schemas/"
SEAT_RESULT = {"type": "object", "additionalProperties": False, "properties": {
    "seat": {"type": "integer"},
    "player": {"type": "string", "description": "The rated player: the seat's, or its bot "
                                                "level's"},
    "place": {"type": "integer", "description": "1 is best; equal results share a place; a "
                                                "seat that resigned or was played by a "
                                                "stand-in places last"},
    "rating": {"anyOf": [{"type": "object", "additionalProperties": False, "properties": {
        "mu": {"type": "number"}, "sigma": {"type": "number"},
        "ordinal": {"type": "number", "description": "mu - 3 sigma after the game"},
        "change": {"type": "number", "description": "What the game changed the ordinal by"}},
        "required": ["mu", "sigma", "ordinal", "change"]}, {"type": "null"}],
        "description": "null when the game was not rated"}},
    "required": ["seat", "player", "place", "rating"]}
GAME_RESULTS = {"type": "object", "additionalProperties": False, "properties": {
    "rated": {"type": "boolean"},
    "seats": {"type": "array", "items": {"$ref": SCHEMAS + "SeatResult"}}},
    "required": ["rated", "seats"]}
