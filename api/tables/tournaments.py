"""Tournaments for asynchronous play: Swiss rounds of multiplayer tables, round robins, and
duplicate deals. Pairing and scoring are `api.tables.tournament_pairing`'s (pure); this module
keeps the tournament and moves it on.

**A tournament's life.** Created `open`; players join and leave until it starts: when full (its
`cap` entrants), or at `starts_at` with whoever entered (two at least, else it is `cancelled`).
Then `running`: each round's tables are paired and their games made, each a private,
no-vacation game of the tournament's pace whose turns never run past the round's deadline
(`api.tables.turns`). A round is over when every game of it finished; at its deadline the absent
seats' turns time out and stand-in bots take them and finish the game (`api.tables.bots`), so a
round never outlasts its deadline by more than the bots' moves. Then the round is scored and the
next one paired, until the last: `finished`.

**Moving on** is one job (`move_on`), idempotent and safe against a worker dying mid-way: every
step is a compare-and-set of the tournament's document, the pairing is stored (with its games'
ids) before any game is made, and a table's game is made under a lease only when no game of that
id exists, so a job run again picks up where a dead one stopped. It is queued when a tournament
game finishes (the commit's consequence `TournamentGameFinished`), when the last entrant joins,
and by the sweeper for every tournament whose start or round deadline has passed (the due-set of
tournaments), which also catches a job lost with a dead process.

**Where it is kept.** In Redis while it is open or running, renewed by every change: its job
compares and sets it there. Once finished, the record (PostgreSQL) takes it for good: its
document (entrants, rounds with their tables, game ids, seeds and results, and the records the
standings are ranked by), beside the games it names, which the archive takes as it takes every
finished game (`api.tables.archive`). The job that finishes it archives it, then Redis keeps it
only for the hot window (`POYTA_HOT_DAYS`); until the record has it, the tournament stays in
the due-set, so a worker dying, or a database away, leaves it for the sweeper to archive again
(the insert is idempotent on its id). Reading, listing and a game's round state then find it in
the record.

**Withdrawal.** A player who leaves a running tournament resigns their seat in the round's game
(as today: a bot plays it on) and is paired no more; so is a player who made no move of their
own in a whole round (every move of their seat a time-out or a stand-in's).

**Duplicate deals.** Every table of a round (all of one size) is dealt from the round's one
seed, so seat k holds the same cards, in the same position, at every table, deal by deal (each
deal is shuffled from the seed and its number alone); matchpoints compare each deal's scores
(`api.tables.tournament_pairing.matchpoints`); each table seats
its players in its own secret order (drawn when the round is paired, never shown: a table's
players are listed in standing order, and tournament games are private). This limits what one
player can learn or arrange: nobody knows before the round who will hold which hand, and the
house never tells which player of another table holds one's cards. It cannot prevent players at
different tables from telling each other their cards (then, as every table holds the same deal,
one learns which opponent holds a friend's hand), so duplicate play trusts its players as
duplicate bridge does. The round's seed is shown (in the tournament and in each game's record)
only once the round is over, and a duplicate game's record and replay, which show every hand,
wait for the round's end too.
"""
from __future__ import annotations

import random
import secrets
from concurrent.futures import ThreadPoolExecutor

from api.storage.sql import DATABASE_ERRORS
from api.tables import turns
from api.tables.errors import Conflict, Forbidden, NotFound, Unprocessable
from api.tables.games import Games
from api.tables.model import ACTIVE, FINISHED as GAME_FINISHED, Meta, Player, Seat, StoredGame
from api.tables.play import Play
from api.tables.player_clock import PlayerClocks
from api.tables.ratings import Standing
from api.tables.tournament_model import (
    CANCELLED, FINISHED, OPEN, RUNNING, Tournament, archived, checked, deal_scores, describe,
    timed_out_throughout,
)
from api.tables.tournament_pairing import (
    BOT, matchpoints, places_of, round_robin, standing_order, swiss_round, table_points,
)
from rules import GAMES

LOOK_AGAIN = 60.0      # seconds after a due time at which the sweeper looks again
LEASE_SECONDS = 60     # a table's game in the making (a few milliseconds); a dead maker's lapses
CAS_ATTEMPTS = 20
MAKERS = 16            # games of a round made at once


