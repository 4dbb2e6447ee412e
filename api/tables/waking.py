"""When a player's time runs: inside their daily waking window, in their own time zone, and
never before their vacation ends.

A window is read on the wall clock: an instant counts when the player's local time of day lies
from its start up to (not including) its end, so a window may cross midnight (22:00-06:00),
and on the nights the clocks change (`zoneinfo`) it is as long as the wall clock says: an hour
shorter when the clocks skip one inside it, an hour longer when they repeat one. No window
means all day.

Time is counted in days of the player's own: a whole window counts as a day (`Waking.rate`
counted seconds per waking second), so a one-day pace is one waking day, whatever its length,
and a player's waking hours never give them more time than a player without.

The arithmetic walks the time between two instants in stretches of one UTC offset each (found
by probing the zone every hour and bisecting to the second where the offset changes); in a
stretch, local time is UTC plus the offset, so the windows are found by plain arithmetic.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from typing import Iterator
from zoneinfo import ZoneInfo, available_timezones

DAY = 86400
EPSILON = 1e-6        # seconds: float rounding, never a real difference
PROBE = 3600          # seconds between looks at a zone's offset: no zone changes it twice within
SHORTEST_WINDOW = 6 * 3600
DST_SHIFT = 7200      # the most a change of clocks takes from one window (a margin for rewinding)


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    return frozenset(available_timezones())


@lru_cache(maxsize=512)
def zone_info(name: str | None) -> ZoneInfo:
    """The zone of that name; None: UTC."""
    return ZoneInfo(name or "UTC")


def _offset(zone: ZoneInfo, instant: float) -> int:
    return int(datetime.fromtimestamp(instant, timezone.utc).astimezone(zone)
               .utcoffset().total_seconds())


def minutes(text: str) -> int:
    """'08:30' -> 510."""
    hours, _, mins = text.partition(":")
    return int(hours) * 60 + int(mins)


def clock_text(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def window_length(window: tuple[int, int]) -> int:
    """Seconds a window lasts on the wall clock; a window that ends before it starts crosses
    midnight."""
    start, end = window
    return ((end - start) % 1440) * 60


@dataclass(frozen=True)
class Waking:
    zone: str | None = None                # an IANA name; None: UTC
    window: tuple[int, int] | None = None  # (start, end) minutes of the local day; None: all day
    away_until: float | None = None        # nothing counts before this instant (a vacation)

    def stretches(self, start: float, end: float | None = None) -> Iterator[tuple[float, float]]:
        """The counted time from `start` (to `end`, or on and on) as (from, to) instants."""
        if self.away_until is not None:
            start = max(start, self.away_until)
        if end is not None and end <= start:
            return
        if self.window is None:
            yield start, math.inf if end is None else end
            return
        zone = zone_info(self.zone)
        begin, length = self.window[0] * 60, window_length(self.window)
        pending = None
        for first, last, offset in _segments(zone, start, end):
            # Windows in this stretch of one offset start at k * DAY + begin - offset.
            k = math.floor((first - begin + offset - length) / DAY) + 1
            while (opens := k * DAY + begin - offset) < last:
                a, b = max(opens, first), min(opens + length, last)
                if a < b:
                    if pending and pending[1] == a:  # one window across two offsets
                        pending = (pending[0], b)
                    else:
                        if pending:
                            yield pending
                        pending = (a, b)
                k += 1
            if pending and pending[1] < last:
                yield pending
                pending = None
        if pending:
            yield pending

    @property
    def rate(self) -> float:
        """Counted seconds per second of waking time: a whole window counts a day."""
        return 1.0 if self.window is None else DAY / window_length(self.window)

    def awake(self, start: float, end: float) -> float:
        """Seconds of waking time from `start` to `end`."""
        return sum(b - a for a, b in self.stretches(start, end))

    def counted(self, start: float, end: float) -> float:
        return self.rate * self.awake(start, end)

    def advance(self, start: float, seconds: float) -> float:
        """The first instant at which `seconds` have counted since `start`: always inside
        waking time, so never at night."""
        left = self._waking_time(seconds)
        for a, b in self.stretches(start):
            # Within a microsecond of a window's end is that end: float rounding must not
            # carry a deadline to the next morning.
            if left <= b - a + EPSILON:
                return float(min(a + left, b))
            left -= b - a
        raise AssertionError("unreachable: every day has a window")

    def rewind(self, end: float, seconds: float) -> float:
        """The last instant from which `seconds` count until `end` (the earliest counted
        instant when fewer count)."""
        left = self._waking_time(seconds)
        found = list(self.stretches(end - self._wall_time_for(left), end))
        for a, b in reversed(found):
            if left <= b - a + EPSILON:
                return float(max(b - left, a))
            left -= b - a
        return found[0][0] if found else end

    def _waking_time(self, seconds: float) -> float:
        """The waking time that counts `seconds`."""
        if self.window is None:
            return max(seconds, 0.0)
        return max(seconds, 0.0) * window_length(self.window) / DAY

    def _wall_time_for(self, seconds: float) -> float:
        """At least the wall-clock time holding `seconds` of waking time."""
        if self.window is None:
            return seconds + 1
        waking = max(window_length(self.window) - DST_SHIFT, 1)
        return (seconds / waking + 2) * DAY

    def is_awake(self, instant: float) -> bool:
        return any(True for _ in self.stretches(instant, instant + 1e-3))


def _segments(zone: ZoneInfo, start: float, end: float | None
              ) -> Iterator[tuple[float, float, int]]:
    """(from, to, UTC offset) for the time from `start`, each stretch of one offset, at most
    PROBE long."""
    at, offset = start, _offset(zone, start)
    while end is None or at < end:
        probe = at + PROBE if end is None else min(at + PROBE, end)
        after = _offset(zone, probe)
        if after != offset:
            probe = _change(zone, at, probe, offset)
            after = _offset(zone, probe)
        yield at, probe, offset
        at, offset = probe, after


def _change(zone: ZoneInfo, low: float, high: float, offset: int) -> float:
    """The first instant after `low`, at most `high`, where the offset is no longer `offset`:
    zones change on whole seconds, so the one whole second left between the two."""
    while high - low >= 0.5:
        middle = (low + high) / 2
        if _offset(zone, middle) == offset:
            low = middle
        else:
            high = middle
    return float(math.floor(low) + 1)
