"""Prometheus metrics at `/metrics`, summed over every process that shares a metrics folder.

With `PROMETHEUS_MULTIPROC_DIR` set (`make run`, the Dockerfile and the benchmarks set
it), each process (gunicorn's workers, the RQ workers on the same host) writes its
samples to files there, named by pid, and `/metrics` adds them up: prometheus-client's
multiprocess mode. Without it, a process reports only itself.

Other modules record with one-line calls: `bot_decision(game, level)` around a bot's
thinking, `long_poll_held()` around a held request, `redis_error(where)`.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from typing import Iterator

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from rq import Queue

from api import connections
from api.store import BOT_QUEUE, DEEP_BOT_QUEUE

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

REQUEST_SECONDS = Histogram(
    "poyta_http_request_duration_seconds", "Time to answer a request, by route and status "
    "(held long-polls are the routes ending in '?wait')", ["route", "method", "status"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
ACTIONS = Counter("poyta_actions_total", "Actions sent to POST /games/{id}/actions",
                  ["result", "status"])
BOT_DECISION_SECONDS = Histogram(
    "poyta_bot_decision_seconds", "Time a bot thinks about one move", ["game", "level"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5))
LONG_POLLS = Gauge("poyta_long_polls_held", "Requests waiting for a change right now",
                   multiprocess_mode="livesum")
REDIS_ERRORS = Counter("poyta_redis_errors_total", "Redis commands that failed", ["where"])

ACTIONS_ENDPOINT = "games.Actions"


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


class QueueCollector:
    """Jobs waiting, scheduled, running and failed in the bot queues, read at each scrape."""

    STATES = ("queued", "scheduled", "started", "failed")

    def __init__(self, queues: list[Queue]):
        self.queues = queues

    def collect(self):
        family = GaugeMetricFamily("poyta_queue_jobs", "Jobs in the bot queues by state",
                                   labels=["queue", "state"])
        try:
            with self.queues[0].connection.pipeline() as pipe:
                for queue in self.queues:
                    pipe.llen(queue.key)
                    for registry in (queue.scheduled_job_registry, queue.started_job_registry,
                                     queue.failed_job_registry):
                        pipe.zcard(registry.key)
                counts = pipe.execute()
        except connections.UNAVAILABLE:
            redis_error("metrics")
            return
        for index, queue in enumerate(self.queues):
            for state, count in zip(self.STATES, counts[index * 4:index * 4 + 4]):
                family.add_metric([queue.name, state], count)
        yield family


def init_app(app: Flask, queue_names: tuple[str, ...] = (BOT_QUEUE, DEEP_BOT_QUEUE)) -> None:
    scrape_time = CollectorRegistry(auto_describe=True)
    connection = connections.queue_client(app.config, max_connections=2, socket_timeout=1,
                                          socket_connect_timeout=1)
    scrape_time.register(QueueCollector([Queue(name, connection=connection)
                                         for name in queue_names]))

    @app.before_request
    def start_timer():
        g.request_started = time.perf_counter()

    @app.after_request
    def record(response):
        started = g.pop("request_started", None)
        if started is not None:
            route = request.url_rule.rule if request.url_rule else "(no route)"
            if request.args.get("wait", "0") not in ("", "0"):
                route += "?wait"
            REQUEST_SECONDS.labels(route, request.method, response.status_code).observe(
                time.perf_counter() - started)
            if request.endpoint == ACTIONS_ENDPOINT:
                result = "accepted" if response.status_code < 400 else "refused"
                ACTIONS.labels(result, response.status_code).inc()
        return response

    @app.get("/metrics")
    def metrics():
        if MULTIPROCESS:
            processes = CollectorRegistry()
            multiprocess.MultiProcessCollector(processes)
        else:
            processes = REGISTRY
        body = generate_latest(processes) + generate_latest(scrape_time)
        return Response(body, mimetype=CONTENT_TYPE_LATEST)
