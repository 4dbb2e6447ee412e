"""Everything that concerns the caller on one connection (`api.http.streaming`)."""
from __future__ import annotations

from typing import Iterator

from flask.views import MethodView

from api.http.auth import authenticated, current_player, tables
from api.http.resources import tags
from api.http.streaming import last_event_id, open_stream, streamed
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
        An event may repeat after a reconnect, never go missing: deduplicate a start or a
        finish by `game`, a turn by `game` and `since`, a chat line by `game` and `number`.
        At most 4 streams at once (429)."""
        player = current_player()
        resume_from = cursor_of(last_event_id())
        streams = tables().streams

        def events(woken) -> Iterator[dict]:
            told, first = streams.start(player, resume_from)
            yield from first
            while True:
                woke = yield None   # the caller waits for a change or the heartbeat
                if woke:
                    yield from streams.changes(player, told)

        return open_stream(inbox_channel(player.id), events)
