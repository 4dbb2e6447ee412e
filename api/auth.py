"""Who is calling: the bearer token of a player."""
from __future__ import annotations

from flask import current_app, g, request

from api.service import Service, Unauthorized


def service() -> Service:
    return current_app.extensions["poyta"]


def current_player(required: bool = True) -> dict | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        if required:
            raise Unauthorized("send 'Authorization: Bearer <token>' from POST /api/v1/players")
        return None
    if "player" not in g:  # looked up once per request
        g.player = service().player_for_token(token.strip())
    if g.player is None:
        raise Unauthorized("unknown or revoked token")
    return g.player
