"""`/metrics` (Prometheus) and the request timings every answer records.

The metric objects and the helpers other modules call are `api.telemetry`; this module adds
the request hooks, the queue gauges read at each scrape and the endpoint that sums every
process sharing the metrics folder. The endpoint is the operator's: with a token set
(`POYTA_METRICS_TOKEN`) it answers only a scrape that sends it, `Authorization: Bearer
<token>`; without one, only a server bound to loopback (HOST) answers it, so a server serving
every interface keeps it closed until the operator sets a token. A scrape reads every
process's files, so its body is made at most once a second on a host (concurrent scrapers, on
any of its processes, share it) and the endpoint has a budget (`api.http.budgets`).
"""
from __future__ import annotations

import fcntl
import hmac
import ipaddress
import os
import threading
import time

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from api.http.auth import bearer_token
from api.http.errors import error_response
from api.metrics_folder import merge_dead
from api.storage import connections
from api.storage.jobs import BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE, JobBoard
from api.telemetry import ACTIONS, REQUEST_SECONDS, redis_error, status_class

ACTIONS_ENDPOINT = "games.Actions"
SCRAPE_ENDPOINT = "metrics"
FRESH_SECONDS = 1.0        # a scrape body is served again for this long
SCRAPE_BODY = "scrape.prom"   # in the metrics folder: the last body made
SCRAPE_LOCK = ".scrape.lock"


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


class Scrapes:
    """The exposition of every process, made at most once every FRESH_SECONDS on a host: the
    processes sharing the metrics folder share the last body made, in a file beside the
    samples, and one makes it while the others wait for it."""

    def __init__(self, multiprocess_dir: str | None, scrape_time: CollectorRegistry):
        self.multiprocess_dir = multiprocess_dir
        self.scrape_time = scrape_time
        self.lock = threading.Lock()
        self.body, self.made = b"", float("-inf")
        self.made_count = 0    # bodies this process made

    def body_now(self) -> bytes:
        with self.lock:
            if self.multiprocess_dir:
                return self.shared_body(self.multiprocess_dir)
            if time.monotonic() - self.made >= FRESH_SECONDS:
                self.body, self.made = self.make(), time.monotonic()
            return self.body

    def shared_body(self, folder: str) -> bytes:
        with open(os.path.join(folder, SCRAPE_LOCK), "w") as lock:
            while True:  # waiting in a sleep, so a gevent worker serves its other requests
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    time.sleep(0.01)
            cached = os.path.join(folder, SCRAPE_BODY)
            try:
                if time.time() - os.stat(cached).st_mtime < FRESH_SECONDS:
                    with open(cached, "rb") as body:
                        return body.read()
            except FileNotFoundError:
                pass
            body = self.make()
            with open(cached + ".new", "wb") as fresh:
                fresh.write(body)
            os.replace(cached + ".new", cached)
            return body

    def make(self) -> bytes:
        self.made_count += 1
        if self.multiprocess_dir:
            merge_dead(self.multiprocess_dir)
            processes = CollectorRegistry()
            multiprocess.MultiProcessCollector(processes)
        else:
            processes = REGISTRY
        return generate_latest(processes) + generate_latest(self.scrape_time)


def on_loopback(host: str) -> bool:
    """HOST names only this machine (`localhost`, 127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def init_app(app: Flask, multiprocess_dir: str | None, token: str | None = None,
             host: str = "127.0.0.1",
             queue_names: tuple[str, ...] = (BOT_QUEUE, DEEP_BOT_QUEUE, HEAVY_BOT_QUEUE)) -> None:
    scrape_time = CollectorRegistry(auto_describe=True)
    connection = connections.queue_client(app.config, max_connections=2, socket_timeout=1,
                                          socket_connect_timeout=1)
    scrape_time.register(QueueCollector(JobBoard(connection), queue_names))
    scrapes = app.extensions["poyta_scrapes"] = Scrapes(multiprocess_dir, scrape_time)
    open_without_token = token is None and on_loopback(host)

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
            REQUEST_SECONDS.labels(route, request.method, status_class(response.status_code)
                                   ).observe(time.perf_counter() - started)
            if request.endpoint == ACTIONS_ENDPOINT:
                result = "accepted" if response.status_code < 400 else "refused"
                ACTIONS.labels(result, response.status_code).inc()
        return response

    @app.get("/metrics", endpoint=SCRAPE_ENDPOINT)
    def metrics():
        if not open_without_token and not (token and hmac.compare_digest(
                (bearer_token(request.headers.get("Authorization", "")) or "").encode(),
                token.encode())):
            message = ("the metrics need the operator's token" if token else
                       "the metrics are closed: this server listens beyond loopback and "
                       "POYTA_METRICS_TOKEN is not set")
            return error_response(401, message, {"WWW-Authenticate": "Bearer"})
        return Response(scrapes.body_now(), mimetype=CONTENT_TYPE_LATEST)
