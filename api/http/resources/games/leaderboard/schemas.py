from marshmallow import Schema, fields, validate

MOST_DAYS = 36500


class LeaderboardQuerySchema(Schema):
    days = fields.Integer(validate=validate.Range(1, MOST_DAYS), metadata={
        "description": "Only players who finished a rated game of the type within this many "
                       "days (unset: every rated game ever played)", "example": 30})


class LeaderboardEntrySchema(Schema):
    place = fields.Integer()
    player_id = fields.String(metadata={"description": "Opens getPlayerProfile"})
    name = fields.String(allow_none=True)
    bot = fields.Boolean()
    ordinal = fields.Float()
    display = fields.Integer(metadata={"description": "The rating people are shown: 1500 + 40 × "
                                                   "ordinal, rounded, never below 0 (a new "
                                                   "player: 1500)"})
    mu = fields.Float(allow_none=True)
    sigma = fields.Float(allow_none=True)
    games = fields.Integer(allow_none=True)


class YourPlaceSchema(Schema):
    place = fields.Integer(allow_none=True, metadata={
        "description": "null until you have the rated games to be listed"})
    ordinal = fields.Float()
    display = fields.Integer(metadata={"description": "The rating people are shown: 1500 + 40 × "
                                                   "ordinal, rounded, never below 0 (a new "
                                                   "player: 1500)"})
    games = fields.Integer()
    provisional = fields.Boolean()


class LeaderboardSchema(Schema):
    type = fields.String()
    fewest_games = fields.Integer(metadata={"description": "Rated games a player needs to be "
                                                           "listed"})
    days = fields.Integer(allow_none=True, metadata={
        "description": "The `days` asked for: only players who played a rated game within them "
                       "(null: every rated game)"})
    entries = fields.List(fields.Nested(LeaderboardEntrySchema),
                          metadata={"description": "The top 100 by ordinal"})
    provisional = fields.List(fields.Nested(LeaderboardEntrySchema), metadata={
        "description": "The top 100 by ordinal of the players with rated games but fewer than "
                       "`fewest_games`: their ratings are provisional, listed apart"})
    you = fields.Nested(YourPlaceSchema, allow_none=True, metadata={
        "description": "The caller's place and rating; null for a caller with no rated game "
                       "of the type"})
