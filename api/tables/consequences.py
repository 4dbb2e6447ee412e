"""What follows from a commit, decided in one place.

A commit states what happened (`Committed`: the game's position before and after, read once,
and what was logged); `consequences` is the one pure function that turns those facts into what
must follow, and `api.tables.follow.FollowUp` carries it out. Nothing here reads or writes
Redis, so the decision is tested as a table of facts and answers.

Some consequences must be written down before the commit (`ahead`): a process that dies right
after committing then leaves them for the sweepers, which finish what it could not. The rest run
after the commit, in the order listed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

from api.storage.jobs import bots_job_id
from api.tables.model import ACTIVE, FINISHED, WAITING, StoredGame

DUE_GRACE = 2.0   # seconds a queued job has before the sweeper looks after its game
# Seconds a finished game's results and archiving have before the sweeper looks after them.
ARCHIVE_GRACE = 10.0
BOTS_NOW = -1.0   # the due time of a game whose bots must move now


@dataclass(frozen=True)
class Position:
    """What a game's position asks of the house, read once."""
    status: str
    to_act: tuple[int, ...] = ()
    moves_due: tuple[int, ...] = ()
    levels_due: tuple[str, ...] = ()   # the bot level of each move due
    due: float | None = None           # BOTS_NOW, a deadline or reminder, or None
    seated: Mapping[str, int] = field(default_factory=dict)
    turns_started: tuple[int, ...] = ()  # human seats whose turn starts at this version
    nobody_waits: bool = False           # bots play every seat
    tournament: str | None = None        # the tournament whose round the game is part of

    @classmethod
    def of(cls, stored: StoredGame, due: float | None, version: int) -> "Position":
        moves_due = stored.moves_due()
        to_act = stored.to_act()
        return cls(
            status=stored.status(), to_act=tuple(to_act), moves_due=tuple(moves_due),
            levels_due=tuple(stored.bot_level(seat) for seat in moves_due), due=due,
            seated=stored.seated(),
            turns_started=tuple(seat for seat in to_act
                                if seat not in moves_due and not stored.played_by_bot(seat)
                                and stored.seats[seat].turn_since == version),
            nobody_waits=stored.nobody_waits(),
            tournament=stored.meta.tournament["id"] if stored.meta.tournament else None)


@dataclass(frozen=True)
class Committed:
    """A commit's facts: the game's position before (None for a new game) and after it."""
    game_id: str
    version: int       # the game's version after the commit
    updated: float     # the game's time at the commit
    before: Position | None
    after: Position
    players: tuple[str, ...]   # the players seated after the commit
    payer: str                 # whose share of the bots' time the game's bots use
    # Who made a new game (None: the house formed the table, e.g. matchmaking or a round)
    created_by: str | None = None
    # The players who had a webhook when the game last asked (None: not known, or asked before
    # somebody set one)
    hooked: tuple[str, ...] | None = None

    @property
    def finishes(self) -> bool:
        return self.after.status == FINISHED and (
            self.before is None or self.before.status != FINISHED)

    @property
    def starts(self) -> bool:
        """Every seat is taken: the game goes on from this commit."""
        return self.after.status == ACTIVE and (
            self.before is None or self.before.status == WAITING)

    def told_of_start(self) -> tuple[str, ...]:
        """The seated players to tell that the game started: not the one who started it (the
        creator, or whoever took the last seat), nor those told it is their turn."""
        starters = ({self.created_by} if self.before is None
                    else set(self.after.seated) - set(self.before.seated))
        return tuple(player for player, seat in self.after.seated.items()
                     if player not in starters and seat not in self.after.turns_started)

    @property
    def bots_become_due(self) -> bool:
        return bool(self.after.moves_due) and not (self.before and self.before.moves_due)


@dataclass(frozen=True)
class MarkDue:
    """Ahead: the game is due at `at` for the sweeper, unless its jobs see to it first."""
    game_id: str
    at: float


