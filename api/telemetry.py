"""Prometheus metrics that every process records: the API's processes and the workers alike.

With `PROMETHEUS_MULTIPROC_DIR` set (`make run`, the Dockerfile and the benchmarks set it), each
process (gunicorn's workers, the RQ workers on the same host) writes its samples to files there,
named by pid, and `/metrics` (`api.http.metrics`) adds them up: prometheus-client's
multiprocess mode. Without it, a process reports only itself.

Other modules record with one-line calls: `bot_decision(game, level)` around a bot's thinking,
`long_poll_held()` around a held request, `redis_error(where)`.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

from prometheus_client import Counter, Gauge, Histogram

# Few buckets: each is a series per route, method and status class, read from every process's
# file at each scrape.
REQUEST_BUCKETS = (0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30)
REQUEST_SECONDS = Histogram(
    "poyta_http_request_duration_seconds", "Time to answer a request, by route and status "
    "class (2xx, 4xx...; held long-polls are the routes ending in '?wait')",
    ["route", "method", "status"], buckets=REQUEST_BUCKETS)
ACTIONS = Counter("poyta_actions_total", "Actions sent to POST /games/{id}/actions",
                  ["result", "status"])
BOT_DECISION_SECONDS = Histogram(
    "poyta_bot_decision_seconds", "Time a bot thinks about one move", ["game", "level"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5))
LONG_POLLS = Gauge("poyta_long_polls_held", "Requests waiting for a change right now",
                   multiprocess_mode="livesum")
REDIS_ERRORS = Counter("poyta_redis_errors_total", "Redis commands that failed", ["where"])


def status_class(status: int) -> str:
    """The label requests are timed under: 200 and 204 are both `2xx`."""
    return f"{status // 100}xx"


@contextmanager
def bot_decision(game: str, level: str) -> Iterator[None]:
    started = time.perf_counter()
    yield
    BOT_DECISION_SECONDS.labels(game, level).observe(time.perf_counter() - started)


@contextmanager
def long_poll_held() -> Iterator[None]:
    LONG_POLLS.inc()
    try:
        yield
    finally:
        LONG_POLLS.dec()


def redis_error(where: str) -> None:
    REDIS_ERRORS.labels(where).inc()
