"""`/metrics` (Prometheus) and the request timings every answer records.

The metric objects and the helpers other modules call are `api.telemetry`; this module adds
the request hooks, the queue gauges read at each scrape and the endpoint that sums every
process sharing the metrics folder. With a token set (`POYTA_METRICS_TOKEN`), the endpoint
answers only a scrape that sends it, `Authorization: Bearer <token>`: its 170 KB of route
timings and queue depths are for the operator, and a scrape costs tens of milliseconds.
"""
from __future__ import annotations

import hmac
import time

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from api.http.auth import bearer_token
from api.http.errors import error_response
from api.storage import connections
from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, JobBoard
from api.telemetry import ACTIONS, REQUEST_SECONDS, redis_error

ACTIONS_ENDPOINT = "games.Actions"


class QueueCollector:
    """Jobs waiting, scheduled, running and failed in the bot queues, read at each scrape."""

    def __init__(self, jobs: JobBoard, queue_names: tuple[str, ...]):
        self.jobs = jobs
        self.queue_names = queue_names

    def collect(self):
        family = GaugeMetricFamily("poyta_queue_jobs", "Jobs in the bot queues by state",
                                   labels=["queue", "state"])
        try:
            counts = self.jobs.counts(self.queue_names)
        except connections.UNAVAILABLE:
            redis_error("metrics")
            return
        for queue, states in counts.items():
            for state, count in states.items():
                family.add_metric([queue, state], count)
        yield family


def init_app(app: Flask, multiprocess_dir: str | None, token: str | None = None,
             queue_names: tuple[str, ...] = (BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE)) -> None:
    scrape_time = CollectorRegistry(auto_describe=True)
    connection = connections.queue_client(app.config, max_connections=2, socket_timeout=1,
                                          socket_connect_timeout=1)
    scrape_time.register(QueueCollector(JobBoard(connection), queue_names))

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
        if token and not hmac.compare_digest(
                (bearer_token(request.headers.get("Authorization", "")) or "").encode(),
                token.encode()):
            return error_response(401, "the metrics need the operator's token",
                                  {"WWW-Authenticate": "Bearer"})
        if multiprocess_dir:
            processes = CollectorRegistry()
            multiprocess.MultiProcessCollector(processes)
        else:
            processes = REGISTRY
        body = generate_latest(processes) + generate_latest(scrape_time)
        return Response(body, mimetype=CONTENT_TYPE_LATEST)
