"""The review of a finished game: every seat's decisions weighed and each deal's luck."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, optional_auth, tables
from api.http.resources import tags
from api.http.resources.games.analysis.schemas import AnalysisSchema

blp = tags.analysis


@blp.route("/games/<string:game_id>/analysis")
class Analysis(MethodView):
    @blp.doc(operationId="requestAnalysis")
    @authenticated
    @blp.response(202, AnalysisSchema, description="Queued now")
    @blp.alt_response(200, schema=AnalysisSchema, description="Asked for already")
    def post(self, game_id):
        """Ask for the review of a finished game: its players, anybody for a public game

        Queued once: asking again answers its job and status. 409 while the game is in play;
        429 while you wait for two reviews already."""
        answer, queued_now = tables().analysis.request(game_id, current_player())
        return answer, 202 if queued_now else 200

    @blp.doc(operationId="getAnalysis")
    @optional_auth
    @blp.response(200, AnalysisSchema)
    def get(self, game_id):
        """The review's status, and once done every seat's decisions and luck

        404 until it is asked for; 409 while the game is in play."""
        return tables().analysis.read(game_id, current_player(required=False))
