"""Refusals: a request that cannot be carried out. Each has its HTTP status; the message says
what to do."""
from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Unprocessable(ServiceError):
    status = 422


class TooManyRequests(ServiceError):
    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def no_game(game_id: str) -> NotFound:
    return NotFound(f"no game with id {game_id!r}")
