"""A player's own clock: their time zone and daily waking window, their vacations, the moves
they let play themselves, and their daily digest.

Vacation: a yearly allowance of days (`POYTA_VACATION_DAYS`), taken in whole days from the call
that starts one (at least one, at most `LONGEST_VACATION` in a row); the allowance refills on
each anniversary of joining. Ending a vacation early gives back the whole days not begun.

Each seat of the player keeps the part of this clock its turn clock needs (`Seat.zone`,
`window`, `vacation_until`, `forced`): copied when the player sits down, and at every table of
theirs when they change it, in one commit per game, so their running turns keep the waking time
they had left (`api.tables.turns.retime`) and the other seats see "on vacation until ...".
A game created without vacations keeps its clocks running through them.
"""
from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timedelta, timezone
from typing import Callable

from api.tables import turns
from api.tables.errors import Conflict, NotFound, Unprocessable
from api.tables.games import CAS_ATTEMPTS, Games
from api.tables.model import FINISHED, Meta, Player, StoredGame, iso
from api.tables.waking import (
    DAY, SHORTEST_WINDOW, clock_text, window_length, zone_info, zone_names,
)

LONGEST_VACATION = 14     # days in a row
SEAT_FIELDS = ("zone", "window", "vacation_until", "forced")


@dataclass
class PlayerClock:
    zone: str | None = None
    window: list[int] | None = None     # [start, end] minutes of the local day
    forced: bool = False                # play a seat's only legal action for the player
    preselect: bool = False             # the player may choose cards ahead
    digest_hour: int | None = None      # local hour of the daily digest
    vacation_from: float | None = None
    vacation_until: float | None = None
    vacation_days: int = 0              # the days the last vacation took from the allowance
    year_start: float | None = None     # the allowance year `days_taken` counts in
    days_taken: int = 0

    @classmethod
    def from_text(cls, text: str | None) -> "PlayerClock":
        data = json.loads(text) if text else {}
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})

    def text(self) -> str:
        return json.dumps(asdict(self))

    def on_vacation(self, now: float) -> bool:
        return self.vacation_until is not None and self.vacation_from <= now < self.vacation_until

    def seat_fields(self, meta: Meta, now: float) -> dict:
        """What a seat at a table created with `meta` keeps of this clock."""
        away = meta.vacation and self.on_vacation(now)
        return {"zone": self.zone, "window": self.window,
                "vacation_until": self.vacation_until if away else None, "forced": self.forced}


def allowance_year(joined: float, now: float) -> tuple[float, float]:
    """The start and end of the allowance year `now` is in: from one anniversary of joining to
    the next (29 February's on 28 February in other years)."""
    first = datetime.fromtimestamp(joined, timezone.utc)

    def anniversary(year: int) -> datetime:
        try:
            return first.replace(year=year)
        except ValueError:
            return first.replace(year=year, day=28)
    at = datetime.fromtimestamp(now, timezone.utc)
    start = anniversary(at.year)
    if start > at:
        start = anniversary(at.year - 1)
    return start.timestamp(), anniversary(start.year + 1).timestamp()


def next_digest(clock: PlayerClock, now: float) -> float | None:
    """The next instant after `now` at the player's digest hour, on their wall clock."""
    if clock.digest_hour is None:
        return None
    zone = zone_info(clock.zone)
    local = datetime.fromtimestamp(now, zone)
    day = local.date()
    while True:
        due = datetime(day.year, day.month, day.day, clock.digest_hour, tzinfo=zone).timestamp()
        if due > now:
            return due
        day += timedelta(days=1)


