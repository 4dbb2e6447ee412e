"""A lossy link in front of the app, as a WSGI middleware on the test server: every `every`-th
POST that carries an Idempotency-Key is handled by the app and its answer lost (the
connection is shut unanswered, as when a phone drops off the network mid-request); the
client's retry with that key is refused once with 429 and Retry-After (a busy proxy); the
third try reaches the app, which must answer the first answer again and apply nothing twice."""
from __future__ import annotations

import json
import socket
import threading


class LossyLink:
    def __init__(self, app, every: int = 4):
        self.app = app
        self.every = every
        self.lock = threading.Lock()
        self.keyed = 0
        self.tries: dict[str, int] = {}
        self.lost: list[str] = []
        self.replayed: list[str] = []
        self.authorization: str | None = None  # the client's last, to look at what it did

    def __call__(self, environ, start_response):
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        self.authorization = environ.get("HTTP_AUTHORIZATION", self.authorization)
        if environ["REQUEST_METHOD"] != "POST" or not key:
            return self.app(environ, start_response)
        with self.lock:
            if key not in self.tries:
                self.keyed += 1
                self.tries[key] = 0 if self.keyed % self.every else 1
            tries = self.tries[key]
            if tries:
                self.tries[key] += 1
        if tries == 1:
            answer = self.app(environ, lambda status, headers, exc_info=None: None)
            b"".join(answer)  # the app has done its work; the answer never leaves
            self.lost.append(key)
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            start_response("500 Internal Server Error", [])
            return []
        if tries == 2:
            body = json.dumps({"code": 429, "status": "Too Many Requests",
                               "message": "The link is busy: try again in 1 s",
                               "reason": "rate_limited"}).encode()
            start_response("429 Too Many Requests", [("Content-Type", "application/json"),
                                                     ("Retry-After", "1")])
            return [body]

        def telling(status, headers, exc_info=None):
            if ("Idempotent-Replayed", "true") in headers:
                self.replayed.append(key)
            return start_response(status, headers, exc_info)
        return self.app(environ, telling)
