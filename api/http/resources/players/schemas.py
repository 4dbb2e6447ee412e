from marshmallow import Schema, fields, validate

from api.http.names import Name
from api.http.resources.games.schemas import StrictBoolean


def name_field(**extra):
    return Name(metadata={"description": "Shown to the other players: 1-40 characters of one "
                                         "line that shows (no invisible, blank or bidi "
                                         "characters), not like a bot's seat (\"Bot 2 (hard)\")",
                          "example": "Anna"}, **extra)


class PlayerCreateSchema(Schema):
    name = name_field(required=True)
    bot = StrictBoolean(load_default=False, metadata={
        "description": "This player is a program; its seats are shown as automated"})


class RenameSchema(Schema):
    name = name_field(required=True)


class PlayerSchema(Schema):
    id = fields.String(dump_only=True)
    name = fields.String(dump_only=True)
    bot = fields.Boolean(dump_only=True)


class NewPlayerSchema(PlayerSchema):
    token = fields.String(dump_only=True, required=True, metadata={
        "description": "Keep it secret: send it as 'Authorization: Bearer <token>'. "
                       "Only its hash is stored, so it cannot be shown again."})


class SignInCodeSchema(Schema):
    code = fields.String(dump_only=True)
    expires_in = fields.Integer(dump_only=True, metadata={"description": "seconds"})


class SignInSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=100))
    device = fields.String(load_default="another device", validate=validate.Length(min=1, max=60),
                           metadata={"description": "A label to recognise the device by"})


class DeviceSchema(Schema):
    id = fields.String()
    label = fields.String()
    created = fields.String()
    current = fields.Boolean(metadata={"description": "The device making this request"})
