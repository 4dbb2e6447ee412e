"""Refusals: a request that cannot be carried out. Each has its HTTP status and a machine-
readable `reason` (the enum `REASONS` below, which the contract publishes); the message says
what to do."""
from __future__ import annotations

# Why the domain refuses, as a client tells them apart.
REASONS = {
    "unauthorized": "no token, or an unknown or revoked one",
    "forbidden": "not yours to see or do: a private game, a seat that is not yours",
    "not_found": "no such game, invite, device, game type or replay step",
    "stale_version": "the `version` sent is stale: something you can see changed after it "
                     "(`current_version` says where the game is)",
    "game_started": "the game has started: it can no longer be left (resign instead)",
    "game_over": "the game is over",
    "game_not_started": "the game is still waiting for players",
    "not_your_turn": "the seat has nothing to do now",
    "illegal_action": "the rules do not allow that action now (the message says why)",
    "stood_in": "a bot plays the seat after repeated time-outs: take it back first",
    "busy": "the game or setting changed under many concurrent requests: try again",
    "conflict": "the game or seat is not in the state the call needs (the message says which)",
    "invalid_request": "well formed, but not allowed: unknown options, a bad seat list, "
                       "an unknown sign-in code",
    "rate_limited": "a budget or quota is spent: `Retry-After` says when to try again",
    "too_many_entrants": "a tournament's cap is over what its format allows (256; 8 for a "
                         "round robin)",
    "impossible_table_size": "the game cannot be played at that table size",
    "tournament_started": "the tournament has started: it can no longer be joined",
    "tournament_full": "the tournament has as many entrants as its cap",
}


class ServiceError(Exception):
    status = 400
    reason = "invalid_request"

    def __init__(self, message: str, reason: str | None = None, **details):
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason
        self.details = details  # more fields of the error body, such as `current_version`


class Unauthorized(ServiceError):
    status = 401
    reason = "unauthorized"


class Forbidden(ServiceError):
    status = 403
    reason = "forbidden"


class NotFound(ServiceError):
    status = 404
    reason = "not_found"


class Conflict(ServiceError):
    status = 409
    reason = "conflict"


class Unprocessable(ServiceError):
    status = 422


class TooManyRequests(ServiceError):
    status = 429
    reason = "rate_limited"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def no_game(game_id: str) -> NotFound:
    return NotFound(f"no game with id {game_id!r}")
