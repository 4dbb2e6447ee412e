"""Carrying out what follows a commit (`api.tables.consequences` decides it): the due-set, the
archive's outbox and the webhook marks before the commit, then the jobs, in the order the
decision lists them."""
from __future__ import annotations

import secrets

from api import faults
from api.storage.jobs import JobBoard
from api.storage.store import Storage
from api.storage.webhooks import player_of
from api.tables.consequences import (
    DUE_GRACE, ArchiveGame, Consequence, Consequences, DeliverWebhooks, MarkDue, NotifyStarted, NotifyTurn,
    OweWebhooks, QueueBots, RecordResults, TournamentGameFinished,
)
from api.tables.scheduling import BotScheduler


class FollowUp:
    def __init__(self, storage: Storage, jobs: JobBoard, scheduler: BotScheduler):
        self.storage = storage
        self.jobs = jobs
        self.scheduler = scheduler

    def ahead(self, plan: Consequences) -> list[str]:
        """Before the commit: what a process dying right after it leaves for the sweepers.
        The webhook marks made, which `after` or `undo` settles."""
        marks: list[str] = []
        for each in plan.ahead:
            if isinstance(each, MarkDue):
                self.storage.schedule.mark_due(each.game_id, each.at)
            elif isinstance(each, ArchiveGame):
                if self.storage.finished is not None:  # else there is no archive to owe
                    self.storage.archive_outbox.owe(each.game_id, each.at)
            elif isinstance(each, OweWebhooks):
                marks += self.owe_webhooks(each.players)
            else:
                raise TypeError(f"{each!r} does not come ahead of a commit")
        return marks

    def undo(self, marks: list[str]) -> None:
        """The commit did not happen: nobody is owed a delivery for it. (A due mark and an
        archive entry stay: the sweepers find nothing to do.)"""
        self.jobs.webhook_marks.settle(marks)

    def after(self, plan: Consequences, marks: list[str]) -> None:
        faults.reach(faults.AFTER_COMMIT)
        for each in plan.after:
            self._run(each, marks)

    def _run(self, each: Consequence, marks: list[str]) -> None:
        if isinstance(each, QueueBots):
            self.scheduler.queue(each)
        elif isinstance(each, RecordResults):
            self.jobs.record_results(each.game_id)
        elif isinstance(each, TournamentGameFinished):
            self.jobs.tournament_game_finished(each.tournament_id, each.game_id)
        elif isinstance(each, NotifyTurn):
            self.jobs.notify_turn(each.game_id, each.seat, each.version)
        elif isinstance(each, NotifyStarted):
            self.jobs.notify_started(each.game_id, each.player_id)
        elif isinstance(each, DeliverWebhooks):
            self.deliver_webhooks(marks)
        else:
            raise TypeError(f"{each!r} does not follow a commit")

    def owe_webhooks(self, players: tuple[str, ...] | list[str]) -> list[str]:
        """Before a change that concerns `players`: the marks of those with a webhook, which
        the sweeper finds unless `deliver_webhooks` settles them."""
        return self.jobs.webhook_marks.mark(list(players), secrets.token_hex(4), DUE_GRACE)

    def deliver_webhooks(self, marks: list[str]) -> None:
        """After the change: queue each marked player's delivery, then settle the marks."""
        for mark in marks:
            self.jobs.deliver_webhook(player_of(mark))
        self.jobs.webhook_marks.settle(marks)
