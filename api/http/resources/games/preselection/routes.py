"""The card a player chooses ahead at a table, played for them when their turn comes."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.games.preselection.schemas import PreselectionSchema, PreselectSchema

blp = tags.clock


@blp.route("/games/<string:game_id>/preselection")
class Preselection(MethodView):
    @blp.doc(operationId="getPreselection")
    @authenticated
    @blp.response(200, PreselectionSchema)
    def get(self, game_id):
        """Your card chosen ahead at this table (only you see it)"""
        return tables().preselection.get(game_id, current_player())

    @blp.doc(operationId="preselect")
    @authenticated
    @blp.arguments(PreselectSchema())
    @blp.response(200, PreselectionSchema)
    def put(self, body, game_id):
        """Choose the card to play when your turn comes; dropped then if no longer legal

        Only while it is not your turn, with choosing ahead on in your clock. Nobody else
        learns of it before it is played."""
        return tables().preselection.choose(game_id, current_player(), body["action"])

    @blp.doc(operationId="clearPreselection")
    @authenticated
    @blp.response(204)
    def delete(self, game_id):
        """Clear your card chosen ahead"""
        tables().preselection.clear(game_id, current_player())
