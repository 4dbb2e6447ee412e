"""What eight anonymous readers of a long finished game's record do to everybody else.

    python -m bench.heavy_reads [--before a115101] [--seconds 10] [--readers 8]

Builds the long game of issue 21 (public 6 nimmt! for 10: one human and nine easy bots,
`threshold` as high as the game allows up to 1000, pace none; the human resigns and the bots
play it out, in this process) twice: once as the cap on a game's log ends it (its size is
printed), once with the cap lifted, as the game of the issue was. It serves the second with
gunicorn as `make run` does (its `gunicorn.conf.py`: two gevent workers) and times `GET /games/types` alone and while
`--readers` anonymous clients fetch the game's `/record` as fast as they are answered. Three
servers on the same Redis, one after another:

- before: the tree of `--before` (the last commit without read budgets or the finished-game
  cache), unpacked with `git archive`;
- after, budgets lifted: this tree with the read budgets raised out of reach, so the cache
  alone is measured;
- after: this tree as it runs, budgets and cache.

Printed per server: `/games/types` p50 and p95 alone and under the readers, the ratio of the
p50s, and what the readers got (answers by status, and the record's size and time).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections import Counter
from io import BytesIO
from pathlib import Path

import requests

from api.settings import Settings
from api.storage import connections
from api.tables import Tables
from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent
LIFTED = {name: "1000000/minute" for name in (
    "read_record", "read_replay", "read_events", "read_history_per_address")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def unpack(commit: str) -> Path:
    """The tree of `commit`, in a folder of its own (not a worktree: nothing is checked out)."""
    where = Path(tempfile.mkdtemp(prefix="bench-before-"))
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True,
                             check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    return where


class Server:
    """gunicorn as `make run` starts it, from `tree`."""

    def __init__(self, tree: Path, redis_url: str, extra_env: dict | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(self.port),
               "PYTHONPATH": str(tree), "LOG_LEVEL": "WARNING",
               "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="bench-metrics-"),
               **(extra_env or {})}
        self.process = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py",
             "api.http:create_app()"], cwd=tree, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                requests.get(f"{self.base}/api/v1/games/types", timeout=5)
                return
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(30)


def long_game(base: str, redis_url: str, max_actions: int | None = None) -> tuple[str, int]:
    """The finished game's id and its number of actions; `max_actions` replaces the cap on a
    game's log."""
    http = requests.Session()
    anna = {"Authorization": "Bearer " + http.post(
        f"{base}/api/v1/players", json={"name": "Anna"}).json()["token"]}
    sixnimmt = next(t for t in http.get(f"{base}/api/v1/games/types").json()
                    if t["type"] == "sixnimmt")
    threshold = next(o for o in sixnimmt["options"] if o["name"] == "threshold")
    game = http.post(f"{base}/api/v1/games", headers=anna, json={
        "type": "sixnimmt", "players": 10, "seats": ["human"] + [{"bot": "easy"}] * 9,
        "pace": "none", "public": True,
        "options": {"threshold": min(1000, threshold.get("maximum") or 1000)}}).json()
    http.post(f"{base}/api/v1/games/{game['id']}/resign", headers=anna).raise_for_status()
    env = {"REDIS_URL": redis_url}
    if max_actions:
        env["POYTA_MAX_GAME_ACTIONS"] = str(max_actions)
    tables = Tables(connections.store_client(env), settings=Settings.from_env(env))
    while tables.bots.play_due(game["id"]):
        pass
    status = http.get(f"{base}/api/v1/games/{game['id']}").json()["status"]
    assert status == "finished", status
    return game["id"], len(tables.storage.games.actions(game["id"]))


def timed_types(base: str, seconds: float) -> list[float]:
    """Milliseconds per `GET /games/types`, one after another for `seconds`."""
    http, times = requests.Session(), []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        http.get(f"{base}/api/v1/games/types", timeout=30).raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
    return times


def read_records(base: str, game_id: str, stop: threading.Event, seen: Counter,
                 record_ms: list[float], sizes: list[int]) -> None:
    http = requests.Session()
    while not stop.is_set():
        started = time.perf_counter()
        answer = http.get(f"{base}/api/v1/games/{game_id}/record", timeout=30)
        seen[answer.status_code] += 1
        if answer.status_code == 200:
            record_ms.append((time.perf_counter() - started) * 1000)
            sizes.append(len(answer.content))


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[int(0.95 * (len(ordered) - 1))]


def measure(name: str, server: Server, game_id: str, seconds: float, readers: int) -> None:
    alone = timed_types(server.base, seconds)
    stop, seen, record_ms, sizes = threading.Event(), Counter(), [], []
    threads = [threading.Thread(target=read_records,
                                args=(server.base, game_id, stop, seen, record_ms, sizes))
               for _ in range(readers)]
    for thread in threads:
        thread.start()
    loaded = timed_types(server.base, seconds)
    stop.set()
    for thread in threads:
        thread.join()
    ratio = statistics.median(loaded) / statistics.median(alone)
    print(f"{name}:")
    print(f"  /games/types alone:           p50 {statistics.median(alone):7.1f} ms, "
          f"p95 {p95(alone):7.1f} ms ({len(alone)} requests)")
    print(f"  /games/types with {readers} readers: p50 {statistics.median(loaded):7.1f} ms, "
          f"p95 {p95(loaded):7.1f} ms ({len(loaded)} requests); p50 ratio {ratio:.1f}x")
    record = (f"; a 200 took p50 {statistics.median(record_ms):.1f} ms and held "
              f"{max(sizes) // 1024} KB") if record_ms else ""
    print(f"  the readers got {dict(sorted(seen.items()))}{record}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="a115101",
                        help="the commit to measure as before (no read budgets, no cache)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--readers", type=int, default=8)
    args = parser.parse_args()
    with bench_redis_url() as redis_url:
        builder = Server(ROOT, redis_url)
        games = Tables(connections.store_client({"REDIS_URL": redis_url})).storage.games
        try:
            for name, cap in (("the game as the cap on a log ends it", None),
                              ("the game without the cap (read below)", 10 ** 6)):
                started = time.monotonic()
                game_id, actions = long_game(builder.base, redis_url, cap)
                print(f"{name}: {actions} actions, built in {time.monotonic() - started:.0f} s;"
                      f" its hash keeps {games.sizes(game_id)['hash']:,} bytes in Redis")
        finally:
            builder.stop()
        before = unpack(args.before)
        for name, tree, env in (
                (f"before ({args.before})", before, {}),
                ("after, read budgets lifted (the cache alone)", ROOT,
                 {"POYTA_RATE_LIMITS": json.dumps(LIFTED)}),
                ("after (budgets and cache)", ROOT, {})):
            server = Server(tree, redis_url, env)
            try:
                measure(name, server, game_id, args.seconds, args.readers)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
