"""What a `/metrics` scrape costs, and what four scrapers at once do to everybody else.

    python -m bench.metrics_scrape [--before acbfe0f] [--workers 4] [--rounds 4] [--seconds 8]

Serves the API with gunicorn as `make run` does (`gunicorn.conf.py`, `--workers` gevent
processes, one RQ worker sharing the metrics folder), twice on one Redis, one after another:
the tree of `--before` (unpacked with `git archive`) and this tree. For each server it drives
traffic over every GET route of the OpenAPI document (with a player's token and without, so
many routes answer several statuses) and a few games against bots, `--rounds` times, killing
every gunicorn worker between rounds as a crash or a `max_requests` recycle would (gunicorn
starts new ones: the folder holds the files of every process that ever ran). Then it prints
the scrape's size and time (one scraper) and `GET /games/types` p50/p95 alone and while four
scrapers scrape as fast as they are answered, each with the operator's token.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import psutil
import requests

from bench.heavy_reads import free_port, unpack
from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-scrape-token"
LIFTED = {name: "10000000/minute" for name in (
    "act", "create_player", "create_game", "create_game_per_address", "guess_code",
    "guess_code_per_player", "read_record", "read_replay", "read_events",
    "read_history_per_address", "read_lobby", "read_inbox", "read_spec")}


class Server:
    """gunicorn and one RQ worker from `tree`, sharing a fresh metrics folder."""

    def __init__(self, tree: Path, redis_url: str, workers: int):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.metrics_dir = tempfile.mkdtemp(prefix="bench-metrics-")
        env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(self.port),
               "PYTHONPATH": str(tree), "LOG_LEVEL": "WARNING", "WEB_CONCURRENCY": str(workers),
               "PROMETHEUS_MULTIPROC_DIR": self.metrics_dir, "POYTA_METRICS_TOKEN": TOKEN,
               "POYTA_RATE_LIMITS": json.dumps(LIFTED)}
        self.gunicorn = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
             "api.http:create_app()"], cwd=tree, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.worker = subprocess.Popen([sys.executable, "-m", "worker.run"], cwd=tree, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.wait_until_up()

    def wait_until_up(self) -> None:
        for _ in range(300):
            try:
                if requests.get(f"{self.base}/healthz", timeout=5).ok:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer")

    def kill_workers(self) -> None:
        """SIGKILL every gunicorn worker; gunicorn starts as many new ones."""
        for worker in psutil.Process(self.gunicorn.pid).children():
            worker.send_signal(signal.SIGKILL)
        time.sleep(1)
        self.wait_until_up()

    def stop(self) -> None:
        for process in (self.gunicorn, self.worker):
            process.terminate()
        for process in (self.gunicorn, self.worker):
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def drive(base: str) -> Counter:
    """Every GET route with a token and without, and a game against a bot with a bad move."""
    http, seen = requests.Session(), Counter()
    anna = {"Authorization": "Bearer " + http.post(
        f"{base}/api/v1/players", json={"name": "Anna"}).json()["token"]}
    game = http.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]}).json()
    seen[http.post(f"{base}/api/v1/games/{game['id']}/actions", headers=anna,
                   json={"action": {"type": "play", "card": 105}}).status_code] += 1
    spec = http.get(f"{base}/api/openapi.json").json()
    for path, operations in spec["paths"].items():
        if "get" not in operations or "stream" in path:  # a stream answers while it is read
            continue
        for value in (game["id"], "no-such-thing"):
            url = base + re.sub(r"\{[^}]+\}", value, path)
            for headers in (anna, {}):
                try:
                    answer = http.get(url, headers=headers, timeout=10)
                except requests.RequestException:
                    seen["no answer"] += 1
                    continue
                seen[answer.status_code] += 1
                if etag := answer.headers.get("ETag"):
                    seen[http.get(url, headers={**headers, "If-None-Match": etag},
                                  timeout=30).status_code] += 1
    return seen


def scrape(base: str) -> tuple[int, float]:
    started = time.perf_counter()
    answer = requests.get(f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"},
                          timeout=60)
    answer.raise_for_status()
    return len(answer.content), (time.perf_counter() - started) * 1000


def timed_types(base: str, seconds: float) -> list[float]:
    http, times = requests.Session(), []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        http.get(f"{base}/api/v1/games/types", timeout=60).raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
    return times


def percentiles(times: list[float]) -> str:
    cuts = statistics.quantiles(times, n=20)
    return f"p50 {statistics.median(times):7.1f} ms  p95 {cuts[18]:7.1f} ms  (n={len(times)})"


def measure(label: str, tree: Path, redis_url: str, args) -> None:
    server = Server(tree, redis_url, args.workers)
    try:
        statuses = Counter()
        for round_ in range(args.rounds):
            statuses += drive(server.base)
            if round_ < args.rounds - 1:
                server.kill_workers()
        files = len(os.listdir(server.metrics_dir))
        scrapes = [scrape(server.base) for _ in range(10)]
        time.sleep(1.5)  # past any cache of the last scrape
        alone = timed_types(server.base, args.seconds)
        stop, scraped = threading.Event(), Counter()

        def scrape_on() -> None:
            while not stop.is_set():
                scraped[requests.get(f"{server.base}/metrics", timeout=60, headers={
                    "Authorization": f"Bearer {TOKEN}"}).status_code] += 1
        scrapers = [threading.Thread(target=scrape_on) for _ in range(4)]
        for thread in scrapers:
            thread.start()
        busy = timed_types(server.base, args.seconds)
        stop.set()
        for thread in scrapers:
            thread.join()
        print(f"\n== {label}")
        print(f"traffic: {dict(sorted(statuses.items(), key=str))}; "
              f"files in the metrics folder: {files}")
        print(f"scrape: {scrapes[-1][0] / 1024:.0f} KB, "
              f"{statistics.median(ms for _, ms in scrapes):.0f} ms p50 of 10 in a row "
              f"(first {scrapes[0][1]:.0f} ms)")
        print(f"GET /games/types alone:          {percentiles(alone)}")
        print(f"GET /games/types under 4 scrapers: {percentiles(busy)}; "
              f"scrapes answered {dict(scraped)}")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="acbfe0f")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8)
    args = parser.parse_args()
    with bench_redis_url() as redis_url:
        measure(f"before ({args.before})", unpack(args.before), redis_url, args)
        measure("after (this tree)", ROOT, redis_url, args)


if __name__ == "__main__":
    main()
