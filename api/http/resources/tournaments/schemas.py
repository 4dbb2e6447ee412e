from marshmallow import Schema, fields, validate

from api.http.resources.games.schemas import StrictBoolean
from api.tables.tournament_model import FORMATS, LISTS, MAX_ENTRANTS, RANKINGS


class TournamentCreateSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=60),
                         metadata={"example": "Friday Swiss"})
    type = fields.String(required=True, metadata={"example": "sixnimmt"})
    table_size = fields.Integer(required=True, strict=True, metadata={
        "description": "Players at each table: within the game's player range, and not a "
                       "partnership count (422 `impossible_table_size`)", "example": 4})
    format = fields.String(load_default="swiss", validate=validate.OneOf(FORMATS), metadata={
        "description": "swiss: tables by standing each round; round_robin: a group of up to 8 "
                       "in which every player meets every other"})
    rounds = fields.Integer(strict=True, load_default=None, allow_none=True, metadata={
        "description": "Rounds of a Swiss (required), or of a round robin of tables of three or "
                       "more (default: the fewest in which each could meet every other); a "
                       "2-player round robin plays every pair once", "example": 4})
    cap = fields.Integer(strict=True, load_default=16, metadata={
        "description": f"Most entrants, 2 to {MAX_ENTRANTS} (8 for a round robin): "
                       "422 `too_many_entrants` beyond", "example": 12})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "The game's options, as in createGame"})
    pace = fields.String(load_default="1d", metadata={
        "description": "Time per move, as in createGame; no turn runs past the round's end"})
    round_hours = fields.Float(load_default=72, metadata={
        "description": "The longest a round lasts, 1 to 1440 hours: then stand-in bots finish "
                       "its games"})
    bot_level = fields.String(load_default=None, allow_none=True, metadata={
        "description": "The level of the house's bot that fills tables the entrants do not "
                       "(its result counts for the table; it never ranks)"})
    starts_at = fields.AwareDateTime(load_default=None, allow_none=True, metadata={
        "description": "When it starts with whoever entered; null: when full"})
    public = StrictBoolean(load_default=True, metadata={
        "description": "Listed and open to all; false: joined with its invite, which only the "
                       "creator is shown"})
    rated = StrictBoolean(load_default=True)
    duplicate = StrictBoolean(load_default=False, metadata={
        "description": "Every table of a round is dealt the same cards (one seed a round), "
                       "seated in a secret order; each seat also scores matchpoints against "
                       "everyone who held its cards"})
    rank_by = fields.String(load_default="points", validate=validate.OneOf(RANKINGS), metadata={
        "description": "points (placement points) or matchpoints (duplicate only)"})


class TournamentListQuerySchema(Schema):
    list = fields.String(load_default="open", validate=validate.OneOf(LISTS), metadata={
        "description": "open: public and taking entrants; mine: those you entered; finished"})


class JoinTournamentSchema(Schema):
    invite = fields.String(load_default=None, allow_none=True, metadata={
        "description": "A private tournament's invite"})


class TournamentSummarySchema(Schema):
    id = fields.String()
    name = fields.String()
    type = fields.String()
    format = fields.String()
    table_size = fields.Integer()
    status = fields.String(metadata={"description": "open, running, finished or cancelled (it "
                                                    "started with fewer than two)"})
    entrants = fields.Integer()
    cap = fields.Integer()
    round_count = fields.Integer(metadata={"description": "Rounds to play (a round robin's, "
                                                          "once it started)"})
    current_round = fields.Integer(metadata={"description": "Rounds paired so far"})
    public = fields.Boolean()
    duplicate = fields.Boolean()
    starts_at = fields.String(allow_none=True)
    entered = fields.Boolean(metadata={"description": "You are an entrant"})


class TournamentTableSchema(Schema):
    game_id = fields.String(metadata={"description": "Opens getGame (for its players)"})
    players = fields.List(fields.String(), metadata={
        "description": "The entrants at the table, in standing order (not seat order)"})
    bots = fields.Integer(metadata={"description": "Seats the house's bot fills"})
    points = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={
        "description": "Placement points by player, once the round is over"})
    matchpoints = fields.Dict(keys=fields.String(), values=fields.Float(), allow_none=True,
                              metadata={"description": "Duplicate deals: by player, once the "
                                                       "round is over"})


class TournamentRoundSchema(Schema):
    number = fields.Integer()
    over = fields.Boolean()
    started = fields.String()
    deadline = fields.String(metadata={"description": "When stand-in bots finish its games"})
    seed = fields.Integer(allow_none=True, metadata={
        "description": "Duplicate deals: the round's seed, once the round is over"})
    tables = fields.List(fields.Nested(TournamentTableSchema))


class StandingSchema(Schema):
    rank = fields.Integer()
    player_id = fields.String()
    name = fields.String(allow_none=True)
    points = fields.Float(metadata={"description": "Placement points: n - place at a table of "
                                                   "n, shared by ties"})
    matchpoints = fields.Float(metadata={
        "description": "Duplicate deals: in each deal, 1 for each player who held the same "
                       "cards at another table and scored worse in it, 1/2 for each equal; "
                       "summed over every deal of every round"})
    opponents_points = fields.Float(metadata={
        "description": "The first tie-break: the points (or matchpoints, as the tournament "
                       "ranks) of every opponent met"})
    rating = fields.Float(metadata={"description": "The second: the rating at the start"})
    withdrawn = fields.Boolean(metadata={"description": "Left, or timed out a whole round: "
                                                        "paired no more"})


class EntrantSchema(Schema):
    player_id = fields.String()
    name = fields.String(allow_none=True)


class TournamentSchema(TournamentSummarySchema):
    options = fields.Dict()
    pace = fields.String()
    round_hours = fields.Float()
    bot_level = fields.String()
    rated = fields.Boolean()
    rank_by = fields.String()
    creator = fields.String()
    invite = fields.String(allow_none=True, metadata={"description": "Shown to its creator"})
    entrants_list = fields.List(fields.Nested(EntrantSchema))
    withdrawn = fields.Boolean(metadata={"description": "You were withdrawn"})
    rounds = fields.List(fields.Nested(TournamentRoundSchema))
    standings = fields.List(fields.Nested(StandingSchema))
