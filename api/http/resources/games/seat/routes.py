"""A player's seat at a game's table: leaving a game before it starts, declining a seat kept
for them, resigning it to a bot."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.games.routes import GAME_VIEW, view_json

blp = tags.table


@blp.route("/games/<string:game_id>/leave")
class Leave(MethodView):
    @blp.doc(operationId="leaveGame")
    @authenticated
    @blp.response(204)
    def post(self, game_id):
        """Leave a game that has not started: your seat opens again, with a new invite link

        The last player to leave deletes the game. A game in progress is resigned instead (409).
        """
        tables().seating.leave(game_id, current_player())


@blp.route("/games/<string:game_id>/decline")
class Decline(MethodView):
    @blp.doc(operationId="declineSeat")
    @authenticated
    @blp.response(204)
    def post(self, game_id):
        """Decline the seat kept for you (a challenge): it opens again with a new invite link

        The table is told (a `declined` event); the game leaves your inbox. Take the seat
        instead with joinGame."""
        tables().challenges.decline(game_id, current_player())


@blp.route("/games/<string:game_id>/resign")
class Resign(MethodView):
    @blp.doc(operationId="resign")
    @authenticated
    @blp.response(200, GAME_VIEW)
    def post(self, game_id):
        """Give up your seat for good: a bot plays it to the end, and the game says you resigned"""
        player = current_player()
        stored = tables().play.resign(game_id, player)
        return view_json(stored, stored.seat_of(player.id))
