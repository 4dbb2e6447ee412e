from pathlib import Path

from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import current_player, service
from api.resources.games.schemas import (
    ActionRequestSchema, GameCreateSchema, GameTypeSchema, GameViewSchema, JoinSchema,
    RecordSchema, RulesPageSchema,
)

blp = Blueprint("games", __name__, description="Games: create, join, watch, act")
RULES_PAGES = Path(__file__).resolve().parents[3] / "seeds"
BEARER = [{"bearer": []}]


@blp.route("/types")
class GameTypes(MethodView):
    @blp.response(200, GameTypeSchema(many=True))
    def get(self):
        """Every game with its player range, options and bot levels"""
        return service().game_types()


@blp.route("/types/<string:type_name>/rules")
class RulesPage(MethodView):
    @blp.response(200, RulesPageSchema)
    def get(self, type_name):
        """The game's rules page (Markdown), as the server enforces them"""
        game = service().game_type(type_name)
        return {"type": game.name, "markdown": (RULES_PAGES / game.rules_page).read_text("utf-8")}


@blp.route("")
class Games(MethodView):
    @blp.arguments(GameCreateSchema)
    @blp.response(201, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, body):
        """Create a game; the creator takes seat 0"""
        player = current_player()
        stored = service().create_game(player, body["type"], body["players"], body["options"],
                                       body["seats"])
        return service().view(stored, 0)


@blp.route("/<string:game_id>")
class GameView(MethodView):
    @blp.etag
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def get(self, game_id):
        """The game as the caller may see it (a spectator's view without a token)

        Send the last ETag as If-None-Match: 304 when nothing changed.
        """
        player = current_player(required=False)
        version, seat = service().version_and_seat(game_id, player)
        blp.set_etag({"version": version, "seat": seat})
        stored = service().load(game_id)
        return service().view(stored, stored.seat_of(player and player["id"]))


@blp.route("/<string:game_id>/join")
class Join(MethodView):
    @blp.arguments(JoinSchema)
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, body, game_id):
        """Take an open seat (the first one unless `seat` is given)"""
        player = current_player()
        stored = service().join(game_id, player, body.get("seat"))
        return service().view(stored, stored.seat_of(player["id"]))


@blp.route("/<string:game_id>/actions")
class Actions(MethodView):
    @blp.arguments(ActionRequestSchema)
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, body, game_id):
        """Act in your seat; 422 says why an action is not allowed, 409 means reload"""
        player = current_player()
        stored = service().act(game_id, player, body["action"], body.get("version"))
        return service().view(stored, stored.seat_of(player["id"]))


@blp.route("/<string:game_id>/record")
class Record(MethodView):
    @blp.response(200, RecordSchema)
    def get(self, game_id):
        """Everything needed to replay a finished game: deals as dealt, actions, scores"""
        return service().record(game_id)
