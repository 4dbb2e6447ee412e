"""/api/v1/games: a game's making, seats, view, moves and log; the game types, the lobby,
invites, records and replays."""
from pathlib import Path

from flask import Response, current_app, request, url_for
from flask.views import MethodView

from api.http.auth import authenticated, current_player, optional_auth, tables
from api.http.budgets import by_address
from api.http.conditional import (conditional, finished_answer, game_answer, game_etag,
                                  guarded, if_match_version, long_poll, seat_answer)
from api.http.resources import tags
from api.http.resources.games.schemas import (
    ActionRequestSchema, EventQuerySchema, EventsSchema, GameCreateSchema, GameSummarySchema,
    GameTypeSchema, InvitePreviewSchema, JoinSchema, RecordSchema, ReplayStepSchema,
    RulesPageSchema, WaitSchema,
)
from api.storage.changes import game_channel
from api.tables.errors import NotFound
from api.tables.model import StoredGame
from rules import GAMES
from rules.registry import built_in, package_dir

blp = tags.games
RULES_PAGES = Path(__file__).resolve().parents[4] / "seeds"
GAME_VIEW = "GameView"  # published by api.http.contract


def json_body(data: dict) -> bytes:
    return f"{current_app.json.dumps(data, separators=(',', ':'))}\n".encode()


def view_json(stored: StoredGame, seat: int | None, status: int = 200) -> Response:
    """A game view as `api.tables.views.view` builds it (its shape is published in the
    contract, and a test holds the two equal), with the ETag `getGame` gives it."""
    return seat_answer(stored, seat, stored.record.renamed, current_app.json.dumps
                       ).response(status)


@blp.route("/games/types")
class GameTypes(MethodView):
    @blp.doc(operationId="listGameTypes")
    @blp.response(200, GameTypeSchema(many=True))
    def get(self):
        """Every game with its player range, options and bot levels"""
        return [game.describe() for game in GAMES.values()]


@blp.route("/games/types/<string:type_name>/rules")
class RulesPage(MethodView):
    @blp.doc(operationId="getRules")
    @blp.response(200, RulesPageSchema)
    def get(self, type_name):
        """The game's rules page (Markdown), as the server enforces them"""
        game = GAMES.get(type_name)
        if game is None:
            raise NotFound(f"unknown game type {type_name!r}; known: {', '.join(GAMES)}")
        folder = RULES_PAGES if built_in(game) else package_dir(game)
        return {"type": game.name, "markdown": (folder / game.rules_page).read_text("utf-8")}


@blp.route("/games")
class Games(MethodView):
    @blp.doc(operationId="createGame")
    @authenticated
    @blp.arguments(GameCreateSchema())
    @blp.response(201, GAME_VIEW)
    def post(self, body):
        """Create a game; the creator takes seat 0"""
        stored = tables().seating.create_game(current_player(), **body, address=by_address())
        response = view_json(stored, 0, 201)
        response.headers["Location"] = url_for("games.GameView", game_id=stored.id)
        return response


@blp.route("/games/lobby")
class Lobby(MethodView):
    @blp.doc(operationId="getLobby")
    @blp.response(200, GameSummarySchema(many=True))
    def get(self):
        """Public games waiting for players"""
        return tables().seating.lobby()


@blp.route("/games/<string:game_id>")
class GameView(MethodView):
    @blp.doc(operationId="getGame")
    @optional_auth
    @conditional
    @blp.arguments(WaitSchema(), location="query")
    @blp.response(200, GAME_VIEW)
    def get(self, query, game_id):
        """The game as the caller may see it (a spectator's view without a seat)

        Send the last ETag as If-None-Match: 304 when nothing changed. With `wait`, the
        answer comes as soon as the game changes, or 304 after `wait` seconds.
        """
        player = current_player(required=False)
        parts = None
        if query["wait"]:
            parts = long_poll(game_channel(game_id), query["wait"],
                              lambda: tables().watching.etag_parts(game_id, player),
                              lambda seen: game_etag(**seen))
        return game_answer(tables(), game_id, player, request.headers.get("If-None-Match"),
                           current_app.json.dumps, parts).response()


