"""Bot scheduling, in one place: which queue a game's bot moves go on, each payer's lanes and
share of the bots' time, when a job yields its worker, and how long the bots answering one move
may think. The worker processes and the queues each takes are declared in `worker.layout`.

A game whose bots due include one of `DEEP_LEVELS` goes on the deep queue, every other on the
quick one, so long thinking never holds up a quick reply. Each payer (a game's creator) holds
one lane on each of those: their other games' bot moves, and every bot move of a payer who used
up their share of the bots' time (thrifty), go on the heavy queue that every bot worker takes
last. So one player's bots never hold up another's.
"""
from __future__ import annotations

import time
from dataclasses import replace

from api.settings import Settings
from api.storage.bot_time import LANE
from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, JobBoard, bots_job_id
from api.storage.store import Storage
from api.tables.consequences import QueueBots
from api.tables.model import StoredGame
from rules.search import DEFAULT_BUDGETS, Budget

DEEP_LEVELS = frozenset({"hard"})  # bot levels that think long: their games' jobs go deep
BOT_MOVES_PER_JOB = 50   # then the job hands on to a fresh one, so none runs for long
# A search bot thinks at least this share of its level's budget per move, however late its job
# began (hard: 0.05 s, where the tournaments show it still well ahead of easy and level with the
# published baseline at equal CPU).
LEAST_SHARE = 0.05
# The bots answering a move stop thinking at this share of their turn's budget on the wall clock:
# the rest is for storing their moves and waking the player's view.
THINKING_SHARE = 0.9


def queue_of_levels(levels_due: tuple[str, ...]) -> str:
    """The queue of the slowest level due: deep when a bot due thinks long."""
    return DEEP_BOT_QUEUE if DEEP_LEVELS.intersection(levels_due) else BOT_QUEUE


def levels_due(stored: StoredGame) -> tuple[str, ...]:
    return tuple(stored.bot_level(seat) for seat in stored.moves_due())


def bots_due(stored: StoredGame, job_id: str, first: bool = False) -> QueueBots:
    return QueueBots(stored.id, job_id, levels_due(stored), stored.payer(),
                     stored.nobody_waits(), first)


class BotScheduler:
    def __init__(self, storage: Storage, jobs: JobBoard, settings: Settings):
        self.storage = storage
        self.jobs = jobs
        self.settings = settings

    def queue(self, due: QueueBots) -> None:
        """Queue the job; `first`: the bots answer a human who waits for them, ahead of the
        jobs that wait already (another game's turn being played on, one move a job)."""
        self.jobs.play_bots(due.game_id, due.job_id,
                            self.queue_for(due.game_id, due.payer, due.levels_due,
                                           due.nobody_waits),
                            at_front=due.first)

    def hand_on(self, stored: StoredGame) -> None:
        """The game's next moves go to a fresh job, recorded with the game as its bots' job."""
        job_id = bots_job_id(stored.id, stored.version)
        if job_id != (stored.record and stored.record.bots_job):
            self.storage.games.set_bots_job(stored.id, job_id)
        self.queue(bots_due(stored, job_id))

    def thrifty(self, payer: str) -> bool:
        """The payer used up their share of the bots' time for now (by default 10 CPU seconds
        a minute: three 6 nimmt! turns against three hard bots): the game's bot moves go to the
        heavy queue, which every bot worker takes last, and its bots think only LEAST_SHARE of
        their budget. A thrifty payer stays so until their bots' time falls below half the
        share: at the least share, dozens of bot games cost less than the share, and would
        otherwise swing back to full budgets."""
        share = self.settings.bot_seconds_a_minute
        spent, was_thrifty = self.jobs.bot_time.spent(payer)
        if spent > share or (was_thrifty and spent > share / 2):
            self.jobs.bot_time.keep_thrifty(payer)
            return True
        return False

    def queue_for(self, game_id: str, payer: str, levels_due: tuple[str, ...],
                  nobody_waits: bool) -> str:
        """The heavy queue for a game that nobody waits for, for a thrifty payer, and for every
        game of a payer but the one whose bots hold their place on the quick (or the deep)
        queue: so each player's bots wait behind at most one job of each other player's
        there."""
        queue = queue_of_levels(levels_due)
        if nobody_waits or self.jobs.bot_time.choose(
                payer, self.settings.bot_seconds_a_minute, queue, game_id) != LANE:
            return HEAVY_BOT_QUEUE
        return queue

    def release_lanes(self, stored: StoredGame) -> None:
        self.jobs.bot_time.release_lanes(stored.payer(), stored.id, (BOT_QUEUE, DEEP_BOT_QUEUE))

    def spend(self, payer: str, seconds: float) -> None:
        self.jobs.bot_time.spend(payer, seconds)

    def yields(self, stored: StoredGame, queue: str) -> bool:
        """The job should give its worker up after a move: the game's next moves belong on
        another queue (a long thinker is due on the quick queue, or the payer's share ran out
        or came back), or another game's job waits on a queue the worker takes first or on
        the job's own: then each game gets one move in turn, and a reply never waits for all
        the moves of another game's turn."""
        wanted = self.queue_for(stored.id, stored.payer(), levels_due(stored),
                                stored.nobody_waits())
        elsewhere = wanted != queue and not (queue == DEEP_BOT_QUEUE and wanted == BOT_QUEUE)
        return elsewhere or self.jobs.waiting_before(queue)

    def turn_clock(self, stored: StoredGame, budgets: dict[str, Budget]) -> "TurnClock":
        return TurnClock(stored, budgets, self.thrifty(stored.payer()))


class TurnClock:
    """The thinking time of the bots that answer one move, kept on the player's clock.

    From the commit that made them due, the bots answering it think at most THINKING_SHARE of
    the budget of the slowest search level seated, in all and on the wall clock: the time left
    is shared evenly among the game's search bots that have not moved yet (bots that choose at
    once, and bots that play one after another in a trick alike). Each also keeps its level's
    CPU budget per move, and thinks at least LEAST_SHARE of it, however late its job began.
    A thrifty clock (the game's payer used up their share of the bots' time) gives every
    level only LEAST_SHARE of its budget.
    """

    def __init__(self, stored: StoredGame, budgets: dict[str, Budget], thrifty: bool = False):
        self.budgets = budgets
        self.thrifty = thrifty
        searching = [budget.seconds for seat in range(len(stored.seats))
                     if stored.played_by_bot(seat)
                     and (budget := self.level_budget(stored.bot_level(seat))) and budget.seconds]
        self.left = len(searching)
        since = min(stored.updated, time.time())  # another host's clock may run ahead
        thinking = THINKING_SHARE * max(searching, default=0.0)
        self.deadline = time.monotonic() + since + thinking - time.time()

    def level_budget(self, level: str) -> Budget | None:
        budget = self.budgets.get(level) or DEFAULT_BUDGETS.get(level)
        if self.thrifty and budget is not None and budget.seconds:
            return replace(budget, seconds=LEAST_SHARE * budget.seconds)
        return budget

    def budget(self, level: str) -> Budget | None:
        """The next decision's budget: its level's, stopped by its share of the time left."""
        budget = self.level_budget(level)
        if budget is None or not budget.seconds:
            return budget
        now = time.monotonic()
        share = max((self.deadline - now) / max(self.left, 1), LEAST_SHARE * budget.seconds)
        self.left -= 1
        return replace(budget, deadline=now + share)

