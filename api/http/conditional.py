"""Conditional reads: a view's ETag and the one function that makes a game's answer.

`GET /games/{id}` is answered in two places, before Flask for plain polls (`game_polls`) and by
the flask-smorest view for long-polls and everything the fast path leaves: both call
`game_answer`, so body, ETag and 304 are the same whichever answers. An ETag is the SHA-1 of
the parts it is made of as sorted JSON (the same digest flask-smorest makes, so ETags did not
change when it stopped making them).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from flask import Response
from werkzeug.http import parse_etags

from api.tables import Tables, views
from api.tables.model import Player


def etag_of(parts: dict) -> str:
    return hashlib.sha1(json.dumps(parts, sort_keys=True).encode()).hexdigest()


@lru_cache(maxsize=4096)
def game_etag(version: int, seat: int | None, renamed: int) -> str:
    """Remembered: a game's players poll the same parts until it changes, and hashing them
    costs 7 µs."""
    return etag_of({"version": version, "seat": seat, "renamed": renamed})


def unchanged(etag: str, if_none_match: str | None) -> bool:
    return bool(if_none_match) and parse_etags(if_none_match).contains(etag)


@dataclass(frozen=True)
class GameAnswer:
    etag: str
    body: bytes | None     # None: unchanged since the caller's ETag (304)

    def response(self) -> Response:
        if self.body is None:
            response = Response(status=304)
        else:
            response = Response(self.body, mimetype="application/json")
        response.set_etag(self.etag)
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
    view = views.view(stored, parts["seat"])
    return GameAnswer(game_etag(**parts), f"{dumps(view, separators=(',', ':'))}\n".encode())
