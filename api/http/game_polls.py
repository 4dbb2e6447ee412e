"""A game's view without `wait`, answered before Flask sees the request.

Phones poll their games more often than they send every other request together, and most
polls find nothing new. Flask's request context, routing, flask-smorest's wrappers and a dozen
hooks cost more than the one Redis command such a poll needs (`python -m bench.storage --parts
throughput`), so this WSGI layer answers `GET /api/v1/games/{id}` without `wait` itself: the
same 304 or 200, body and headers as `GameView` gives (both send `conditional.game_answer`),
with the security headers, request id, access line and metric Flask's hooks would add. A poll
with `If-None-Match` reads only the ETag's parts first (one command; the game too, a second,
when it changed); one without reads both at once.

What it cannot settle alone goes on to Flask untouched: any other request, a long-poll, a
query or body to validate, a token it does not know, a game it may not show (404, 403).
"""
from __future__ import annotations

import re
import time

from flask import Flask, request

from api import telemetry
from api.http import headers, logs
from api.http.auth import bearer_token
from api.http.conditional import GameAnswer, game_answer
from api.storage import connections
from api.tables import Tables

GAME_PATH = re.compile(r"/api/v1/games/([A-Za-z0-9_-]{1,64})")
NO_WAIT = ("", "wait=0")
ROUTE = "/api/v1/games/<string:game_id>"
# Raised again in Flask, before authentication: one 503, without waiting for Redis twice.
REDIS_ERROR = "poyta.redis_error"
STATUS_LINES = {200: "200 OK", 304: "304 NOT MODIFIED"}


class GamePolls:
    def __init__(self, app: Flask, tables: Tables):
        self.flask_wsgi_app = app.wsgi_app
        self.json = app.json
        self.tables = tables
        self.headers = list(headers.SECURITY_HEADERS.items())
        # Routes beside the game's own, such as /games/types: never a game id to look up.
        self.named_routes = {rule.rule.rsplit("/", 1)[1] for rule in app.url_map.iter_rules()
                             if GAME_PATH.fullmatch(rule.rule)}
        self.seconds = {status: telemetry.REQUEST_SECONDS.labels(
            ROUTE, "GET", telemetry.status_class(status)) for status in (200, 304)}

    def __call__(self, environ: dict, start_response):
        started = time.perf_counter()
        try:
            found = self.answer(environ)
        except connections.UNAVAILABLE as error:
            environ[REDIS_ERROR], found = error, None
        except Exception:  # a refusal (ServiceError), or a fault Flask reports in the one shape
            found = None
        if found is None:
            return self.flask_wsgi_app(environ, start_response)
        game_id, answer = found
        request_id = logs.request_id(environ.get("HTTP_X_REQUEST_ID", ""))
        status = answer.status()
        start_response(STATUS_LINES[status],
                       [*answer.headers(), *self.headers, (logs.REQUEST_ID_HEADER, request_id)])
        seconds = time.perf_counter() - started
        self.seconds[status].observe(seconds)
        logs.log_access(request_id, environ.get("REMOTE_ADDR"), "GET", ROUTE, game_id, status,
                        seconds)
        return [] if answer.body is None else [answer.body]

    def answer(self, environ: dict) -> tuple[str, GameAnswer] | None:
        """The game's id and its answer; None hands the request to Flask."""
        if (environ["REQUEST_METHOD"] != "GET" or environ.get("QUERY_STRING", "") not in NO_WAIT
                or environ.get("CONTENT_LENGTH") or environ.get("HTTP_TRANSFER_ENCODING")):
            return None
        path = GAME_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if path is None:
            return None
        game_id = path.group(1)
        if game_id in self.named_routes:
            return None
        token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
        player = self.tables.players.for_token(token) if token else None
        if token and player is None:
            return None
        return game_id, game_answer(self.tables, game_id, player,
                                    environ.get("HTTP_IF_NONE_MATCH"), self.json.dumps)


def raise_redis_error() -> None:
    if (error := request.environ.get(REDIS_ERROR)) is not None:
        raise error


def init_app(app: Flask, tables: Tables) -> None:
    """Registered before authentication, which would wait for a vanished Redis again."""
    app.wsgi_app = GamePolls(app, tables)
    app.before_request(raise_redis_error)
