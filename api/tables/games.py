"""Loading a game and changing it: the one `transact` every change goes through.

Every change is a compare-and-set on the game's version, so concurrent requests never lose an
update: `transact` loads the game, lets the change work on it, and commits it in one script that
also wakes long-polls; when somebody changed the game first, it loads it again and retries.

No turn is ever lost: a commit that makes bots due or starts a deadline first records the game
in the due-set, then commits, then queues the job (one pending bot job per game, which moves
every bot seat due, one after another, each from its own view). A game whose bots due include
one of `DEEP_LEVELS` has its job on the deep queue, every other on the quick one, so long
thinking never holds up a quick reply. The worker's sweeper (`api.tables.bots`) looks at every
game whose due time passed and queues again what went missing.

The turn clock lives here too: each human seat that becomes to act starts a turn (its
`turn_since` version, and the deadline `api.tables.turns` gives it), and a "your turn" notice is
queued; a seat whose move plays itself (a card chosen ahead, a forced move) is due like a bot.
A game's time never runs backwards: a change is dated no earlier than the one before it.

The commit that finishes a game marks it due and then queues the job that records its results
(places, ratings: `api.tables.ratings`); the sweeper queues it again until they are recorded.

Every commit (and every line said at the table) first marks its players who have a webhook as
owed a delivery, then queues the delivery and settles the marks: a process that dies between
leaves the marks for the webhooks' sweeper (`api.tables.webhooks`).
"""
from __future__ import annotations

import json
import os
import secrets
import signal
from dataclasses import dataclass, field
from typing import Callable

from api.settings import Settings
from api.storage.games import Commit, GameRecord, LogFull
from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, JobBoard, bots_job_id
from api.storage.store import Storage
from api.storage.webhooks import player_of
from api.tables import turns
from api.tables.clock import Clock
from api.tables.errors import Conflict, no_game
from api.tables.model import FINISHED, WAITING, StoredGame

CAS_ATTEMPTS = 20
DUE_GRACE = 2.0          # seconds a queued job has before the sweeper looks after its game
DEEP_LEVELS = frozenset({"hard"})  # bot levels that think long: their games' jobs go deep
_BOTS_NOW = -1.0         # the due time of a game whose bots must move now
LOG_FULL = "log_full"    # why a game ended whose log holds the most actions a game may log


@dataclass
class Logged:
    """What a change adds to the game's log."""
    events: list[dict] = field(default_factory=list)
    action: dict | None = None   # {"seat", "action", "version"}
    replaces: bool = False       # a changed secret choice: it takes the seat's last entries
    secret_of: int | None = None  # a secret choice of this seat: no other seat sees a change


class Drop:
    """What a change returns to delete the game (a waiting game its last player left)."""


DROP = Drop()
Change = Callable[[StoredGame], "Logged | Drop | None"]


def due_time(stored: StoredGame) -> float | None:
    """When a worker must act in the game: now for the moves due, else its first deadline or
    reminder."""
    if stored.moves_due():
        return _BOTS_NOW
    instants = [instant for seat in stored.to_act() if stored.seats[seat].deadline is not None
                for instant in (stored.seats[seat].deadline,
                                *turns.reminders(stored.seats[seat]).values())]
    return min(instants, default=None)


def bots_queue(stored: StoredGame) -> str:
    """The queue of the slowest level due: deep when a bot due thinks long."""
    deep = any(stored.bot_level(seat) in DEEP_LEVELS for seat in stored.moves_due())
    return DEEP_BOT_QUEUE if deep else BOT_QUEUE


class _Before:
    """What was due, and who sat where, before a change."""

    def __init__(self, stored: StoredGame | None):
        """`None`: a new game, before which nothing was due."""
        self.to_act = stored.to_act() if stored else []
        self.moves = stored.moves_due() if stored else []
        self.due = due_time(stored) if stored else None
        self.seated = stored.seated() if stored else {}


