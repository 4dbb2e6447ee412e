"""Scale-out under load, with faults: a Valkey Cluster, 2 API processes, 2 RQ workers.

    python -m bench.scale [--games 200] [--phase-seconds 15] [--store cluster|single]

Starts a 3-master Valkey Cluster for the game store and a standalone Valkey for the queue
(RQ does not run on a cluster), two API processes (gunicorn as `make run` runs it, one
process each, on ports of their own) and RQ workers, then:

1. API: scripted clients change a 6 nimmt! choice as fast as they can (every change is an
   accepted action) through one API process, then through both: actions/s and p95.
2. Games: at least 200 games of every type at once, each with one or two scripted
   humans (long-polling, playing a random legal card, through either API process) and
   bots of every cheap level. Bot moves/s with 1 worker, then with 2.
3. Faults: SIGKILL one API process and one worker midway; restart them; play on to the end.
4. Checks: every game finished; every card of every deal accounted for (the record's deals
   hold each card once and the seed plus the recorded actions replay to the recorded
   outcome); no accepted move lost (each human's accepted actions are in the record, in
   order); no 5xx and no refused connection except at a process while it was down.
5. Sizing figures: Redis bytes per active and per finished game, an API process's actions a
   second and the easy bots' time a move, put into `bench.sizing`'s table.
6. The logs of every process: tracebacks, ERROR lines and 500 answers (`bench.log_scan`).

With PostgreSQL (an embedded one, migrated; `--no-postgres` leaves it out) the finished games
go to the archive through the notice worker (which takes the archive queue), as `make run`
does.

Exits non-zero when a check fails. Run it with `nice -n 10` on a shared machine.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import requests
from prometheus_client import multiprocess
from prometheus_client.parser import text_string_to_metric_families
from redis import Redis
from redis.cluster import RedisCluster

from api.devtools.embedded_cluster import EmbeddedCluster, free_port
from api.devtools.embedded_postgres import EmbeddedPostgres
from api.devtools.embedded_redis import start_embedded
from api.storage import migrate
from bench import sizing
from bench.log_scan import merged, print_scan, scan_log
from bench.starting import wait_until_ready
from rules import GAMES
from worker.layout import BOT_WORKERS, NOTICES

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LONG_POLL_SECONDS = 10
RETURN_HOME_SECONDS = 10  # a client that moved to the other API process tries its own again
# Cheap levels keep a 2-core machine busy without hours of search; medium thinks briefly.
MEDIUM_SECONDS = "0.05"


def tables() -> list[tuple[str, dict, list]]:
    """(type, options, seats) per game: its quick game at its fewest players, one or two
    scripted humans (two at every other table that seats three or more) and cheap bots (easy;
    the first one medium at every fourth table, when its game has medium)."""
    made = []
    for index, game in enumerate(GAMES.values()):
        humans = 2 if index % 2 == 0 and game.min_players > 2 else 1
        bots = [{"bot": "easy"}] * (game.min_players - humans)
        if index % 4 == 1 and game.has_bot_level("medium"):
            bots[0] = {"bot": "medium"}
        made.append((game.name, game.quick_options, ["human"] * humans + bots))
    return made


TABLES = tables()


# --- processes ---------------------------------------------------------------------------------
class Child:
    """A process group we may SIGKILL and start again (gunicorn dies with its workers)."""

    def __init__(self, name: str, argv: list[str], env: dict, logs: Path, health: str | None = None):
        self.name, self.argv, self.env, self.health = name, argv, env, health
        self.log = open(logs / f"{name}.log", "ab")
        self.popen: subprocess.Popen | None = None

    def start(self) -> float:
        """Start; returns when it answers (for an API process) or at once."""
        self.popen = subprocess.Popen(self.argv, env=self.env, cwd=ROOT, start_new_session=True,
                                      stdout=self.log, stderr=self.log)
        if self.health:
            wait_until_ready(lambda: requests.get(self.health, timeout=2).ok,
                             f"{self.name} did not start")
        return time.monotonic()

    def kill(self) -> float:
        group = [self.popen.pid, *(child.pid for child in psutil.Process(self.popen.pid).children())]
        os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait()
        for pid in group:  # what gunicorn's master would do for a worker, had it survived
            multiprocess.mark_process_dead(pid, self.env["PROMETHEUS_MULTIPROC_DIR"])
        return time.monotonic()

    def stop(self) -> None:
        if self.popen and self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGINT)  # gunicorn: quick shutdown; RQ: warm
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


# --- what the clients saw ------------------------------------------------------------------------
@dataclass
class Outcomes:
    """Every answer, kept for the checks; thread-safe by a lock."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    actions: list[tuple[float, float]] = field(default_factory=list)  # (when, seconds) accepted
    failures: list[tuple[float, int, str]] = field(default_factory=list)  # (sent, api, what)
    versions: dict[str, int] = field(default_factory=dict)  # game id -> latest version seen

    def accepted(self, started: float, took: float) -> None:
        with self.lock:
            self.actions.append((started, took))

    def failed(self, api: int, what: str, sent: float) -> None:
        """`sent`: when the request left; a starved client thread may see its failure late."""
        with self.lock:
            self.failures.append((sent, api, what))

    def saw(self, game_id: str, version: int) -> None:
        with self.lock:
            self.versions[game_id] = max(version, self.versions.get(game_id, 0))


