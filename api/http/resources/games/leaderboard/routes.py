"""A game type's leaderboard: the best rated players, and the caller's place."""
from flask.views import MethodView

from api.http.auth import current_player, optional_auth, tables
from api.http.resources import tags
from api.http.resources.games.leaderboard.schemas import LeaderboardQuerySchema, LeaderboardSchema

blp = tags.profiles


@blp.route("/games/types/<string:type_name>/leaderboard")
class Leaderboard(MethodView):
    @blp.doc(operationId="getLeaderboard")
    @optional_auth
    @blp.arguments(LeaderboardQuerySchema(), location="query")
    @blp.response(200, LeaderboardSchema)
    def get(self, query, type_name):
        """The top 100 of a game type by ordinal (at least 10 rated games), the provisional
        players apart, and your place

        Over every rated game ever played; `days` keeps only the players who played a rated
        game of the type within that many days."""
        return tables().profiles.leaderboard(type_name, current_player(required=False),
                                             query.get("days"))
