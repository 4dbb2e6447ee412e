from marshmallow import Schema, fields, validate

from api.http.destinations import destination

CREATED = {"description": "When the webhook was set", "format": "date-time"}


class WebhookSetSchema(Schema):
    url = fields.Url(schemes={"http", "https"}, required=True,
                     validate=[validate.Length(max=2048), destination()], metadata={
        "description": "Where your events go: an https URL at a public address (on a server "
                       "that listens on loopback only, `make run`'s default, also "
                       "http://localhost or http://127.0.0.1, to try a receiver)",
        "example": "https://bot.example/poyta"})


class WebhookCreatedSchema(Schema):
    url = fields.String(metadata={"description": "Where your events go"})
    secret = fields.String(metadata={
        "description": "The signing secret (`whsec_` and base64): shown this once; verify "
                       "each delivery with it (`standardwebhooks`)",
        "example": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"})
    created = fields.String(metadata=CREATED)
    note = fields.String(metadata={
        "description": "Only when the URL is on this server's own machine: why it is allowed "
                       "here and nowhere else"})


class WebhookTestResultSchema(Schema):
    at = fields.String(metadata={"description": "When it was sent", "format": "date-time"})
    event = fields.String(metadata={"description": "The ping's `webhook-id`"})
    type = fields.String(metadata={"description": "Always `ping`"})
    status = fields.Integer(allow_none=True, metadata={
        "description": "What your receiver answered; null: no answer (unreachable or refused)"})
    delivered = fields.Boolean(metadata={"description": "Your receiver answered 2xx"})
    error = fields.String(allow_none=True)


class WebhookRedeliverySchema(Schema):
    pending = fields.Integer(metadata={"description": "Events now waiting to be delivered, "
                                                      "the ones sent again first"})


class WebhookDeliverySchema(Schema):
    at = fields.String(metadata={"description": "When it was tried", "format": "date-time"})
    event = fields.String(metadata={"description": "The event's `webhook-id`"})
    type = fields.String(metadata={"description": "The event's type"})
    status = fields.Integer(allow_none=True, metadata={
        "description": "What your receiver answered; null: no answer (unreachable or refused)"})
    outcome = fields.String(validate=validate.OneOf(["delivered", "dropped", "retrying"]),
                            metadata={"description": "delivered (2xx); dropped (another 3xx or "
                                                     "4xx, or a refused address: not sent "
                                                     "again); retrying (429, 5xx, no answer)"})
    error = fields.String(allow_none=True)


class WebhookSchema(Schema):
    url = fields.String(metadata={"description": "Where your events go"})
    created = fields.String(metadata=CREATED)
    pending = fields.Integer(metadata={"description": "Events waiting to be delivered"})
    failures = fields.Integer(metadata={"description": "Attempts failed in a row, for now"})
    dropped = fields.Integer(metadata={"description": "Events dropped: refused by your "
                                                      "receiver, or waiting too long"})
    undelivered = fields.Integer(metadata={
        "description": "Events your receiver refused, kept for redeliverWebhook"})
    last_delivery = fields.Nested(WebhookDeliverySchema, allow_none=True, metadata={
        "description": "The last attempt; null before the first"})
