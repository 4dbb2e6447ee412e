from flask.views import MethodView
from flask_smorest import Blueprint
from werkzeug.routing import BaseConverter

from api.http.auth import current_player, tables
from api.http.resources.profiles.schemas import LeaderboardSchema, ProfileSchema

blp = Blueprint("profiles", __name__, description="Players' profiles, ratings and leaderboards")
BEARER_OR_ANONYMOUS = [{"bearer": []}, {}]


class PlayerId(BaseConverter):
    """A player's id (16 hex digits) or a bot level's (`bot-<level>`): never a word such as
    `signin` or `me`, so those paths' 405s list only their own methods."""

    regex = r"(?:[0-9a-f]{16}|bot-[a-z]+)"


blp.record_once(lambda state: state.app.url_map.converters.setdefault("player_id", PlayerId))


@blp.route("/players/<player_id:player_id>")
class PlayerProfile(MethodView):
    @blp.response(200, ProfileSchema)
    @blp.doc(security=BEARER_OR_ANONYMOUS)
    def get(self, player_id):
        """A player's (or a bot level's) results and ratings per game type

        Lists only the finished games the caller may see."""
        return tables().profiles.profile(player_id, current_player(required=False))


@blp.route("/games/types/<string:type_name>/leaderboard")
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema)
    @blp.doc(security=BEARER_OR_ANONYMOUS)
    def get(self, type_name):
        """The top 100 of a game type by ordinal (at least 10 rated games), the provisional
        players apart, and your place"""
        return tables().profiles.leaderboard(type_name, current_player(required=False))
