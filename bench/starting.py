"""Waiting for the processes a benchmark started."""
from __future__ import annotations

import time
from typing import Callable

import requests


def wait_until_ready(ready: Callable[[], bool], failure: str, seconds: float = 60,
                     pause: float = 0.1) -> None:
    """Until `ready()` holds; a refused or failed request counts as not ready yet."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if ready():
                return
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        time.sleep(pause)
