"""The HTTP API and the PWA host: `create_app()` is the application factory."""
from __future__ import annotations

from http import HTTPStatus

from flask import Flask, jsonify
from flask_smorest import Api

from api import connections, contract, health, logs, metrics
from api.changes import ChangeFeed
from api.config import Settings
from api.service import Service, ServiceError

API_PREFIX = "/api/v1"


def error_body(code: int, message: str) -> dict:
    """The one error shape: the same as flask-smorest's own."""
    return {"code": code, "status": HTTPStatus(code).phrase, "message": message}


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
        API_SPEC_OPTIONS={
            "info": {"description": "Asynchronous card games over HTTP. Authenticate with "
                                    "`Authorization: Bearer <token>` from `POST /api/v1/players`."},
            "components": {"securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer"}}},
        },
    )
    app.config.update(config or {})
    redis = connections.store_client(app.config)
    # The queue has its own connections: RQ may live on another Redis than the game store.
    app.extensions["poyta"] = Service(redis, app.config.get("PACES"),
                                      queue_redis=connections.queue_client(app.config),
                                      settings=settings)
    app.extensions["poyta_changes"] = ChangeFeed(redis)

    api = PoytaApi(app, spec_kwargs={"extra_plugins": [contract.ContractPlugin()]})
    from api.resources.games.routes import blp as games_blp
    from api.resources.players.routes import blp as players_blp
    from api.resources.push.routes import blp as push_blp
    from api.resources.pwa.routes import register_docs, blp as pwa_blp

    api.register_blueprint(players_blp, url_prefix=f"{API_PREFIX}/players")
    api.register_blueprint(games_blp, url_prefix=f"{API_PREFIX}/games")
    api.register_blueprint(push_blp, url_prefix=f"{API_PREFIX}/push")
    register_docs(app)
    for operations in (logs, metrics, health):
        operations.init_app(app)
    contract.init_app(app, api)
    app.register_blueprint(pwa_blp)

    @app.errorhandler(ServiceError)
    def service_error(error: ServiceError):
        response = jsonify(error_body(error.status, error.message))
        response.status_code = error.status
        if error.status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        return response

    return app
