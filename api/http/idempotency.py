"""`Idempotency-Key` on every POST: a retry after a lost answer gets the first answer again and
applies nothing twice.

The key is the caller's own (a player's, or an anonymous caller's address's): the same key with
the same method, path and body within 24 hours answers what the first request answered, with
`Idempotent-Replayed: true`; with another request it is 422. A retry that comes while the first
request still runs waits for its answer (up to `WAIT_SECONDS`, then 409 with Retry-After). An
answer that says nothing for good (a 5xx, a 429) is not kept, so the retry runs again. Checked
after authentication and budgets, so a replay is counted like any request.

The calls that hand out a credential (a new player's token, a sign-in's, a sign-in code) keep
no answer: a kept answer would hold the credential itself, where the store keeps only hashes.
They check the header and keep nothing; a retried one makes a second credential, which is
harmless.
"""
from __future__ import annotations

import hashlib
import re
import time

from flask import Flask, Response, current_app, g, request
from flask_smorest import abort

from api.http.budgets import by_player
from api.storage.idempotency import IdempotencyStore, Kept

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
KEY = re.compile(r'"?([!#-~]{1,255})"?')   # visible ASCII, as a bare token or a quoted string
TTL_SECONDS = 24 * 3600
MOST_KEYS = 500             # kept per caller; the oldest go first
MOST_BODY_BYTES = 64 * 1024   # a game view is a few KB; a larger answer is not kept
PENDING_SECONDS = 60        # a first request still unanswered after this died
WAIT_SECONDS, WAIT_STEP = 10.0, 0.05
KEPT_HEADERS = ("Content-Type", "ETag", "Location")
STORE = "poyta_idempotency"
CREDENTIALS = {"players.Players", "players.SignIn", "players.SignInCodes", "passkeys.SignIn"}


def init_app(app: Flask) -> None:
    app.extensions[STORE] = IdempotencyStore(app.extensions["poyta"].storage.redis, TTL_SECONDS,
                                             MOST_KEYS, PENDING_SECONDS)
    app.before_request(replay_or_claim)
    app.after_request(keep_answer)


def store() -> IdempotencyStore:
    return current_app.extensions[STORE]


def replay_or_claim() -> Response | None:
    sent = request.headers.get(HEADER)
    if request.method != "POST" or sent is None:
        return None
    match = KEY.fullmatch(sent.strip())
    if match is None:
        abort(422, message=f"{HEADER} must be 1 to 255 visible ASCII characters, "
                           "such as a UUID")
    if request.endpoint in CREDENTIALS:
        return None
    key, scope = match.group(1), by_player()
    fingerprint = hashlib.sha256(b"\n".join([
        request.method.encode(), request.full_path.encode(), request.get_data(cache=True)
    ])).hexdigest()
    kept = store().claim(scope, key, fingerprint, time.time())
    if kept is None:
        g.idempotency = (scope, key, fingerprint)
        return None
    deadline = time.monotonic() + WAIT_SECONDS
    while kept is not None and kept.answer is None and kept.fingerprint == fingerprint \
            and time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        kept = store().find(scope, key)
    return replay(kept, fingerprint)


def replay(kept: Kept | None, fingerprint: str) -> Response:
    if kept is not None and kept.fingerprint != fingerprint:
        abort(422, message=f"this {HEADER} was used for another request (another path or "
                           "body); send a new key for a new request",
              reason="idempotency_key_reused")
    if kept is None or kept.answer is None:  # released for a retry, or still running
        abort(409, message=f"the first request with this {HEADER} is still being answered; "
                           "try again", headers={"Retry-After": "1"}, reason="in_progress")
    answer = kept.answer
    response = Response(answer["body"], status=answer["status"], headers=answer["headers"])
    response.headers[REPLAYED] = "true"
    return response


def keep_answer(response: Response) -> Response:
    claimed = g.pop("idempotency", None)
    if claimed is None:
        return response
    scope, key, fingerprint = claimed
    body = None if response.is_streamed else response.get_data()
    if (response.status_code >= 500 or response.status_code == 429 or body is None
            or len(body) > MOST_BODY_BYTES):
        store().release(scope, key)
        return response
    store().keep(scope, key, fingerprint, {
        "status": response.status_code, "body": body.decode("utf-8", "replace"),
        "headers": {name: response.headers[name] for name in KEPT_HEADERS
                    if name in response.headers}})
    return response
