"""One game on one connection: its view now and after each change (`api.http.streaming`)."""
from __future__ import annotations

import json
from typing import Iterator

from flask import current_app
from flask.views import MethodView

from api.http.auth import current_player, optional_auth, tables
from api.http.conditional import game_answer
from api.http.resources import tags
from api.http.streaming import open_stream, streamed
from api.storage.changes import game_channel

blp = tags.streams


@blp.route("/games/<string:game_id>/stream")
class GameStream(MethodView):
    @blp.doc(operationId="streamGame")
    @optional_auth
    @blp.doc(**streamed(
        "The game as you may see it, at once and after each change", "GameStreamEvent"))
    def get(self, game_id):
        """One game: your view of it now, then each new view, until the game is over

        Views as `getGame` gives them (a spectator's without a seat); the stream ends after
        the finished game's view. At most 4 streams at once (429)."""
        player = current_player(required=False)
        dumps = current_app.json.dumps
        first = game_answer(tables(), game_id, player, None, dumps)  # 404 and 403 come here

        def events(woken) -> Iterator[dict | bytes]:
            answer, etag = first, first.etag
            while True:
                if answer is not None and answer.body is not None:
                    etag = answer.etag
                    yield b'{"type":"view","etag":"%s","view":%s}' % (etag.encode(),
                                                                   answer.body.rstrip())
                    if json.loads(answer.body)["status"] == "finished":
                        return
                woke = yield None
                answer = game_answer(tables(), game_id, player, f'"{etag}"', dumps) if woke \
                    else None

        return open_stream(game_channel(game_id), events)
