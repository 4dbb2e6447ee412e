"""JSON logs, one object a line, each with the id of the request it belongs to.

The request id is the caller's `X-Request-Id` when it is a plain token (a proxy's
id carries through), else a fresh one; it is echoed in the response. Each request
ends with one access line, with the client's address (as the trusted proxies report it, see
`POYTA_PROXY_HOPS`); paths are logged as their route, so invite codes and other secrets in a
URL never reach the log.
"""
from __future__ import annotations

import json
import logging
import re
import random
import time

from flask import Flask, g, has_request_context, request

ACCESS = logging.getLogger("poyta.access")
REQUEST_ID_HEADER = "X-Request-Id"
ACCEPTED_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
RECORD_FIELDS = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


# `json.dumps(entry, default=str)` would make an encoder for each line.
ENCODER = json.JSONEncoder(default=str)


class JsonFormatter(logging.Formatter):
    # The last second formatted and its text: most lines of a busy process share their second.
    second = (None, "")

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": f"{self.seconds(record)}.{int(record.msecs):03d}Z",
                 "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        if has_request_context() and "request_id" in g:
            entry["request_id"] = g.request_id  # the extra fields below may repeat it
        entry.update({key: value for key, value in vars(record).items()
                      if key not in RECORD_FIELDS})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return ENCODER.encode(entry)

    def seconds(self, record: logging.LogRecord) -> str:
        """The record's time to the second, as `formatTime` writes it."""
        second, text = self.second
        if second != int(record.created):
            second, text = int(record.created), self.formatTime(record, "%Y-%m-%dT%H:%M:%S")
            self.second = (second, text)
        return text


JsonFormatter.converter = time.gmtime


def request_id(given: str) -> str:
    """The caller's id when it is a plain token, else a fresh one: a label that tells requests
    apart, not a secret, so it needs no system call for randomness."""
    return given if ACCEPTED_REQUEST_ID.fullmatch(given) else f"{random.getrandbits(64):016x}"


def configure(level: str = "INFO") -> None:
    """JSON lines on stderr for the whole process, unless logging is set up already."""
    root = logging.getLogger()
    if root.handlers:
        return
    # What a record would gather and no line of ours shows: the caller's file and line, the
    # thread and the process (the logging HOWTO's "Optimization"): an access line takes 15 µs
    # of CPU instead of 19, a few per cent of an unchanged poll.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    root.setLevel(level)


def init_app(app: Flask, level: str) -> None:
    configure(level)

    @app.before_request
    def take_request_id():
        g.request_id = request_id(request.headers.get(REQUEST_ID_HEADER, ""))
        g.log_started = time.perf_counter()

    @app.after_request
    def log_request(response):
        if "request_id" in g:
            response.headers[REQUEST_ID_HEADER] = g.request_id
            log_access(g.request_id, request.remote_addr, request.method,
                       request.url_rule.rule if request.url_rule else None,
                       (request.view_args or {}).get("game_id"), response.status_code,
                       time.perf_counter() - g.log_started)
        return response


def log_access(request_id: str, client: str | None, method: str, route: str | None,
               game: str | None, status: int, seconds: float) -> None:
    """The one access line of a request, whether Flask or a fast path before it answered."""
    ACCESS.info("request", extra={"request_id": request_id, "client": client, "method": method,
                                  "route": route, "game": game, "status": status,
                                  "ms": round(seconds * 1000, 1)})
