"""A seat's turn clock: how long a turn may take, when it falls due, and when its player is
reminded.

A turn gets the game's pace, or with a table time bank what is left of the seat's bank, counted
only in the player's waking time (`api.tables.waking`: their window in their time zone, never
during their vacation unless the game was created without vacations). The deadline is the
instant that much waking time has passed. When a turn ends, the bank keeps the waking time that
was left, plus the time bank's allowance per move, up to its most. When the player's clock
changes during a turn (a vacation, another window), the turn keeps the waking time it had left
and falls due when that has passed on the new clock; a deadline already passed stays passed.

Reminders: when 80% of the turn's time is used, and once more an hour of waking time before the
deadline (when that comes later): never at night.
"""
from __future__ import annotations

from functools import lru_cache

from api.tables.errors import Unprocessable
from api.tables.model import Meta, Seat
from api.tables.waking import DAY, Waking

REMINDED_AT_USED = 0.8
LAST_CALL = 3600.0   # seconds of waking time before the deadline of the second reminder
BANK_PACE = "bank"   # the pace a game with a time bank shows
BANK_LIMITS = {"initial": (3600, 30 * DAY), "per_move": (0, 7 * DAY), "most": (3600, 60 * DAY)}


def checked_bank(bank: dict) -> dict:
    """A table time bank in seconds: what each seat starts with, gets back per move, and may
    hold at most."""
    if set(bank) != set(BANK_LIMITS):
        raise Unprocessable(f"time_bank takes exactly {', '.join(BANK_LIMITS)} (seconds)")
    for name, (low, high) in BANK_LIMITS.items():
        value = bank[name]
        if type(value) is not int or not low <= value <= high:
            raise Unprocessable(f"time_bank.{name} must be whole seconds from {low} to {high}")
    if bank["most"] < bank["initial"]:
        raise Unprocessable("time_bank.most must be at least time_bank.initial")
    return dict(bank)


def waking(seat: Seat) -> Waking:
    return Waking(seat.zone, tuple(seat.window) if seat.window else None, seat.vacation_until)


def start(seat: Seat, meta: Meta, now: float) -> None:
    """The seat's turn begins: its allowance, and the deadline its waking time gives, never
    later than the end of a tournament's round."""
    allowance = seat.bank if meta.time_bank else meta.pace_seconds
    seat.allowance = allowance
    seat.deadline = None if allowance is None else waking(seat).advance(now, allowance)
    round_ends = round_deadline(meta)
    if round_ends is not None and (seat.deadline is None or round_ends < seat.deadline):
        seat.deadline = round_ends
        seat.allowance = max(waking(seat).counted(now, round_ends), 1.0)


def round_deadline(meta: Meta) -> float | None:
    """When the tournament round of the game ends, if it is a tournament's."""
    return meta.tournament.get("deadline") if meta.tournament else None


def end(seat: Seat, meta: Meta, now: float) -> None:
    """The seat's turn is over: what was left of it goes back to the bank."""
    bank = meta.time_bank
    if bank and seat.deadline is not None:
        left = waking(seat).counted(now, seat.deadline)
        seat.bank = min(float(bank["most"]), left + bank["per_move"])
    seat.deadline = seat.allowance = None


def first_bank(meta: Meta) -> float | None:
    return float(meta.time_bank["initial"]) if meta.time_bank else None


def retime(seat: Seat, player_clock: dict, now: float) -> None:
    """The player's clock changed (`player_clock`: the seat's clock fields): a running turn
    keeps the waking time it had left."""
    left = None
    if seat.deadline is not None and seat.deadline > now:
        left = waking(seat).counted(now, seat.deadline)
    for name, value in player_clock.items():
        setattr(seat, name, value)
    if left is not None:
        seat.deadline = waking(seat).advance(now, left)


def reminders(seat: Seat) -> dict[str, float]:
    """The instants the running turn's player is reminded at, by kind."""
    if seat.deadline is None or not seat.allowance:
        return {}
    return dict(_reminders(waking(seat), seat.deadline, seat.allowance))


@lru_cache(maxsize=4096)
def _reminders(clock: Waking, deadline: float, allowance: float) -> tuple:
    """Remembered: every commit and sweep asks again while the turn runs (a 3-day turn in
    waking hours takes about a millisecond to count back)."""
    left_at_reminder = (1 - REMINDED_AT_USED) * allowance
    due = [("used", clock.rewind(deadline, left_at_reminder))]
    if LAST_CALL * clock.rate < left_at_reminder:
        due.append(("last_call", clock.rewind(deadline, LAST_CALL * clock.rate)))
    return tuple(due)


def stretches(seat: Seat, since: float) -> list[tuple[float, float]]:
    """The waking time from `since` to the seat's deadline."""
    if seat.deadline is None:
        return []
    return list(waking(seat).stretches(since, seat.deadline))
