"""Open data: every finished public game, one gzipped JSON Lines file per game type and month
(UTC, by the time the game finished), read from the archive ([Open data](../docs/open-data.md)
says what a line holds).

A line holds what a third party needs to replay the game with the rules pages alone: the
players and options, every deal as dealt, every action in order and the outcome; the seed too,
so our own rules (`rules/`) replay it the same. Nothing names a player: a seat says only whether
a bot of which level sat there. Private games are never published, and tournament games are
private (`api.tables.tournaments`): a duplicate round deals every table the same cards, so a
table's line published before the round's end would show the hands of tables still playing.

A month's file changes only while games are archived into it: its ETag is made of the games it holds and when the newest was archived, so a reader, a cache or
a mirror asks again cheaply and downloads only what changed.
"""
from __future__ import annotations

import json
import re
import threading
import time
import zlib
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Iterator

from api.storage.finished_games import ArchivedGame, PublicMonth
from api.storage.packed_logs import unpack_log
from api.tables.errors import NotFound
from api.tables.games import Games
from api.tables.history import replayed
from api.tables.model import StoredGame
from rules import GAMES

FORMAT = 1              # a line's `format`: raised when a line's meaning changes
MONTH = re.compile(r"^[0-9]{4}-(0[1-9]|1[0-2])$")
LISTING_SECONDS = 60    # the list of months is read again after this long


@dataclass(frozen=True)
class OpenMonth:
    """One file: a game type's public games archived for a month."""
    type: str
    month: str              # "2026-01"
    games: int              # public games archived for it
    complete: bool          # the month is over (games archived late may still join it)
    last_archived: float

    @property
    def file_name(self) -> str:
        return f"poyta-{self.type}-{self.month}.jsonl.gz"

    def etag_parts(self) -> dict:
        return {"open_data": self.type, "month": self.month, "games": self.games,
                "last_archived": self.last_archived, "format": FORMAT}


def first_day(month: str) -> date:
    if not MONTH.match(month):
        raise NotFound(f"no month {month!r}: a month is written YYYY-MM")
    return date(int(month[:4]), int(month[5:]), 1)


def published(found: ArchivedGame) -> dict:
    """A finished game as its line publishes it."""
    stored = StoredGame.from_record(found.game_id, found.record())
    actions = unpack_log(found.log)[0]
    game, meta = stored.game, stored.meta
    dealt = game.record(replayed(stored, actions, recording=True))
    return {
        "format": FORMAT,
        "id": found.game_id,
        "type": game.name,
        "finished_at": datetime.fromtimestamp(found.finished_at, timezone.utc)
                               .isoformat(timespec="seconds").replace("+00:00", "Z"),
        "players": meta.players,
        "options": meta.options,
        "rated": found.rated,
        "seats": [{"seat": index, "bot": seat.bot} for index, seat in enumerate(stored.seats)],
        "seed": dealt["seed"],
        "deals": dealt["deals"],
        "actions": [{"seat": entry["seat"], "action": entry["action"]} for entry in actions],
        "outcome": stored.outcome(),
    }


class OpenData:
    def __init__(self, games: Games):
        self.games = games
        self.storage = games.storage
        self.clock = games.clock
        self._listing: tuple[float, list[OpenMonth]] | None = None
        self._listing_lock = threading.Lock()

    def _open_month(self, found: PublicMonth) -> OpenMonth:
        following = date(found.first.year + found.first.month // 12,
                         found.first.month % 12 + 1, 1)
        ends = datetime(following.year, following.month, 1, tzinfo=timezone.utc).timestamp()
        return OpenMonth(found.game_type, f"{found.first:%Y-%m}", found.games,
                         self.clock.now() >= ends, found.last_archived)

    def months(self) -> list[OpenMonth]:
        """Every file there is, by game type then month; read again each LISTING_SECONDS."""
        if self.storage.finished is None:
            return []
        with self._listing_lock:
            if self._listing and time.monotonic() - self._listing[0] < LISTING_SECONDS:
                return self._listing[1]
        listed = [self._open_month(found) for found in self.storage.finished.public_months()
                  if found.game_type in GAMES]
        with self._listing_lock:
            self._listing = (time.monotonic(), listed)
        return listed

    def month(self, type_name: str, month: str) -> OpenMonth:
        """One file's description, read now (404 when it has no game)."""
        if type_name not in GAMES or self.storage.finished is None:
            raise NotFound(f"unknown game type {type_name!r}; known: {', '.join(GAMES)}")
        found = self.storage.finished.public_month(type_name, first_day(month))
        if found is None:
            raise NotFound(f"no public {type_name} game finished in {month}")
        return self._open_month(found)

    def lines(self, opened: OpenMonth) -> Iterator[dict]:
        """The file's games, in the order they finished."""
        for found in self.storage.finished.public_games(opened.type, first_day(opened.month)):
            yield published(found)

    def file(self, opened: OpenMonth) -> Iterator[bytes]:
        """The file itself, gzipped as it is made: one JSON object a line."""
        packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # a gzip member, its time 0
        for line in self.lines(opened):
            chunk = packer.compress(json.dumps(line, separators=(",", ":")).encode() + b"\n")
            if chunk:
                yield chunk
        yield packer.flush()
