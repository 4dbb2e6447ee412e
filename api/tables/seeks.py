"""Seeks: "seat me at a table like this": `create`, `get`, `cancel`, `mine`; and the pairing run
that forms tables from them (`pair`, the job `worker.jobs.pair_seeks`, queued when a seek is
made and by the worker's sweeper every `SWEEP_SECONDS` while a pool holds seeks).

A seek names one or several game types (each with its options, or any), the player counts it
accepts, one or several paces, rated or casual (the pool it waits in), optionally a rating window
around the player's own rating at each type and bots of a level to fill the empty seats after a
wait. It lapses after the time its player chose (at most `LONGEST_LAPSE_HOURS`). A player holds
at most `MOST_SEEKS` (429 beyond) and seeks only within their game quotas; seeking while on
vacation is refused (409); a seek made before a vacation stays open, and its table keeps the
vacation on the seat's clock as every table does.

The pairing run holds its pool's lease, finishes first any table a dead run claimed, lapses what
is due, then pairs (`api.tables.matching`). Each table's seeks are claimed in one script before
its game is made on the table's id, so a run that dies anywhere seats nobody twice and loses
nobody: the next run makes the game of a claimed table, or finds it made. The game starts with
every seat taken, so each seeker finds it in their inbox, on their stream (`game_started`,
`your_turn`) and gets "your turn" where it is theirs. A seek shows its player how many wait in
its pool, never who.
"""
from __future__ import annotations

import json
import logging
import secrets

from api import faults
from api.settings import Settings
from api.storage.seeks import CANCELLED, CLAIMED, LAPSED, OPEN, SEATED, new_seek_id, pool_of
from api.tables import matching, quotas
from api.tables.errors import Conflict, NotFound, ServiceError, TooManyRequests, Unprocessable
from api.tables.games import Games
from api.tables.model import Player, iso
from api.tables.player_clock import PlayerClocks
from api.tables.ratings import Standing
from api.tables.seating import Seating
from rules import GAMES, InvalidOptions

log = logging.getLogger(__name__)

POOLS = ("rated", "casual")
MOST_SEEKS = 5
LONGEST_LAPSE_HOURS = 7 * 24
DEFAULT_LAPSE_HOURS = 24
RECENT_TABLES = 3          # a pair who sat together at one of these is kept apart first
LEASE_SECONDS = 10         # one pairing run of a pool at a time, renewed at each table
SWEEP_SECONDS = 10         # the sweeper queues a pool's pairing this often while seeks wait
RETRY_AFTER = 60
SIZES = {name: (game.min_players, game.max_players) for name, game in GAMES.items()}


def _invalid(field: str, message: str) -> Unprocessable:
    return Unprocessable(f"{field}: {message}", field=field)


def _canonical(options: dict | None) -> str | None:
    return json.dumps(options, sort_keys=True, separators=(",", ":")) if options else None


def seek_of(record: dict) -> matching.Seek:
    fill = record["bot_fill"]
    return matching.Seek(
        record["id"], record["player"], record["created"],
        {game["type"]: _canonical(game["options"]) for game in record["games"]},
        record["players"]["min"], record["players"]["max"], tuple(record["paces"]),
        record["rated"], record["ratings"], record["rating_window"],
        None if fill is None else matching.BotFill(fill["level"], fill["after_hours"] * 3600))


