"""The review of a finished game (`rules.analysis`), asked for and read through the API and
computed by a job on its own low-priority queue.

Access: the players of the game, and anybody for a public one; a game in play is refused
whoever asks. A player waits for at most MAX_WAITING reviews at a time, so no one player takes
the reviews' worker from everyone else. A review is queued once per game, however often it is asked for (its job id is
the game's), and kept with the game, so it is never computed twice; a review whose job was lost
(a worker died) is queued again by the next request.
"""
from __future__ import annotations

from api.settings import Settings
from api.storage.analyses import DONE, QUEUED, AnalysisStore
from api.storage.jobs import JobBoard, analysis_job_id
from api.tables.archive import Archive
from api.tables.errors import (Conflict, Forbidden, NotFound, TooManyRequests, Unprocessable,
                               no_game)
from api.tables.games import Games
from api.tables.history import History
from api.tables.model import FINISHED, Player, StoredGame
from rules.analysis import Record, analysable, as_json, evaluation_budget, review

IN_PLAY = "a game can be analysed when it is over"
MAX_WAITING = 2
WAIT_SECONDS = 60  # Retry-After when a player waits for MAX_WAITING reviews already


class Analysis:
    def __init__(self, games: Games, archive: Archive, history: History, jobs: JobBoard,
                 settings: Settings):
        self.games = games
        self.archive = archive
        self.history = history
        self.jobs = jobs
        self.store: AnalysisStore = games.storage.analyses
        self.seconds = settings.analysis_seconds

    def request(self, game_id: str, player: Player) -> tuple[dict, bool]:
        """Queue the game's review unless it is queued, running or done: its status, and
        whether it was queued now."""
        self._finished(game_id, player)
        job_id = analysis_job_id(game_id)
        stored = self.store.read(game_id)
        if stored is None:
            if self.store.waiting_for(player.id) >= MAX_WAITING:
                raise TooManyRequests(f"you wait for {MAX_WAITING} analyses already: ask "
                                      "again when one is done", WAIT_SECONDS)
            if self.store.request(game_id, job_id, player.id):
                self.jobs.analyse(game_id)
                return {"status": QUEUED, "job": job_id}, True
            stored = self.store.read(game_id)
        if stored.status != DONE and not self.jobs.in_hand(stored.job_id):
            self.store.again(game_id)
            self.jobs.analyse(game_id)
            return {"status": QUEUED, "job": job_id}, True
        return {"status": stored.status, "job": stored.job_id}, False

    def read(self, game_id: str, player: Player | None) -> dict:
        """The review's status and, once done, the review itself."""
        self._finished(game_id, player)
        stored = self.store.read(game_id)
        if stored is None:
            raise NotFound("no analysis of this game was asked for: POST to ask for one")
        if stored.status != DONE:
            return {"status": stored.status, "job": stored.job_id}
        return {"status": DONE, "job": stored.job_id, **stored.review}

    def run(self, game_id: str) -> bool:
        """The job: review every seat of the game within its CPU budget and keep the review;
        False when there is nothing to do (done already, or the game is gone)."""
        stored = self.store.read(game_id)
        if stored is None or stored.status == DONE:
            return False
        game = self._game(game_id)
        self.store.running(game_id)
        record = Record(game.meta.players, game.meta.options, game.state["seed"],
                        self.history.finished_actions(game))
        budget, _ = evaluation_budget(game.game, record, self.seconds)
        self.store.done(game_id, as_json(review(game.game, record, budget, seed=0)))
        return True

    def _game(self, game_id: str) -> StoredGame:
        """The game in play or finished, from the archive once Redis let it go."""
        stored = self.games.find(game_id) or self.archive.game(game_id)
        if stored is None:
            raise no_game(game_id)
        return stored

    def _finished(self, game_id: str, player: Player | None) -> StoredGame:
        stored = self._game(game_id)
        if not stored.meta.public and stored.seat_of(player.id if player else None) is None:
            raise Forbidden("this game is private: only its players may see its analysis")
        if stored.status() != FINISHED:
            raise Conflict(IN_PLAY)
        if not analysable(stored.game):
            raise Unprocessable(f"{stored.game.title} cannot be analysed")
        return stored