@blp.route("/games/<string:game_id>/events")
class Events(MethodView):
    @blp.doc(operationId="getEvents")
    @optional_auth
    @conditional
    @blp.arguments(EventQuerySchema(), location="query")
    @blp.response(200, EventsSchema)
    def get(self, query, game_id):
        """What happened in the game, redacted for the caller, a page at a time

        Follow `next` while it is not null to read a long log. Once the game is over the
        answers never change: they carry a strong ETag (send it as If-None-Match: 304) and
        a long Cache-Control."""
        page = tables().history.events(game_id, current_player(required=False), query["after"],
                                       query["limit"])
        if not page.finished:
            return page.body
        return finished_answer(
            {"events": game_id, "version": page.version, "seat": page.seat,
             "after": query["after"], "limit": query["limit"]}, page.seat is None,
            lambda: json_body(EventsSchema().dump(page.body)))


@blp.route("/games/<string:game_id>/join")
class Join(MethodView):
    @blp.doc(operationId="joinGame")
    @authenticated
    @blp.arguments(JoinSchema())
    @blp.response(200, GAME_VIEW)
    def post(self, body, game_id):
        """Take an open seat (the first one unless `seat` is given)"""
        player = current_player()
        stored = tables().seating.join(game_id, player, body.get("seat"))
        return view_json(stored, stored.seat_of(player.id))


@blp.route("/games/invites/<string:code>")
class Invite(MethodView):
    @blp.doc(operationId="previewInvite")
    @optional_auth
    @blp.response(200, InvitePreviewSchema)
    def get(self, code):
        """What an invite link offers, before taking it: who invited, the game, its seats and pace

        Counted with the guesses of invite codes, so it finds no game a code does not name.
        """
        return tables().seating.invite_preview(code, current_player(required=False))

    @blp.doc(operationId="acceptInvite")
    @authenticated
    @blp.response(200, GAME_VIEW)
    def post(self, code):
        """Take the seat an invite link was made for"""
        player = current_player()
        stored = tables().seating.accept_invite(code, player)
        return view_json(stored, stored.seat_of(player.id))


@blp.route("/games/<string:game_id>/actions")
class Actions(MethodView):
    @blp.doc(operationId="act")
    @authenticated
    @guarded
    @blp.arguments(ActionRequestSchema())
    @blp.response(200, GAME_VIEW)
    def post(self, body, game_id):
        """Act in your seat; 422 says why an action is not allowed, 409 means reload"""
        player = current_player()
        version = body.get("version", if_match_version(tables(), game_id, player))
        stored = tables().play.act(game_id, player, body["action"], version)
        return view_json(stored, stored.seat_of(player.id))


@blp.route("/games/<string:game_id>/takeback")
class TakeBack(MethodView):
    @blp.doc(operationId="takeBack")
    @authenticated
    @blp.response(200, GAME_VIEW)
    def post(self, game_id):
        """Play your seat yourself again after a bot stood in for repeated time-outs"""
        player = current_player()
        stored = tables().play.take_back(game_id, player)
        return view_json(stored, stored.seat_of(player.id))


@blp.route("/games/<string:game_id>/rematch")
class Rematch(MethodView):
    @blp.doc(operationId="rematch")
    @authenticated
    @blp.response(200, GAME_VIEW)
    def post(self, game_id):
        """The next game with the same seats and options (created on the first call)

        The other humans' seats wait for them; they accept by joining whenever they come.
        """
        player = current_player()
        stored = tables().seating.rematch(game_id, player, by_address())
        return view_json(stored, stored.seat_of(player.id))


@blp.route("/games/<string:game_id>/record")
class Record(MethodView):
    @blp.doc(operationId="getRecord")
    @optional_auth
    @conditional
    @blp.response(200, RecordSchema)
    def get(self, game_id):
        """Everything needed to replay a finished game: deals as dealt, actions, scores

        A private game's record is shown only to its players. It never changes: it carries a
        strong ETag (send it as If-None-Match: 304) and a long Cache-Control."""
        player = current_player(required=False)
        version, public = tables().history.finished_version(game_id, player)
        return finished_answer(
            {"record": game_id, "version": version}, public,
            lambda: json_body(RecordSchema().dump(tables().history.record(game_id, player))),
            kept=True)


@blp.route("/games/<string:game_id>/replay/<int:step>")
class ReplayStep(MethodView):
    @blp.doc(operationId="getReplayStep")
    @optional_auth
    @conditional
    @blp.response(200, ReplayStepSchema)
    def get(self, game_id, step):
        """A finished game after its first `step` actions, with every hand visible

        A private game's replay is shown only to its players. A step never changes: it
        carries a strong ETag and a long Cache-Control."""
        player = current_player(required=False)
        version, public = tables().history.finished_version(game_id, player, replay=True)
        return finished_answer(
            {"replay": game_id, "version": version, "step": step}, public,
            lambda: json_body(ReplayStepSchema().dump(
                tables().history.replay(game_id, player, step))))
