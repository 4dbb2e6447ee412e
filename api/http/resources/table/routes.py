"""Around a game's table: leaving a game before it starts, resigning a seat to a bot, and short
messages between its players."""
from flask import current_app, url_for
from flask.views import MethodView
from api.http.blueprint import Blueprint

from api import telemetry
from api.http import auth
from api.http.auth import authenticated, current_player, tables
from api.http.resources.games.routes import GAME_VIEW, view_json
from api.storage.changes import chat_channel
from api.http.resources.table.schemas import ChatQuerySchema, ChatSchema, MessageSchema, SaySchema

blp = Blueprint("table", __name__, description="Around the table: leave, resign, talk")


@blp.route("/<string:game_id>/leave")
class Leave(MethodView):
    @blp.doc(operationId="leaveGame")
    @authenticated
    @blp.response(204)
    def post(self, game_id):
        """Leave a game that has not started: your seat opens again, with a new invite link

        The last player to leave deletes the game. A game in progress is resigned instead (409).
        """
        tables().seating.leave(game_id, current_player())


@blp.route("/<string:game_id>/decline")
class Decline(MethodView):
    @blp.doc(operationId="declineSeat")
    @authenticated
    @blp.response(204)
    def post(self, game_id):
        """Decline the seat kept for you (a challenge): it opens again with a new invite link

        The table is told (a `declined` event); the game leaves your inbox. Take the seat
        instead with joinGame."""
        tables().challenges.decline(game_id, current_player())


@blp.route("/<string:game_id>/resign")
class Resign(MethodView):
    @blp.doc(operationId="resign")
    @authenticated
    @blp.response(200, GAME_VIEW)
    def post(self, game_id):
        """Give up your seat for good: a bot plays it to the end, and the game says you resigned"""
        player = current_player()
        stored = tables().play.resign(game_id, player)
        return view_json(stored, stored.seat_of(player.id))


@blp.route("/<string:game_id>/chat")
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
