"""Everything that concerns the caller on one connection (`api.http.streaming`)."""
from __future__ import annotations

from typing import Iterator

from flask import request
from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.streaming import open_stream, streamed
from api.storage.changes import inbox_channel
from api.tables.streams import cursor_of

blp = tags.streams


@blp.route("/stream")
class EventStream(MethodView):
    @blp.doc(operationId="streamEvents")
    @authenticated
    @blp.doc(**streamed(
        "Events as they happen: SSE (`id:` on each) or NDJSON", "StreamEvent"))
    def get(self):
        """Everything that concerns you on one connection: starts, turns, finishes, talk

        Starts with your games going on (`game_started`, then `your_turn` where it is your
        turn). Send the last event's `id` as `Last-Event-ID` (an EventSource does it by
        itself) and the stream also tells what happened since: games finished, chat said.
        An event may come twice after a reconnect, never not at all: a turn is one `game`
        and `since`, a chat line one `game` and `number`. At most 4 streams at once (429)."""
        player = current_player()
        resume_from = cursor_of(request.headers.get("Last-Event-ID"))
        streams = tables().streams

        def events(woken) -> Iterator[dict]:
            told, first = streams.start(player, resume_from)
            yield from first
            while True:
                woke = yield None   # the caller waits for a change or the heartbeat
                if woke:
                    yield from streams.changes(player, told)

        return open_stream(inbox_channel(player.id), events)
