"""The storage core measured: throughput beside a bare Flask endpoint, Redis commands per
request, bytes per game, and a client changing its secret choice as fast as it can.

    apt-get install -y wrk        # once: the HTTP load generator
    python -m bench.storage [--seconds 10] [--spam-seconds 60] [--code DIR]

Everything runs over HTTP against gunicorn with the settings `make run` uses (gevent, 2 workers,
2000 connections), beside `bench.bare_flask` under the same settings, in one run; one RQ worker
moves the bots. Prints requests/s (wrk, 32 connections) and the ratio to the bare endpoint; the
p99 of an accepted action (a changed choice) when sent at half its peak rate; the commands each
request sends to Redis (counted with MONITOR: a script counts one, RQ's commands and a new
connection's handshake are left out); the largest game state seen in play and the bytes a
finished 4-player game keeps in Redis, per game type; the queue length and Redis memory during
`--spam-seconds` of changed choices.

`--code DIR` serves another checkout (e.g. `/work/main`) to measure a baseline the same way.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
from redis import Redis

from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GUNICORN = ["--worker-class", "gevent", "--workers", "2", "--worker-connections", "2000"]
API = "/api/v1"
ROUNDS = 3
SIZED_PLAYERS = 4  # the table whose bytes are measured, or the nearest a game seats


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(app: str, cwd: Path, env: dict) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen([str(BIN / "gunicorn"), "--bind", f"127.0.0.1:{port}", *GUNICORN,
                                "--log-level", "warning", app], cwd=cwd, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            requests.get(base + "/", timeout=1)
            return process, base
        except requests.RequestException:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError(f"{app} did not start")


class Client:
    def __init__(self, base: str, name: str):
        self.base, self.session = base, requests.Session()
        token = self.session.post(f"{base}{API}/players", json={"name": name}).json()["token"]
        self.headers = {"Authorization": f"Bearer {token}"}

    def get(self, path: str, **headers) -> requests.Response:
        return self.session.get(self.base + API + path, headers={**self.headers, **headers})

    def post(self, path: str, body: dict) -> requests.Response:
        return self.session.post(self.base + API + path, json=body, headers=self.headers)

    def wait_until(self, game_id: str, test, seconds: float = 60) -> dict:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            view = self.get(f"/games/{game_id}").json()
            if test(view):
                return view
            time.sleep(0.02)
        raise RuntimeError(f"game {game_id}: waited {seconds} s in vain")


# --- commands per request ---------------------------------------------------------------------
class Monitor:
    """Counts what the server receives, outside scripts, RQ's keys and connection handshakes."""

    # INFO: not sent by the API (the embedded server's own probes).
    SKIP = {"MULTI", "EXEC", "HELLO", "CLIENT", "AUTH", "SELECT", "PING", "MONITOR", "INFO"}

    def __init__(self, url: str):
        self.lines: list[str] = []
        self.redis = Redis.from_url(url)
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.3)

    def _read(self) -> None:
        while True:  # a quiet MONITOR connection times out: open another
            try:
                with self.redis.monitor() as monitor:
                    while True:
                        self.lines.append(monitor.next_command())
            except Exception:
                time.sleep(0.05)

    def count(self, work) -> list[str]:
        self.mark = len(self.lines)
        work()
        time.sleep(0.3)
        seen = []
        for entry in self.lines[self.mark:]:
            if entry.get("client_type") == "lua" or "[0 lua]" in entry.get("client_address", ""):
                continue
            words = entry["command"].split()
            if not words or words[0].upper() in self.SKIP:
                continue
            if any(word.strip('"').startswith("rq:") for word in words[1:]):
                continue
            seen.append(words[0].upper())
        return seen