class Seeks:
    def __init__(self, games: Games, seating: Seating, clocks: PlayerClocks, settings: Settings):
        self.games = games
        self.seating = seating
        self.clocks = clocks
        self.storage = games.storage
        self.store = games.storage.seeks
        self.jobs = games.jobs
        self.settings = settings

    # --- a player's seeks -----------------------------------------------------------------------
    def create(self, player: Player, games: list[dict], players: dict, paces: list[str],
               rated: bool = True, rating_window: float | None = None,
               bot_fill: dict | None = None, lapse_hours: float = DEFAULT_LAPSE_HOURS) -> dict:
        now = self.games.clock.now()
        fewest, most = players["min"], players["max"]
        chosen = self._checked_games(games, fewest, most)
        self._check_paces(paces)
        ratings = self._ratings(player, chosen, rated, rating_window)
        if bot_fill is not None:
            self._check_bot_fill(chosen, bot_fill)
        if not 0 < lapse_hours <= LONGEST_LAPSE_HOURS:
            raise _invalid("lapse_hours", f"a seek lapses after more than 0 and at most "
                           f"{LONGEST_LAPSE_HOURS} hours")
        if self.clocks.get_clock(player.id).on_vacation(now):
            raise Conflict("you are on vacation: end it to seek a game")
        hard = bot_fill is not None and bot_fill["level"] == "hard"
        quotas.check_new_game(self.games, player, int(hard), False, None)
        pool = POOLS[0] if rated else POOLS[1]
        seek_id = new_seek_id(pool)
        self._forget_ended(player)
        if not self.store.count_for(player.id, seek_id, now, MOST_SEEKS):
            raise TooManyRequests(f"you already have {MOST_SEEKS} open seeks, the most one player "
                                  "may have: cancel one or wait for a table", RETRY_AFTER)
        record = {"id": seek_id, "player": player.id, "created": now,
                  "lapses": now + lapse_hours * 3600, "games": chosen,
                  "players": {"min": fewest, "max": most}, "paces": list(paces), "rated": rated,
                  "ratings": ratings, "rating_window": rating_window, "bot_fill": bot_fill}
        self.store.open(seek_id, now, record["lapses"], record)
        self.jobs.pair_seeks(pool)
        return self._view(record, OPEN, now)

    def _checked_games(self, games: list[dict], fewest: int, most: int) -> list[dict]:
        if not games:
            raise _invalid("games", "name at least one game type")
        if not 1 <= fewest <= most:
            raise _invalid("players", "give min and max with 1 <= min <= max")
        chosen, seen = [], set()
        for entry in games:
            kind, options = entry["type"], entry.get("options") or None
            if kind not in GAMES:
                raise _invalid("games", f"unknown game type {kind!r}; known: {', '.join(GAMES)}")
            if kind in seen:
                raise _invalid("games", f"{kind} is named twice")
            seen.add(kind)
            game = GAMES[kind]
            low, high = max(fewest, game.min_players), min(most, game.max_players)
            if low > high:
                raise _invalid("players", f"{game.title} is for {game.min_players} to "
                               f"{game.max_players} players, not {fewest} to {most}")
            if options is not None:
                for count in range(low, high + 1):
                    try:
                        game.normalise_options(count, options)
                    except InvalidOptions as error:
                        raise _invalid("games", str(error)) from None
            chosen.append({"type": kind, "options": options})
        return chosen

    def _check_paces(self, paces: list[str]) -> None:
        known = [pace for pace, seconds in self.seating.paces.items() if seconds is not None]
        if not paces or any(pace not in known for pace in paces):
            raise _invalid("paces", f"name one or several of {', '.join(known)} (a table of "
                           "several people cannot play without a pace)")

    def _ratings(self, player: Player, chosen: list[dict], rated: bool,
                 window: float | None) -> dict[str, float]:
        standings = {game["type"]: Standing.from_json(
            self.storage.ratings.standings([player.id], game["type"])[player.id])
            for game in chosen}
        if window is not None:
            if not rated:
                raise _invalid("rating_window", "a rating window is for rated seeks")
            if window <= 0:
                raise _invalid("rating_window", "give a window above 0")
            unrated = [kind for kind, standing in standings.items() if not standing.rated]
            if unrated:
                raise _invalid("rating_window", f"you have no rated games of {', '.join(unrated)} "
                               "yet: seek without a window")
        return {kind: standing.ordinal for kind, standing in standings.items()}

    @staticmethod
    def _check_bot_fill(chosen: list[dict], bot_fill: dict) -> None:
        for game in chosen:
            if not GAMES[game["type"]].has_bot_level(bot_fill["level"]):
                raise _invalid("bot_fill", f"{GAMES[game['type']].title} has no bot level "
                               f"{bot_fill['level']!r}")
        if not 0 <= bot_fill["after_hours"] <= LONGEST_LAPSE_HOURS:
            raise _invalid("bot_fill", f"after_hours is 0 to {LONGEST_LAPSE_HOURS}")

    def _forget_ended(self, player: Player) -> None:
        """Seeks that ended no longer count (a run died before it uncounted them)."""
        seek_ids = self.store.player_seek_ids(player.id)
        ended = [seek_id for seek_id, found in zip(seek_ids, self.store.many(seek_ids))
                 if found is None or not found[1].startswith((OPEN, CLAIMED))]
        self.store.uncount(player.id, ended)

    def get(self, player: Player, seek_id: str) -> dict:
        record, state = self._own(player, seek_id)
        return self._view(record, state, self.games.clock.now())

    def mine(self, player: Player) -> list[dict]:
        """The player's seeks still waiting (or being seated), the oldest first."""
        self._forget_ended(player)
        seek_ids = self.store.player_seek_ids(player.id)
        now = self.games.clock.now()
        return [self._view(record, state, now) for record, state in
                filter(None, self.store.many(seek_ids))]

    def cancel(self, player: Player, seek_id: str) -> dict:
        record, state = self._own(player, seek_id)
        now = self.games.clock.now()
        if self.store.end(pool_of(seek_id), [seek_id], CANCELLED, now):
            state = CANCELLED
        else:
            record, state = self._own(player, seek_id)
            if state.startswith((CLAIMED, SEATED)):
                raise Conflict("this seek has found its table already")
        self.store.uncount(player.id, [seek_id])
        return self._view(record, state, now)

    def _own(self, player: Player, seek_id: str) -> tuple[dict, str]:
        found = self.store.get(seek_id) if pool_of(seek_id) in POOLS else None
        if found is None or found[0]["player"] != player.id:
            raise NotFound(f"you have no seek {seek_id!r}")
        return found

    def _view(self, record: dict, state: str, now: float) -> dict:
        if state == OPEN and record["lapses"] <= now:
            state = LAPSED
        game = state.split(":", 1)[1] if state.startswith((CLAIMED, SEATED)) else None
        return {"id": record["id"], "games": record["games"], "players": record["players"],
                "paces": record["paces"], "rated": record["rated"],
                "rating_window": record["rating_window"], "bot_fill": record["bot_fill"],
                "created": iso(record["created"]), "lapses": iso(record["lapses"]),
                "state": "seating" if state.startswith(CLAIMED) else state.split(":")[0],
                "game": game, "waited_seconds": round(max(0.0, now - record["created"])),
                "waiting_in_pool": self.store.open_count(pool_of(record["id"]))}

    # --- pairing (the worker's job and its sweeper) ---------------------------------------------
    def pair(self, pool: str) -> int:
        """One pairing round of the pool; the tables it seated (0: another run holds the pool)."""
        self.jobs.pairing_started(pool)
        token = secrets.token_hex(8)
        if not self.store.take_lease(pool, token, LEASE_SECONDS):
            return 0
        try:
            now = self.games.clock.now()
            for table_id, plan in self.store.claimed_tables(pool).items():
                self._seat_or_reopen(pool, table_id, plan, now)
            self._lapse(pool, now)
            seated = 0
            for table in self._tables(pool, now):
                if not self.store.renew_lease(pool, token, LEASE_SECONDS):
                    break  # too slow: another run may hold the pool now
                plan = {"seeks": list(table.seeks), "players": list(table.players),
                        "type": table.game_type, "options": table.options, "pace": table.pace,
                        "rated": table.rated, "bots": table.bots, "bot_level": table.bot_level}
                if self.store.claim(pool, table.id, plan, plan["seeks"]):
                    faults.reach(faults.AFTER_SEEKS_CLAIMED)
                    seated += self._seat_or_reopen(pool, table.id, plan, now)
            self.store.forget_ended(pool, now - 86400)
            return seated
        finally:
            self.store.release_lease(pool, token)

    def _lapse(self, pool: str, now: float) -> None:
        lapsed = self.store.end(pool, self.store.lapsed(pool, now), LAPSED, now)
        for seek_id, found in zip(lapsed, self.store.many(lapsed)):
            if found is not None:
                self.store.uncount(found[0]["player"], [seek_id])

    def _tables(self, pool: str, now: float) -> list[matching.Table]:
        records = self.store.open_records(pool)
        player_ids = sorted({record["player"] for record in records})
        present = self.storage.friends.players(player_ids)
        gone = [record["id"] for record in records if record["player"] not in present]
        self.store.end(pool, gone, LAPSED, now)  # their players' accounts are gone
        partners = {player_id: frozenset(mate for table in tables for mate in table)
                    for player_id, tables in self.store.partners(pool, player_ids).items()}
        matching_pool = matching.Pool(SIZES, self.settings.seek_grace_seconds,
                                      self.storage.friends.blocks_of(player_ids), partners)
        return matching.pair([seek_of(record) for record in records
                              if record["player"] in present], now, matching_pool)

    def _seat_or_reopen(self, pool: str, table_id: str, plan: dict, now: float) -> bool:
        """Seat a claimed table; one whose game cannot be made gives its seeks back to the pool,
        so one bad table never holds up the pool's next rounds. Redis away: the claim stays for
        the next run."""
        try:
            self._seat(pool, table_id, plan, now)
            return True
        except ServiceError:
            log.exception("pool %s: table %s cannot be seated; its seeks wait again", pool,
                          table_id)
            self.store.reopen(pool, table_id, plan["seeks"])
            return False

    def _seat(self, pool: str, table_id: str, plan: dict, now: float) -> None:
        found = self.storage.friends.players(plan["players"])
        players = [Player(player_id, *found.get(player_id, ("A player", False, None))[:2])
                   for player_id in plan["players"]]
        self.seating.seat_table(table_id, plan["type"], json.loads(plan["options"] or "{}"),
                                plan["pace"], plan["rated"], players, plan["bots"],
                                plan["bot_level"])
        before = self.store.partners(pool, plan["players"])
        partners = {player_id: ([[mate for mate in plan["players"] if mate != player_id]]
                                + before.get(player_id, []))[:RECENT_TABLES]
                    for player_id in plan["players"]}
        self.store.settle(pool, table_id, plan["seeks"], now, partners)
        for player_id, seek_id in zip(plan["players"], plan["seeks"]):
            self.store.uncount(player_id, [seek_id])

    def sweep(self) -> int:
        """Queue the pairing of each pool that holds seeks or an unfinished table, at most once in
        `SWEEP_SECONDS` each; the pools queued."""
        queued = 0
        for pool in POOLS:
            if (self.store.open_count(pool) or self.store.claimed_tables(pool)) and (
                    self.store.mark_swept(pool, SWEEP_SECONDS)):
                self.jobs.pair_seeks(pool)
                queued += 1
        return queued
