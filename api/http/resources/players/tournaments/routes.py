"""/api/v1/players/me/tournaments/next: the caller's next game in each tournament they play in,
for the top of their inbox."""
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.resources.players.tournaments.schemas import NextTournamentGameSchema

blp = tags.tournaments


@blp.route("/players/me/tournaments/next")
class NextTournamentGames(MethodView):
    @blp.doc(operationId="getNextTournamentGames")
    @authenticated
    @blp.response(200, NextTournamentGameSchema(many=True))
    def get(self):
        """Your next game in each tournament you play in: your table of the round in play
        first, then the rounds you wait for and when they start at the latest"""
        return tables().tournament_lists.next_games(current_player())