def count_commands(url: str, base: str, stop_worker) -> dict[str, list[str]]:
    monitor = Monitor(url)
    anna = Client(base, "Anna")
    game = anna.post("/games", {"type": "sixnimmt", "players": 2,
                                "seats": ["human", {"bot": "easy"}], "pace": "1d"}).json()
    game_id = game["id"]
    view = anna.wait_until(game_id, lambda v: v["seats"][1]["to_act"] is False)
    etag = anna.get(f"/games/{game_id}").headers["ETag"]
    for _ in range(3):  # warm both gunicorn processes: scripts loaded, token cached
        anna.get(f"/games/{game_id}", **{"If-None-Match": etag})
        anna.get(f"/games/{game_id}/events")
    def after_warming(work) -> list[str]:
        """As in a burst of requests: the process saw the token just before (else +1, its
        lookup; MONITOR's lines of that request arrive before the count starts)."""
        anna.get(f"/games/{game_id}", **{"If-None-Match": etag})
        time.sleep(0.3)
        return monitor.count(work)

    counts = {
        "304 poll": after_warming(lambda: anna.get(f"/games/{game_id}", **{"If-None-Match": etag})),
        "seated view": after_warming(lambda: anna.get(f"/games/{game_id}")),
        "GET /events": after_warming(lambda: anna.get(f"/games/{game_id}/events?after=0")),
    }
    card = {"type": "play", "card": max(view["hand"])}  # the highest takes no row: the bot is next
    stop_worker()  # so that only the API's commands are counted
    counts["accepted action, a bot next"] = after_warming(
        lambda: anna.post(f"/games/{game_id}/actions", {"action": card}))
    return counts


# --- throughput ----------------------------------------------------------------------------------
def wrk(url: str, seconds: int, headers: dict | None = None, script: str | None = None) -> float:
    command = ["wrk", "-t2", "-c32", f"-d{seconds}s"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script:
        command += ["-s", script]
    out = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non_2xx:  # counted out: only answers that did what was asked make the rate
        print(f"  ({non_2xx.group(1)} of {total} answers not 2xx/3xx for {url})")
        rate *= 1 - int(non_2xx.group(1)) / total
    return rate


def changing_choice_game(base: str) -> tuple[Client, str, list[int]]:
    """Anna has chosen and Bert never will: each of Anna's plays replaces her choice."""
    anna, bert = Client(base, "Anna"), Client(base, "Bert")
    game = anna.post("/games", {"type": "sixnimmt", "players": 3,
                                "seats": ["human", "human", {"bot": "easy"}]}).json()
    bert.post(f"/games/invites/{game['invites'][0]['code']}", {})
    view = anna.wait_until(game["id"], lambda v: v["seats"][2]["to_act"] is False)
    anna.post(f"/games/{game['id']}/actions", {"action": {"type": "play", "card": view["hand"][0]}})
    return anna, game["id"], view["hand"][1:3]


# Each request changes the choice in the next of several games, each of wrk's threads in its
# own half of them, so that concurrent requests seldom meet on one game (when two do, the later
# is refused with 409, as a client changing one game from two places would be).
WRK_ACTIONS = """
local games = {%s}
local threads = 0
setup = function(thread)
  thread:set("half", threads)
  threads = threads + 1
end
local n = 0
request = function()
  n = n + 1
  local game = games[n %% (#games / 2) + 1 + half * #games / 2]
  local card = game[3 + math.floor(n / (#games / 2)) %% 2]
  return wrk.format("POST", game[1], {["Content-Type"] = "application/json",
                                      ["Authorization"] = game[2]},
                    '{"action": {"type": "play", "card": ' .. card .. '}}')
end
"""
ACTION_GAMES = 64


def throughput(base: str, bare: str, seconds: int) -> dict[str, tuple[float, float]]:
    anna = Client(base, "Anna")
    game = anna.post("/games", {"type": "sixnimmt", "players": 4,
                                "seats": ["human"] + [{"bot": "easy"}] * 3}).json()
    anna.wait_until(game["id"], lambda v: v["to_act"] == [0])
    etag = anna.get(f"/games/{game['id']}").headers["ETag"]
    games = []
    for _ in range(ACTION_GAMES):
        chooser, choice_game, cards = changing_choice_game(base)
        games.append(f'{{"{API}/games/{choice_game}/actions", '
                     f'"{chooser.headers["Authorization"]}", {cards[0]}, {cards[1]}}}')
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_ACTIONS % ", ".join(games))
    runs = {
        "GET /games/types (no Redis)": lambda: wrk(f"{base}{API}/games/types", seconds),
        "304 poll": lambda: wrk(f"{base}{API}/games/{game['id']}", seconds,
                                {**anna.headers, "If-None-Match": etag}),
        "seated view": lambda: wrk(f"{base}{API}/games/{game['id']}", seconds, anna.headers),
        "accepted action (changed choice)": lambda: wrk(base, seconds, script=script.name),
    }
    # The bare endpoint is measured right before each run, and each ratio is the median of
    # ROUNDS such pairs: on a busy machine the load drifts between runs.
    found = {}
    for name, run in runs.items():
        pairs = [(wrk(bare + "/", seconds), run()) for _ in range(ROUNDS)]
        found[name] = (statistics.median(rate for _, rate in pairs),
                       statistics.median(rate / reference for reference, rate in pairs))
    os.unlink(script.name)
    return found


