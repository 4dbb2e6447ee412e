from marshmallow import Schema, fields, validate

from api.http.resources.games.schemas import StrictBoolean

CLOCK_TIME = validate.Regexp(r"^([01][0-9]|2[0-3]):[0-5][0-9]$",
                             error="a time of day as HH:MM, from 00:00 to 23:59")


class WakingSchema(Schema):
    start = fields.String(required=True, data_key="from", attribute="from", validate=CLOCK_TIME,
                          metadata={"example": "08:00"})
    end = fields.String(required=True, data_key="to", attribute="to", validate=CLOCK_TIME,
                        metadata={
        "description": "Earlier than `from`: the window crosses midnight", "example": "22:30"})


class ClockChangeSchema(Schema):
    time_zone = fields.String(allow_none=True, validate=validate.Length(max=64), metadata={
        "description": "An IANA time zone (Europe/Helsinki); null: UTC"})
    waking = fields.Nested(WakingSchema, allow_none=True, metadata={
        "description": "Your daily waking window, at least 6 hours: your time per move counts "
                       "only inside it, so no deadline of yours falls due at night; null: all day"})
    forced_moves = StrictBoolean(metadata={
        "description": "When your only legal action is one action, the server plays it for you"})
    preselect = StrictBoolean(metadata={
        "description": "You may choose the card of your next turn ahead (PUT .../preselection)"})
    digest_hour = fields.Integer(strict=True, allow_none=True, validate=validate.Range(0, 23),
                                 metadata={"description": "A daily push at this hour of your "
                                                          "day, listing the games waiting for "
                                                          "you; null: none"})


class VacationStateSchema(Schema):
    until = fields.String(allow_none=True, metadata={"description": "On vacation until then"})
    days_left = fields.Integer(metadata={"description": "Vacation days left this year"})
    days_a_year = fields.Integer()
    refills = fields.String(metadata={"description": "When the days refill: the anniversary "
                                                     "of joining"})


class ClockSchema(Schema):
    time_zone = fields.String(allow_none=True)
    waking = fields.Nested(WakingSchema, allow_none=True)
    forced_moves = fields.Boolean()
    preselect = fields.Boolean()
    digest_hour = fields.Integer(allow_none=True)
    vacation = fields.Nested(VacationStateSchema)


class VacationSchema(Schema):
    days = fields.Integer(required=True, strict=True, metadata={
        "description": "Whole days from now, 1 to 14; while away every deadline of yours "
                       "stands still (except in games created with \"vacation\": false)",
        "example": 7})
