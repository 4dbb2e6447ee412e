from pathlib import Path
from typing import Callable

from flask import Response, current_app, jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import telemetry
from api.http import authenticate_first
from api.tables import privacy, quotas
from api.http.auth import current_player, service
from api.http.resources.games.schemas import (
    ActionRequestSchema, EventQuerySchema, EventsSchema, GameCreateSchema, GameSummarySchema,
    GameTypeSchema, GameViewSchema, JoinSchema, RecordSchema, ReplayStepSchema, RulesPageSchema,
    WaitSchema,
)
from api.storage.changes import game_channel

blp = Blueprint("games", __name__, description="Games: create, join, watch, act")
RULES_PAGES = Path(__file__).resolve().parents[4] / "seeds"
BEARER = [{"bearer": []}]
BEARER_OR_ANONYMOUS = [{"bearer": []}, {}]


def long_poll(channel: str, wait: int, current: Callable[[], dict]) -> dict:
    """The newest data; with `wait`, held while it matches the client's ETag and nothing changes."""
    if not wait:
        return current()
    with telemetry.long_poll_held():
        newest = current_app.extensions["poyta_changes"].hold(
            channel, current, lambda seen: blp._generate_etag(seen) in request.if_none_match, wait)
    authenticate_first.recheck()
    return newest


def as_view_json(view: dict) -> Response:
    """A game view as it is: `Service.view` builds exactly GameViewSchema's shape (a test holds
    them equal), and dumping it through the schema again cost a tenth of a view's time."""
    return jsonify(view)


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
    @blp.arguments(GameCreateSchema())
    @blp.response(201, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, body):
        """Create a game; the creator takes seat 0"""
        quotas.check_new_game(service(), current_player(), body["seats"], body["public"])
        stored = service().create_game(current_player(), **body)
        return service().view(stored, 0)


@blp.route("/lobby")
class Lobby(MethodView):
    @blp.response(200, GameSummarySchema(many=True))
    def get(self):
        """Public games waiting for players"""
        return service().lobby()


@blp.route("/<string:game_id>")
class GameView(MethodView):
    @blp.etag
    @blp.arguments(WaitSchema(), location="query")
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER_OR_ANONYMOUS)
    def get(self, query, game_id):
        """The game as the caller may see it (a spectator's view without a seat)

        Send the last ETag as If-None-Match: 304 when nothing changed. With `wait`, the
        answer comes as soon as the game changes, or 304 after `wait` seconds.
        """
        player = current_player(required=False)
        if query["wait"]:
            long_poll(game_channel(game_id), query["wait"],
                      lambda: service().etag_parts(game_id, player))
        seen, stored = service().watch(game_id, player)  # the ETag of the very view sent
        blp.set_etag(seen)
        return as_view_json(service().view(stored, seen["seat"]))


@blp.route("/<string:game_id>/events")
class Events(MethodView):
    @blp.arguments(EventQuerySchema(), location="query")
    @blp.response(200, EventsSchema)
    @blp.doc(security=BEARER_OR_ANONYMOUS)
    def get(self, query, game_id):
        """What happened in the game, redacted for the caller"""
        return service().events(game_id, current_player(required=False), query["after"])


@blp.route("/<string:game_id>/join")
class Join(MethodView):
    @blp.arguments(JoinSchema())
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, body, game_id):
        """Take an open seat (the first one unless `seat` is given)"""
        player = current_player()
        privacy.check_join(service().load(game_id), player)
        stored = service().join(game_id, player, body.get("seat"))
        return service().view(stored, stored.seat_of(player["id"]))


@blp.route("/invites/<string:code>")
class Invite(MethodView):
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, code):
        """Take the seat an invite link was made for"""
        player = current_player()
        stored = service().accept_invite(code, player)
        return service().view(stored, stored.seat_of(player["id"]))


@blp.route("/<string:game_id>/actions")
class Actions(MethodView):
    @blp.arguments(ActionRequestSchema())
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, body, game_id):
        """Act in your seat; 422 says why an action is not allowed, 409 means reload"""
        player = current_player()
        stored = service().act(game_id, player, body["action"], body.get("version"))
        return as_view_json(service().view(stored, stored.seat_of(player["id"])))


@blp.route("/<string:game_id>/takeback")
class TakeBack(MethodView):
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, game_id):
        """Play your seat yourself again after a bot stood in for repeated time-outs"""
        player = current_player()
        stored = service().take_back(game_id, player)
        return service().view(stored, stored.seat_of(player["id"]))


@blp.route("/<string:game_id>/rematch")
class Rematch(MethodView):
    @blp.response(200, GameViewSchema)
    @blp.doc(security=BEARER)
    def post(self, game_id):
        """The next game with the same seats and options (created on the first call)

        The other humans' seats wait for them; they accept by joining whenever they come.
        """
        player = current_player()
        stored = service().rematch(game_id, player)
        return service().view(stored, stored.seat_of(player["id"]))


@blp.route("/<string:game_id>/record")
class Record(MethodView):
    @blp.response(200, RecordSchema)
    @blp.doc(security=BEARER_OR_ANONYMOUS)
    def get(self, game_id):
        """Everything needed to replay a finished game: deals as dealt, actions, scores

        A private game's record is shown only to its players."""
        privacy.check_record(service().load(game_id), current_player(required=False))
        return service().record(game_id)


@blp.route("/<string:game_id>/replay/<int:step>")
class ReplayStep(MethodView):
    @blp.response(200, ReplayStepSchema)
    @blp.doc(security=BEARER_OR_ANONYMOUS)
    def get(self, game_id, step):
        """A finished game after its first `step` actions, with every hand visible

        A private game's replay is shown only to its players."""
        privacy.check_record(service().load(game_id), current_player(required=False))
        return service().replay(game_id, step)
