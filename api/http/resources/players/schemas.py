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


class AccountDeletionSchema(Schema):
    confirm = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={
        "description": "Your player id: names the account this request deletes, so a request "
                       "made for another account, or sent by mistake, deletes nothing",
        "example": "5f0c2a9e41b7d3c8"})


EXPORT_KINDS = ("player", "device", "passkey", "friend", "block", "rating", "rating_change",
                "webhook", "game")


class ExportLineSchema(Schema):
    """One line of the export: `kind` says which fields it has."""
    kind = fields.String(required=True, validate=validate.OneOf(EXPORT_KINDS), metadata={
        "description": "player (first, once), then device, passkey, friend, block, rating, "
                       "rating_change, webhook, then game (every finished game, oldest first)"})
    id = fields.String(metadata={"description": "The player's, device's, passkey's, friend's, "
                                                "blocked player's or game's id"})
    name = fields.String(metadata={"description": "The player's, passkey's, friend's or "
                                                  "blocked player's name"})
    bot = fields.Boolean()
    member_since = fields.String(allow_none=True)
    friend_code = fields.String(allow_none=True, metadata={"description": "player: your live "
                                                                         "friend link's code"})
    clock = fields.Dict(metadata={"description": "player: as getClock answers it"})
    settings = fields.Dict(metadata={"description": "player: the clock's settings as kept"})
    label = fields.String(metadata={"description": "device: its label"})
    created = fields.String()
    current = fields.Boolean(metadata={"description": "device: the one that asked"})
    last_used = fields.String(allow_none=True)
    type = fields.String(metadata={"description": "rating, rating_change, game: the game type"})
    ordinal = fields.Float()
    display = fields.Integer()
    mu = fields.Float()
    sigma = fields.Float()
    games = fields.Integer()
    provisional = fields.Boolean()
    finished = fields.Raw(metadata={"description": "rating: games finished (a number); "
                                                   "game: when it finished"})
    first_places = fields.Integer()
    average_place = fields.Float(allow_none=True)
    average_score = fields.Float(allow_none=True)
    game = fields.String(metadata={"description": "rating_change: the game that made it"})
    at = fields.String()
    change = fields.Float()
    url = fields.String(metadata={"description": "webhook: where it delivers"})
    players = fields.List(fields.String(), metadata={"description": "game: the seats' names"})
    place = fields.Integer()
    score = fields.Raw()
    rated = fields.Boolean()
    rating_change = fields.Float(allow_none=True)
    record = fields.Dict(allow_none=True, metadata={
        "description": "game: the record as getGameRecord answers it (null while a duplicate "
                       "round is not over)"})
