"""Play now: seeks, and the tables matchmaking forms from them."""
from flask import url_for
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.seeks.schemas import SeekCreateSchema, SeekSchema

blp = tags.seeks


@blp.route("/seeks")
class Seeks(MethodView):
    @blp.doc(operationId="createSeek")
    @authenticated
    @blp.arguments(SeekCreateSchema())
    @blp.response(201, SeekSchema)
    def post(self, body):
        """Seek a table: one or several game types, player counts, paces

        A table starts when it holds the largest count all its seekers accept, or the smallest
        once its first seeker waited the grace period; blocks hold both ways. Each seeker finds
        the game in the inbox and on the stream. An impossible combination is 422 naming the
        `field`; more than 5 open seeks, or seeking beyond your game quotas, 429; on vacation,
        409."""
        seek = tables().seeks.create(current_player(), **body)
        return seek, 201, {"Location": url_for("seeks.Seek", seek_id=seek["id"])}

    @blp.doc(operationId="listMySeeks")
    @authenticated
    @blp.response(200, SeekSchema(many=True))
    def get(self):
        """Your seeks still waiting, the oldest first, with how long each has waited"""
        return tables().seeks.mine(current_player())


@blp.route("/seeks/<string:seek_id>")
class Seek(MethodView):
    @blp.doc(operationId="getSeek")
    @authenticated
    @blp.response(200, SeekSchema)
    def get(self, seek_id):
        """One of your seeks: waiting, seated (with its game), cancelled or lapsed"""
        return tables().seeks.get(current_player(), seek_id)

    @blp.doc(operationId="cancelSeek")
    @authenticated
    @blp.response(200, SeekSchema)
    def delete(self, seek_id):
        """Cancel a seek (again: the same answer); 409 once its table is being made"""
        return tables().seeks.cancel(current_player(), seek_id)
