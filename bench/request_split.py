"""Where a request's CPU goes under load: the API's gunicorn workers and Redis, per request.

    python -m bench.request_split [--seconds 5] [--baseline DIR]

Serves the API as `bench.storage` does (gunicorn, 2 gevent workers, one RQ worker) and the bare
endpoint of `bench.bare_flask`, drives each request of `bench.storage`'s throughput part with
wrk, and reads the CPU seconds the server's worker processes and the Redis server used from
/proc: CPU microseconds per answered request, and the share of the bare endpoint's. Unlike a
rate, that share does not move with what else the machine runs. With `--baseline DIR`, another
checkout (e.g. a worktree at an earlier commit) is measured the same way first, in the same run.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from bench import storage
from bench.redis_for_bench import bench_redis_url


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_of(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(child) for child in found.split()]


def redis_server(url: str) -> list[int]:
    port = url.rsplit(":", 1)[1].split("/")[0]
    found = subprocess.run(["pgrep", "-f", f"valkey-server.*:{port}"], capture_output=True,
                           text=True).stdout
    return [int(pid) for pid in found.split()]


def measure(code: Path, seconds: int) -> dict[str, tuple[float, float, float]]:
    """Per request: (rate, µs in the server's workers, µs in Redis)."""
    with bench_redis_url() as url:
        env = {**os.environ, "REDIS_URL": url, "PYTHONPATH": str(code),
               "POYTA_RATE_LIMITS": json.dumps({name: "10000000/minute" for name in (
                   "act", "create_player", "create_game_per_address", "guess_code")})}
        worker = subprocess.Popen([str(storage.BIN / "rq"), "worker", "bots", "--url", url,
                                   "--worker-class", "rq.SimpleWorker", "--quiet"],
                                  cwd=code, env=env)
        api, base = storage.serve("api.http:create_app()", code, env)
        bare_server, bare = storage.serve("bench.bare_flask:app", storage.ROOT, {**os.environ})
        redis_pids = redis_server(url)
        try:
            anna = storage.Client(base, "Anna")
            game = anna.post("/games", {"type": "sixnimmt", "players": 4,
                                        "seats": ["human"] + [{"bot": "easy"}] * 3}).json()
            anna.wait_until(game["id"], lambda view: view["to_act"] == [0])
            etag = anna.get(f"/games/{game['id']}").headers["ETag"]
            games = []
            for _ in range(storage.ACTION_GAMES):
                chooser, choice_game, cards = storage.changing_choice_game(base)
                games.append(f'{{"{storage.API}/games/{choice_game}/actions", '
                             f'"{chooser.headers["Authorization"]}", {cards[0]}, {cards[1]}}}')
            with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
                script.write(storage.WRK_ACTIONS % ", ".join(games))
            view = f"{base}{storage.API}/games/{game['id']}"
            runs = {
                "bare Flask endpoint": (bare_server, lambda: storage.wrk(bare + "/", seconds)),
                "304 poll": (api, lambda: storage.wrk(view, seconds, {
                    **anna.headers, "If-None-Match": etag})),
                "seated view": (api, lambda: storage.wrk(view, seconds, anna.headers)),
                "accepted action (changed choice)": (
                    api, lambda: storage.wrk(base, seconds, script=script.name)),
            }
            found = {}
            for name, (server, run) in runs.items():
                pids = workers_of(server.pid)
                before = sum(map(cpu_seconds, pids)), sum(map(cpu_seconds, redis_pids))
                started = time.monotonic()
                rate = run()
                answered = rate * (time.monotonic() - started)
                after = sum(map(cpu_seconds, pids)), sum(map(cpu_seconds, redis_pids))
                found[name] = (rate, (after[0] - before[0]) / answered * 1e6,
                               (after[1] - before[1]) / answered * 1e6)
            os.unlink(script.name)
            return found
        finally:
            for process in (api, bare_server, worker):
                process.terminate()
                process.wait()


def show(label: str, found: dict[str, tuple[float, float, float]]) -> None:
    bare = found["bare Flask endpoint"][1]
    print(f"\n{label}")
    for name, (rate, server, redis) in found.items():
        print(f"  {name:<34}{rate:>7.0f} req/s  server {server:6.0f} µs  redis {redis:4.0f} µs"
              f"  bare/server {bare / server:6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=5, help="per wrk run")
    parser.add_argument("--baseline", type=Path, help="another checkout, measured first")
    args = parser.parse_args()
    print("CPU per answered request under wrk -c32 (gunicorn, 2 gevent workers); "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    if args.baseline:
        show(f"baseline: {args.baseline.resolve()}", measure(args.baseline.resolve(),
                                                              args.seconds))
    show(f"this checkout: {storage.ROOT}", measure(storage.ROOT, args.seconds))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
