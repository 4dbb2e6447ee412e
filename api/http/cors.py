"""Cross-origin calls from browser apps on the origins `POYTA_CORS_ORIGINS` names (none by
default), with `flask-cors`.

Never with credentials: the API authenticates by bearer token, never by cookie, so a page
elsewhere gets nothing a token it holds would not give it. A preflight is answered 204 when
the URL serves the method asked for (routing answers 404 or 405 otherwise, and the browser
refuses the call), before authentication and budgets, which a preflight carries nothing for;
browsers cache it for `max_age` seconds (Chromium holds one at most 2 hours).
"""
from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS
from werkzeug.exceptions import MethodNotAllowed

MAX_AGE_SECONDS = 7200
REQUEST_HEADERS = ["Authorization", "Content-Type", "If-None-Match", "Idempotency-Key",
                   "X-Request-Id"]
READABLE_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-Id", "RateLimit",
                    "RateLimit-Policy"]


def init_app(app: Flask, origins: tuple[str, ...]) -> None:
    if not origins:
        return
    CORS(app, resources={r"/api/*": {"origins": list(origins)}}, supports_credentials=False,
         max_age=MAX_AGE_SECONDS, allow_headers=REQUEST_HEADERS, expose_headers=READABLE_HEADERS)
    app.before_request(answer_preflight)


def answer_preflight() -> Response | None:
    method = request.headers.get("Access-Control-Request-Method", "").upper()
    unrouted = request.routing_exception
    if (request.method == "OPTIONS" and method and isinstance(unrouted, MethodNotAllowed)
            and method in (unrouted.valid_methods or ())):
        return Response(status=204)  # flask-cors adds the Access-Control-* headers, or not
    return None
