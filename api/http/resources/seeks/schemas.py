from marshmallow import Schema, fields, validate

from api.http.resources.games.schemas import StrictBoolean
from api.tables.seeks import DEFAULT_LAPSE_HOURS, LONGEST_LAPSE_HOURS
from rules import GAMES

STATES = ("open", "seating", "seated", "cancelled", "lapsed")


class SeekGameSchema(Schema):
    type = fields.String(required=True, metadata={"example": "sticheln"})
    options = fields.Dict(keys=fields.String(), load_default=None, allow_none=True, metadata={
        "description": "The game's options (see GET /games/types); absent or null: any"})


class SeekPlayersSchema(Schema):
    min = fields.Integer(required=True, strict=True, validate=validate.Range(1, 20),
                         metadata={"example": 3})
    max = fields.Integer(required=True, strict=True, validate=validate.Range(1, 20),
                         metadata={"example": 5})


class BotFillSchema(Schema):
    level = fields.String(required=True, metadata={"example": "medium"})
    after_hours = fields.Float(required=True, validate=validate.Range(0, LONGEST_LAPSE_HOURS),
                               metadata={"example": 2})


class SeekCreateSchema(Schema):
    games = fields.List(fields.Nested(SeekGameSchema), required=True,
                        validate=validate.Length(1, len(GAMES)), metadata={
        "description": "One or several game types, in the order you prefer them"})
    players = fields.Nested(SeekPlayersSchema, required=True, metadata={
        "description": "The player counts you accept, bots included"})
    paces = fields.List(fields.String(), required=True, validate=validate.Length(1, 5),
                        metadata={"description": "One or several of 5m, 1h, 1d, 3d",
                                  "example": ["1d"]})
    rated = StrictBoolean(load_default=True, metadata={
        "description": "A rated table (false: a friendly one); rated and friendly seeks never "
                       "meet"})
    rating_window = fields.Float(load_default=None, allow_none=True, metadata={
        "description": "Only opponents whose rating (ordinal) at the game is within this of "
                       "yours; needs rated games of each type named"})
    bot_fill = fields.Nested(BotFillSchema, load_default=None, allow_none=True, metadata={
        "description": "After this wait, bots of this level take the empty seats up to the "
                       "smallest count you accept"})
    lapse_hours = fields.Float(load_default=DEFAULT_LAPSE_HOURS, metadata={
        "description": f"The seek lapses after this (at most {LONGEST_LAPSE_HOURS} hours)"})


class SeekSchema(Schema):
    id = fields.String()
    games = fields.List(fields.Nested(SeekGameSchema))
    players = fields.Nested(SeekPlayersSchema)
    paces = fields.List(fields.String())
    rated = fields.Boolean()
    rating_window = fields.Float(allow_none=True)
    bot_fill = fields.Nested(BotFillSchema, allow_none=True)
    created = fields.String()
    lapses = fields.String()
    state = fields.String(validate=validate.OneOf(STATES), metadata={
        "description": "open: waiting; seating: its table is being made; seated: see `game`; "
                       "cancelled; lapsed"})
    game = fields.String(allow_none=True, metadata={"description": "The game it was seated at"})
    waited_seconds = fields.Integer()
    waiting_in_pool = fields.Integer(metadata={
        "description": "Seeks waiting in its pool (rated or friendly) now: a count, never who"})
