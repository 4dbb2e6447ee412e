"""Named fault points: the places where a test has a process die as a crash would, to prove that
nothing is lost when a process dies there.

Every point is inert unless the environment's `POYTA_TEST_FAULTS` arms it, which only tests do:
`after_commit` dies at the first time the point is reached, `after_rating_update=2` at the
second. The process is killed outright (no `finally`, no clean-up, no flush), as the kernel or an
operator would kill it.
"""
from __future__ import annotations

import os
import signal

FAULTS = "POYTA_TEST_FAULTS"
# A commit is stored, and nothing that follows from it (jobs, notices, webhooks) has happened.
AFTER_COMMIT = "after_commit"
# A finished game's result is recorded for some of its players and not yet for the others.
AFTER_RATING_UPDATE = "after_rating_update"
# A finished game is in PostgreSQL, and its outbox entry still in Redis.
AFTER_ARCHIVE_INSERT = "after_archive_insert"
POINTS = frozenset({AFTER_COMMIT, AFTER_RATING_UPDATE, AFTER_ARCHIVE_INSERT})


def armed(point: str, at: int = 1) -> dict[str, str]:
    """The environment that arms `point` to kill its process the `at`-th time it is reached."""
    if point not in POINTS:
        raise ValueError(f"no fault point {point!r}")
    return {FAULTS: f"{point}={at}"}


def _parse(text: str) -> dict[str, int]:
    counts = {}
    for entry in filter(None, (part.strip() for part in text.split(","))):
        point, _, at = entry.partition("=")
        if point not in POINTS:
            raise ValueError(f"{FAULTS}: no fault point {point!r}")
        counts[point] = int(at or 1)
    return counts


_left = _parse(os.environ.get(FAULTS, ""))


def reach(point: str) -> None:
    """The process passes `point`: it dies here if a test armed the point for this passage."""
    if point not in _left:
        return
    _left[point] -= 1
    if _left[point] == 0:
        os.kill(os.getpid(), signal.SIGKILL)
