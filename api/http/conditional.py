"""Conditional reads in one place: ETags, the 304 (`answered`), the contract's word for an
operation that answers one (`@conditional`), the one function that makes a game's answer, and
the answers about a finished game, which never change.

`GET /games/{id}` is answered in two places, before Flask for plain polls (`game_polls`) and by
the flask-smorest view for long-polls and everything the fast path leaves: both send
`game_answer`'s `GameAnswer`, so body, status, ETag and the other headers are the same whichever
answers. An ETag is the SHA-1 of the parts it is made of as sorted JSON (the same digest
flask-smorest makes, so ETags did not change when it stopped making them).

A finished game's record, replay steps and events carry a strong ETag made of the game's
version and what else the answer depends on, and a day's `Cache-Control`: a reader that holds
one is answered 304 from the game's version alone, and a browser or a cache does not ask
again. `public` only for what every caller gets alike; an answer showing a seat's own events
is `private`. The records, which take a replay of the whole game to make, are kept once made,
gzipped (`FINISHED_CACHE_BYTES` a process).
"""
from __future__ import annotations

import gzip
import hashlib
import json
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from cachetools import LRUCache
from flask import Response, current_app, request
from flask_smorest import Blueprint
from werkzeug.http import parse_etags, quote_etag

from api import telemetry
from api.http import auth
from api.http.disconnects import DEPARTURES
from api.tables import Tables, views
from api.tables.errors import ServiceError
from api.tables.model import Player, StoredGame


MARK = "x-conditional"  # the route's declaration, which `document` turns into the contract's
MATCHED = "x-if-match"


class PreconditionFailed(ServiceError):
    status = 412
    reason = "precondition_failed"


def conditional(operation):
    """The operation answers 304 to a matching If-None-Match (events: once the game is over)."""
    return Blueprint.doc(**{MARK: True})(operation)


def guarded(operation):
    """The write takes `If-Match` with the game view's ETag: 412 once the view changed."""
    return Blueprint.doc(**{MATCHED: True})(operation)


def if_match_version(tables: Tables, game_id: str, player: Player) -> int | None:
    """The game version an `If-Match` names, for the write to be made on: 412 unless it holds
    the ETag the caller's view of the game has now (`*`: any, so no version)."""
    sent = request.headers.get("If-Match")
    if not sent:
        return None
    seen = tables.watching.etag_parts(game_id, player)
    matches = parse_etags(sent)
    if matches.star_tag:
        return None
    if not matches.contains(game_etag(**seen)):
        raise PreconditionFailed("If-Match does not hold the game's ETag now: the game changed "
                                 "since that view; look again")
    return seen["version"]


def document(operation: dict) -> None:
    """A conditional operation's If-None-Match, ETag and 304 in the contract; a guarded
    write's If-Match and 412."""
    if operation.pop(MATCHED, False):
        operation.setdefault("parameters", []).append(
            {"in": "header", "name": "If-Match", "schema": {"type": "string"},
             "description": "The ETag of the game view you decided on: 412 if the game changed "
                            "since (as `version`, but for any change you can see)"})
        operation["responses"][412] = "PRECONDITION_FAILED"
    if not operation.pop(MARK, False):
        return
    operation.setdefault("parameters", []).append(
        {"in": "header", "name": "If-None-Match", "schema": {"type": "string"},
         "description": "The ETag of the answer you have: 304 if it still holds"})
    operation["responses"][200].setdefault("headers", {})["ETag"] = {
        "description": "Send it back as If-None-Match", "schema": {"type": "string"}}
    operation["responses"][304] = {"description": "Not Modified"}


def etag_of(parts: dict) -> str:
    return hashlib.sha1(json.dumps(parts, sort_keys=True).encode()).hexdigest()


@lru_cache(maxsize=4096)
def game_etag(version: int, seat: int | None, renamed: int) -> str:
    """Remembered: a game's players poll the same parts until it changes, and hashing them
    costs 7 µs."""
    return etag_of({"version": version, "seat": seat, "renamed": renamed})


@lru_cache(maxsize=4096)
def unchanged(etag: str, if_none_match: str | None) -> bool:
    """If-None-Match compares weakly (RFC 9110, 13.1.2): `W/"x"` matches `"x"`, and `*` any.
    Remembered: a phone polls with the same tag until the game changes."""
    return bool(if_none_match) and parse_etags(if_none_match).contains_weak(etag)


def answered(etag: str, make: Callable[[], Response]) -> Response:
    """304 when the caller's If-None-Match holds `etag`, else what `make` gives; with the ETag
    either way."""
    if unchanged(etag, request.headers.get("If-None-Match")):
        response = Response(status=304)
    else:
        response = make()
    response.set_etag(etag)
    return response


