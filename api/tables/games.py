"""Loading a game and changing it: the one `transact` every change goes through.

Every change is a compare-and-set on the game's version, so concurrent requests never lose an
update: `transact` loads the game, lets the change work on it, and commits it in one script that
also wakes long-polls; when somebody changed the game first, it loads it again and retries.

A commit states what happened: the game's position before and after it (`position`, read once:
status, seats to act, moves due, due time) and what was logged. What follows from that is decided
by one pure function (`api.tables.consequences`) and carried out by `api.tables.follow`: the
due-set and webhook marks ahead of the commit, so a process dying right after it leaves the game
for the sweepers; then the bots' job, the results, "your turn" notices and webhook deliveries.

The turn clock lives here too: each human seat that becomes to act starts a turn (its
`turn_since` version, and the deadline `api.tables.turns` gives it); a seat whose move plays
itself (a card chosen ahead, a forced move) is due like a bot. A game's time never runs
backwards: a change is dated no earlier than the one before it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from api.settings import Settings
from api.storage.games import Commit, GameRecord, LogFull
from api.storage.jobs import JobBoard
from api.storage.webhooks import player_of
from api.storage.store import Storage
from api.tables import turns
from api.tables.clock import Clock
from api.tables.consequences import BOTS_NOW, Committed, Consequences, Position, consequences
from api.tables.errors import Conflict, no_game
from api.tables.follow import FollowUp
from api.tables.model import WAITING, StoredGame
from api.tables.scheduling import BotScheduler

CAS_ATTEMPTS = 20
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
        return BOTS_NOW
    instants = [instant for seat in stored.to_act() if stored.seats[seat].deadline is not None
                for instant in (stored.seats[seat].deadline,
                                *turns.reminders(stored.seats[seat]).values())]
    return min(instants, default=None)


def hooked_players(hooked: str | None) -> tuple[str, ...] | None:
    """The players a game knows to have a webhook (`api.storage.games`' `hooked`); None when it
    must ask again (never asked, or a player of it set a webhook since)."""
    return None if hooked is None or hooked.startswith("?") else tuple(json.loads(hooked))


def position(stored: StoredGame, version: int | None = None) -> Position:
    """The game's position at `version` (its own by default)."""
    version = stored.version if version is None else version
    return Position.of(stored, due_time(stored), version)


class Games:
    def __init__(self, storage: Storage, jobs: JobBoard, settings: Settings, clock: Clock):
        self.storage = storage
        self.jobs = jobs
        self.settings = settings
        self.clock = clock
        self.scheduler = BotScheduler(storage, jobs, settings)
        self.follow = FollowUp(storage, jobs, self.scheduler)

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

    def create(self, stored: StoredGame, creator_id: str, formed: bool = False) -> StoredGame:
        """Store a new game (version 0) with its first commit; `formed` when the house formed
        the table (matchmaking, a tournament's round) rather than its creator."""
        invites = [seat.invite for seat in stored.seats if seat.invite]
        self.storage.games.create(stored.id, invites,
                                  stored.meta.created if stored.meta.public else None)
        self.storage.players.add_game(creator_id, stored.id)
        if not self._commit_and_follow(stored, None, Logged(),
                                       created_by=None if formed else creator_id):
            raise Conflict("the game changed while it was being created")
        self.storage.lobby.seat_taken(stored.id, None, started=stored.status() != WAITING)
        return stored

    def transact(self, game_id: str, change: Change, loaded: StoredGame | None = None
                 ) -> StoredGame | None:
        """Apply `change` to the game and commit it, retrying on a concurrent change; then
        carry out what follows from the commit.

        `change(stored)` works on the game as loaded (`loaded` for the first attempt, if given)
        and returns what it adds to the log, or DROP to delete the game (None is returned
        then); a ServiceError it raises refuses the change and leaves the game as it was."""
        for _ in range(CAS_ATTEMPTS):
            stored, loaded = loaded or self.load(game_id), None
            before = position(stored)
            logged = change(stored) or Logged()
            if logged is DROP:
                if self.storage.games.drop(game_id, stored.version, stored.humans()):
                    return None
            elif self._commit_and_follow(stored, before, logged):
                return stored
        raise Conflict("the game is too busy right now; try again", "busy")

    def _commit_and_follow(self, stored: StoredGame, before: Position | None,
                           logged: Logged, created_by: str | None = None) -> bool:
        """Commit; when the change's action fills the game's log, the game ends with it, scored
        as it stands, and says so in its log. Then what follows, once committed."""
        try:
            committed = self._commit(stored, before, logged, created_by)
        except LogFull as full:
            stored.meta.ended = LOG_FULL
            logged.events.append({"type": "ended", "reason": LOG_FULL,
                                  "actions": full.max_actions})
            committed = self._commit(stored, before, logged, created_by)
        if committed is None:
            return False
        self.follow.after(*committed)
        return True

    def _commit(self, stored: StoredGame, before: Position | None, logged: Logged,
                created_by: str | None = None) -> tuple[Consequences, list[str]] | None:
        """One compare-and-set commit; what follows from it and the webhook marks made ahead of
        it, or None when another change came first."""
        self._track_turns(stored, before.to_act if before else ())
        stored.drop_unplayable_choices()
        new_version = stored.version + 1
        for index, seat in enumerate(stored.seats):
            if logged.secret_of in (None, index):
                seat.seen = new_version
        loaded = stored.record
        hooked = loaded.hooked if loaded else None
        facts = Committed(stored.id, new_version, stored.updated, before,
                          position(stored, new_version), tuple(stored.humans()), stored.payer(),
                          created_by, hooked_players(hooked))
        plan = consequences(facts)
        texts = stored.texts()
        fields = {name: text for name, text in texts.items()
                  if loaded is None or getattr(loaded, name) != text}
        preselected = stored.preselected_text()
        cleared = []
        if json.loads(preselected or "{}") != json.loads(loaded and loaded.preselected or "{}"):
            if preselected is None:
                cleared.append("preselected")
            else:
                fields["preselected"] = preselected
        status = facts.after.status
        fields["updated"] = repr(stored.updated)
        if loaded is None or (loaded.status, loaded.public) != (status, stored.meta.public):
            fields.update(status=status, public="1" if stored.meta.public else "0")
        bots_job = loaded.bots_job if loaded else None
        if plan.bots_job:
            bots_job = fields["bots_job"] = plan.bots_job
        results = None if stored.results is None else json.dumps(stored.results)
        if results is not None and results != (loaded and loaded.results):
            fields["results"] = results
        marks = self.follow.ahead(plan)
        # Those marked are those with a webhook now: the next commit marks only them.
        now_hooked = json.dumps(sorted({player_of(mark) for mark in marks}))
        if now_hooked != hooked:
            fields["hooked"] = now_hooked
        action = logged.action
        seated = facts.after.seated
        before_seated = before.seated if before else {}
        try:
            version = self.storage.games.commit(Commit(
                game_id=stored.id, version=stored.version, fields=fields,
                preselected=loaded.preselected if loaded else None, hooked=hooked,
                cleared=cleared,
                events=[json.dumps({**event, "version": new_version})
                        for event in logged.events],
                action=json.dumps(action) if action else None,
                seat=action["seat"] if action else None, replaces=logged.replaces,
                players=stored.humans(),
                seated={player: seat for player, seat in seated.items()
                        if before_seated.get(player) != seat},
                left=[player for player in before_seated if player not in seated],
                finishes=facts.finishes))
        except LogFull:
            self.follow.undo(marks)
            raise
        if version is None:
            self.follow.undo(marks)
            return None
        stored.version = version
        stored.record = GameRecord(version, texts["meta"], texts["seats"], texts["state"],
                                   stored.updated, bots_job, None, status,
                                   public=stored.meta.public,
                                   renamed=loaded.renamed if loaded else 0,
                                   preselected=preselected, results=results,
                                   hooked=fields.get("hooked", hooked))
        return plan, marks

    def _track_turns(self, stored: StoredGame, before: tuple[int, ...] | list[int]) -> None:
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
