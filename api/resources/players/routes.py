from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import current_player, service
from api.resources.players.schemas import NewPlayerSchema, PlayerCreateSchema, PlayerSchema

blp = Blueprint("players", __name__, description="Players and their tokens")


@blp.route("")
class Players(MethodView):
    @blp.arguments(PlayerCreateSchema)
    @blp.response(201, NewPlayerSchema)
    def post(self, body):
        """Register a player; the answer holds its bearer token"""
        return service().create_player(body["name"].strip())


@blp.route("/me")
class Me(MethodView):
    @blp.response(200, PlayerSchema)
    @blp.doc(security=[{"bearer": []}])
    def get(self):
        """The calling player"""
        return current_player()
