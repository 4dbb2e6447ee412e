from marshmallow import Schema, fields


class OpenDataFileSchema(Schema):
    type = fields.String(metadata={"description": "The game type (listGameTypes)"})
    month = fields.String(metadata={"description": "The month the games finished in, UTC: "
                                                   "YYYY-MM"})
    games = fields.Integer(metadata={
        "description": "Public games of the type that finished in the month: the file's lines"})
    complete = fields.Boolean(metadata={
        "description": "The month is over. A game archived late (after an outage of the "
                       "archive) may still join its month's file: its ETag tells"})
    file_name = fields.String(metadata={"description": "poyta-<type>-<month>.jsonl.gz"})
    url = fields.String(metadata={"description": "Where getOpenDataFile serves it"})


class OpenDataSchema(Schema):
    format = fields.Integer(metadata={
        "description": "The version of a line's format, each line's `format` (docs/open-data.md)"})
    files = fields.List(fields.Nested(OpenDataFileSchema), metadata={
        "description": "Every file, by game type then month"})
