"""The review of a finished game (`rules.analysis`), asked for and read through the API and
computed by a job on its own low-priority queue.

Access: the players of the game, and anybody for a public one; a game in play is refused
whoever asks. A player waits for at most MAX_WAITING reviews at a time, so no one player takes
the reviews' worker from everyone else. A review is queued once per game, however often it is asked for (its job id is
the game's), and kept for good with the archive of finished games (in Redis with the game when
there is no archive), so it is never computed twice; a review whose job was lost (a worker died)
is queued again by the next request.

Each seat's summary is kept under the player it counts for, so a profile shows the player's
accuracy and luck per game type, month by month (`accuracy_by_month`).
"""
from __future__ import annotations

from api.settings import Settings
from api.storage.analyses import DONE, QUEUED, AnalysisStore, StoredAnalysis
from api.storage.archived_analyses import AnalysedSeat, ArchivedAnalyses, MonthOfPlay
from api.storage.jobs import JobBoard, analysis_job_id
from api.tables.archive import Archive
from api.tables.errors import (Conflict, Forbidden, NotFound, TooManyRequests, Unprocessable,
                               no_game)
from api.tables.games import Games
from api.tables.history import History
from api.tables.model import FINISHED, Player, StoredGame
from api.tables.ratings import rated_player
from rules.analysis import Record, analysable, as_json, evaluation_budget, review

IN_PLAY = "a game can be analysed when it is over"
MAX_WAITING = 2
WAIT_SECONDS = 60  # Retry-After when a player waits for MAX_WAITING reviews already
MONTHS_SHOWN = 12  # a profile's months of accuracy per game type, the newest


class Analysis:
    def __init__(self, games: Games, archive: Archive, history: History, jobs: JobBoard,
                 settings: Settings):
        self.games = games
        self.archive = archive
        self.history = history
        self.jobs = jobs
        self.store: AnalysisStore = games.storage.analyses
        self.archived: ArchivedAnalyses | None = games.storage.archived_analyses
        self.seconds = settings.analysis_seconds

    def request(self, game_id: str, player: Player) -> tuple[dict, bool]:
        """Queue the game's review unless it is queued, running or done: its status, and
        whether it was queued now."""
        self._finished(game_id, player)
        job_id = analysis_job_id(game_id)
        stored = self.store.read(game_id)
        if stored is None:
            if self._kept(game_id) is not None:
                return {"status": DONE, "job": job_id}, False
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
        if self._unkept(stored) and not self.jobs.in_hand(stored.job_id):
            self.jobs.analyse(game_id)  # only to keep it: the database was away
        return {"status": stored.status, "job": stored.job_id}, False

    def read(self, game_id: str, player: Player | None) -> dict:
        """The review's status and, once done, the review itself."""
        self._finished(game_id, player)
        stored = self.store.read(game_id)
        if stored is None:
            kept = self._kept(game_id)
            if kept is None:
                raise NotFound("no analysis of this game was asked for: POST to ask for one")
            return {"status": DONE, "job": analysis_job_id(game_id), **kept}
        if stored.status != DONE:
            return {"status": stored.status, "job": stored.job_id}
        return {"status": DONE, "job": stored.job_id, **stored.review}

    def run(self, game_id: str) -> bool:
        """The job: review every seat of the game within its CPU budget and keep the review;
        False when there is nothing to do (done and kept already, or the game is gone).

        The review is done in Redis first, then kept in the archive and let go from Redis: a
        database away costs no second review, only another run of this job to keep it (RQ's
        retries, or the next request)."""
        stored = self.store.read(game_id)
        if stored is None:
            return False
        if self._unkept(stored):
            self._keep(self._game(game_id), stored.review)
            return True
        if stored.status == DONE:
            return False
        game = self._game(game_id)
        self.store.running(game_id)
        record = Record(game.meta.players, game.meta.options, game.state["seed"],
                        self.history.finished_actions(game))
        budget, _ = evaluation_budget(game.game, record, self.seconds)
        reviewed = as_json(review(game.game, record, budget, seed=0))
        self.store.done(game_id, reviewed)
        if self.archived is not None:
            self._keep(game, reviewed)
        return True

    def _unkept(self, stored: StoredAnalysis) -> bool:
        """Done in Redis and owed to the archive."""
        return self.archived is not None and stored.status == DONE

    def _keep(self, game: StoredGame, reviewed: dict) -> None:
        """Into the archive (once, whoever comes first), then out of Redis."""
        self.archived.keep(game.id, game.game.name, game.updated, game.meta.public,
                           [seat.player_id for seat in game.seats], reviewed,
                           seat_summaries(game, reviewed))
        self.store.archived(game.id)

    def _kept(self, game_id: str) -> dict | None:
        return None if self.archived is None else self.archived.review(game_id)

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


def seat_summaries(game: StoredGame, reviewed: dict) -> list[AnalysedSeat]:
    """Each seat's summary of its review, under the player it counts for (a bot level's id
    for a bot's seat, as the ratings count it)."""
    summaries = []
    for seat in reviewed["seats"]:
        player_id = rated_player(game, seat["seat"])
        if player_id is None:
            continue
        choices = [decision for decision in seat["decisions"] if not decision["forced"]]
        summaries.append(AnalysedSeat(
            seat["seat"], player_id, len(choices), sum(d["loss"] for d in choices),
            len(seat["luck"]), sum(luck["value"] for luck in seat["luck"])))
    return summaries


def accuracy_by_month(archived: ArchivedAnalyses | None, player_id: str,
                      caller_id: str | None) -> dict[str, list[dict]]:
    """By game type, the player's accuracy (mean expected loss per decision that was a
    choice) and luck (mean per deal) in each month of their analysed games, newest first:
    only games the caller may see (public ones, and those the caller sat at)."""
    if archived is None:
        return {}
    by_type: dict[str, list[dict]] = {}
    for month in archived.months(player_id, caller_id):
        shown = by_type.setdefault(month.game_type, [])
        if len(shown) < MONTHS_SHOWN:
            shown.append(_month_json(month))
    return by_type


def _month_json(month: MonthOfPlay) -> dict:
    return {"month": month.month, "games": month.games, "decisions": month.decisions,
            "loss_per_decision": (round(month.total_loss / month.decisions, 4)
                                  if month.decisions else None),
            "luck_per_deal": round(month.luck / month.deals, 4) if month.deals else None}
