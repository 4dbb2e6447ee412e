"""gunicorn reads this file from the working folder: `make run`, the Dockerfile and the benchmarks.

Metrics: every worker process writes its samples to PROMETHEUS_MULTIPROC_DIR (a fresh
folder unless the caller shares one with its RQ workers), and a worker that exits
takes its live gauges (long-polls held) with it.
"""
import os
import tempfile

from prometheus_client import multiprocess

if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="poyta-metrics-")


def child_exit(server, worker):
    multiprocess.mark_process_dead(worker.pid)