def long_poll(channel: str, wait: int, current: Callable[[], dict],
              etag: Callable[[dict], str]) -> dict:
    """The newest data; with `wait`, held while its ETag matches the client's and nothing
    changes."""
    if not wait:
        return current()
    if_none_match = request.headers.get("If-None-Match")
    with telemetry.long_poll_held():
        newest = current_app.extensions["poyta_changes"].hold(
            channel, current, lambda seen: unchanged(etag(seen), if_none_match), wait,
            DEPARTURES.watching)
    auth.recheck()
    return newest


@dataclass(frozen=True)
class GameAnswer:
    """A game view's answer, sent alike by the fast path (`game_polls`) and by Flask."""
    etag: str
    body: bytes | None     # None: unchanged since the caller's ETag (304)

    def status(self, made: int = 200) -> int:
        return 304 if self.body is None else made

    def headers(self) -> list[tuple[str, str]]:
        content = [] if self.body is None else [("Content-Type", "application/json"),
                                                ("Content-Length", str(len(self.body)))]
        return [*content, ("ETag", quote_etag(self.etag))]

    def response(self, status: int = 200) -> Response:
        response = Response(self.body, status=self.status(status))
        response.headers.update(self.headers())
        return response


def game_answer(tables: Tables, game_id: str, player: Player | None,
                if_none_match: str | None, dumps, parts: dict | None = None) -> GameAnswer:
    """The caller's view of the game as JSON (`dumps`), or None when their ETag still holds: a
    poll with If-None-Match reads only the ETag's parts first (one command, none when a
    long-poll just read them: `parts`; the game too, a second, when it changed), one without
    reads both at once."""
    if if_none_match:
        parts = parts or tables.watching.etag_parts(game_id, player)
        etag = game_etag(**parts)
        if unchanged(etag, if_none_match):
            return GameAnswer(etag, None)
    parts, stored = tables.watching.watch(game_id, player)
    return seat_answer(stored, parts["seat"], parts["renamed"], dumps)


def seat_answer(stored: StoredGame, seat: int | None, renamed: int, dumps) -> GameAnswer:
    """The game as `seat` sees it, with the ETag `GET /games/{id}` gives the same view: an
    action's answer is a poll's, so a client goes on to long-poll with it at once."""
    body = f"{dumps(views.view(stored, seat), separators=(',', ':'))}\n".encode()
    return GameAnswer(game_etag(stored.version, seat, renamed), body)


FINISHED_MAX_AGE = 86400
FINISHED_CACHE_BYTES = 32 * 1024 * 1024
_finished_bodies: LRUCache[str, bytes] = LRUCache(FINISHED_CACHE_BYTES, getsizeof=len)
_finished_lock = threading.Lock()
_making_lock = threading.Lock()


def finished_answer(parts: dict, shared: bool, body: Callable[[], bytes],
                    kept: bool = False) -> Response:
    """An answer about a finished game: 304 when the caller's ETag holds, else `body()`;
    always with its strong ETag and a long Cache-Control. With `kept`, the body is made once
    and kept gzipped (a long record's 280 KB of JSON are 30 KB so), and sent so to a client
    that accepts it."""
    etag = etag_of(parts)
    gzipped = kept and "gzip" in request.accept_encodings
    if gzipped:  # a strong tag names one encoding of the answer
        etag += "-gzip"
    response = answered(etag, lambda: _finished_body(etag, body, kept, gzipped))
    if kept:
        response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = (f"{'public' if shared else 'private'}, "
                                         f"max-age={FINISHED_MAX_AGE}, immutable")
    return response


def _finished_body(etag: str, body: Callable[[], bytes], kept: bool, gzipped: bool) -> Response:
    """The answer's body; with `kept`, made once and kept gzipped under its ETag."""
    if not kept:
        return Response(body(), mimetype="application/json")
    with _finished_lock:
        packed = _finished_bodies.get(etag)
    if packed is None:
        # One reader makes it, the others that came meanwhile wait and take it: eight
        # readers of a cold record were eight replays of the whole game at once.
        with _making_lock:
            with _finished_lock:
                packed = _finished_bodies.get(etag)
            if packed is None:
                packed = gzip.compress(body(), 6, mtime=0)
                if len(packed) <= FINISHED_CACHE_BYTES:
                    with _finished_lock:
                        _finished_bodies[etag] = packed
    if not gzipped:
        return Response(gzip.decompress(packed), mimetype="application/json")
    response = Response(packed, mimetype="application/json")
    response.headers["Content-Encoding"] = "gzip"
    return response