class Client:
    """One scripted player: an HTTP session on one API process, moving to the other when its
    process does not answer (as a load balancer would)."""

    def __init__(self, bench: "Bench", api: int, name: str):
        self.bench, self.api, self.home = bench, api, api
        self.away_since = 0.0
        self.session = requests.Session()
        self.retries = 0
        self.headers = {}
        self.headers["Authorization"] = "Bearer " + self.call(
            "POST", "/api/v1/players", json={"name": name}).json()["token"]

    def call(self, method: str, path: str, headers: dict | None = None,
             **options) -> requests.Response:
        headers = {**self.headers, **(headers or {})}
        while True:
            apis = self.bench.apis_in_use
            if time.monotonic() - self.away_since > RETURN_HOME_SECONDS:
                self.api = self.home  # as a load balancer tries a process again after a while
            self.api %= len(apis)
            sent = time.monotonic()
            try:
                answer = self.session.request(method, apis[self.api] + path,
                                              headers=headers, timeout=60, **options)
            except requests.ConnectionError as error:
                # Refused: nobody listens. Otherwise the connection broke, often a keep-alive
                # connection the server had just closed as idle; the request may or may not
                # have been served.
                kind = "refused" if "NewConnectionError" in repr(error) else "broken"
                self.bench.outcomes.failed(self.api, f"{method} {path}: connection {kind}", sent)
            else:
                if answer.status_code < 500:
                    return answer
                self.bench.outcomes.failed(self.api, f"{method} {path}: {answer.status_code}", sent)
            self.session = requests.Session()
            self.retries += 1
            self.api += 1
            self.away_since = time.monotonic()
            time.sleep(0.2)


class Human:
    """Plays its seat to the end: long-poll, then a random legal action when it is to act."""

    def __init__(self, bench: "Bench", client: Client, game_id: str, seed: int):
        self.bench, self.client, self.game_id = bench, client, game_id
        self.rng = random.Random(seed)
        self.accepted: list[dict] = []
        self.ambiguous = 0  # actions whose answer was lost with a killed process
        self.final: dict | None = None

    def play(self) -> None:
        etag = None
        while True:
            headers = {"If-None-Match": etag} if etag else {}
            answer = self.client.call("GET", f"/api/v1/games/{self.game_id}",
                                      params={"wait": LONG_POLL_SECONDS}, headers=headers)
            if answer.status_code == 304:
                continue
            view, etag = answer.json(), answer.headers.get("ETag")
            self.bench.outcomes.saw(self.game_id, view["version"])
            if view["status"] == "finished":
                self.final = view
                return
            if view["your_seat"] in view["to_act"] and view["legal_actions"]:
                self.act(view)
                etag = None

    def act(self, view: dict) -> None:
        action = self.rng.choice(view["legal_actions"])
        retries_before = self.client.retries
        started = time.monotonic()
        answer = self.client.call("POST", f"/api/v1/games/{self.game_id}/actions",
                                  json={"action": action, "version": view["version"]})
        took = time.monotonic() - started
        if answer.status_code == 200:
            self.accepted.append(action)
            self.bench.outcomes.accepted(started, took)
        elif self.client.retries > retries_before:
            self.ambiguous += 1  # sent, then retried: the first try may have been applied


