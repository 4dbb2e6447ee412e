"""Bots at the tables (run by the worker): the bots' moves, a human's move when their time runs
out, and the sweeper that looks after every game whose due time passed.

A job moves every bot seat that must act, one after another, each from its own view, until a
human must act; a human seat whose move plays itself (a card chosen ahead, a forced move) is
moved the same way, as its player, and the log says it was automatic. The bots answering one
move share one thinking time (`api.tables.scheduling.TurnClock`). A job on the quick queue hands the game on to the
deep queue when a bot that thinks long becomes due.
Every job is idempotent: with nothing due it does nothing. The sweeper queues again what went
missing: a job lost with a process that died between commit and enqueue, a job of a worker
killed mid-move, a deadline that passed while no worker ran, or a finished game whose results
are not recorded yet; and it queues each turn's reminders as their time comes.
"""
from __future__ import annotations

import random
import time
from typing import Any

from api import telemetry
from api.tables import turns
from api.tables.consequences import DUE_GRACE
from api.tables.errors import Conflict
from api.tables.games import Games
from api.tables.model import FINISHED, StoredGame
from api.tables.play import Play
from api.tables.scheduling import BOT_MOVES_PER_JOB, TurnClock
from rules.search import Budget

STANDIN_AFTER_TIMEOUTS = 3


class Bots:
    def __init__(self, games: Games, play: Play, budgets: dict[str, Budget]):
        self.games = games
        self.play = play
        self.budgets = budgets
        self.scheduler = games.scheduler

    def play_due(self, game_id: str, queue: str | None = None) -> int:
        """Make every move due (the bots', and those that play themselves); the number made."""
        stored = self.games.find(game_id)
        if stored is None:
            return 0
        turn = self.scheduler.turn_clock(stored, self.budgets)
        payer, moves = stored.payer(), 0
        while stored is not None and stored.moves_due():
            if moves == BOT_MOVES_PER_JOB or (
                    moves and queue and self.scheduler.yields(stored, queue)):
                self.scheduler.release_lanes(stored)
                self.scheduler.hand_on(stored)
                return moves
            seat = stored.moves_due()[0]
            started = time.process_time()
            try:
                stored = self._move(stored, seat, turn)
                moves += 1
            except Conflict:
                stored = self.games.find(game_id)  # a human moved meanwhile: look again
            self.scheduler.spend(payer, time.process_time() - started)
        if stored is not None:
            self.scheduler.release_lanes(stored)
        return moves

    def _move(self, stored: StoredGame, seat: int, turn: TurnClock) -> StoredGame:
        if not stored.played_by_bot(seat):
            action = stored.automatic_action(seat)
            how = "preselected" if stored.preselected.get(seat) == action else "forced"
            return self.play.play_for(stored, seat, action,
                                      {"type": "automatic", "seat": seat, "how": how},
                                      timeouts=0)
        note = {"type": "stand_in", "seat": seat} if stored.seats[seat].standin else None
        return self.play.play_for(stored, seat, self._decision(stored, seat, turn), note)

    def deadline_passed(self, game_id: str, seat: int, turn_since: int) -> bool:
        """Play for a human whose time ran out; after repeated time-outs, or once a tournament's
        round is over, a bot keeps the seat (and finishes the game)."""
        stored = self.games.find(game_id)
        if stored is None or not 0 <= seat < len(stored.seats):
            return False
        entry = stored.seats[seat]
        if (entry.turn_since != turn_since or entry.deadline is None
                or self.games.clock.now() < entry.deadline or seat not in stored.to_act()):
            return False
        timeouts = entry.timeouts + 1
        round_ends = turns.round_deadline(stored.meta)
        standin = timeouts >= STANDIN_AFTER_TIMEOUTS or (
            round_ends is not None and self.games.clock.now() >= round_ends)
        note = {"type": "timeout", "seat": seat, "standin": standin}
        try:
            self.play.play_for(stored, seat, self._decision(stored, seat), note,
                               timeouts=timeouts, standin=standin)
        except Conflict:
            return False  # the player moved just in time
        return True

    def _decision(self, stored: StoredGame, seat: int, turn: TurnClock | None = None) -> Any:
        game, state = stored.game, stored.state
        rng = random.Random(f"bot:{state['seed']}:{stored.version}:{seat}")
        level = stored.bot_level(seat)
        budget = turn.budget(level) if turn else self.budgets.get(level)
        with telemetry.bot_decision(game.name, level):
            return game.bot_action(game.view(state, seat), game.legal_actions(state, seat),
                                   level, rng, budget)

    def sweep(self, limit: int = 200) -> int:
        """Look after every game whose due time passed: queue again a job that went missing,
        play passed deadlines, send reminders, and move the game's due time on. The games
        looked at."""
        now = self.games.clock.now()
        schedule = self.games.storage.schedule
        due = schedule.due(now, limit)
        for game_id, seen in due:
            stored = self.games.find(game_id)
            schedule.reschedule(game_id, seen,
                                None if stored is None else self._see_to(stored, now, seen))
        return len(due)

    def _see_to(self, stored: StoredGame, now: float, seen: float) -> float | None:
        """Make sure a job is on its way for what is due; when to look at the game next.
        Reminders due since the game's due time `seen` are queued (once: each sends at most
        once, and is not queued again at a later look)."""
        jobs = self.games.jobs
        if stored.status() == FINISHED:
            if stored.results is not None:
                return None
            jobs.record_results(stored.id)
            return now + DUE_GRACE
        if stored.moves_due():
            if not jobs.in_hand(stored.record.bots_job):
                self.scheduler.hand_on(stored)
            return now + DUE_GRACE
        later = []
        for seat in stored.to_act():
            entry = stored.seats[seat]
            if entry.deadline is None:
                continue
            for kind, instant in turns.reminders(entry).items():
                if instant > now:
                    later.append(instant)
                elif instant >= seen and now < entry.deadline:
                    jobs.remind(stored.id, seat, entry.turn_since, kind)
            if entry.deadline > now:
                later.append(entry.deadline)
                continue
            jobs.deadline_passed(stored.id, seat, entry.turn_since)
            later.append(now + DUE_GRACE)
        return min(later, default=None)
