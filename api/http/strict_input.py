"""What a request to the API may send: a body only as JSON, and only the query parameters its
operation declares.

A body of another media type answers 415 rather than the 422 "missing field" a schema would
give it (the fields were sent, in a form the server does not read). An operation with a query
schema refuses unknown parameters itself (`api.http.blueprint`); one without any refuses every
parameter here, in the same 422 shape.
"""
from __future__ import annotations

from flask import Flask, current_app, request
from flask_smorest import abort

API_PATH = "/api/v1/"
UNKNOWN_FIELD = "Unknown field."


def init_app(app: Flask) -> None:
    app.before_request(check_body_media_type)
    app.before_request(refuse_undeclared_query)


def check_body_media_type() -> None:
    has_body = request.content_length or request.headers.get("Transfer-Encoding")
    if request.path.startswith(API_PATH) and has_body and not request.is_json:
        sent = request.mimetype or "no Content-Type"
        abort(415, message=f"the body must be JSON, sent with Content-Type: application/json "
                           f"(not {sent})")


def refuse_undeclared_query() -> None:
    if not request.args or not request.path.startswith(API_PATH) or declares_query():
        return
    abort(422, errors={"query": {name: [UNKNOWN_FIELD] for name in request.args}})


def declares_query() -> bool:
    """The operation has a query schema (which checks the parameters itself); True also for
    a request no operation answers, which routing refuses with its own status."""
    view = current_app.view_functions.get(request.endpoint)
    view_class = getattr(view, "view_class", None)
    if view_class is None:
        return True
    method = getattr(view_class, "get" if request.method == "HEAD" else request.method.lower(),
                     None)
    return method is None or getattr(method, "reads_query", False)
