"""Finished games into the archive (PostgreSQL), exactly once, and read back from it once Redis
has let them go.

The commit that finishes a game writes its outbox entry ahead (`api.tables.consequences`'
`ArchiveGame`). A game is archived once its results are recorded, so its row is complete: the
results' job queues the archiving job, and the sweeper queues it again for an entry left
overdue (a job lost with its worker, a database that was away). Archiving inserts the game
(idempotent on its id), then shortens what Redis keeps of it to the hot window
(`POYTA_HOT_DAYS`), then settles the entry: a process dying between any two of these leaves
the entry, and the next run finds the game archived and finishes the rest.

`finished_at` is the game's time when its results were recorded: a moment after its last move.
While PostgreSQL is away, games in play go on; only archiving waits.
"""
from __future__ import annotations

import threading

from cachetools import LRUCache

from api import faults
from api.storage.finished_games import ArchivedGame
from api.storage.games import Events, Head
from api.storage.packed_logs import finished_log
from api.storage.sql import DATABASE_ERRORS
from api.tables.games import Games
from api.tables.model import FINISHED, StoredGame

RETRY_SECONDS = 15.0    # an overdue entry's next look, once the sweeper queued its job
SWEEP_LIMIT = 100       # entries a sweep queues at most
CACHED_GAMES = 256      # archived games a process keeps read (they never change)
LISTED_GAMES = 4096     # archived games (without their logs) a process keeps for inboxes


def archived(stored: StoredGame, log: bytes) -> ArchivedGame:
    record = stored.record
    return ArchivedGame(
        game_id=stored.id, finished_at=stored.updated, game_type=stored.game.name,
        public=stored.meta.public, rated=stored.meta.rated, version=stored.version,
        seat_players=[seat.player_id for seat in stored.seats],
        seat_names=[seat.name for seat in stored.seats], meta=record.meta,
        seats=record.seats, state=record.state, results=record.results,
        renamed=record.renamed, names=record.names, log=log)


class Archive:
    def __init__(self, games: Games):
        self.games = games
        self.storage = games.storage
        self.hot_seconds = games.settings.hot_seconds
        self._read: LRUCache[str, ArchivedGame] = LRUCache(CACHED_GAMES)
        self._listed: LRUCache[str, StoredGame] = LRUCache(LISTED_GAMES)
        self._read_lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.storage.finished is not None

    def queue(self, game_id: str) -> None:
        """The game's archiving job, if an archive is configured."""
        if self.enabled:
            self.games.jobs.archive_game(game_id)

    def archive(self, game_id: str) -> bool:
        """Archive a finished game whose results are recorded, once; False when there is
        nothing to do (yet)."""
        outbox = self.storage.archive_outbox
        owed = outbox.owed(game_id)
        if owed is None or not self.enabled:
            return False
        stored = self.games.find(game_id)
        if stored is None or stored.status() != FINISHED:
            # Gone, or an entry left by a commit that lost its compare-and-set: nothing to owe,
            # unless a newer commit wrote the entry again meanwhile.
            outbox.settle(game_id, owed)
            return False
        if stored.results is None:
            return False  # the results' job queues this one again once they are recorded
        log = self.storage.games.packed_log(game_id)
        if log is None:
            return False  # expired meanwhile: the next run settles its entry
        self.storage.finished.archive(archived(stored, log))
        faults.reach(faults.AFTER_ARCHIVE_INSERT)
        outbox.keep_hot(game_id, self.hot_seconds)
        outbox.settle(game_id)
        return True

    def sweep(self) -> int:
        """Queue the archiving of every entry overdue; the entries queued."""
        if not self.enabled:
            return 0
        now = self.games.clock.now()
        outbox = self.storage.archive_outbox
        queued = 0
        for game_id, seen in outbox.overdue(now, SWEEP_LIMIT):
            if outbox.postpone(game_id, seen, now + RETRY_SECONDS):
                self.games.jobs.archive_game(game_id)
                queued += 1
        return queued

    def find(self, game_id: str) -> ArchivedGame | None:
        """An archived game, None when there is none (or no archive)."""
        if not self.enabled:
            return None
        with self._read_lock:
            held = self._read.get(game_id)
        if held is not None:
            return held
        found = self.storage.finished.find(game_id)
        if found is not None:
            with self._read_lock:
                self._read[game_id] = found
        return found

    def listed(self, game_ids: list[str]) -> dict[str, StoredGame] | None:
        """The archived games among these (their logs not read), by id: those read before
        from this process's cache, the rest in one query. None while the database is away: a
        list of games (the inbox) shows what Redis holds meanwhile."""
        if not self.enabled or not game_ids:
            return {}
        with self._read_lock:
            found = {game_id: self._listed[game_id] for game_id in game_ids
                     if game_id in self._listed}
        missing = [game_id for game_id in game_ids if game_id not in found]
        try:
            read = self.storage.finished.find_many(missing) if missing else {}
        except DATABASE_ERRORS:
            return None
        with self._read_lock:
            for game_id, archived_game in read.items():
                found[game_id] = self._listed[game_id] = StoredGame.from_record(
                    game_id, archived_game.record())
        return found

    def game(self, game_id: str) -> StoredGame | None:
        found = self.find(game_id)
        return None if found is None else StoredGame.from_record(game_id, found.record())

    def head(self, game_id: str, player_id: str | None) -> Head | None:
        stored = self.game(game_id)
        if stored is None:
            return None
        return Head(stored.version, stored.seat_of(player_id), FINISHED, stored.meta.public,
                    stored.record.renamed)

    def events(self, game_id: str, player_id: str | None, log_held: int | None) -> Events | None:
        """The finished game's whole log, as `api.storage.games.GameStore.events` reads it
        from Redis."""
        found = self.find(game_id)
        if found is None:
            return None
        stored = StoredGame.from_record(game_id, found.record())
        return Events(stored.seat_of(player_id), FINISHED, found.public, found.game_type,
                      found.version, finished=True,
                      log=None if log_held == found.version else finished_log(found.version,
                                                                              found.log))
