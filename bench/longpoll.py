"""How many long-polling clients one server instance holds while it keeps serving others.

    python -m bench.longpoll [--clients 1000] [--worker-class gevent]

Starts one gunicorn instance (one process) on a free port against the Redis in
REDIS_URL (default: an embedded one), parks N clients on
`GET /games/{id}?wait=20` and, while they wait, times ordinary requests against
the same instance's latency with nobody waiting (the in-run baseline). Then it
makes one move and times how long until every parked client has its answer.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests

from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def park(port: int, path: str, headers: dict) -> tuple[int, float]:
    """One raw HTTP/1.1 request; returns its status and when its answer came."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    writer.write("\r\n".join(lines).encode())
    await writer.drain()
    status_line = await reader.readline()
    answered = time.perf_counter()
    await reader.read()
    writer.close()
    return int(status_line.split()[1]), answered


def timed_requests(base: str, count: int) -> list[float | None]:
    """Milliseconds per request; None for one not answered within 2 s."""
    session = requests.Session()
    times = []
    for _ in range(count):
        started = time.perf_counter()
        try:
            session.get(f"{base}/api/v1/games/types", timeout=2).raise_for_status()
            times.append((time.perf_counter() - started) * 1000)
        except requests.RequestException:
            times.append(None)
    return times


def describe(times: list[float | None]) -> str:
    answered = sorted(t for t in times if t is not None)
    if not answered:
        return f"none of {len(times)} answered within 2 s"
    return (f"p50 {statistics.median(answered):6.1f} ms, "
            f"p95 {answered[int(0.95 * (len(answered) - 1))]:6.1f} ms, "
            f"{len(times) - len(answered)} of {len(times)} unanswered within 2 s")


async def run(base: str, port: int, clients: int, wait: int) -> None:
    session = requests.Session()
    anna = {"Authorization": "Bearer " + session.post(
        f"{base}/api/v1/players", json={"name": "Anna"}).json()["token"]}
    bert = {"Authorization": "Bearer " + session.post(
        f"{base}/api/v1/players", json={"name": "Bert"}).json()["token"]}
    game = session.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", "human"], "public": True}).json()
    session.post(f"{base}/api/v1/games/{game['id']}/join", json={}, headers=bert)
    etag = session.get(f"{base}/api/v1/games/{game['id']}").headers["ETag"]

    baseline = await asyncio.to_thread(timed_requests, base, 200)
    parked = [asyncio.create_task(park(port, f"/api/v1/games/{game['id']}?wait={wait}",
                                       {"If-None-Match": etag})) for _ in range(clients)]
    await asyncio.sleep(max(2.0, clients / 500))
    under_load = await asyncio.to_thread(timed_requests, base, 20)
    moved = time.perf_counter()
    try:
        card = session.get(f"{base}/api/v1/games/{game['id']}", headers=bert, timeout=30).json()["hand"][0]
        session.post(f"{base}/api/v1/games/{game['id']}/actions", headers=bert, timeout=30,
                     json={"action": {"type": "play", "card": card}}).raise_for_status()
    except requests.RequestException as error:
        print(f"the move itself failed while clients waited: {error.__class__.__name__}")
    answers = await asyncio.gather(*parked, return_exceptions=True)
    woken = [answered - moved for status, answered in
             (a for a in answers if not isinstance(a, BaseException)) if status == 200]
    failed = len(answers) - len(woken)

    print(f"other requests, nobody waiting:       {describe(baseline)}")
    print(f"other requests, {clients:5d} clients waiting: {describe(under_load)}")
    if woken:
        print(f"after one move: {len(woken)} of {clients} waiting clients answered 200; "
              f"the last after {max(woken) * 1000:.0f} ms; {failed} failed")
    else:
        print(f"after one move: none of {clients} waiting clients answered; {failed} failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--worker-class", default="gevent", choices=["gevent", "gthread"])
    parser.add_argument("--wait", type=int, default=20, help="the long-poll's wait in seconds")
    args = parser.parse_args()

    with bench_redis_url() as redis_url:
        run_with(args, redis_url)


def run_with(args, redis_url: str) -> None:
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--worker-class", args.worker_class, "--threads", "16",
         "--worker-connections", str(args.clients + 100), "--log-level", "warning",
         "api.http:create_app()"], cwd=ROOT, env={**os.environ, "REDIS_URL": redis_url})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                requests.get(f"{base}/api/v1/games/types", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        print(f"one gunicorn process, worker class {args.worker_class}, {args.clients} clients")
        asyncio.run(run(base, port, args.clients, args.wait))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
