"""The one error shape: `{code, status, message, reason, errors?, current_version?}`, the same
as flask-smorest's own with a machine-readable `reason` from the enum `REASONS`."""
from __future__ import annotations

from http import HTTPStatus

from flask import Response, jsonify

from api.tables.errors import REASONS as DOMAIN_REASONS

# Why the HTTP layer refuses: the request itself, before any domain rule.
HTTP_REASONS = {
    "bad_request": "the body is not JSON the server reads (not UTF-8, nested too deep, a "
                   "number too long, a lone surrogate)",
    "invalid_body": "the body does not fit its schema (`errors.json` names the fields)",
    "invalid_query": "a query parameter is unknown or out of range (`errors.query` names it)",
    "method_not_allowed": "the URL does not answer that method (`Allow` lists what it does)",
    "invalid_header": "a header's value is not one the server reads (a `Last-Event-ID` no "
                      "stream gave)",
    "precondition_failed": "`If-Match` does not hold the game's ETag now: it changed since "
                           "(look again)",
    "payload_too_large": "the body is over 64 KB",
    "uri_too_long": "the URL is over 2 KB",
    "unsupported_media_type": "the body was not sent as application/json",
    "idempotency_key_reused": "the Idempotency-Key was used for another request",
    "in_progress": "the first request with this Idempotency-Key is still being answered",
    "unavailable": "the game store does not answer right now: `Retry-After` says when to "
                   "try again",
    "server_error": "a fault of the server's own",
}
REASONS = {**DOMAIN_REASONS, **HTTP_REASONS}
REASON_BY_STATUS = {400: "bad_request", 401: "unauthorized", 403: "forbidden",
                    404: "not_found", 405: "method_not_allowed", 409: "conflict",
                    412: "precondition_failed",
                    413: "payload_too_large", 414: "uri_too_long",
                    415: "unsupported_media_type", 422: "invalid_request", 429: "rate_limited",
                    503: "unavailable"}


def reason_for(code: int) -> str:
    return REASON_BY_STATUS.get(code, "server_error" if code >= 500 else "invalid_request")


def error_body(code: int, message: str, reason: str | None = None, **details) -> dict:
    return {"code": code, "status": HTTPStatus(code).phrase, "message": message,
            "reason": reason or reason_for(code), **details}


def error_response(code: int, message: str, headers: dict | None = None,
                   reason: str | None = None) -> Response:
    response = jsonify(error_body(code, message, reason))
    response.status_code = code
    response.headers.update(headers or {})
    return response
