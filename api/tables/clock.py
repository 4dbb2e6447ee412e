"""The time every timing rule reads: the system's clock, or in tests a clock the test moves.

Deadlines, waking windows, vacations, reminders and the sweeper all ask `Clock.now()`, never
`time.time()`, so a test passes days in a moment and never sleeps. The test clock is a file
holding the current instant (seconds since the epoch), named by the setting
`POYTA_TEST_CLOCK`, so the API, the test's own jobs and a worker process all read one time.
The thinking time of bots and the protocols' own clocks (a push's VAPID expiry) stay on the
wall clock: they are not rules of the game.
"""
from __future__ import annotations

import os
import time
from pathlib import Path


class Clock:
    def now(self) -> float:
        return time.time()


class FileClock(Clock):
    """A test's clock: whatever instant its file holds."""

    def __init__(self, path: str):
        self.path = Path(path)

    def now(self) -> float:
        return float(self.path.read_text())

    def set(self, instant: float) -> None:
        """Written whole then renamed, so a reader never sees half a number."""
        fresh = self.path.with_name(f"{self.path.name}.{os.getpid()}")
        fresh.write_text(repr(float(instant)))
        fresh.replace(self.path)

    def advance(self, seconds: float) -> float:
        self.set(self.now() + seconds)
        return self.now()


def clock_for(test_clock: str | None) -> Clock:
    return FileClock(test_clock) if test_clock else Clock()
