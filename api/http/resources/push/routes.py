from flask import url_for
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.push.schemas import SubscribeSchema, SubscriptionCreatedSchema, VapidKeySchema

blp = tags.push


@blp.route("/push/key")
class Key(MethodView):
    @blp.doc(operationId="getPushKey")
    @blp.response(200, VapidKeySchema)
    def get(self):
        """The server's VAPID public key, for PushManager.subscribe"""
        return {"public_key": tables().push.public_key()}


@blp.route("/push/subscriptions")
class Subscriptions(MethodView):
    @blp.doc(operationId="subscribePush")
    @authenticated
    @blp.arguments(SubscribeSchema())
    @blp.response(201, SubscriptionCreatedSchema)
    def post(self, body):
        """Send this device 'your turn' notices (subscribing again renews it)"""
        player = current_player()
        subscription_id = tables().push.subscribe(player, body["subscription"])
        return {"id": subscription_id}, {
            "Location": url_for("push.Subscription", subscription_id=subscription_id)}


@blp.route("/push/subscriptions/<string:subscription_id>")
class Subscription(MethodView):
    @blp.doc(operationId="unsubscribePush")
    @authenticated
    @blp.response(204)
    def delete(self, subscription_id):
        """Stop the notices on that device"""
        player = current_player()
        tables().push.unsubscribe(player, subscription_id)
