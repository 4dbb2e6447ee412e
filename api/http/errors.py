"""The one error shape: `{code, status, message, errors?}`, the same as flask-smorest's own."""
from __future__ import annotations

from http import HTTPStatus

from flask import Response, jsonify


def error_body(code: int, message: str) -> dict:
    return {"code": code, "status": HTTPStatus(code).phrase, "message": message}


def error_response(code: int, message: str, headers: dict | None = None) -> Response:
    response = jsonify(error_body(code, message))
    response.status_code = code
    response.headers.update(headers or {})
    return response
