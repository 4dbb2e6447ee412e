from marshmallow import Schema, fields, validate

from api.http.budgets import MAX_WAIT
from api.http.destinations import destination
from api.tables.history import EVENTS_PAGE, MAX_EVENTS_PAGE
class StrictBoolean(fields.Boolean):
    """JSON true or false only: not 0, 1 or "yes", which the spec does not allow either."""

    def _deserialize(self, value, attr, data, **kwargs):
        if type(value) is not bool:
            raise self.make_error("invalid")
        return value


class TimeBankSchema(Schema):
    initial = fields.Integer(required=True, strict=True, metadata={
        "description": "Seconds each seat starts with (1 hour to 30 days)", "example": 259200})
    per_move = fields.Integer(required=True, strict=True, metadata={
        "description": "Seconds added after each move (0 to 7 days)", "example": 43200})
    most = fields.Integer(required=True, strict=True, metadata={
        "description": "The most a bank holds (at least `initial`, at most 60 days)",
        "example": 432000})


class GameCreateSchema(Schema):
    type = fields.String(required=True, metadata={"example": "sixnimmt"})
    players = fields.Integer(required=True, strict=True, metadata={"example": 4})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "See GET /games/types for each game's options"})
    seats = fields.List(fields.Raw(), required=True, metadata={
        "description": "One entry per seat: \"human\", {\"player\": \"<id>\"} (a challenge) or "
                       "{\"bot\": \"<level>\"}; seat 0 is the creator's",
        "example": ["human", {"bot": "easy"}, {"bot": "easy"}, {"bot": "easy"}]})
    pace = fields.String(metadata={
        "description": "Time per move before a bot stands in: none (only against bots), "
                       "5m, 1h, 1d (the default) or 3d; counted in each player's waking hours"})
    vacation = StrictBoolean(load_default=True, metadata={
        "description": "Players' vacations pause their clocks; false: no pauses (tournaments)"})
    time_bank = fields.Nested(TimeBankSchema, allow_none=True, load_default=None, metadata={
        "description": "Instead of a pace: a bank of time per seat that each move draws on"})
    public = StrictBoolean(load_default=False, metadata={
        "description": "Listed in the lobby and open to spectators"})
    rated = StrictBoolean(load_default=True, metadata={
        "description": "The result changes its players' ratings (see getLeaderboard); false: "
                       "a friendly game, counted in their results only"})
    webhook = fields.Url(schemes={"http", "https"}, load_default=None, allow_none=True,
                         validate=[validate.Length(max=2048), destination()], metadata={
        "description": "Discord/Slack-compatible URL told whose turn it is"})


class PreviewSeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True, metadata={"description": "Bot level, or null for a human"})
    open = fields.Boolean(metadata={"description": "Nobody has taken it yet, and it is not kept for "
                                                   "another player"})
    kept_for_another = fields.Boolean(metadata={
        "description": "Kept for a named player who is not you: only they may take it"})


class InvitePreviewSchema(Schema):
    game = fields.String(metadata={"description": "The game's id"})
    type = fields.String()
    title = fields.String()
    players = fields.Integer()
    seat = fields.Integer(metadata={"description": "The seat the link is for"})
    host = fields.String(allow_none=True, metadata={"description": "Who invited: the game's creator"})
    options = fields.Dict()
    pace = fields.String(allow_none=True, metadata={"description": "Time per move (see GameCreate)"})
    time_bank = fields.Nested(TimeBankSchema, allow_none=True)
    public = fields.Boolean()
    seats = fields.List(fields.Nested(PreviewSeatSchema))


class WaitSchema(Schema):
    wait = fields.Integer(validate=validate.Range(min=0, max=MAX_WAIT), load_default=0, metadata={
        "description": "With If-None-Match: wait up to this many seconds for a change"})


class EventQuerySchema(Schema):
    after = fields.Integer(validate=validate.Range(min=0, max=2**31), load_default=0,
                           metadata={"description": "Only events numbered above this"})
    limit = fields.Integer(validate=validate.Range(min=1, max=MAX_EVENTS_PAGE),
                           load_default=EVENTS_PAGE, metadata={
                               "description": "At most this many events from `after` on "
                                              "(fewer may be shown: those the caller may see)"})


class JoinSchema(Schema):
    seat = fields.Integer(strict=True, validate=validate.Range(min=0),
                          metadata={"description": "Omit to take the first open seat"})


class ActionRequestSchema(Schema):
    action = fields.Dict(keys=fields.String(), required=True,
                         metadata={"example": {"type": "play", "card": 37}})
    version = fields.Integer(strict=True, metadata={
        "description": "The `version` of the view you decided on: 409 if anything you can see "
                       "changed after it (another seat's secret choice does not count)"})


class OutcomeSchema(Schema):
    scores = fields.List(fields.Raw())
    winners = fields.List(fields.Integer())
    resigned = fields.Integer(metadata={"description": "The seat whose player resigned a "
                                                       "two-player game, which ended there"})


class SummaryPlayerSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    score = fields.Raw()
    resigned = fields.Boolean(metadata={"description": "Its player resigned"})


class InvitationSchema(Schema):
    seat = fields.Integer(metadata={"description": "The seat kept for you: take it with "
                                                   "joinGame, or declineSeat"})
    sent_by = fields.String(allow_none=True, attribute="from", data_key="from",
                            metadata={"description": "Who asks you to play"})


class GameTournamentSchema(Schema):
    id = fields.String(metadata={"description": "Opens getTournament"})
    round = fields.Integer()


class GameSummarySchema(Schema):
    id = fields.String()
    type = fields.String()
    title = fields.String()
    status = fields.String()
    your_seat = fields.Integer(allow_none=True)
    your_turn = fields.Boolean()
    deadline = fields.String(allow_none=True)
    updated = fields.String()
    players = fields.List(fields.Nested(SummaryPlayerSchema))
    open_seats = fields.Integer()
    outcome = fields.Nested(OutcomeSchema, allow_none=True,
                            metadata={"description": "The result, once the game is over"})
    your_place = fields.Integer(allow_none=True, metadata={
        "description": "The caller's place in the finished game (1: won); `updated` is when "
                       "it ended"})
    invitation = fields.Nested(InvitationSchema, allow_none=True, metadata={
        "description": "A seat this waiting game keeps for you (a challenge or a rematch); "
                       "null otherwise"})
    tournament = fields.Nested(GameTournamentSchema, allow_none=True, metadata={
        "description": "The tournament and round this game is a table of; null otherwise. The "
                       "inbox lists a tournament's game in play first"})


class EventsSchema(Schema):
    type = fields.String(metadata={"description": "The game's type"})
    events = fields.List(fields.Dict(), metadata={
        "description": "What happened, as the caller may know it: each with its `number`, "
                       "`type`, the game `version` it led to, and the details of its type"})
    last = fields.Integer(metadata={"description": "Send as `after` to get only newer events"})
    next = fields.Integer(allow_none=True, metadata={
        "description": "Send as `after` for the next page: more events are there already; "
                       "null when this answer reaches the newest"})


class OptionSchema(Schema):
    name = fields.String()
    type = fields.String(metadata={"enum": ["bool", "int", "choice"]})
    default = fields.Raw()
    description = fields.String()
    choices = fields.List(fields.Raw())
    minimum = fields.Integer()
    maximum = fields.Integer()


class BotLevelSchema(Schema):
    name = fields.String()
    description = fields.String()


class GameTypeSchema(Schema):
    type = fields.String()
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    lower_score_wins = fields.Boolean()
    options = fields.List(fields.Nested(OptionSchema))
    bot_levels = fields.List(fields.Nested(BotLevelSchema))
    rules_page = fields.String()


class RulesPageSchema(Schema):
    type = fields.String()
    markdown = fields.String()


class ChapterSchema(Schema):
    deal = fields.Integer(metadata={"description": "The deal's (or round's) number, from 1"})
    step = fields.Integer(metadata={"description": "The replay step at which it begins"})


class TrickChapterSchema(Schema):
    deal = fields.Integer(metadata={"description": "The deal's (or round's) number, from 1"})
    trick = fields.Integer(metadata={
        "description": "The trick's (in 6 nimmt! the turn's) number within the deal, from 1"})
    step = fields.Integer(metadata={
        "description": "The replay step at which it begins: none of its cards is shown yet"})


class RecordTournamentSchema(Schema):
    id = fields.String(metadata={"description": "Opens getTournament"})
    round = fields.Integer()
    table = fields.Integer()
    round_seed = fields.Integer(allow_none=True, metadata={
        "description": "A duplicate round's seed, dealt at every table: shown once the round "
                       "is over (the record itself waits for it)"})


class RecordSchema(Schema):
    id = fields.String()
    type = fields.String()
    players = fields.Integer()
    options = fields.Dict()
    seats = fields.List(fields.Dict())
    seed = fields.Integer()
    deals = fields.List(fields.Dict())
    actions = fields.List(fields.Dict())
    chapters = fields.List(fields.Nested(ChapterSchema), metadata={
        "description": "Where each deal (or round) begins: the replay step before its first action"})
    trick_chapters = fields.List(fields.Nested(TrickChapterSchema), metadata={
        "description": "Where each trick (in 6 nimmt! each turn) of each deal begins, in order"})
    outcome = fields.Nested(OutcomeSchema)
    tournament = fields.Nested(RecordTournamentSchema, metadata={
        "description": "A tournament's game: its tournament, round and table"})


class ReplayStepSchema(Schema):
    step = fields.Integer(metadata={"description": "Actions applied so far"})
    steps = fields.Integer(metadata={"description": "Actions in the whole game"})
    seat = fields.Integer(allow_none=True, metadata={"description": "Who made the last action"})
    action = fields.Dict(allow_none=True)
    hands = fields.List(fields.Raw(), metadata={"description": "Every seat's hand at this step"})
    view = fields.Dict(metadata={"description": "The table as a spectator saw it at this step"})
