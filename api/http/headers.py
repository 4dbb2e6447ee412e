"""Security headers on every answer, and the one error shape for 405 too.

The PWA and the API docs load scripts only from this origin (no inline script,
no eval); styles may be inline because the game modules add their own
`<style>` elements. No page may be framed, and no address leaks in a Referer.
"""
from __future__ import annotations

from flask import Flask, Response
from werkzeug.exceptions import MethodNotAllowed

from api.http.errors import error_response

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)
    app.register_error_handler(MethodNotAllowed, method_not_allowed)


def add_security_headers(response: Response) -> Response:
    # No view sets any of them: one check instead of one search of the headers per name.
    if "Content-Security-Policy" not in response.headers:
        response.headers.extend(SECURITY_HEADERS)
    return response


def method_not_allowed(error: MethodNotAllowed) -> Response:
    allowed = ", ".join(sorted(error.valid_methods or ()))
    return error_response(405, f"this URL answers only {allowed}", {"Allow": allowed})
