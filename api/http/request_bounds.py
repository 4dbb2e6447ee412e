"""Bounds on what one request may carry, checked before any view reads it.

A body over 64 KB answers 413, whether it says its length or comes in chunks (a server
that reads chunks cuts such a body at the limit without a word, which made a JSON error of it);
a URL over 2 KB answers 414. A JSON body must be
UTF-8, nest at most 32 levels, hold no number longer than 30 digits (Python
refuses to read 4,300 and more; nothing here needs more than 19) and no lone
surrogate (Redis could not store it): else 400. Checking the raw text first
means the parser never recurses a thousand levels deep.
"""
from __future__ import annotations

import io
import json
import re

from flask import Flask, request
from flask_smorest import abort

MAX_BODY_BYTES = 64 * 1024
MAX_URL_BYTES = 2048
MAX_JSON_DEPTH = 32
MAX_NUMBER_DIGITS = 30

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def init_app(app: Flask) -> None:
    app.config["MAX_CONTENT_LENGTH"] = app.config.get("MAX_CONTENT_LENGTH") or MAX_BODY_BYTES
    app.before_request(check_request)


def check_request() -> None:
    environ = request.environ
    raw_uri = environ.get("RAW_URI") or environ.get("REQUEST_URI") or request.full_path
    if len(raw_uri) > MAX_URL_BYTES:
        abort(414, message=f"the URL may be at most {MAX_URL_BYTES} bytes long")
    if (environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked"
            and environ.get("wsgi.input_terminated")):
        read_chunked_body(environ)
    if request.is_json:
        body = request.get_data(cache=True)  # 413 beyond MAX_CONTENT_LENGTH
        if body:
            check_json(body)


def read_chunked_body(environ: dict) -> None:
    """A body without a length, read up to one byte past the limit, and handed on as one with a
    length: before any view reads it."""
    body = environ["wsgi.input"].read(MAX_BODY_BYTES + 1)
    if len(body) > MAX_BODY_BYTES:
        abort(413, message=f"the body may be at most {MAX_BODY_BYTES // 1024} KB")
    environ["wsgi.input"], environ["CONTENT_LENGTH"] = io.BytesIO(body), str(len(body))


def check_json(body: bytes):
    """The JSON the body holds, once it is within the bounds (else 400)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        abort(400, message="the body must be JSON in UTF-8")
    if json_depth(text) > MAX_JSON_DEPTH:
        abort(400, message=f"JSON may nest at most {MAX_JSON_DEPTH} levels deep")
    try:
        parsed = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except ValueError as error:
        abort(400, message=f"Invalid JSON body: {error}")
    try:
        json.dumps(parsed, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        abort(400, message="text must be valid Unicode: no lone surrogate such as \\ud800")
    return parsed


def json_depth(text: str) -> int:
    """How deep arrays and objects nest, brackets inside strings not counted."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"numbers may have at most {MAX_NUMBER_DIGITS} digits")
    return int(digits)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")
