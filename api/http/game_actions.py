"""A move, `POST /api/v1/games/{id}/actions`, answered before Flask.

An accepted action is the write phones send most. Flask's request context, routing,
flask-smorest's and webargs' wrappers and a dozen hooks took more CPU than the move itself
(`python -m bench.request_cpu`), so this WSGI layer answers the plain case itself, as `act`
declares it: the body read within the same bounds (`request_bounds.check_json`) and taken only
when it is plainly what the route's schema (`ActionRequestSchema`) loads unchanged, the same
`act` budget counted in the same windows (`budgets.spend`), the move made by `Play.act`, and
the answer sent as `Actions.post` sends it (`conditional.seat_answer`): the game view and its
ETag, or the one error shape for a refusal, a 429 with Retry-After, or a 503 when Redis does
not answer; with the rate-limit, security and request-id headers, the access line and the
metrics Flask's hooks would add.

What it does not settle alone goes on to Flask untouched, before anything was counted or
written: a query, a body that is not JSON of the right shape or is sent in chunks, an
`Idempotency-Key` or an `If-Match`, a cross-origin call, a token it does not know.
"""
from __future__ import annotations

import io
import re
import time

from flask import Flask
from werkzeug.exceptions import InternalServerError
from werkzeug.http import HTTP_STATUS_CODES

from api import telemetry
from api.http import budgets, headers, health, logs
from api.http.auth import bearer_token
from api.http.conditional import seat_answer
from api.http.errors import error_body
from api.http.game_polls import REDIS_ERROR
from api.http.request_bounds import MAX_BODY_BYTES, check_json
from api.storage import connections
from api.tables import Tables
from api.tables.errors import ServiceError
from api.tables.model import Player

ACTIONS_PATH = re.compile(r"/api/v1/games/([A-Za-z0-9_-]{1,64})/actions")
ROUTE = "/api/v1/games/<string:game_id>/actions"
ENDPOINT = "games.Actions"
# Requests whose headers ask for more than a plain move: Flask's hooks answer them.
HANDED_ON = ("HTTP_IDEMPOTENCY_KEY", "HTTP_IF_MATCH", "HTTP_TRANSFER_ENCODING")
JSON = "application/json"


class GameActions:
    def __init__(self, app: Flask, tables: Tables):
        self.flask_wsgi_app = app.wsgi_app
        self.app = app
        self.json = app.json
        self.tables = tables
        self.counters, by_endpoint = app.extensions["poyta_budgets"]
        self.rates = [(rate, budget.name) for budget, rates in by_endpoint.get(ENDPOINT, ())
                      for rate in rates]
        self.cross_origin = bool(tables.settings.cors_origins)
        self.headers = list(headers.SECURITY_HEADERS.items())

    def __call__(self, environ: dict, start_response):
        started = time.perf_counter()
        try:
            found = self.read(environ)
        except connections.UNAVAILABLE as error:  # the token's lookup: Flask answers 503
            environ[REDIS_ERROR], found = error, None
        if found is None:
            return self.flask_wsgi_app(environ, start_response)
        game_id, player, body = found
        try:
            spent, refused = budgets.spend(self.counters, [
                (rate, name, f"player:{player.id}") for rate, name in self.rates])
        except connections.UNAVAILABLE as error:
            environ[REDIS_ERROR] = error
            return self.flask_wsgi_app(environ, start_response)
        if refused is not None:
            message, extra = refused
            status, content, extra = 429, error_body(429, message), list(extra.items())
        else:
            status, content, extra = self.act(game_id, player, body)
        if isinstance(content, dict):
            content = f"{self.json.dumps(content, separators=(',', ':'))}\n".encode()
            extra = [("Content-Type", JSON), ("Content-Length", str(len(content))), *extra]
        request_id = logs.request_id(environ.get("HTTP_X_REQUEST_ID", ""))
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}",
                       [*extra, *budgets.rate_limit_headers(spent), *self.headers,
                        (logs.REQUEST_ID_HEADER, request_id)])
        seconds = time.perf_counter() - started
        telemetry.REQUEST_SECONDS.labels(ROUTE, "POST", telemetry.status_class(status)
                                         ).observe(seconds)
        telemetry.ACTIONS.labels("accepted" if status < 400 else "refused", status).inc()
        logs.log_access(request_id, environ.get("REMOTE_ADDR"), "POST", ROUTE, game_id, status,
                        seconds)
        return [content]

    def read(self, environ: dict) -> tuple[str, Player, dict] | None:
        """The game's id, the caller and the checked body; None hands the request to Flask
        (its body put back as it came)."""
        if environ["REQUEST_METHOD"] != "POST" or environ.get("QUERY_STRING"):
            return None
        path = ACTIONS_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if (path is None or any(name in environ for name in HANDED_ON)
                or (self.cross_origin and "HTTP_ORIGIN" in environ)
                or environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower() != JSON):
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not length.isdigit() or not 0 < int(length) <= MAX_BODY_BYTES:
            return None
        token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
        player = self.tables.players.for_token(token) if token else None
        if player is None:
            return None
        raw = environ["wsgi.input"].read(int(length))
        environ["wsgi.input"] = io.BytesIO(raw)
        try:
            body = check_json(raw)
        except Exception:  # 400: Flask refuses it in its own words
            return None
        return (path.group(1), player, body) if plainly_valid(body) else None

    def act(self, game_id: str, player: Player, body: dict) -> tuple[int, dict | bytes, list]:
        """The status, the body (a dict: JSON to make) and its headers."""
        try:
            stored = self.tables.play.act(game_id, player, body["action"], body.get("version"))
        except ServiceError as error:
            retry = getattr(error, "retry_after", None)
            return (error.status, error_body(error.status, error.message, error.reason,
                                             **error.details),
                    [("Retry-After", str(retry))] if retry else [])
        except connections.STORE_ERRORS as error:  # as `api.http.health` answers it
            telemetry.redis_error("request")
            self.app.logger.warning("Redis unavailable: %s: %s", type(error).__name__, error)
            return (503, error_body(503, health.STORE_UNAVAILABLE, "unavailable"),
                    [("Retry-After", "1")])
        except Exception:  # a fault of the server's own, logged and answered as Flask does
            self.app.logger.exception("Exception on %s [POST]", ROUTE)
            return 500, error_body(500, InternalServerError.description), []
        answer = seat_answer(stored, stored.seat_of(player.id), stored.record.renamed,
                             self.json.dumps)
        return 200, answer.body, answer.headers()


def plainly_valid(body) -> bool:
    """The body is one `ActionRequestSchema` loads as it is: an `action` object (string keys, as
    every JSON object has) and perhaps an integer `version`, nothing else. Anything else goes to
    Flask, whose schema answers it (a 422 naming the field, or the same load)."""
    return (type(body) is dict and type(body.get("action")) is dict
            and body.keys() <= {"action", "version"}
            and type(body.get("version", 0)) is int)


def init_app(app: Flask, tables: Tables) -> None:
    """After the budgets are set up: the act budget is counted here too."""
    app.wsgi_app = GameActions(app, tables)
