"""The HTTP API and the PWA host: `create_app()` is the application factory."""
from __future__ import annotations

from flask import Flask, jsonify
from flask_smorest import Api

from api.http import (authenticate_first, budgets, contract, docs, game_polls, headers, health,
                      logs, metrics, request_bounds)
from api.http.errors import error_body
from api.settings import Settings
from api.storage import connections
from api.storage.changes import ChangeFeed
from api.tables import Tables
from api.tables.errors import ServiceError

API_PREFIX = "/api/v1"


class PoytaApi(Api):
    """flask-smorest's error handling, with a `message` in every error body."""

    def handle_http_exception(self, error):
        payload, code, headers = super().handle_http_exception(error)
        if "message" not in payload:
            payload["message"] = _summary(payload.get("errors")) or error.description
        if getattr(error, "valid_methods", None):  # a 405 names what is allowed (RFC 9110)
            headers = {**(headers or {}), "Allow": ", ".join(error.valid_methods)}
        return payload, code, headers


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
    app.extensions["poyta_changes"] = ChangeFeed(
        connections.store_client(app.config, **connections.SUBSCRIBER_OPTIONS))

    api = PoytaApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})
    from api.http.resources.clock.routes import blp as clock_blp
    from api.http.resources.games.routes import blp as games_blp
    from api.http.resources.players.routes import blp as players_blp
    from api.http.resources.push.routes import blp as push_blp
    from api.http.resources.table.routes import blp as table_blp
    from api.http.resources.pwa.routes import blp as pwa_blp

    api.register_blueprint(players_blp, url_prefix=f"{API_PREFIX}/players")
    api.register_blueprint(games_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(push_blp, url_prefix=f"{API_PREFIX}/push")
    api.register_blueprint(table_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(clock_blp, url_prefix=API_PREFIX)
    logs.init_app(app, settings.log_level)
    metrics.init_app(app, settings.metrics_dir)
    health.init_app(app)
    app.register_blueprint(pwa_blp)
    for module in (docs, headers, request_bounds):
        module.init_app(app)
    game_polls.init_app(app, app.extensions["poyta"])
    for module in (authenticate_first, budgets):
        module.init_app(app)

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError):
        response = jsonify(error_body(error.status, error.message))
        response.status_code = error.status
        if error.status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        if getattr(error, "retry_after", None):
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    return app
