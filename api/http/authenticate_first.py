"""Who is asking is settled before what is asked is read: 401 comes before 422.

An operation documented with bearer security needs a valid token; one whose
security also lists `{}` (anonymous) takes a token when one is sent. The
player found is remembered for the request, so the view's own lookup costs
nothing more.
"""
from __future__ import annotations

from functools import lru_cache

from flask import Flask, current_app, g, request

from api.http.auth import current_player, tables
from api.tables.errors import Unauthorized


def init_app(app: Flask) -> None:
    app.before_request(authenticate)


def authenticate() -> None:
    bearer = _bearer(current_app.view_functions.get(request.endpoint), request.method)
    if bearer is not None:
        current_player(required=bearer)


@lru_cache(maxsize=None)
def _bearer(view, method: str) -> bool | None:
    """True: the operation needs a token; False: it takes one; None: it has no use for one."""
    operation = getattr(getattr(view, "view_class", None), method.lower(), None)
    security = getattr(operation, "_apidoc", {}).get("manual_doc", {}).get("security")
    if not security or not any("bearer" in requirement for requirement in security):
        return None
    return {} not in security


def recheck() -> None:
    """After a long wait: the caller's token must still be valid (401 for a device signed out
    meanwhile). The process's token cache answers within its few seconds, the time revocation is
    allowed to take anyway, so a quick wake costs no extra command."""
    if g.get("player") is None:
        return
    token = request.headers["Authorization"].partition(" ")[2].strip()
    if tables().players.for_token(token) is None:
        raise Unauthorized("unknown or revoked token")
