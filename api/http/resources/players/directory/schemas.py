from marshmallow import Schema, fields, validate

from api.tables.directory import LONGEST_DESCRIPTION, LONGEST_PREFIX


class SearchQuerySchema(Schema):
    name = fields.String(required=True, validate=validate.Length(1, LONGEST_PREFIX), metadata={
        "description": "The start of a name, whatever its case", "example": "an"})


class BotRatingSchema(Schema):
    ordinal = fields.Float()
    games = fields.Integer(metadata={"description": "Rated games"})


class DirectoryEntrySchema(Schema):
    id = fields.String()
    name = fields.String()
    bot = fields.Boolean(metadata={"description": "A bot account (a program)"})
    profile = fields.String(metadata={"description": "The path of getPlayerProfile"})
    can_challenge = fields.Boolean(metadata={
        "description": "You may name this player's seat in createGame"})
    description = fields.String(allow_none=True, metadata={
        "description": "A bot account's description, by its author"})
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(BotRatingSchema),
                          metadata={"description": "A bot account's ratings per game type"})


class BotDescriptionSchema(Schema):
    description = fields.String(required=True, allow_none=True,
                                validate=validate.Length(1, LONGEST_DESCRIPTION))


class DescribedSchema(BotDescriptionSchema):
    id = fields.String()
    name = fields.String()
