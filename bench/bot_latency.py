"""The player's clock: from a human's move to the bots' replies in the human's view, under load.

    python -m bench.bot_latency [--games 50] [--seconds 240] [--think 2,6]
                                [--mix easy=35,medium=10,hard=5] [--workers "bots;bots-deep bots"]

Starts what `make run` starts, on a free port against an embedded Redis (or REDIS_URL):
gunicorn (`-c gunicorn.conf.py`), the notice worker and the bot workers of
`worker.layout.BOT_WORKERS` (`--workers` names others: the queues of each worker, workers
separated by `;`). Then keeps `--games` games going at once, each with one scripted human at
seat 0 and bots of one level (`--mix`; each level's games cycle through every game that has
the level, at its typical player count); a finished game is followed by a new one.
Each human long-polls its view as the PWA does (`?wait=25` with `If-None-Match`); when it is
to act it thinks for a random time in `--think` seconds, then posts a random legal action.

Samples: every accepted action after which a bot must act, timed from sending the POST to
- first reply: the first view that shows a bot's move made after it;
- all replies: the first view in which no bot is to act (the human's turn again, every bot's
  secret choice made, or the game over): what the player waits for.
Per level: p50 / p95 / max of both. "easy while hard" takes the easy samples whose wait
overlapped a hard game's wait for its bots. The first `--warmup` seconds are not counted (each
worker imports a game's bots at its first move). Also printed: how long each level's bots
thought per move (from /metrics) and the load average.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests
from prometheus_client.parser import text_string_to_metric_families
from redis import Redis
from rq import Worker

from api.devtools.embedded_cluster import free_port
from api.tables import Tables
from bench.redis_for_bench import bench_redis_url
from bench.starting import wait_until_ready
from rules import GAMES

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LONG_POLL = 25  # seconds, as the PWA waits
LEVELS = ("easy", "medium", "hard")


@dataclass
class Sample:
    level: str
    sent: float          # when the POST went out (monotonic)
    version: int         # the game's version after the action
    first: float | None = None
    settled: float | None = None


@dataclass
class Results:
    started: float
    warmup: float
    samples: list[Sample] = field(default_factory=list)
    refused: dict[int | str, int] = field(default_factory=dict)  # by status, or "connection"
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sample: Sample) -> None:
        if sample.sent - self.started >= self.warmup:
            with self.lock:
                self.samples.append(sample)

    def refusal(self, status: int | str) -> None:
        with self.lock:
            self.refused[status] = self.refused.get(status, 0) + 1


class Human:
    """Plays seat 0 of one game after another with bots of `level`, until `stop` is set."""

    def __init__(self, base: str, service: Tables, player: dict, token: str, table: tuple,
                 level: str, think: tuple[float, float], seed: int, results: Results,
                 stop: threading.Event):
        self.base, self.service, self.player = base, service, player
        self.table, self.level, self.think = table, level, think
        self.rng = random.Random(seed)
        self.results, self.stop = results, stop
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"

    def new_game(self) -> str:
        game_type, players = self.table
        seats = ["human"] + [{"bot": self.level}] * (players - 1)
        return self.service.seating.create_game(self.player, game_type, players, {}, seats, pace="none").id

    def get(self, game_id: str, etag: str | None) -> tuple[dict | None, str | None]:
        headers = {"If-None-Match": etag} if etag else {}
        params = {"wait": LONG_POLL} if etag else {}
        answer = self.session.get(f"{self.base}/api/v1/games/{game_id}", params=params,
                                  headers=headers, timeout=LONG_POLL + 30)
        if answer.status_code == 304:
            return None, etag
        if answer.status_code != 200:
            self.results.refusal(answer.status_code)
            time.sleep(float(answer.headers.get("Retry-After", 1)))
            return None, etag
        return answer.json(), answer.headers.get("ETag")

    def play(self) -> None:
        """Plays on after a broken connection (counted), as the PWA does."""
        while not self.stop.is_set():
            try:
                self.play_games()
            except requests.RequestException:
                if not self.stop.is_set():  # at the end the processes stop under open requests
                    self.results.refusal("connection")  # and a new game on a new connection
                    headers, self.session = self.session.headers, requests.Session()
                    self.session.headers.update(headers)

    def play_games(self) -> None:
        game_id, etag, waiting = self.new_game(), None, None
        # Humans start at different moments, as they would.
        self.stop.wait(self.rng.uniform(0, self.think[1]))
        while not self.stop.is_set():
            view, etag = self.get(game_id, etag)
            if view is None:
                continue
            seen = time.monotonic()
            if waiting is not None:
                if waiting.first is None and view["version"] > waiting.version:
                    waiting.first = seen - waiting.sent
                if view["status"] == "finished" or not bots_to_act(view):
                    waiting.settled = seen - waiting.sent
                    self.results.add(waiting)
                    waiting = None
            if view["status"] == "finished":
                game_id, etag = self.new_game(), None
                continue
            if waiting is None and 0 in view["to_act"] and view["legal_actions"]:
                if self.stop.wait(self.rng.uniform(*self.think)):
                    break
                sent = time.monotonic()
                answer = self.session.post(
                    f"{self.base}/api/v1/games/{game_id}/actions", timeout=60,
                    json={"action": self.rng.choice(view["legal_actions"]),
                          "version": view["version"]})
                if answer.status_code != 200:
                    self.results.refusal(answer.status_code)
                elif bots_to_act(answer.json()):
                    waiting = Sample(self.level, sent, answer.json()["version"])
                etag = None  # the next look is immediate: what changed since the POST


def bots_to_act(view: dict) -> bool:
    return any(view["seats"][seat]["bot"] for seat in view["to_act"])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<22}{0:>6}"
    return (f"{name:<22}{len(values):>6}{statistics.median(values):>8.3f}"
            f"{percentile(values, 0.95):>8.3f}{max(values):>8.3f}")


def overlaps(sample: Sample, others: list[Sample]) -> bool:
    end = sample.sent + sample.settled
    return any(other.sent < end and sample.sent < other.sent + other.settled for other in others)


def decision_seconds(base: str) -> dict[str, tuple[int, float]]:
    """Bot moves and mean seconds per move, by level, from /metrics (every process)."""
    sums: dict[str, list[float]] = {}
    text = requests.get(f"{base}/metrics", timeout=10).text
    for family in text_string_to_metric_families(text):
        if family.name != "poyta_bot_decision_seconds":
            continue
        for sample in family.samples:
            entry = sums.setdefault(sample.labels["level"], [0.0, 0.0])
            if sample.name.endswith("_sum"):
                entry[1] += sample.value
            elif sample.name.endswith("_count"):
                entry[0] += sample.value
    return {level: (int(count), total / count) for level, (count, total) in sums.items() if count}


def parse_mix(text: str) -> dict[str, int]:
    mix = {}
    for part in text.split(","):
        level, _, count = part.partition("=")
        mix[level.strip()] = int(count)
    return mix


def default_workers() -> str:
    from worker.layout import BOT_WORKERS
    return ";".join(" ".join(worker.queues) for worker in BOT_WORKERS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--mix", default="easy=35,medium=10,hard=5",
                        help="games per bot level (scaled to --games)")
    parser.add_argument("--think", default="2,6", help="a human's thinking time: min,max seconds")
    parser.add_argument("--seconds", type=float, default=240, help="measured time")
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--workers", default=None,
                        help="bot workers' queues, ';' between workers (default: as make run)")
    args = parser.parse_args()
    with bench_redis_url() as url:
        run(args, url)


def run(args, url: str) -> None:
    workers = [queues.split() for queues in (args.workers or default_workers()).split(";")]
    mix = parse_mix(args.mix)
    total = sum(mix.values())
    counts = {level: round(count * args.games / total) for level, count in mix.items()}
    think = tuple(float(x) for x in args.think.split(","))
    redis = Redis.from_url(url)
    redis.flushdb()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    logs = Path(tempfile.mkdtemp(prefix="bench-latency-"))
    metrics_dir = logs / "metrics"
    metrics_dir.mkdir()
    env = {**os.environ, "REDIS_URL": url, "HOST": "127.0.0.1", "PORT": str(port),
           "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "LOG_LEVEL": "WARNING"}
    argvs = [[str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "api.http:create_app()"],
             [sys.executable, "-m", "worker.run", "notices"]]
    argvs += [[sys.executable, "-m", "worker.run", *queues] for queues in workers]
    children = []
    for index, argv in enumerate(argvs):
        with open(logs / f"child-{index}.log", "wb") as log:
            children.append(subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log,
                                             stderr=subprocess.STDOUT))
    stop = threading.Event()
    try:
        wait_until_ready(lambda: requests.get(f"{base}/readyz", timeout=5).status_code == 200
                         and len(Worker.all(connection=redis)) >= len(argvs) - 1,
                         f"the processes did not start; logs in {logs}", pause=0.2)

        service = Tables(redis)
        results = Results(time.monotonic(), args.warmup)
        humans = []
        for level, count in counts.items():
            tables = [(name, game.typical_players) for name, game in GAMES.items()
                      if game.has_bot_level(level)]
            for index in range(count):
                player = service.players.create(f"{level} {index}")
                humans.append(Human(base, service, player, player.token,
                                    tables[index % len(tables)], level, think,
                                    seed=len(humans), results=results, stop=stop))
        threads = [threading.Thread(target=human.play, daemon=True) for human in humans]
        load_before = os.getloadavg()
        for thread in threads:
            thread.start()
        time.sleep(args.warmup + args.seconds)
        stop.set()
        load_after = os.getloadavg()
        report(args, workers, counts, think, results, decision_seconds(base), redis,
               load_before, load_after)
    finally:
        stop.set()
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(15)
            except subprocess.TimeoutExpired:
                child.kill()


def report(args, workers, counts, think, results: Results, decisions, redis: Redis,
           load_before, load_after) -> None:
    samples = list(results.samples)
    print(f"{args.games} games at once ({', '.join(f'{n} {level}' for level, n in counts.items())}),"
          f" think {think[0]:g}-{think[1]:g} s, {args.seconds:g} s measured after "
          f"{args.warmup:g} s; bot workers: {' | '.join(' '.join(q) for q in workers)}")
    print(f"load average {load_before[0]:.2f} at the start, {load_after[0]:.2f} at the end "
          f"(1 min), {load_after[1]:.2f} (5 min); {os.cpu_count()} cores")
    print(f"{'':<22}{'moves':>6}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    for level in LEVELS:
        mine = [s for s in samples if s.level == level]
        if not mine:
            continue
        print(line(f"{level} first reply", [s.first for s in mine if s.first is not None]))
        print(line(f"{level} all replies", [s.settled for s in mine]))
    hard = [s for s in samples if s.level == "hard"]
    easy_during = [s for s in samples if s.level == "easy" and overlaps(s, hard)]
    print(line("easy while hard", [s.settled for s in easy_during]))
    print("bot thinking per move (wall, every bot move since the start): " + ", ".join(
        f"{level} {decisions[level][1]:.3f} s ({decisions[level][0]} moves)"
        for level in LEVELS if level in decisions))
    if results.refused:
        print(f"refused answers: {results.refused}")


if __name__ == "__main__":
    main()
