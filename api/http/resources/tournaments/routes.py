"""/api/v1/tournaments: Swiss and round-robin tournaments, their entrants, rounds and
standings."""
from flask import url_for
from flask.views import MethodView

from api.http.auth import authenticated, current_player, optional_auth, tables
from api.http.resources import tags
from api.http.resources.tournaments.schemas import (
    JoinTournamentSchema, TournamentCreateSchema, TournamentListQuerySchema, TournamentSchema,
    TournamentSummarySchema,
)
from api.tables.errors import Unprocessable
from api.tables.text import Refused, shown_text

blp = tags.tournaments


@blp.route("/tournaments")
class Tournaments(MethodView):
    @blp.doc(operationId="createTournament")
    @authenticated
    @blp.arguments(TournamentCreateSchema())
    @blp.response(201, TournamentSchema)
    def post(self, body):
        """Create a tournament (the creator enters it by joinTournament, like anyone)"""
        try:
            body["name"] = shown_text(body["name"], "name", 60)
        except Refused as error:
            raise Unprocessable(str(error)) from None
        if body["starts_at"] is not None:
            body["starts_at"] = body["starts_at"].timestamp()
        made = tables().tournaments.create(current_player(), **body)
        return made, 201, {"Location": url_for("tournaments.Tournament",
                                               tournament_id=made["id"])}

    @blp.doc(operationId="listTournaments")
    @optional_auth
    @blp.arguments(TournamentListQuerySchema, location="query")
    @blp.response(200, TournamentSummarySchema(many=True))
    def get(self, query):
        """Tournaments: open ones, yours, or finished ones, the newest first"""
        return tables().tournament_lists.listed(query["list"], current_player(required=False))


@blp.route("/tournaments/<string:tournament_id>")
class Tournament(MethodView):
    @blp.doc(operationId="getTournament")
    @optional_auth
    @blp.response(200, TournamentSchema)
    def get(self, tournament_id):
        """A tournament: its status, rounds with their tables and games, and standings

        No seat order, hand or duplicate seed shows before its round is over."""
        return tables().tournaments.get(tournament_id, current_player(required=False))


@blp.route("/tournaments/<string:tournament_id>/entrants")
class Entrants(MethodView):
    @blp.doc(operationId="joinTournament")
    @authenticated
    @blp.arguments(JoinTournamentSchema())
    @blp.response(200, TournamentSchema)
    def post(self, body, tournament_id):
        """Enter a tournament before it starts (409 once started or full)"""
        return tables().tournaments.join(tournament_id, current_player(), body["invite"])


@blp.route("/tournaments/<string:tournament_id>/entrants/me")
class Entry(MethodView):
    @blp.doc(operationId="leaveTournament")
    @authenticated
    @blp.response(200, TournamentSchema)
    def delete(self, tournament_id):
        """Leave: before the start the entry goes; after, you are paired no more and your
        seat in the round's game resigns"""
        return tables().tournaments.leave(tournament_id, current_player())
