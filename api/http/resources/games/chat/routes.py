"""Table talk: short messages between a game's players, read by long-poll."""
from flask import current_app, url_for
from flask.views import MethodView

from api import telemetry
from api.http import auth
from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.games.chat.schemas import (ChatQuerySchema, ChatSchema, MessageSchema,
                                                   SaySchema)
from api.storage.changes import chat_channel

blp = tags.table


@blp.route("/games/<string:game_id>/chat")
class Chat(MethodView):
    @blp.doc(operationId="getChat")
    @authenticated
    @blp.arguments(ChatQuerySchema(), location="query")
    @blp.response(200, ChatSchema)
    def get(self, query, game_id):
        """The latest messages at the table (its players, and anyone watching a public game)

        With `wait`, held until a message newer than `after` is said, or `wait` seconds.
        """
        player = current_player(required=False)
        read = lambda: tables().chat.read(game_id, player, query["after"])  # noqa: E731
        if not query["wait"]:
            return read()
        with telemetry.long_poll_held():
            heard = current_app.extensions["poyta_changes"].hold(
                chat_channel(game_id), read, lambda seen: not seen["messages"], query["wait"])
        auth.recheck()
        return heard

    @blp.doc(operationId="say")
    @authenticated
    @blp.arguments(SaySchema())
    @blp.response(201, MessageSchema)
    def post(self, body, game_id):
        """Say something at the table: one short line, a few a minute"""
        said = tables().chat.say(game_id, current_player(), body["text"])
        return said, {"Location": url_for("table.Chat", game_id=game_id, after=said["number"] - 1)}
