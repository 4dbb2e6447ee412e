import json

from flask import Response, jsonify, request, url_for
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.conditional import answered, conditional, etag_of, long_poll
from api.http.resources import tags
from api.http.streaming import NDJSON
from api.http.resources.games.schemas import GameSummarySchema, WaitSchema
from api.http.resources.players.schemas import (
    AccountDeletionSchema, DeviceSchema, NewPlayerSchema, PlayerCreateSchema, PlayerSchema, RenameSchema,
    SignInCodeSchema, SignInSchema,
)
from api.storage.changes import inbox_channel

blp = tags.players
PLAIN = "text/plain"


@blp.route("/players")
class Players(MethodView):
    @blp.doc(operationId="createPlayer")
    @blp.arguments(PlayerCreateSchema())
    @blp.response(201, NewPlayerSchema)
    def post(self, body):
        """Register a player; the answer holds its bearer token"""
        return (tables().players.create(body["name"].strip(), body["bot"]),
                {"Location": url_for("players.Me")})


@blp.route("/players/me")
class Me(MethodView):
    @blp.doc(operationId="getMe")
    @authenticated
    @blp.response(200, PlayerSchema)
    def get(self):
        """The calling player"""
        return current_player()

    @blp.doc(operationId="renameMe")
    @authenticated
    @blp.arguments(RenameSchema())
    @blp.response(200, PlayerSchema)
    def patch(self, body):
        """Change the calling player's name, at the tables of unfinished games too

        A finished game keeps the name its player had when it ended."""
        return tables().players.rename(current_player(), body["name"].strip())


@blp.route("/players/me/games")
class Inbox(MethodView):
    @blp.doc(operationId="getInbox")
    @authenticated
    @conditional
    @blp.arguments(WaitSchema(), location="query")
    @blp.response(200, GameSummarySchema(many=True))
    def get(self, query):
        """The caller's games: their turn first, then by deadline, then by last activity

        With `wait` and If-None-Match, answers as soon as any of the games changes.
        """
        player = current_player()
        seen = long_poll(inbox_channel(player.id), query.get("wait", 0),
                         lambda: {"inbox": tables().watching.inbox_version(player)}, etag_of)
        return answered(etag_of(seen), lambda: jsonify(GameSummarySchema(many=True).dump(
            tables().watching.inbox(player))))


@blp.route("/players/me/signin-codes")
class SignInCodes(MethodView):
    @blp.doc(operationId="createSigninCode")
    @authenticated
    @blp.response(201, SignInCodeSchema)
    def post(self):
        """A one-use code (10 minutes) that signs another device in as you

        Your earlier code stops working. Put it in the URL fragment of a link (`/#/signin/<code>`) so it never reaches a server log.
        """
        created = tables().players.signin_code(current_player())
        # The code has no URL of the API's own: it lives in the link that uses it.
        return created, {"Location": f"/#/signin/{created['code']}"}


@blp.route("/players/signin")
class SignIn(MethodView):
    @blp.doc(operationId="signIn")
    @blp.arguments(SignInSchema())
    @blp.response(201, NewPlayerSchema)
    def post(self, body):
        """Exchange a sign-in code for a token of the same player on this device"""
        return (tables().players.sign_in(body["code"], body["device"]),
                {"Location": url_for("players.Me")})


@blp.route("/players/me/devices")
class Devices(MethodView):
    @blp.doc(operationId="listDevices")
    @authenticated
    @blp.response(200, DeviceSchema(many=True))
    def get(self):
        """The devices (tokens) signed in as you"""
        return tables().players.devices(current_player())


@blp.route("/players/me/devices/<string:device_id>")
class Device(MethodView):
    @blp.doc(operationId="signOutDevice")
    @authenticated
    @blp.response(204)
    def delete(self, device_id):
        """Sign a device out: its token stops working at once"""
        tables().players.revoke(current_player(), device_id)


@blp.route("/players/me/export")
class Export(MethodView):
    @blp.doc(operationId="exportMyData")
    @authenticated
    @blp.doc(responses={200: {
        "description": "JSON Lines, sent as it is read",
        "content": {media: {"schema": {"type": "string",
                                       "description": "One ExportLine as JSON a line"},
                            "x-item-schema": {"$ref": "#/components/schemas/ExportLine"}}
                    for media in (NDJSON, PLAIN)}}})
    def get(self):
        """Everything kept of you: your account, devices, passkeys, friends, blocks, ratings
        and their history, your webhook, and every finished game you played with its record

        JSON Lines (one object a line, each with its `kind`), streamed as it is read, as
        `application/x-ndjson` unless `Accept` prefers `text/plain`; a few exports an hour
        (`export` budget)."""
        lines = tables().accounts.export(current_player())
        response = Response((json.dumps(line, separators=(",", ":")) + "\n" for line in lines),
                            mimetype=request.accept_mimetypes.best_match([NDJSON, PLAIN],
                                                                         default=NDJSON))
        response.headers["Content-Disposition"] = 'attachment; filename="poyta-my-data.jsonl"'
        response.headers["Cache-Control"] = "no-store"
        return response


@blp.route("/players/me/deletion")
class Deletion(MethodView):
    @blp.doc(operationId="deleteMyAccount")
    @authenticated
    @blp.arguments(AccountDeletionSchema())
    @blp.response(204)
    def post(self, body):
        """Delete your account for good

        `confirm` must be your player id. Your games not started are left, your games in play
        resigned; then your name, tokens, passkeys, devices, push subscriptions, webhook,
        friends, blocks, seeks and directory entry are removed from every store, and your seats
        in finished games are kept as "deleted player" so the other players' records stay
        whole. Every token of yours answers 401 from then on."""
        tables().accounts.delete(current_player(), body["confirm"])
