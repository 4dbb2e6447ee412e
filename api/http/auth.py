"""Who is calling: the bearer token of a player, and who may call an operation.

A route declares it: `@authenticated` (a token is needed) or `@optional_auth` (anyone may
call; a token sent must be valid), which both puts the operation's security in the contract
and has it enforced. Who is asking is settled before what is asked is read: 401 comes before
422. The player found is remembered for the request, so the view's own lookup costs nothing
more.
"""
from __future__ import annotations

from functools import lru_cache

from flask import Flask, current_app, g, request
from flask_smorest import Blueprint

from api.tables import Tables
from api.tables.errors import Unauthorized
from api.tables.model import Player

BEARER = [{"bearer": []}]
BEARER_OR_ANONYMOUS = [{"bearer": []}, {}]  # a spectator may call without a token


def authenticated(operation):
    """The operation needs a player's token."""
    return _declared(operation, BEARER, token_required=True)


def optional_auth(operation):
    """Anyone may call the operation; a token sent is checked and names the caller."""
    return _declared(operation, BEARER_OR_ANONYMOUS, token_required=False)


def _declared(operation, security: list[dict], token_required: bool):
    documented = Blueprint.doc(security=security)(operation)
    documented.token_required = token_required  # wrappers above copy it (functools.wraps)
    return documented


def tables() -> Tables:
    return current_app.extensions["poyta"]


def bearer_token(authorization: str) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None for any other header."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def current_player(required: bool = True) -> Player | None:
    token = bearer_token(request.headers.get("Authorization", ""))
    if token is None:
        if required:
            raise Unauthorized("send 'Authorization: Bearer <token>' from POST /api/v1/players")
        return None
    if "player" not in g:  # looked up once per request
        g.player = tables().players.for_token(token)
    if g.player is None:
        raise Unauthorized("unknown or revoked token")
    return g.player


def init_app(app: Flask) -> None:
    app.before_request(authenticate)


def authenticate() -> None:
    token_required = _token_required(current_app.view_functions.get(request.endpoint),
                                     request.method)
    if token_required is not None:
        current_player(required=token_required)


@lru_cache(maxsize=None)
def _token_required(view, method: str) -> bool | None:
    """True: the operation needs a token; False: it takes one; None: it has no use for one."""
    operation = getattr(getattr(view, "view_class", None), method.lower(), None)
    return getattr(operation, "token_required", None)


def recheck() -> None:
    """After a long wait: the caller's token must still be valid (401 for a device signed out
    meanwhile). The process's token cache answers within its few seconds, the time revocation is
    allowed to take anyway, so a quick wake costs no extra command."""
    if g.get("player") is None:
        return
    token = request.headers["Authorization"].partition(" ")[2].strip()
    if tables().players.for_token(token) is None:
        raise Unauthorized("unknown or revoked token")