# --- the bench -------------------------------------------------------------------------------------
class Bench:
    def __init__(self, args):
        self.args = args
        self.outcomes = Outcomes()
        self.logs = Path(tempfile.mkdtemp(prefix="bench-scale-"))
        self.children: list[Child] = []
        self.apis: list[str] = []
        self.apis_in_use: list[str] = []
        self.down: list[tuple[int, float, float]] = []  # (api, from, to)

    # setup
    def start(self) -> None:
        args = self.args
        if args.store == "cluster":
            self.cluster = EmbeddedCluster(masters=3, data_dir=self.logs / "cluster").start()
            store_url, cluster = self.cluster.url, "1"
        self.queue_server = start_embedded(self.logs / "queue")
        queue_url = f"redis://{self.queue_server.host}:{self.queue_server.port}/0"
        if args.store == "single":
            store_url, cluster = queue_url, ""
        self.store = (RedisCluster.from_url(store_url) if cluster else Redis.from_url(store_url))
        self.postgres = None
        if args.postgres:
            self.postgres = EmbeddedPostgres(self.logs / "postgres").start()
            migrate.upgrade(self.postgres.url)
        metrics_dir = self.logs / "metrics"
        metrics_dir.mkdir()
        env = {**os.environ, "REDIS_URL": store_url, "REDIS_CLUSTER": cluster,
               "RQ_REDIS_URL": queue_url, "POYTA_MEDIUM_SECONDS": MEDIUM_SECONDS,
               "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir), "LOG_LEVEL": "WARNING",
               **({"DATABASE_URL": self.postgres.url} if self.postgres else {}),
               # Every scripted player comes from this one address and acts far faster than
               # a person: the budgets would answer with 429 and the bench measure the limiter.
               "POYTA_RATE_LIMITS": json.dumps({name: "10000000/minute" for name in (
                   "act", "create_player", "create_game", "create_game_per_address",
                   "guess_code", "guess_code_per_player", "long_poll")})}
        for index in range(2):
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            self.apis.append(base)
            self.children.append(Child(
                f"api-{index + 1}",
                [str(BIN / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--worker-class", "gevent",
                 "--workers", "1", "--worker-connections", "2000", "api.http:create_app()"],
                env, self.logs, health=f"{base}/healthz"))
        for index, worker in enumerate(BOT_WORKERS):  # as `make run` runs them
            self.children.append(Child(
                f"worker-{index + 1}", worker.argv(sys.executable), env,
                self.logs))
        self.api1, self.api2, self.worker1, self.worker2 = self.children
        if self.postgres:
            self.children.append(Child("notices", NOTICES.argv(sys.executable), env, self.logs))
            self.children[-1].start()

    def stop(self) -> None:
        for child in self.children:
            child.stop()
        self.queue_server.stop()
        if self.args.store == "cluster":
            self.cluster.stop()
        if self.postgres:
            self.postgres.stop("immediate")

    def store_bytes(self) -> int:
        if isinstance(self.store, RedisCluster):
            infos = self.store.info("memory", target_nodes=RedisCluster.PRIMARIES).values()
            return sum(info["used_memory"] for info in infos)
        return self.store.info("memory")["used_memory"]

    # 1. API processes
    def api_throughput(self, apis: list[str], seconds: float, clients: int) -> dict:
        self.apis_in_use = apis
        stop_at = time.monotonic() + seconds
        timings: list[float] = []
        lock = threading.Lock()

        def change_choice_forever(index: int) -> None:
            anna, bert = Client(self, index, "Anna"), Client(self, index, "Bert")
            game = anna.call("POST", "/api/v1/games", json={
                "type": "sixnimmt", "players": 2, "seats": ["human", "human"]}).json()
            bert.call("POST", f"/api/v1/games/invites/{game['invites'][0]['code']}")
            cards = game["hand"][:2]
            mine = []
            for card in itertools.cycle(cards):
                if time.monotonic() > stop_at:
                    break
                started = time.monotonic()
                answer = anna.call("POST", f"/api/v1/games/{game['id']}/actions",
                                   json={"action": {"type": "play", "card": card}})
                if answer.status_code == 200:
                    mine.append(time.monotonic() - started)
            with lock:
                timings.extend(mine)

        threads = [threading.Thread(target=change_choice_forever, args=(i,)) for i in range(clients)]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        return {"actions_per_s": len(timings) / elapsed, "p95_ms": percentile(timings, 0.95) * 1000,
                "actions": len(timings)}

    # 2.-3. games
    def start_games(self, count: int) -> list[tuple[str, list[Human], str]]:
        self.apis_in_use = self.apis
        games = []
        creators = []

        def create(index: int) -> None:
            type_name, options, seats = TABLES[index % len(TABLES)]
            humans_wanted = seats.count("human")
            clients = [Client(self, index + seat, f"P{index}-{seat}") for seat in range(humans_wanted)]
            view = clients[0].call("POST", "/api/v1/games", json={
                "type": type_name, "players": len(seats), "options": options, "seats": seats,
                "pace": "none" if humans_wanted == 1 else "1d"}).json()
            for client, invite in zip(clients[1:], view["invites"]):
                client.call("POST", f"/api/v1/games/invites/{invite['code']}")
            humans = [Human(self, client, view["id"], seed=index * 10 + seat)
                      for seat, client in enumerate(clients)]
            creators.append((view["id"], humans, type_name))

        threads = [threading.Thread(target=create, args=(i,)) for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        games.extend(creators)
        self.players = [threading.Thread(target=human.play, daemon=True)
                        for _, humans, _ in games for human in humans]
        for player in self.players:
            player.start()
        return games

    def rates(self, seconds: float) -> dict:
        """Bot moves (counted by the workers' metrics) and human actions per second."""
        bots, humans = self.bot_moves(), len(self.outcomes.actions)
        began = time.monotonic()
        time.sleep(seconds)
        elapsed = time.monotonic() - began
        recent = [took for when, took in self.outcomes.actions if when >= began]
        return {"bot_moves_per_s": (self.bot_moves() - bots) / elapsed,
                "human_actions_per_s": (len(self.outcomes.actions) - humans) / elapsed,
                "p95_ms": percentile(recent, 0.95) * 1000}

    def bot_moves(self) -> float:
        return sum(count for count, _ in self.bot_decision_seconds().values())

    def bot_decision_seconds(self) -> dict[str, tuple[float, float]]:
        """{level: (moves, mean seconds)} from /metrics, summed over every process."""
        sums, counts = {}, {}
        text = requests.get(f"{self.apis[1]}/metrics", timeout=10).text
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                level = sample.labels.get("level")
                if sample.name == "poyta_bot_decision_seconds_sum":
                    sums[level] = sums.get(level, 0) + sample.value
                elif sample.name == "poyta_bot_decision_seconds_count":
                    counts[level] = counts.get(level, 0) + sample.value
        return {level: (counts[level], sums[level] / counts[level])
                for level in counts if counts[level]}

    def kill_and_restart(self, pause: float) -> None:
        killed = self.api1.kill()
        self.worker1.kill()
        print(f"SIGKILL api-1 and worker-1; restarting them in {pause:.0f} s", flush=True)
        time.sleep(pause)
        self.worker1.start()
        ready = self.api1.start()
        self.down.append((0, killed, ready))
        print(f"api-1 answers again after {ready - killed:.1f} s", flush=True)

    # 4. checks
    def check(self, games: list[tuple[str, list[Human], str]]) -> list[str]:
        problems = []
        for game_id, humans, type_name in games:
            if any(human.final is None for human in humans):
                problems.append(f"{type_name} {game_id} did not finish (stuck at version "
                                f"{self.outcomes.versions.get(game_id)})")
                continue
            record = humans[0].client.call("GET", f"/api/v1/games/{game_id}/record").json()
            problems += check_record(GAMES[type_name], record)
            for human in humans:
                seat = human.final["your_seat"]
                played = [entry["action"] for entry in record["actions"] if entry["seat"] == seat]
                if not is_subsequence(human.accepted, played):
                    problems.append(f"{type_name} {game_id} seat {seat}: an accepted action is "
                                    f"missing from the record")
                elif len(played) - len(human.accepted) > human.ambiguous:
                    problems.append(f"{type_name} {game_id} seat {seat}: the record has moves "
                                    f"the player never had accepted")
        for when, api, what in self.outcomes.failures:
            if "connection broken" in what:
                continue  # no answer at all, counted apart: not a 5xx, and retried elsewhere
            if not any(api == down_api and start - 0.5 <= when <= end + 0.5
                       for down_api, start, end in self.down):
                problems.append(f"api-{api + 1} failed while up: {what}")
        return problems

    def failure_counts(self) -> dict[str, int]:
        """How the failed requests failed, and whether the process was down then."""
        counts: dict[str, int] = {}
        for when, api, what in self.outcomes.failures:
            down = any(api == down_api and start - 0.5 <= when <= end + 0.5
                       for down_api, start, end in self.down)
            kind = what.rsplit(": ", 1)[1] + (" (process down)" if down else " (process up)")
            counts[kind] = counts.get(kind, 0) + 1
        return counts


def check_record(game, record: dict) -> list[str]:
    """Every card of every deal once, and the seed plus the actions replay to the outcome."""
    problems = []
    for number, deal in enumerate(record["deals"], start=1):
        cards = [json.dumps(card) for key, value in deal.items()
                 if key not in ("dealer", "scores") for card in flatten(value)]
        if len(cards) != len(set(cards)):
            problems.append(f"{record['id']}: deal {number} holds a card twice")
    state = game.new_game(record["players"], record["options"], record["seed"], recording=True)
    for entry in record["actions"]:
        game.apply_action(state, entry["seat"], entry["action"])
    if game.outcome(state) != record["outcome"]:
        problems.append(f"{record['id']}: the recorded actions do not replay to the outcome")
    if game.record(state)["deals"] != record["deals"]:
        problems.append(f"{record['id']}: the recorded deals are not the seed's")
    return problems


def flatten(value):
    if isinstance(value, list):
        for item in value:
            yield from flatten(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from flatten(item)
    elif value is not None:
        yield value


def is_subsequence(short: list, long: list) -> bool:
    remaining = iter(long)
    return all(any(item == candidate for candidate in remaining) for item in short)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ratio(after: float, before: float) -> str:
    return f"{after / before:.2f}x" if before else "n/a"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--phase-seconds", type=float, default=15)
    parser.add_argument("--clients", type=int, default=16, help="clients of the API phase")
    parser.add_argument("--store", choices=("cluster", "single"), default="cluster")
    parser.add_argument("--timeout", type=float, default=900, help="seconds for the games to end")
    parser.add_argument("--no-postgres", dest="postgres", action="store_false",
                        help="Redis alone: no archive")
    args = parser.parse_args()
    if args.games < len(TABLES):
        parser.error(f"--games must be at least {len(TABLES)}")
    bench = Bench(args)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the children on the way out
    try:
        bench.start()
        code = run(bench, args)
    finally:
        bench.stop()
    # After the processes stopped: what they log on the way out counts too.
    print_scan(f"the logs ({bench.logs}/*.log)",
               merged([scan_log(path) for path in sorted(bench.logs.glob("*.log"))]))
    return code


def run(bench: Bench, args) -> int:
    bench.api1.start()
    bench.worker1.start()
    print(f"store: {args.store}; logs in {bench.logs}", flush=True)

    one_api = bench.api_throughput(bench.apis[:1], args.phase_seconds, args.clients)
    bench.api2.start()
    two_apis = bench.api_throughput(bench.apis, args.phase_seconds, args.clients)
    print(f"API, changing a 6 nimmt! choice ({args.clients} clients):\n"
          f"  1 process : {one_api['actions_per_s']:7.1f} actions/s, p95 {one_api['p95_ms']:.0f} ms\n"
          f"  2 processes: {two_apis['actions_per_s']:7.1f} actions/s, p95 {two_apis['p95_ms']:.0f} ms"
          f"  -> {ratio(two_apis['actions_per_s'], one_api['actions_per_s'])} actions/s", flush=True)

    empty = bench.store_bytes()
    started = time.monotonic()
    games = bench.start_games(args.games)
    print(f"{len(games)} games started in {time.monotonic() - started:.1f} s "
          f"({sum(len(h) for _, h, _ in games)} scripted humans, long-polling)", flush=True)
    one_worker = bench.rates(args.phase_seconds)
    active_bytes = (bench.store_bytes() - empty) / len(games)
    bench.worker2.start()
    two_workers = bench.rates(args.phase_seconds)
    print(f"Games, bot moves through RQ workers:\n"
          f"  1 worker : {one_worker['bot_moves_per_s']:6.1f} bot moves/s, "
          f"{one_worker['human_actions_per_s']:6.1f} human actions/s, p95 {one_worker['p95_ms']:.0f} ms\n"
          f"  2 workers: {two_workers['bot_moves_per_s']:6.1f} bot moves/s, "
          f"{two_workers['human_actions_per_s']:6.1f} human actions/s, p95 {two_workers['p95_ms']:.0f} ms"
          f"  -> {ratio(two_workers['bot_moves_per_s'], one_worker['bot_moves_per_s'])} bot moves/s",
          flush=True)

    bench.kill_and_restart(pause=3)
    deadline = time.monotonic() + args.timeout
    for player in bench.players:
        player.join(timeout=max(0.0, deadline - time.monotonic()))
    finished_bytes = (bench.store_bytes() - empty) / len(games)
    print(f"all games over {time.monotonic() - started:.0f} s after they started", flush=True)
    print(f"Redis bytes per game (players and inboxes included): active {active_bytes:,.0f}, "
          f"finished {finished_bytes:,.0f}", flush=True)

    decisions = bench.bot_decision_seconds()
    for level, (count, mean) in sorted(decisions.items()):
        print(f"bot decision time, {level}: {mean * 1000:.1f} ms a move over {count:.0f} moves")
    # This run's own figures in place of the recorded ones (bench/sizing.py MEASURED). The
    # finished games are still in their hot window (archived or not) when the bench weighs them.
    measured = {"redis_bytes_in_play": active_bytes, "redis_bytes_hot": finished_bytes,
                "actions_per_core": one_api["actions_per_s"]}
    if "easy" in decisions:
        measured["bot_cpu.easy"] = decisions["easy"][1]
    print("Sizing (bench/sizing.py: its measured figures, with this run's in place of the "
          "recorded ones, and its assumptions):")
    for line in sizing.table([10_000, 100_000, 1_000_000], sizing.figures(measured)):
        print(line)
    print(sizing.fit(1_000_000, sizing.figures(measured), 150))

    problems = bench.check(games)
    moves = sum(len(human.accepted) for _, humans, _ in games for human in humans)
    print(f"failed requests, each retried: {bench.failure_counts() or 'none'}")
    print(f"checks passed: {len(games)} games finished, every card accounted for, "
          f"{moves} accepted human actions all in the records, no 5xx or refused connection "
          f"while a process was up" if not problems else f"checks FAILED ({len(problems)}):",
          flush=True)
    for problem in problems[:30]:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
