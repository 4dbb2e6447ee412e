from marshmallow import Schema, fields, validate


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=[validate.Length(min=1, max=40),
                                   validate.Regexp(r".*\S", error="name must not be blank")],
                         metadata={"description": "Shown to the other players", "example": "Anna"})


class PlayerSchema(Schema):
    id = fields.String(dump_only=True)
    name = fields.String(dump_only=True)


class NewPlayerSchema(PlayerSchema):
    token = fields.String(dump_only=True, metadata={
        "description": "Keep it secret: send it as 'Authorization: Bearer <token>'. "
                       "Only its hash is stored, so it cannot be shown again."})
