from marshmallow import Schema, fields

STATUSES = ("queued", "running", "done")


class ActionValueSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": "A legal action"})
    expected = fields.Float(required=True, metadata={
        "description": "Its expected result from the seat's view, in the game's measure"})
    error = fields.Float(required=True, metadata={"description": "The standard error of it"})


class DecisionSchema(Schema):
    step = fields.Integer(required=True, metadata={
        "description": "The decision's index in the record's actions"})
    chosen = fields.Dict(required=True, metadata={"description": "The action taken"})
    best = fields.Dict(required=True, metadata={
        "description": "The legal action with the best expected result"})
    values = fields.List(fields.Nested(ActionValueSchema), required=True, metadata={
        "description": "Every legal action's expected result; empty for a forced move"})
    loss = fields.Float(required=True, metadata={
        "description": "How much worse than the best the choice was expected to do: never "
                       "negative"})
    error = fields.Float(required=True, metadata={"description": "The standard error of the loss"})
    forced = fields.Boolean(required=True, metadata={
        "description": "Every legal action did the same: no choice, no cost"})


class DealLuckSchema(Schema):
    deal = fields.Integer(required=True)
    value = fields.Float(required=True, metadata={
        "description": "The deal's expected result with the seat's cards, every seat played by "
                       "the reference bot, over the others' mean: positive, better cards than "
                       "the table's"})
    error = fields.Float(required=True)


class SeatAnalysisSchema(Schema):
    seat = fields.Integer(required=True)
    decisions = fields.List(fields.Nested(DecisionSchema), required=True)
    total_loss = fields.Float(required=True)
    accuracy = fields.Float(required=True, allow_none=True, metadata={
        "description": "The mean loss per decision that was a choice; null without one"})
    costliest = fields.List(fields.Integer(), required=True, metadata={
        "description": "The steps of the three costliest decisions, the costliest first"})
    luck = fields.List(fields.Nested(DealLuckSchema), required=True)


class AnalysisSchema(Schema):
    status = fields.String(required=True, metadata={"enum": list(STATUSES)})
    job = fields.String(required=True, metadata={"description": "The review's job id"})
    type = fields.String(metadata={"description": "The game, once done"})
    better = fields.String(metadata={"enum": ["higher", "lower"], "description":
                                     "Which way the expected results are better, once done"})
    seats = fields.List(fields.Nested(SeatAnalysisSchema), metadata={
        "description": "Every seat's decisions and luck, once done"})
