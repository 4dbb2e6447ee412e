"""Every POST the server makes to a URL a user gave, as the contract's OpenAPI 3.1 `webhooks`:
a player's events and their `ping` (`api.tables.webhooks`), a game's turn notices
(`api.tables.notices`), with what each answer means (`api.tables.delivery`)."""
from __future__ import annotations

REF = "#/components/schemas/"
STREAMED = ("StreamGameStarted", "StreamYourTurn", "StreamGameFinished", "StreamChat")
SIGNED = [
    {"in": "header", "name": "webhook-id", "required": True, "schema": {"type": "string"},
     "description": "The same for the same event on every attempt: drop one you handled"},
    {"in": "header", "name": "webhook-timestamp", "required": True,
     "schema": {"type": "string", "pattern": "^[0-9]+$"},
     "description": "The attempt's time, in seconds since 1970"},
    {"in": "header", "name": "webhook-signature", "required": True,
     "schema": {"type": "string", "pattern": "^v1,"},
     "description": "`v1,` and the base64 HMAC-SHA256, under the secret's bytes, of "
                    "`<webhook-id>.<webhook-timestamp>.<body>` (Standard Webhooks)"},
]
RETRIED = {"description": "Tried again with the same `webhook-id` after 1, 5 and 15 s, then "
                          "later and later, up to hourly; the events behind it wait"}
EVENT_ANSWERS = {
    "2XX": {"description": "Delivered: the event leaves the server"},
    "429": RETRIED,
    "5XX": RETRIED,
    "default": {"description": "Any other answer (3xx, another 4xx) drops the event, kept "
                               "for redeliverWebhook"},
}
NOTICE_ANSWERS = {
    "2XX": {"description": "Delivered"},
    "429": {"description": "Tried again after 1, 5 and 15 s"},
    "5XX": {"description": "Tried again after 1, 5 and 15 s"},
    "default": {"description": "Any other answer drops the notice"},
}
SCHEMAS = {
    "WebhookEvent": {
        "type": "object", "description": "One event of the player's stream, as a webhook "
                                         "carries it",
        "properties": {
            "type": {"type": "string", "enum": ["game_started", "your_turn", "game_finished",
                                                "chat"]},
            "timestamp": {"type": "string", "format": "date-time",
                          "description": "When the server found the event"},
            "data": {"oneOf": [{"$ref": f"{REF}{name}"} for name in STREAMED],
                     "description": "The stream's event exactly"}},
        "required": ["type", "timestamp", "data"]},
    "WebhookPing": {
        "type": "object", "description": "What testWebhook sends",
        "properties": {
            "type": {"type": "string", "const": "ping"},
            "timestamp": {"type": "string", "format": "date-time"},
            "data": {"type": "object", "required": ["type", "at"], "properties": {
                "type": {"type": "string", "const": "ping"},
                "at": {"type": "string", "format": "date-time"}}}},
        "required": ["type", "timestamp", "data"]},
    "TurnNotice": {
        "type": "object", "description": "A game's webhook: Discord reads `content`, Slack "
                                         "`text`; a player's name can mention nobody",
        "properties": {"content": {"type": "string"}, "text": {"type": "string"},
                       "username": {"type": "string"},
                       "allowed_mentions": {"type": "object", "properties": {
                           "parse": {"type": "array", "items": {"type": "string"}}}}},
        "required": ["content", "text", "username", "allowed_mentions"]},
}


def _delivery(operation_id: str, summary: str, description: str, schema: str,
              signed: bool, answers: dict) -> dict:
    return {"post": {
        "operationId": operation_id, "summary": summary, "description": description,
        "tags": ["webhooks"], **({"parameters": SIGNED} if signed else {}),
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"{REF}{schema}"}}}},
        "responses": answers}}


WEBHOOKS = {
    "event": _delivery(
        "receiveEvent", "Your stream's events, POSTed to your webhook (setWebhook)",
        "One POST per event, in order, from the `notices` worker; verify the signature on "
        "the raw body before trusting it (`standardwebhooks`).", "WebhookEvent", True,
        EVENT_ANSWERS),
    "ping": _delivery(
        "receivePing", "A signed ping (testWebhook)",
        "Sent once while testWebhook waits; its answer is testWebhook's. Never retried.",
        "WebhookPing", True, {"2XX": {"description": "Delivered"},
                              "default": {"description": "Not delivered: testWebhook says "
                                                         "what came back"}}),
    "gameTurn": _delivery(
        "receiveTurnNotice", "A human's turn began, to a game's webhook (createGame's "
                             "`webhook`)",
        "Also a reminder of time running out, in the same shape. Unsigned: it is a chat "
        "channel's incoming webhook.", "TurnNotice", False, NOTICE_ANSWERS),
}
