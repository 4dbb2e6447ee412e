"""`/healthz`: the process lives. `/readyz`: the game store, the job queue and the record's
database answer (the database only when one is configured).

A load balancer sends traffic only to a ready process; an orchestrator restarts one
that is not alive. Play goes on while the database is away (only archiving waits): a 503's
`errors` names the store that is missing. Readiness uses clients of its own with short
time-outs, so a vanished Redis makes `/readyz` answer 503 with the reason at once instead of
queueing behind the requests that wait for it.
"""
from __future__ import annotations

from flask import Flask, jsonify

from api import telemetry
from api.storage import connections, sql

CHECK_SECONDS = 1.0
STORE_UNAVAILABLE = "the game store does not answer right now; try again in a moment"
TIMEOUTS = {"socket_timeout": CHECK_SECONDS, "socket_connect_timeout": CHECK_SECONDS,
            "max_connections": 4, "timeout": CHECK_SECONDS}


def init_app(app: Flask) -> None:
    connect = {"game store": connections.store_client, "queue": connections.queue_client}
    database_url = app.extensions["poyta"].settings.database_url
    checks = [*connect, *(["database"] if database_url else [])]
    clients = {}

    def check(name: str) -> str | None:
        """None when `name` answers, else why not."""
        if name == "database":
            try:
                sql.ping(database_url, CHECK_SECONDS)
            except sql.DATABASE_ERRORS as error:
                return f"{type(error).__name__}: {error}".strip()
            return None
        try:
            if name not in clients:
                clients[name] = connect[name](app.config, **TIMEOUTS)
            connections.ping_everywhere(clients[name])
        except connections.UNAVAILABLE as error:
            clients.pop(name, None)  # a cluster client re-learns its nodes on the next check
            return f"{type(error).__name__}: {error}"
        return None

    def store_unavailable(error):
        """A request that met a vanished Redis: 503, retry shortly, nothing half-done."""
        telemetry.redis_error("request")
        app.logger.warning("Redis unavailable: %s: %s", type(error).__name__, error)
        return unavailable(STORE_UNAVAILABLE, retry_after=1)

    for error_class in connections.STORE_ERRORS:
        app.register_error_handler(error_class, store_unavailable)

    def database_unavailable(error):
        """A request that met a vanished PostgreSQL (a finished game Redis let go, a player
        read back, a leaderboard): 503, as for Redis (play never needs it)."""
        app.logger.warning("PostgreSQL unavailable: %s: %s", type(error).__name__, error)
        return unavailable("the record of players and finished games does not answer right "
                           "now; try again in a moment", retry_after=5)

    for error_class in sql.DATABASE_ERRORS:
        app.register_error_handler(error_class, database_unavailable)

    @app.get("/healthz")
    def healthz():
        return jsonify(status="alive")

    @app.get("/readyz")
    def readyz():
        failures = {name: reason for name in checks if (reason := check(name))}
        if not failures:
            return jsonify(status="ready", checks={name: "ok" for name in checks})
        return unavailable(f"not ready: {' and '.join(failures)} not answering",
                           retry_after=5, errors=failures)


def unavailable(message: str, retry_after: int, **extra):
    response = jsonify(code=503, status="Service Unavailable", message=message,
                       reason="unavailable", **extra)
    response.status_code = 503
    response.headers["Retry-After"] = str(retry_after)
    return response