def paced_p99(base: str, rate: float, seconds: int) -> tuple[float, float]:
    """p50 and p99 (ms) of accepted actions sent at `rate` per second, timed from when each was
    due, so a slow answer delays the next ones' clocks too (no coordinated omission)."""
    games = [changing_choice_game(base) for _ in range(ACTION_GAMES)]
    sessions = threading.local()
    latencies: list[float] = []

    def send(number: int, due: float) -> None:
        if not hasattr(sessions, "s"):
            sessions.s = requests.Session()
        anna, game_id, cards = games[number % len(games)]
        card = cards[number // len(games) % 2]
        answer = sessions.s.post(f"{base}{API}/games/{game_id}/actions", headers=anna.headers,
                                 json={"action": {"type": "play", "card": card}})
        if answer.status_code == 200:
            latencies.append(time.monotonic() - due)

    start = time.monotonic()
    with ThreadPoolExecutor(64) as pool:
        for number in range(int(rate * seconds)):
            due = start + number / rate
            time.sleep(max(0.0, due - time.monotonic()))
            pool.submit(send, number, due)
    ordered = sorted(latencies)
    return 1000 * statistics.median(ordered), 1000 * ordered[int(0.99 * (len(ordered) - 1))]


# --- sizes -----------------------------------------------------------------------------------------
def game_bytes(redis: Redis, game_id: str) -> tuple[int, int]:
    """(state bytes, bytes of every key of the game in Redis): every key with the game's hash
    tag. RQ's job keys are the queue's, not the game's (in production on a Redis of their own;
    here the notices queue has no worker, so its jobs would pile up and be counted)."""
    total, state = 0, 0
    for key in redis.scan_iter(f"*{{{game_id}}}*"):
        total += redis.memory_usage(key, samples=0) or 0
        if redis.type(key) == b"hash" and redis.hexists(key, "state"):
            state = redis.hstrlen(key, "state")
    return state, total


def sizes(url: str, base: str) -> dict[str, tuple[int, int, int]]:
    """Per game type the server plays: largest state seen in play, state and Redis bytes once
    finished."""
    redis = Redis.from_url(url)
    anna = Client(base, "Anna")
    rng = random.Random(7)
    found = {}
    for described in anna.get("/games/types").json():
        players = min(max(SIZED_PLAYERS, described["min_players"]), described["max_players"])
        game = anna.post("/games", {"type": described["type"], "players": players, "pace": "none",
                                    "seats": ["human"] + [{"bot": "easy"}] * (players - 1)}).json()
        largest = 0
        while True:
            view = anna.wait_until(game["id"], lambda v: v["legal_actions"] or v["status"] == "finished")
            largest = max(largest, game_bytes(redis, game["id"])[0])
            if view["status"] == "finished":
                break
            anna.post(f"/games/{game['id']}/actions",
                      {"action": rng.choice(view["legal_actions"]), "version": view["version"]})
        state, total = game_bytes(redis, game["id"])
        found[described["type"]] = (largest, state, total)
    return found


def spam(url: str, base: str, seconds: int) -> tuple[int, int, int, int]:
    """Changed choices as fast as one client can for `seconds`: (actions, longest queue, Redis
    memory growth in bytes, bytes of the game's keys)."""
    redis = Redis.from_url(url)
    anna, game_id, cards = changing_choice_game(base)
    time.sleep(1)
    before = redis.info("memory")["used_memory"]
    longest, sent, end = 0, 0, time.monotonic() + seconds
    while time.monotonic() < end:
        anna.post(f"/games/{game_id}/actions", {"action": {"type": "play", "card": cards[sent % 2]}})
        sent += 1
        if sent % 50 == 0:
            longest = max(longest, redis.llen("rq:queue:bots"))
    grown = redis.info("memory")["used_memory"] - before
    return sent, longest, grown, game_bytes(redis, game_id)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10, help="per wrk run")
    parser.add_argument("--spam-seconds", type=int, default=60)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--parts", default="commands,throughput,sizes,spam")
    args = parser.parse_args()
    with bench_redis_url() as url:
        run(args, url)


