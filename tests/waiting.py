"""Waiting for a condition rather than for a fixed time: the test goes on the moment what it
waits for has happened, and fails saying what never happened."""
from __future__ import annotations

import time
from typing import Callable, TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, seconds: float = 10,
               every: float = 0.02) -> T:
    """`condition()`'s first true answer, asked every `every` seconds for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        answer = condition()
        if answer:
            return answer
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(every)