class Tournaments:
    def __init__(self, games: Games, clocks: PlayerClocks, play: Play,
                 paces: dict[str, int | None]):
        self.games = games
        self.clocks = clocks
        self.play = play
        self.paces = paces
        self.storage = games.storage
        self.store = games.storage.tournaments
        self.record = games.storage.finished_tournaments   # None without a database
        self.hot_seconds = games.settings.hot_seconds
        self.jobs = games.jobs
        self.clock = games.clock

    # --- making, reading, listing --------------------------------------------------------------
    def create(self, player: Player, name: str, type: str, table_size: int, rounds: int | None,
               format: str = "swiss", cap: int = 16, options: dict | None = None,
               pace: str = "1d", round_hours: float = 72, bot_level: str | None = None,
               starts_at: float | None = None, public: bool = True, rated: bool = True,
               duplicate: bool = False, rank_by: str = "points") -> dict:
        settings = checked(self.paces, type, table_size, rounds, format, cap, options, pace,
                           round_hours, bot_level, duplicate, rank_by)
        now = self.clock.now()
        if starts_at is not None and starts_at <= now:
            raise Unprocessable("starts_at must be in the future")
        tournament = Tournament(
            id=secrets.token_urlsafe(9), name=name, type=type, table_size=table_size,
            format=format, rounds=rounds or 0, cap=cap, pace=pace, **settings,
            creator=player.id, created=now,
            starts_at=starts_at, public=public,
            invite=None if public else secrets.token_urlsafe(9), rated=rated,
            duplicate=duplicate, rank_by=rank_by)
        self.store.create(tournament.id, tournament.to_json(), now)
        if starts_at is not None:
            self.store.mark_due(tournament.id, starts_at)
        tournament.version = 1
        return describe(tournament, player)

    def load(self, tournament_id: str) -> Tournament:
        """From Redis, or the record once Redis let a finished tournament go."""
        found = self.store.load(tournament_id)
        if found is None and self.record is not None:
            found = self.record.find(tournament_id)
        if found is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        return Tournament.from_json(found[1], found[0])

    def get(self, tournament_id: str, player: Player | None) -> dict:
        return describe(self.load(tournament_id), player)

    # --- entering and leaving -------------------------------------------------------------------
    def join(self, tournament_id: str, player: Player, invite: str | None = None) -> dict:
        def enter(tournament: Tournament) -> None:
            if tournament.status != OPEN:
                raise Conflict("this tournament has started: it takes no more entrants",
                               "tournament_started")
            if not tournament.public and invite != tournament.invite:
                raise Forbidden("this tournament is private: join it with its invite")
            if player.id in tournament.entrants:
                raise Conflict("you have entered this tournament already")
            if len(tournament.entrants) >= tournament.cap:
                raise Conflict(f"this tournament is full ({tournament.cap} entrants)",
                               "tournament_full")
            tournament.entrants.append(player.id)
            tournament.names[player.id] = player.name
            if player.bot:
                tournament.automated.append(player.id)
        tournament = self._change(tournament_id, enter)
        self.store.entered(player.id, tournament_id, self.clock.now())
        if tournament.starts_at is None and len(tournament.entrants) == tournament.cap:
            self.store.mark_due(tournament.id, self.clock.now() + LOOK_AGAIN)  # if the job is lost
            self.jobs.move_tournament_on(tournament.id)
        return describe(tournament, player)

    def leave(self, tournament_id: str, player: Player) -> dict:
        """Before the start, the entry goes; once running, the player is withdrawn and their
        seat in the round's game resigns."""
        def go(tournament: Tournament) -> None:
            if player.id not in tournament.entrants:
                raise Conflict("you have not entered this tournament")
            if tournament.status == OPEN:
                tournament.entrants.remove(player.id)
                tournament.names.pop(player.id, None)
            elif tournament.status == RUNNING:
                if player.id in tournament.withdrawn:
                    raise Conflict("you have left this tournament already")
                tournament.withdrawn.append(player.id)
            else:
                raise Conflict("this tournament is over")
        tournament = self._change(tournament_id, go)
        if tournament.status == OPEN:
            self.store.left(player.id, tournament_id)
        current = tournament.current()
        if tournament.status == RUNNING and current and not current["over"]:
            for table in current["tables"]:
                if player.id in table["seats"]:
                    stored = self.games.find(table["game_id"])
                    if stored is not None and stored.status() == ACTIVE:
                        try:
                            self.play.resign(table["game_id"], player)
                        except Conflict:
                            pass  # resigned already, or the game ended meanwhile
        return describe(tournament, player)

    # --- moving on: the job ---------------------------------------------------------------------
    def move_on(self, tournament_id: str) -> str:
        """Whatever is due: the start, the round's missing games, the round's scoring and the
        next round's pairing, the end. Idempotent; the tournament's status after."""
        found = self.store.load(tournament_id)
        if found is None:
            return "gone"
        tournament = self._change(tournament_id, self._step)
        made = True
        while tournament.status == RUNNING and not tournament.current()["over"]:
            made = self._make_games(tournament, tournament.current())
            if not made or not self._round_finished(tournament.current()):
                break
            tournament = self._change(tournament_id, self._step)
        self._schedule(tournament, made)
        return tournament.status

    def sweep(self, limit: int = 100) -> int:
        """Queue the job of every tournament whose start or round deadline has passed."""
        due = self.store.due(self.clock.now(), limit)
        for tournament_id in due:
            self.jobs.move_tournament_on(tournament_id)
        return len(due)

    def _schedule(self, tournament: Tournament, made: bool) -> None:
        """When the sweeper looks at the tournament next: at its start, soon while a game of
        the round is missing, else a little after the round's deadline."""
        now = self.clock.now()
        if tournament.status == OPEN and tournament.starts_at is not None:
            self.store.mark_due(tournament.id, max(tournament.starts_at, now))
        elif tournament.status == RUNNING:
            deadline = tournament.current()["deadline"]
            self.store.mark_due(tournament.id, now + LEASE_SECONDS if not made
                                else max(deadline, now) + LOOK_AGAIN)
        elif tournament.status == FINISHED and self.record is not None:
            self._archive(tournament)
        elif tournament.status in (FINISHED, CANCELLED):
            self.store.settled(tournament.id)

    def _archive(self, tournament: Tournament) -> None:
        """The finished tournament into the record, once; then Redis keeps it for the hot
        window. It stays due until the record has it, for the sweeper to try again."""
        self.store.mark_due(tournament.id, self.clock.now() + LOOK_AGAIN)
        try:
            self.record.archive(archived(tournament))
        except DATABASE_ERRORS:
            return
        self.store.keep_hot(tournament.id, self.hot_seconds)
        self.store.settled(tournament.id)

    def _step(self, tournament: Tournament) -> None:
        """One change of the tournament's document, whichever is due (none when nothing is)."""
        now = self.clock.now()
        if tournament.status == OPEN:
            full = len(tournament.entrants) >= tournament.cap
            if not (full or (tournament.starts_at is not None and now >= tournament.starts_at)):
                return
            if len(tournament.entrants) < 2:
                tournament.status = CANCELLED
                return
            self._start(tournament)
            self._pair(tournament, now)
        elif tournament.status == RUNNING:
            current = tournament.current()
            if current["over"] or not self._round_finished(current):
                return
            self._score(tournament, current)
            if len(tournament.played) >= tournament.rounds or len(tournament.active()) < 2:
                tournament.status = FINISHED
                tournament.finished = now
            else:
                self._pair(tournament, now)

    def _start(self, tournament: Tournament) -> None:
        tournament.status = RUNNING
        standings = self.storage.ratings.standings(tournament.entrants, tournament.type)
        tournament.ratings = {
            player: round(Standing.from_json(standings.get(player, "")).ordinal, 3)
            for player in tournament.entrants}
        tournament.records = {player: {"points": 0.0, "matchpoints": 0.0, "met": {}}
                              for player in tournament.entrants}
        if tournament.format == "round_robin":
            order = standing_order(tournament.standing_records())
            tournament.schedule = round_robin(order, tournament.table_size,
                                              tournament.rounds or None)
            tournament.rounds = len(tournament.schedule)

    def _pair(self, tournament: Tournament, now: float) -> None:
        number = len(tournament.played) + 1
        active = tournament.active()
        if tournament.format == "swiss":
            records = tournament.standing_records()
            order = standing_order(records, tournament.rank_by, active)
            tables = swiss_round(order, tournament.table_size,
                                 {player: records[player].met for player in order})
        else:
            tables = [[player if player in active else BOT for player in table]
                      for table in tournament.schedule[number - 1]]
            tables = [table for table in tables if any(seat is not BOT for seat in table)]
        shuffle = random.SystemRandom()
        paired = []
        for players in tables:
            seats = list(players)
            if tournament.duplicate:
                shuffle.shuffle(seats)
            paired.append({"game_id": secrets.token_urlsafe(12),
                           "players": [player for player in players if player is not BOT],
                           "seats": seats})
        tournament.played.append({
            "number": number, "started": now, "deadline": now + tournament.round_seconds,
            "seed": secrets.randbits(63) if tournament.duplicate else None,
            "tables": paired, "over": False, "results": None})

    def _make_games(self, tournament: Tournament, current: dict) -> bool:
        """Make each of the round's games not made yet, a few at once (each is a few round trips
        to the store and the queue); whether every one is there."""
        def make(index: int, table: dict) -> bool:
            if self.games.find(table["game_id"]) is not None:
                return True
            if not self.store.lease_table(tournament.id, current["number"], index,
                                          LEASE_SECONDS):
                return False  # another process makes it; a dead one's lease lapses
            if self.games.find(table["game_id"]) is None:  # a slow maker may have finished
                self._make_game(tournament, current, index, table)
            return True
        with ThreadPoolExecutor(MAKERS) as makers:
            return all(list(makers.map(make, range(len(current["tables"])), current["tables"])))

    def _make_game(self, tournament: Tournament, current: dict, index: int, table: dict
                   ) -> None:
        game = GAMES[tournament.type]
        now = self.clock.now()
        meta = Meta(type=game.name, players=tournament.table_size, options=tournament.options,
                    pace=tournament.pace, pace_seconds=self.paces.get(tournament.pace),
                    public=False, webhook=None, created=now, vacation=False,
                    rated=tournament.rated,
                    tournament={"id": tournament.id, "round": current["number"], "table": index,
                                "deadline": current["deadline"]})
        seats = []
        for number, player in enumerate(table["seats"]):
            if player is BOT:
                level = tournament.bot_level
                seats.append(Seat(name=f"Bot {number + 1} ({level})", bot=level))
                continue
            seat = Seat(player_id=player, name=tournament.names.get(player),
                        automated=player in tournament.automated, bank=turns.first_bank(meta))
            for name, value in self.clocks.seat_fields(player, meta).items():
                setattr(seat, name, value)
            seats.append(seat)
        seed = current["seed"] if tournament.duplicate else secrets.randbits(63)
        state = game.new_game(meta.players, meta.options, seed)
        stored = StoredGame(table["game_id"], game, meta, seats, state, 0, now)
        self.games.create(stored, table["players"][0], formed=True)
        for player in table["players"][1:]:
            self.storage.players.add_game(player, stored.id)

    def _round_finished(self, current: dict) -> bool:
        for table in current["tables"]:
            stored = self.games.find(table["game_id"])
            if stored is None or stored.status() != GAME_FINISHED:
                return False
        return True

    def _score(self, tournament: Tournament, current: dict) -> None:
        """The round's places, points and matchpoints into the standings; who timed out the
        whole round is withdrawn."""
        lower_wins = GAMES[tournament.type].lower_score_wins
        finished = [self.games.load(table["game_id"]) for table in current["tables"]]
        logs = [self.storage.games.log(stored.id, stored.version) for stored in finished]
        scores = [stored.outcome()["scores"] for stored in finished]
        earned = (matchpoints([[] if log is None else deal_scores(stored, log)
                               for stored, log in zip(finished, logs)],
                              tournament.table_size, lower_wins)
                  if tournament.duplicate else None)
        results = []
        for index, (table, stored, log) in enumerate(zip(current["tables"], finished, logs)):
            resigned = [seat for seat, entry in enumerate(stored.seats) if entry.resigned]
            places = places_of(scores[index], lower_wins, resigned)
            points = table_points(places)
            for seat, player in enumerate(table["seats"]):
                if player is BOT:
                    continue
                record = tournament.records[player]
                record["points"] += points[seat]
                if earned is not None:
                    record["matchpoints"] += earned[index][seat]
                for other in table["players"]:
                    if other != player:
                        record["met"][other] = record["met"].get(other, 0) + 1
                if (player not in tournament.withdrawn and log is not None
                        and timed_out_throughout(log, seat)):
                    tournament.withdrawn.append(player)
            results.append({"game_id": table["game_id"], "scores": scores[index],
                            "places": places, "points": points,
                            "matchpoints": earned[index] if earned else None})
        current["over"] = True
        current["results"] = results

    def _change(self, tournament_id: str, change) -> Tournament:
        for _ in range(CAS_ATTEMPTS):
            tournament = self.load(tournament_id)
            before = tournament.to_json()
            change(tournament)
            after = tournament.to_json()
            if after == before:
                return tournament
            if self.store.save(tournament_id, tournament.version, after):
                tournament.version += 1
                return tournament
        raise Conflict("the tournament is too busy right now; try again", "busy")
