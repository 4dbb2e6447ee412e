from marshmallow import Schema, fields


class RatingSchema(Schema):
    mu = fields.Float(metadata={"description": "The rating's mean (a new player starts at 25)"})
    sigma = fields.Float(metadata={"description": "Its uncertainty (a new player: 25/3)"})
    ordinal = fields.Float(metadata={"description": "mu - 3 sigma: what lists sort by"})
    display = fields.Integer(metadata={"description": "The rating people are shown: 1500 + 40 × "
                                                   "ordinal, rounded, never below 0 (a new "
                                                   "player: 1500)"})
    games = fields.Integer(metadata={"description": "Rated games of the type"})
    provisional = fields.Boolean(metadata={"description": "Fewer than 10 rated games: shown "
                                                         "with a \"?\" (\"1620?\")"})


class GameStatsSchema(Schema):
    finished = fields.Integer(metadata={"description": "Finished games, rated or not"})
    first_places = fields.Integer()
    average_place = fields.Float(allow_none=True, metadata={"description": "1 is best"})
    average_score = fields.Float(allow_none=True, metadata={
        "description": "In the game's own points (6 nimmt!: bullheads, fewer is better)"})


class RatingChangeSchema(Schema):
    game = fields.String()
    at = fields.String(metadata={"description": "When the game finished"})
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()
    change = fields.Float(metadata={"description": "What the game changed the ordinal by"})
    display = fields.Integer(metadata={"description": "The display rating after the game"})
    display_change = fields.Integer(metadata={"description": "What the game changed the "
                                                             "display rating by"})


class RecentGameSchema(Schema):
    id = fields.String()
    type = fields.String()
    title = fields.String()
    finished = fields.String()
    place = fields.Integer(metadata={"description": "The player's place: 1 is best"})
    score = fields.Raw(metadata={"description": "The player's score"})
    rated = fields.Boolean()
    rating_change = fields.Float(allow_none=True)
    players = fields.List(fields.String(allow_none=True),
                          metadata={"description": "The names at the table, by seat"})


class AccuracyMonthSchema(Schema):
    month = fields.String(metadata={"description": "The month the games finished in (UTC), "
                                                   "as YYYY-MM"})
    games = fields.Integer(metadata={"description": "The player's analysed games of the month"})
    decisions = fields.Integer(metadata={"description": "Their decisions that were a choice "
                                                        "(forced moves left out)"})
    loss_per_decision = fields.Float(allow_none=True, metadata={
        "description": "The accuracy: the mean expected loss per decision, in the game's own "
                       "units; 0 is the hard bot's search's best play, lower is better. Null "
                       "when no decision was a choice"})
    luck_per_deal = fields.Float(allow_none=True, metadata={
        "description": "The mean luck of the player's deals, in the game's own units: 0 is an "
                       "average hand, positive cards better than the table's"})


class ProfileSchema(Schema):
    id = fields.String()
    name = fields.String()
    bot = fields.Boolean(metadata={"description": "A program: a bot level, or a player "
                                                  "registered as a bot"})
    member_since = fields.String(allow_none=True, metadata={
        "description": "When the player registered; null for a bot level"})
    games = fields.Dict(keys=fields.String(), values=fields.Nested(GameStatsSchema), metadata={
        "description": "By game type: the player's finished games"})
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(RatingSchema), metadata={
        "description": "By game type: the current rating (OpenSkill, Plackett-Luce)"})
    rating_history = fields.Dict(
        keys=fields.String(), values=fields.List(fields.Nested(RatingChangeSchema)),
        metadata={"description": "By game type: the last 50 rating changes, newest first"})
    recent_games = fields.List(fields.Nested(RecentGameSchema), metadata={
        "description": "The last finished games the caller may see (public ones, and those "
                       "the caller sat at), newest first"})
    accuracy = fields.Dict(
        keys=fields.String(), values=fields.List(fields.Nested(AccuracyMonthSchema)),
        metadata={"description": "By game type: the player's accuracy and luck in their "
                                 "analysed games (requestAnalysis), month by month, the newest "
                                 "12 first; only games the caller may see"})
    can_challenge = fields.Boolean(metadata={
        "description": "Whether the caller may challenge the player: name their seat "
                       "(`{\"player\": id}`) in createGame. False when anonymous, for the "
                       "caller's own profile, a bot level, and when either blocks the other"})