def run(args, url: str) -> None:
    Redis.from_url(url).flushdb()
    # One client here stands for many players at one address: the budgets would answer most
    # of its requests with 429 and the bench would measure the limiter.
    env = {**os.environ, "REDIS_URL": url, "PYTHONPATH": str(args.code),
           "POYTA_RATE_LIMITS": json.dumps({name: "10000000/minute" for name in (
               "act", "create_player", "create_game_per_address", "guess_code")})}
    code = args.code.resolve()
    workers = []

    def start_worker() -> None:
        workers.append(subprocess.Popen([str(BIN / "rq"), "worker", "bots", "--url", url,
                                         "--worker-class", "rq.SimpleWorker", "--quiet"],
                                        cwd=code, env=env))

    def stop_worker() -> None:
        workers[-1].terminate()
        workers[-1].wait()

    start_worker()
    servers = []
    try:
        api, base = serve("api.http:create_app()", code, env)
        servers.append(api)
        bare_server, bare = serve("bench.bare_flask:app", ROOT, {**os.environ})
        servers.append(bare_server)
        print(f"code: {code}")
        if "commands" in args.parts:
            print("\nRedis commands per request (MONITOR)")
            for name, commands in count_commands(url, base, stop_worker).items():
                print(f"  {name:<32}{len(commands):>3}  {' '.join(commands)}")
            start_worker()
        if "throughput" in args.parts:
            show_throughput(base, bare, args.seconds)
        if "sizes" in args.parts:
            show_sizes(url, base)
        if "spam" in args.parts:
            sent, longest, grown, kept = spam(url, base, args.spam_seconds)
            print(f"\nChanged choices for {args.spam_seconds} s: {sent} accepted, longest queue "
                  f"{longest}, Redis memory {grown / 1e6:+.2f} MB, the game's keys {kept} B")
    finally:
        for process in (*servers, *workers):
            process.terminate()
            process.wait()


def show_throughput(base: str, bare: str, seconds: int) -> None:
    print(f"\nThroughput, wrk -c32 {seconds}s each, gunicorn {' '.join(GUNICORN)}; "
          f"ratio to the bare endpoint measured just before, median of {ROUNDS}")
    rates = throughput(base, bare, seconds)
    for name, (rate, ratio) in rates.items():
        print(f"  {name:<36}{rate:>9.0f} req/s {ratio:>7.1%} of bare")
    half = rates["accepted action (changed choice)"][0] / 2
    p50, p99 = paced_p99(base, half, seconds)
    print(f"  accepted action at half its peak ({half:.0f}/s): p50 {p50:.1f} ms, p99 {p99:.1f} ms")


def show_sizes(url: str, base: str) -> None:
    print(f"\nBytes per {SIZED_PLAYERS}-player game (or the nearest a game seats) against easy "
          "bots (largest state in play; when finished: state, every key of the game; targets "
          "8192 and 16384)")
    for game_type, (largest, state, total) in sizes(url, base).items():
        print(f"  {game_type:<10} in play ≤ {largest:>6} B   finished: state {state:>6} B, "
              f"in Redis {total:>7} B")


if __name__ == "__main__":
    main()