@dataclass(frozen=True)
class OweWebhooks:
    """Ahead: the players' webhooks are owed a delivery, for the sweeper if none is queued.
    `asks`: the players are all the seated ones, to learn which of them have a webhook; else
    only those the game knows to have one."""
    players: tuple[str, ...]
    asks: bool = True


@dataclass(frozen=True)
class ArchiveGame:
    """Ahead: the finished game is owed to the archive (its outbox entry, due at `at`), which
    its results' job drains once they are recorded, else the sweeper."""
    game_id: str
    at: float


@dataclass(frozen=True)
class QueueBots:
    """The job that makes the moves due: `first` when a human waits for its answer."""
    game_id: str
    job_id: str
    levels_due: tuple[str, ...]
    payer: str
    nobody_waits: bool
    first: bool


@dataclass(frozen=True)
class RecordResults:
    """The finished game's places and ratings."""
    game_id: str


@dataclass(frozen=True)
class TournamentGameFinished:
    """A game of a tournament's round finished: the round may be over, the next one due."""
    tournament_id: str
    game_id: str


@dataclass(frozen=True)
class NotifyTurn:
    """'Your turn' to the seat's player."""
    game_id: str
    seat: int
    version: int


@dataclass(frozen=True)
class NotifyStarted:
    """'Your game started' to a seated player whose turn it is not."""
    game_id: str
    player_id: str


@dataclass(frozen=True)
class DeliverWebhooks:
    """Queue the deliveries owed by `OweWebhooks`, and settle the marks."""


Consequence = Union[MarkDue, OweWebhooks, ArchiveGame, QueueBots, RecordResults,
                    TournamentGameFinished, NotifyTurn, NotifyStarted, DeliverWebhooks]


@dataclass(frozen=True)
class Consequences:
    ahead: tuple[Consequence, ...]
    after: tuple[Consequence, ...]

    @property
    def bots_job(self) -> str | None:
        """The bots' job this commit makes due, which the commit records with the game."""
        return next((each.job_id for each in self.after if isinstance(each, QueueBots)), None)


def consequences(facts: Committed) -> Consequences:
    """What follows from a commit; a pure function of its facts."""
    ahead: list[Consequence] = []
    due, before_due = facts.after.due, facts.before.due if facts.before else None
    if due is not None and due != before_due:
        ahead.append(MarkDue(facts.game_id, facts.updated + DUE_GRACE if due == BOTS_NOW
                             else due))
    elif facts.finishes:  # its results are due as soon as it ends
        ahead.append(MarkDue(facts.game_id, facts.updated + DUE_GRACE))
    if facts.finishes:
        ahead.append(ArchiveGame(facts.game_id, facts.updated + ARCHIVE_GRACE))
    # Who has a webhook is known from the game's last commit while nobody sat down or left
    # since: then only they are marked (none: no command at all).
    if (facts.hooked is not None and facts.before is not None
            and set(facts.before.seated) == set(facts.after.seated)):
        ahead.append(OweWebhooks(facts.hooked, asks=False))
    else:
        ahead.append(OweWebhooks(facts.players))

    after: list[Consequence] = []
    if facts.bots_become_due:
        after.append(QueueBots(facts.game_id, bots_job_id(facts.game_id, facts.version),
                               facts.after.levels_due, facts.payer, facts.after.nobody_waits,
                               first=not facts.after.nobody_waits))
    if facts.finishes:
        after.append(RecordResults(facts.game_id))
        if facts.after.tournament is not None:
            after.append(TournamentGameFinished(facts.after.tournament, facts.game_id))
    after.extend(NotifyTurn(facts.game_id, seat, facts.version)
                 for seat in facts.after.turns_started)
    if facts.starts:
        after.extend(NotifyStarted(facts.game_id, player) for player in facts.told_of_start())
    after.append(DeliverWebhooks())
    return Consequences(tuple(ahead), tuple(after))
