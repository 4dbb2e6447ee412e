from flask.views import MethodView
from werkzeug.routing import BaseConverter

from api.http.auth import current_player, optional_auth, tables
from api.http.resources import tags
from api.http.resources.players.profile.schemas import ProfileSchema

blp = tags.profiles


class PlayerId(BaseConverter):
    """A player's id (16 hex digits) or a bot level's (`bot-<level>`): never a word such as
    `signin` or `me`, so those paths' 405s list only their own methods."""

    regex = r"(?:[0-9a-f]{16}|bot-[a-z]+)"


blp.record_once(lambda state: state.app.url_map.converters.setdefault("player_id", PlayerId))


@blp.route("/players/<player_id:player_id>")
class PlayerProfile(MethodView):
    @blp.doc(operationId="getPlayerProfile")
    @optional_auth
    @blp.response(200, ProfileSchema)
    def get(self, player_id):
        """A player's (or a bot level's) results and ratings per game type

        Lists only the finished games the caller may see."""
        return tables().profiles.profile(player_id, current_player(required=False))
