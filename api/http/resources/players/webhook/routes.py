"""Your webhook: your event stream (`streamEvents`) POSTed to a URL of yours, signed per
Standard Webhooks (`api.tables.webhooks`)."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.http_contract import NOT_FOUND
from api.http.resources import tags
from api.http.resources.players.webhook.schemas import (
    WebhookCreatedSchema, WebhookTestResultSchema, WebhookRedeliverySchema, WebhookSchema,
    WebhookSetSchema,
)

blp = tags.webhooks


@blp.route("/players/me/webhook")
class Webhook(MethodView):
    @blp.doc(operationId="setWebhook")
    @authenticated
    @blp.arguments(WebhookSetSchema())
    @blp.response(200, WebhookCreatedSchema)
    def put(self, body):
        """Send your events to this URL, signed with a new secret shown only in this answer

        Replaces your webhook if you had one. The events are your stream's (`game_started`,
        `your_turn`, `game_finished`, `chat`), one POST each, starting with your games going
        on; each carries `webhook-id`, `webhook-timestamp` and `webhook-signature` (Standard
        Webhooks). Failures (no answer, 429, 5xx) are retried with backoff."""
        return tables().webhooks.set(current_player(), body["url"])

    @blp.doc(operationId="getWebhook")
    @authenticated
    @blp.response(200, WebhookSchema)
    @blp.alt_response(404, response=NOT_FOUND)  # you have none
    def get(self):
        """Your webhook: its URL and its last delivery (never its secret)"""
        return tables().webhooks.describe(current_player())

    @blp.doc(operationId="deleteWebhook")
    @authenticated
    @blp.response(204)
    @blp.alt_response(404, response=NOT_FOUND)
    def delete(self):
        """Stop sending your events to your webhook"""
        tables().webhooks.remove(current_player())


@blp.route("/players/me/webhook/test")
class WebhookTest(MethodView):
    @blp.doc(operationId="testWebhook")
    @authenticated
    @blp.response(200, WebhookTestResultSchema)
    @blp.alt_response(404, response=NOT_FOUND)
    def post(self):
        """Send a signed `ping` to your webhook now and say what it answered

        Signed as every delivery is (the `ping` webhook in the contract): a receiver that
        verifies it verifies the events. Not kept and not retried."""
        return tables().webhooks.ping(current_player())


@blp.route("/players/me/webhook/redeliver")
class WebhookRedeliver(MethodView):
    @blp.doc(operationId="redeliverWebhook")
    @authenticated
    @blp.response(200, WebhookRedeliverySchema)
    @blp.alt_response(404, response=NOT_FOUND)
    def post(self):
        """Send the undelivered events again, now

        The events your receiver refused (a 3xx or 4xx answer), ahead of those waiting, and
        those waiting after failures without waiting for the next try (409 `busy` while a
        delivery is running)."""
        return tables().webhooks.redeliver(current_player())
