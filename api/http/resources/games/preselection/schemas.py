from marshmallow import Schema, fields


class PreselectSchema(Schema):
    action = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The card to play when your turn comes: a `play` action with a card "
                       "in your hand", "example": {"type": "play", "card": 37}})


class PreselectionSchema(Schema):
    action = fields.Dict(allow_none=True, metadata={
        "description": "Your card chosen ahead; null: none"})
