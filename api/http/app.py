"""The HTTP API and the PWA host: `create_app()` is the application factory."""
from __future__ import annotations

import hashlib
import importlib
import json

from flask import Flask, Response, jsonify
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from api.http import (auth, budgets, contract, cors, docs, game_actions, game_polls, headers,
                      health, http_contract, idempotency, logs, metrics, request_bounds,
                      strict_input)
from api.http.conditional import answered
from api.http.errors import error_body, reason_for
from api.http.resources.players.webhook import contract as webhook_contract
from api.settings import Settings
from api.storage import connections, keys
from api.storage.budgets import LongPollSlots
from api.storage.changes import ChangeFeed
from api.tables import Tables
from api.tables.errors import ServiceError

API_PREFIX = "/api/v1"
# Each under the URL it names (`games.chat`: /api/v1/games/{id}/chat); the order of a tag's
# routes in the contract is the order here.
RESOURCES = ("players", "players.passkeys", "players.clock", "players.friends",
             "players.webhook", "players.profile", "players.directory", "seeks", "stream", "push",
             "games", "games.seat", "games.chat", "games.preselection", "games.leaderboard",
             "games.stream", "games.analysis", "tournaments", "open_data",
             "players.tournaments")


class PoytaApi(Api):
    """flask-smorest's error handling, with a `message` in every error body."""

    def handle_http_exception(self, error):
        payload, code, headers = super().handle_http_exception(error)
        if "message" not in payload:
            payload["message"] = _summary(payload.get("errors")) or error.description
        payload["reason"] = (getattr(error, "data", None) or {}).get("reason") or _reason(
            code, payload.get("errors"))
        if getattr(error, "valid_methods", None):  # a 405 names what is allowed (RFC 9110)
            headers = {**(headers or {}), "Allow": ", ".join(error.valid_methods)}
        return payload, code, headers

    def _openapi_json(self):
        """The spec, made once a process (it is the same for every caller while the process
        lives, and making it took 100 ms), with its ETag: a client that holds it gets a 304."""
        made = self.__dict__.get("_spec_made")
        if made is None:
            spec = {**self.spec.to_dict(), "webhooks": webhook_contract.WEBHOOKS}
            spec = http_contract.titled_nullables(http_contract.typed_constants(spec))
            body = json.dumps(spec, indent=2).encode()
            made = self._spec_made = (body, hashlib.sha1(body).hexdigest())
        body, etag = made
        return answered(etag, lambda: Response(body, mimetype="application/json"))


def _reason(code: int, errors: dict | None) -> str:
    """A schema's refusal names where it was: the body's or the query's fields."""
    if code == 422 and errors:
        return "invalid_query" if "query" in errors else "invalid_body"
    return reason_for(code)


def _summary(errors: dict | None, path: str = "") -> str:
    """'seats: Missing data for required field.' from marshmallow's nested errors."""
    if not errors:
        return ""
    parts = []
    for key, value in errors.items():
        where = f"{path}.{key}" if path else str(key)
        if isinstance(value, dict):
            parts.append(_summary(value, where))
        else:
            messages = value if isinstance(value, list) else [value]
            parts.append(f"{where}: {' '.join(str(m) for m in messages)}")
    return "; ".join(parts)


def create_app(config: dict | None = None) -> Flask:
    settings = Settings.from_env()
    app = Flask(__name__, static_folder=None)
    app.config.update(
        API_TITLE="Pöytä",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        PROVIDE_AUTOMATIC_OPTIONS=False,  # every method a route answers is in the spec
        **settings.connections,
        RATE_LIMITS=settings.rate_limits,
        PROXY_HOPS=settings.proxy_hops,
        API_SPEC_OPTIONS={
            "info": {"description": "Asynchronous card games over HTTP. Authenticate with "
                                    "`Authorization: Bearer <token>` from `POST /api/v1/players`."},
            "components": {"securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"}}},
        },
    )
    app.config.update(config or {})
    redis = connections.store_client(app.config, **connections.COMMAND_OPTIONS)
    # The queue has its own connections: RQ may live on another Redis than the game store.
    app.extensions["poyta"] = Tables(redis, app.config.get("PACES"),
                                     queue_redis=connections.queue_client(
                                         app.config, **connections.COMMAND_OPTIONS),
                                     settings=settings)
    app.extensions["poyta_streams"] = LongPollSlots(
        connections.queue_client(app.config, **connections.COMMAND_OPTIONS), keys.streams)
    app.extensions["poyta_changes"] = ChangeFeed(
        connections.store_client(app.config, **connections.SUBSCRIBER_OPTIONS))

    api = PoytaApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})
    for resource in RESOURCES:  # each puts its routes on its tags
        importlib.import_module(f"api.http.resources.{resource}.routes")
    from api.http.resources import tags
    from api.http.resources.players.schemas import ExportLineSchema
    from api.http.resources.pwa.routes import blp as pwa_blp
    from api.http.resources.stream.schemas import SCHEMAS as STREAM_SCHEMAS

    for tag in tags.TAGS:
        api.register_blueprint(tag, url_prefix=API_PREFIX)
        if tag is tags.streams:  # the streams' events, named in their answers
            for name, schema in STREAM_SCHEMAS.items():
                api.spec.components.schema(name, schema)
        if tag is tags.players:  # a line of exportMyData's JSON Lines
            api.spec.components.schema("ExportLine", schema=ExportLineSchema)
        if tag is tags.webhooks:  # what the deliveries carry (the contract's `webhooks`)
            for name, schema in webhook_contract.SCHEMAS.items():
                api.spec.components.schema(name, schema)
    logs.init_app(app, settings.log_level)
    metrics.init_app(app, settings.metrics_dir, settings.metrics_token, settings.host)
    health.init_app(app)
    cors.init_app(app, settings.cors_origins)  # a preflight is answered before what follows
    app.register_blueprint(pwa_blp)
    for module in (docs, headers, request_bounds, strict_input):
        module.init_app(app)
    game_polls.init_app(app, app.extensions["poyta"])
    for module in (auth, budgets, idempotency):
        module.init_app(app)
    game_actions.init_app(app, app.extensions["poyta"])
    if app.config["PROXY_HOPS"]:
        # The client's address as the trusted proxies report it, for budgets and the log (the
        # fast paths' too); with no proxy configured a forged X-Forwarded-For changes nothing.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXY_HOPS"])

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError):
        response = jsonify(error_body(error.status, error.message, error.reason, **error.details))
        response.status_code = error.status
        if error.status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        if getattr(error, "retry_after", None):
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    return app