class PlayerClocks:
    def __init__(self, games: Games, days_a_year: int):
        self.games = games
        self.store = games.storage.players
        self.days_a_year = days_a_year

    def get_clock(self, player_id: str) -> PlayerClock:
        return PlayerClock.from_text(self.store.clock(player_id)[0])

    def seat_fields(self, player_id: str, meta: Meta) -> dict:
        return self.get_clock(player_id).seat_fields(meta, self.games.clock.now())

    def describe(self, player: Player) -> dict:
        text, joined = self.store.clock(player.id)
        return self._described(PlayerClock.from_text(text), joined or 0.0)

    def _described(self, clock: PlayerClock, joined: float) -> dict:
        now = self.games.clock.now()
        year_start, refills = allowance_year(joined, now)
        taken = clock.days_taken if clock.year_start == year_start else 0
        return {
            "time_zone": clock.zone,
            "waking": None if clock.window is None else {
                "from": clock_text(clock.window[0]), "to": clock_text(clock.window[1])},
            "forced_moves": clock.forced, "preselect": clock.preselect,
            "digest_hour": clock.digest_hour,
            "vacation": {"until": iso(clock.vacation_until) if clock.on_vacation(now) else None,
                         "days_left": self.days_a_year - taken,
                         "days_a_year": self.days_a_year, "refills": iso(refills)},
        }

    def change(self, player: Player, changes: dict) -> dict:
        """`changes`: any of zone, window ((start, end) minutes, or None: all day), forced,
        preselect, digest_hour."""
        if changes.get("zone") is not None and changes["zone"] not in zone_names():
            raise Unprocessable(f"unknown time zone {changes['zone']!r}: use an IANA name such "
                                "as 'Europe/Helsinki'")
        window = changes.get("window")
        if window is not None:
            length = window_length(window)
            if length < SHORTEST_WINDOW:
                raise Unprocessable(
                    f"waking hours {clock_text(window[0])}-{clock_text(window[1])} last "
                    f"{length / 3600:g} hours; they must last at least "
                    f"{SHORTEST_WINDOW // 3600} (or send null for all day)")
            changes = {**changes, "window": list(window)}

        def apply(clock: PlayerClock, now: float, year: tuple[float, float]) -> None:
            for name, value in changes.items():
                setattr(clock, name, value)
        return self._update(player, apply)

    def start_vacation(self, player: Player, days: int) -> dict:
        if not 1 <= days <= LONGEST_VACATION:
            raise Unprocessable(f"a vacation lasts 1 to {LONGEST_VACATION} whole days, "
                                f"not {days}")

        def start(clock: PlayerClock, now: float, year: tuple[float, float]) -> None:
            if clock.on_vacation(now):
                raise Unprocessable(f"you are on vacation until {iso(clock.vacation_until)}: "
                                    "end it first")
            if clock.year_start != year[0]:
                clock.year_start, clock.days_taken = year[0], 0
            left = self.days_a_year - clock.days_taken
            if days > left:
                raise Unprocessable(f"{days} days is more than the {left} vacation days you "
                                    f"have left until {iso(year[1])[:10]}")
            clock.days_taken += days
            clock.vacation_from, clock.vacation_until = now, now + days * DAY
            clock.vacation_days = days
        return self._update(player, start)

    def end_vacation(self, player: Player) -> dict:
        def end(clock: PlayerClock, now: float, year: tuple[float, float]) -> None:
            if not clock.on_vacation(now):
                raise Unprocessable("you are not on vacation")
            used = max(1, math.ceil((now - clock.vacation_from) / DAY))
            if clock.year_start == year[0]:
                clock.days_taken -= clock.vacation_days - used
            clock.vacation_until, clock.vacation_days = now, used
        return self._update(player, end)

    def _update(self, player: Player,
                change: Callable[[PlayerClock, float, tuple[float, float]], None]) -> dict:
        """Change the player's clock (compare-and-set), then every table of theirs."""
        for _ in range(CAS_ATTEMPTS):
            text, joined = self.store.clock(player.id)
            if joined is None:
                raise NotFound("this player is gone")
            now = self.games.clock.now()
            before, clock = PlayerClock.from_text(text), PlayerClock.from_text(text)
            change(clock, now, allowance_year(joined, now))
            if self.store.set_clock(player.id, text, clock.text()):
                break
        else:
            raise Conflict("your settings are changing elsewhere; try again", "busy")
        if (before.zone, before.digest_hour) != (clock.zone, clock.digest_hour):
            self.games.storage.digests.schedule(player.id, next_digest(clock, now))
        if any(getattr(before, name) != getattr(clock, name)
               for name in ("zone", "window", "forced", "vacation_from", "vacation_until")):
            self._retime_tables(player.id, clock)
        return self._described(clock, joined)

    def _retime_tables(self, player_id: str, clock: PlayerClock) -> None:
        for game_id in self.store.game_ids(player_id):
            stored = self.games.find(game_id)
            if stored is None or stored.status() == FINISHED or stored.seat_of(player_id) is None:
                continue
            if _seat_clock(stored, player_id) != clock.seat_fields(stored.meta,
                                                                   self.games.now(stored)):
                self.games.transact(game_id, self._retime(player_id, clock), stored)

    def _retime(self, player_id: str, clock: PlayerClock) -> Callable[[StoredGame], None]:
        def retime(stored: StoredGame) -> None:
            index = stored.seat_of(player_id)
            if index is not None:  # else the player left meanwhile
                now = self.games.now(stored)
                turns.retime(stored.seats[index], clock.seat_fields(stored.meta, now), now)
        return retime


def _seat_clock(stored: StoredGame, player_id: str) -> dict:
    seat = stored.seats[stored.seat_of(player_id)]
    return {name: getattr(seat, name) for name in SEAT_FIELDS}
