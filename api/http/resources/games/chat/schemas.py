from marshmallow import Schema, fields, validate

from api.tables.chat import CHAT_LENGTH


class SaySchema(Schema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=CHAT_LENGTH * 4), metadata={
        "description": f"One line that shows, at most {CHAT_LENGTH} characters once trimmed (no "
                       "invisible, blank or bidi characters, as names); shown as plain text",
        "example": "Good game!"})


class ChatQuerySchema(Schema):
    after = fields.Integer(validate=validate.Range(min=0), load_default=0,
                           metadata={"description": "Only messages numbered above this"})
    wait = fields.Integer(validate=validate.Range(min=0, max=60), load_default=0, metadata={
        "description": "While no message is newer than `after`, wait up to this many seconds "
                       "for one (it comes as soon as it is said)"})


class MessageSchema(Schema):
    number = fields.Integer()
    seat = fields.Integer()
    name = fields.String()
    text = fields.String()
    at = fields.String(metadata={"description": "When it was said (UTC, ISO 8601)"})


class ChatSchema(Schema):
    messages = fields.List(fields.Nested(MessageSchema), metadata={
        "description": "The latest messages at the table after `after`, oldest first"})
    last = fields.Integer(metadata={"description": "Send as `after` to get only newer messages"})
