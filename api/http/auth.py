"""Who is calling: the bearer token of a player."""
from __future__ import annotations

from flask import current_app, g, request

from api.tables import Tables
from api.tables.errors import Unauthorized
from api.tables.model import Player


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