class Games:
    def __init__(self, storage: Storage, jobs: JobBoard, settings: Settings, clock: Clock):
        self.storage = storage
        self.jobs = jobs
        self.settings = settings
        self.clock = clock

    def now(self, stored: StoredGame) -> float:
        """The game's time: the clock's, but never before the game's last change."""
        return max(self.clock.now(), stored.updated)

    def find(self, game_id: str, player_id: str | None = None) -> StoredGame | None:
        """The game, with the asking player's seat in its record; None when there is none."""
        record = self.storage.games.load(game_id, player_id)
        return None if record is None else StoredGame.from_record(game_id, record)

    def load(self, game_id: str) -> StoredGame:
        stored = self.find(game_id)
        if stored is None:
            raise no_game(game_id)
        return stored

    def create(self, stored: StoredGame, creator_id: str) -> StoredGame:
        """Store a new game (version 0) with its first commit."""
        invites = [seat.invite for seat in stored.seats if seat.invite]
        self.storage.games.create(stored.id, invites,
                                  stored.meta.created if stored.meta.public else None)
        self.storage.players.add_game(creator_id, stored.id)
        if not self._commit(stored, _Before(None), Logged()):
            raise Conflict("the game changed while it was being created")
        self.storage.lobby.seat_taken(stored.id, None, started=stored.status() != WAITING)
        self._after_commit(stored)
        return stored

    def transact(self, game_id: str, change: Change, loaded: StoredGame | None = None
                 ) -> StoredGame | None:
        """Apply `change` to the game and commit it, retrying on a concurrent change.

        `change(stored)` works on the game as loaded (`loaded` for the first attempt, if given)
        and returns what it adds to the log, or DROP to delete the game (None is returned
        then); a ServiceError it raises refuses the change and leaves the game as it was."""
        for _ in range(CAS_ATTEMPTS):
            stored, loaded = loaded or self.load(game_id), None
            before = _Before(stored)
            logged = change(stored) or Logged()
            if logged is DROP:
                if self.storage.games.drop(game_id, stored.version, stored.humans()):
                    return None
            elif self._commit_within_log(stored, before, logged):
                self._after_commit(stored)
                return stored
        raise Conflict("the game is too busy right now; try again", "busy")

    def _commit_within_log(self, stored: StoredGame, before: _Before, logged: Logged) -> bool:
        """The change committed; when its action fills the game's log, the game ends with it,
        scored as it stands, and says so in its log."""
        try:
            return self._commit(stored, before, logged)
        except LogFull as full:
            self.jobs.webhook_marks.settle(stored.webhook_marks)
            stored.meta.ended = LOG_FULL
            logged.events.append({"type": "ended", "reason": LOG_FULL,
                                  "actions": full.max_actions})
            return self._commit(stored, before, logged)

    def _commit(self, stored: StoredGame, before: _Before, logged: Logged) -> bool:
        self._track_turns(stored, before.to_act)
        stored.drop_unplayable_choices()
        new_version = stored.version + 1
        for index, seat in enumerate(stored.seats):
            if logged.secret_of in (None, index):
                seat.seen = new_version
        texts = stored.texts()
        loaded = stored.record
        fields = {name: text for name, text in texts.items()
                  if loaded is None or getattr(loaded, name) != text}
        preselected = stored.preselected_text()
        cleared = []
        if json.loads(preselected or "{}") != json.loads(loaded and loaded.preselected or "{}"):
            if preselected is None:
                cleared.append("preselected")
            else:
                fields["preselected"] = preselected
        status = stored.status()
        fields.update(updated=repr(stored.updated), status=status,
                      public="1" if stored.meta.public else "0")
        bots_job = loaded.bots_job if loaded else None
        stored.new_bots_job = None
        if stored.moves_due() and not before.moves:
            bots_job = stored.new_bots_job = bots_job_id(stored.id, new_version)
            fields["bots_job"] = bots_job
        finishes = status == FINISHED and (loaded is None or loaded.status != FINISHED)
        stored.finished_now = finishes
        results = None if stored.results is None else json.dumps(stored.results)
        if results is not None and results != (loaded and loaded.results):
            fields["results"] = results
        due = due_time(stored)
        # Before the commit, so a process dying right after it leaves the game for the sweeper
        # (a finished game's results are due as soon as it ends).
        if due is not None and due != before.due:
            self.storage.schedule.mark_due(
                stored.id, stored.updated + DUE_GRACE if due == _BOTS_NOW else due)
        elif finishes:
            self.storage.schedule.mark_due(stored.id, stored.updated + DUE_GRACE)
        stored.webhook_marks = self.webhooks_owed(stored.humans())
        seated = stored.seated()
        action = logged.action
        version = self.storage.games.commit(Commit(
            game_id=stored.id, version=stored.version, fields=fields,
            preselected=loaded.preselected if loaded else None, cleared=cleared,
            events=[json.dumps({**event, "version": new_version}) for event in logged.events],
            action=json.dumps(action) if action else None,
            seat=action["seat"] if action else None, replaces=logged.replaces,
            players=stored.humans(),
            seated={player: seat for player, seat in seated.items()
                    if before.seated.get(player) != seat},
            left=[player for player in before.seated if player not in seated],
            finishes=finishes))
        if version is None:
            self.jobs.webhook_marks.settle(stored.webhook_marks)
            return False
        stored.version = version
        stored.record = GameRecord(version, texts["meta"], texts["seats"], texts["state"],
                                   stored.updated, bots_job, None, status,
                                   renamed=loaded.renamed if loaded else 0,
                                   preselected=preselected, results=results)
        return True

    def _track_turns(self, stored: StoredGame, before: list[int]) -> None:
        """Start the clock of each human seat that has just become to act; stop the others."""
        now = stored.updated = self.now(stored)
        to_act = stored.to_act()
        for index, seat in enumerate(stored.seats):
            acts = index in to_act and not stored.played_by_bot(index)
            starts = acts and (index not in before or seat.turn_since is None)
            if seat.deadline is not None and (starts or not acts):
                turns.end(seat, stored.meta, now)
            if not acts:
                seat.turn_since = seat.deadline = seat.allowance = None
            elif starts:
                seat.turn_since = stored.version + 1
                turns.start(seat, stored.meta, now)

    def _after_commit(self, stored: StoredGame) -> None:
        """Queue what the new position asks for: the bots' job, turn notices."""
        if self.settings.die_after_commit:
            os.kill(os.getpid(), signal.SIGKILL)
        if stored.new_bots_job:
            self.queue_bots(stored, stored.new_bots_job, first=not stored.nobody_waits())
        if stored.finished_now:
            self.jobs.record_results(stored.id)
        due = stored.moves_due()
        for seat in stored.to_act():
            if (seat not in due and not stored.played_by_bot(seat)
                    and stored.seats[seat].turn_since == stored.version):
                self.jobs.notify_turn(stored.id, seat, stored.version)
        self.deliver_webhooks(stored.webhook_marks)

    def webhooks_owed(self, players: list[str]) -> list[str]:
        """Before a change that concerns `players`: the marks of those with a webhook, which
        the sweeper finds unless `deliver_webhooks` settles them."""
        return self.jobs.webhook_marks.mark(players, secrets.token_hex(4), DUE_GRACE)

    def deliver_webhooks(self, marks: list[str]) -> None:
        """After the change: queue each marked player's delivery, then settle the marks."""
        for mark in marks:
            self.jobs.deliver_webhook(player_of(mark))
        self.jobs.webhook_marks.settle(marks)

    def thrifty(self, stored: StoredGame) -> bool:
        """The game's payer used up their share of the bots' time for now (by default 10 CPU
        seconds a minute: three 6 nimmt! turns against three hard bots): the game's bot moves
        go to the heavy queue, which every bot worker takes last, and its bots think only the
        least share of their budget (`api.tables.bots.LEAST_SHARE`). A thrifty payer stays so
        until their bots' time falls below half the share: at the least share, dozens of bot
        games cost less than the share, and would otherwise swing back to full budgets."""
        share = self.settings.bot_seconds_a_minute
        spent, was_thrifty = self.jobs.bot_time.spent(stored.payer())
        if spent > share or (was_thrifty and spent > share / 2):
            self.jobs.bot_time.keep_thrifty(stored.payer())
            return True
        return False

    def queue_for(self, stored: StoredGame) -> str:
        """The heavy queue for a game that nobody waits for, for a thrifty payer, and for every
        game of a payer but the one whose bots hold their place on the quick (or the deep)
        queue: so each player's bots wait behind at most one job of each other player's
        there."""
        queue = bots_queue(stored)
        if stored.nobody_waits() or self.thrifty(stored) or not self.jobs.bot_time.claim_lane(
                stored.payer(), queue, stored.id):
            return HEAVY_BOT_QUEUE
        return queue

    def release_lanes(self, stored: StoredGame) -> None:
        self.jobs.bot_time.release_lanes(stored.payer(), stored.id, (BOT_QUEUE, DEEP_BOT_QUEUE))

    def queue_bots(self, stored: StoredGame, job_id: str, first: bool = False) -> None:
        """`first`: the bots answer a human who waits for them, ahead of the jobs that wait
        already (another game's turn being played on, one move a job: `Bots.play_due`)."""
        self.jobs.play_bots(stored.id, job_id, self.queue_for(stored), at_front=first)
