"""gunicorn reads this file: `make run`, the Dockerfile and the benchmarks (`-c gunicorn.conf.py`).

HOST and PORT choose the address (default 127.0.0.1:8000: only this machine;
HOST=0.0.0.0 serves every interface). Each server keeps its control socket
beside its port, so two servers on one machine never share one. Errors that
gunicorn answers itself (a request line over 4 KB: 414, headers too large:
431, a malformed request: 400) come in the API's JSON error shape, not HTML.
Nothing from `api` is imported here: this file is read by gunicorn's master
before the gevent workers patch the standard library.

gunicorn's own lines name the process that wrote them, also in a worker where the API's
logging has stopped records from gathering their process id.

Metrics: every worker process writes its samples to PROMETHEUS_MULTIPROC_DIR (a fresh
folder unless the caller shares one with its RQ workers), and a worker that exits
takes its live gauges (long-polls held) with it; the next scrape folds its counters into the
folder's archive (`api.metrics_folder`).
"""
from __future__ import annotations

import json
import os
import tempfile
from http import HTTPStatus

from gunicorn import glogging, util
from prometheus_client import multiprocess

if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="poyta-metrics-")

host = os.environ.get("HOST", "127.0.0.1")
port = os.environ.get("PORT", "8000")
bind = f"{host}:{port}"
# gevent: one process holds thousands of waiting long-polls.
worker_class = "gevent"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
# Each open stream (`GET /api/v1/stream`) is a connection for as long as its client lives.
worker_connections = int(os.environ.get("WORKER_CONNECTIONS", "12000"))
control_socket = os.path.join(os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir(),
                              f"poyta-gunicorn-{host}-{port}.ctl")


def stamp_process(record) -> bool:
    if record.process is None:
        record.process = os.getpid()
    return True


class Logger(glogging.Logger):
    def setup(self, cfg):
        super().setup(cfg)
        self.error_log.addFilter(stamp_process)


logger_class = Logger


def child_exit(server, worker):
    multiprocess.mark_process_dead(worker.pid)


def write_json_error(sock, status_int: int, reason: str, message: str) -> None:
    payload = json.dumps({"code": status_int, "status": HTTPStatus(status_int).phrase,
                          "message": message or reason}).encode()
    head = [f"HTTP/1.1 {status_int} {reason}", "Connection: close",
            "Content-Type: application/json", f"Content-Length: {len(payload)}",
            "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'",
            "X-Content-Type-Options: nosniff", "Referrer-Policy: no-referrer"]
    util.write_nonblock(sock, ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)


util.write_error = write_json_error
