"""Long-lived answers a program lives on (`resources.stream`, `resources.games.stream`).

Both come as Server-Sent Events (`text/event-stream`, the default) or as NDJSON (`Accept:
application/x-ndjson`), one JSON object with a `type` per event either way, and a `heartbeat`
every `STREAM_HEARTBEAT` seconds so that proxies keep the connection and the server notices a
client that went away. They wait on the process's one change feed (`api.storage.changes`), as
the long-polls do, and draw on no per-request budget: a player holds at most
`MAX_OPEN_STREAMS` at once, each an entry that lapses unless its stream renews it at every
heartbeat (a process that died takes its streams' slots with it within a minute). A stream
whose client closed the connection gives its slot back within a second: a bot that crashed
and restarts finds it free.
"""
from __future__ import annotations

import json
import random
import re
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack

from flask import Response, current_app, request, stream_with_context

from api.http import auth
from api.http.budgets import by_player
from api.http.disconnects import DEPARTURES
from api.http.errors import error_response
from api.storage import connections
from api.tables.errors import ServiceError
from api.tables.streams import heartbeat

SSE, NDJSON = "text/event-stream", "application/x-ndjson"
MAX_OPEN_STREAMS = 4       # per player (or address): a bot's event stream and a few games
HEARTBEAT = 20             # seconds between heartbeats (`STREAM_HEARTBEAT` in the config)
# A slot lapses this many heartbeats after its last renewal: a reader slow by one heartbeat keeps
# it, and a process that died frees it within the time docs/api.md gives.
LEASE_HEARTBEATS = 2
RECONNECT_MS = 3000        # what an EventSource waits before it reconnects
EVENT_ID = re.compile(r"[0-9]{1,16}")  # what a stream's `id` is (`api.tables.streams`)


class InvalidHeader(ServiceError):
    reason = "invalid_header"


def last_event_id() -> str | None:
    """The `Last-Event-ID` sent, if any: 400 for one no stream gave, so that a client with a
    broken resume hears of it instead of silently starting afresh."""
    sent = request.headers.get("Last-Event-ID")
    if sent and not EVENT_ID.fullmatch(sent):
        raise InvalidHeader(f"Last-Event-ID must be the `id` of an event this stream sent (up "
                            f"to 16 digits), not {sent[:40]!r}")
    return sent or None


def streamed(description: str, event_schema: str) -> dict:
    """The answer in the spec. OpenAPI 3.1 describes an event stream by its events: the SSE
    schema is one event, its `data` one `event_schema` (as schemathesis reads it), or the text
    read whole, which is what a generated client gets (it reads a body to its end, and this one
    never ends); NDJSON is text, one `event_schema` a line, named in `x-item-schema` (3.2's
    `itemSchema`). A program follows either line by line (`examples/poyta_bot`)."""
    item = {"$ref": f"#/components/schemas/{event_schema}"}
    return {"responses": {200: {
        "description": f"{description}. The answer never ends: read it as it comes",
        "content": {
            SSE: {"schema": {"anyOf": [
                {"type": "object", "title": "Message",
                 "description": f"One Server-Sent Event: its `data` is one {event_schema} as "
                                "JSON",
                 "properties": {"event": {"type": "string"}, "id": {"type": "string"},
                                "retry": {"type": "integer"},
                                "data": {"type": "string", "contentMediaType": "application/json",
                                         "contentSchema": item}},
                 "required": ["data"]},
                {"type": "string", "description": "The stream as text, read whole"}]}},
            NDJSON: {"schema": {"type": "string", "description": f"One {event_schema} as "
                                                                 "JSON a line"},
                     "x-item-schema": item}}}},
        "parameters": [{"in": "header", "name": "Last-Event-ID", "required": False,
                        "schema": {"type": "string", "pattern": "^[0-9]{0,16}$"},
                        "description": "The `id` of the last event you got: the stream "
                                       "resumes after it (400 if it is not one; empty: "
                                       "none)"}]}


def open_stream(channel: str, events: Callable[[object], Iterator]) -> Response:
    """Holds one of the caller's stream slots (429 beyond), waits on `channel` and sends what
    `events` yields: an event, or None when it waits for the next change (sent True) or
    heartbeat (False)."""
    last_event_id()  # 400 before a slot is held, on either stream
    slots = current_app.extensions["poyta_streams"]
    who, slot = by_player(), secrets.token_hex(8)
    every = current_app.config.get("STREAM_HEARTBEAT", HEARTBEAT)
    most = current_app.config.get("MAX_OPEN_STREAMS", MAX_OPEN_STREAMS)
    if not slots.hold(who, slot, LEASE_HEARTBEATS * every, most):
        return error_response(429, f"at most {most} streams open at once; close one",
                              {"Retry-After": str(every)})
    held = ExitStack()
    held.callback(slots.release, who, slot)
    woken = held.enter_context(current_app.extensions["poyta_changes"].waiter(channel))
    gone = held.enter_context(DEPARTURES.watching(woken))
    ndjson = request.accept_mimetypes.best_match([SSE, NDJSON], SSE) == NDJSON
    encode = _ndjson if ndjson else _sse

    def body() -> Iterable[bytes]:
        # The server sends the headers with the first chunk: at once, not with the first event.
        yield b"" if ndjson else f"retry: {RECONNECT_MS}\n\n".encode()
        produced = events(woken)
        try:
            # The first heartbeat somewhere in the interval: streams opened together (clients
            # reconnecting after a restart) do not all renew their slots at the same moment.
            event, beat_at = next(produced), time.monotonic() + every * random.uniform(0.5, 1)
            while True:
                if event is not None:
                    yield encode(event)
                    event = next(produced)
                    continue
                # A client that closed the connection is noticed within a second (the
                # process's one look at all of them wakes the stream), not at the next
                # heartbeat: its slot is free for the client that reconnects.
                if woken.wait(max(0.0, beat_at - time.monotonic())):
                    woken.clear()
                    if gone():
                        return
                    event = produced.send(True)
                    continue
                if time.monotonic() < beat_at:
                    continue
                if not slots.renew(who, slot, LEASE_HEARTBEATS * every):
                    return
                auth.recheck()
                yield encode(heartbeat())
                beat_at = time.monotonic() + every
                event = produced.send(False)
        except StopIteration:
            return
        except (ServiceError, *connections.UNAVAILABLE):
            return  # signed out, or Redis went away: the client reconnects and resumes

    response = Response(stream_with_context(body()), mimetype=NDJSON if ndjson else SSE)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    response.call_on_close(held.close)
    return response


def _payload(event: dict | bytes) -> bytes:
    return event if isinstance(event, bytes) else json.dumps(
        event, separators=(",", ":")).encode()


def _sse(event: dict | bytes) -> bytes:
    data = _payload(event)
    kind = event["type"] if isinstance(event, dict) else "view"
    ident = event.get("id") if isinstance(event, dict) else None
    head = f"id: {ident}\n" if ident else ""
    return f"{head}event: {kind}\n".encode() + b"data: " + data + b"\n\n"


def _ndjson(event: dict | bytes) -> bytes:
    return _payload(event) + b"\n"
