"""A chaos soak of `make run`'s stack: bots and scripted humans play every game type while a
scheduler SIGKILLs and SIGSTOPs random API processes, workers, the supervisor's children and
Redis. Not in `make test`.

    nice -n 10 python -m bench.chaos --minutes 30 [--humans 6] [--bot-games 2] [--gap 6]

Starts its own Valkey (append-only file) and `python -m api.devtools.serve` on free ports (the
budgets lifted: every scripted player comes from one address). Each human thread plays game
after game, the types in turn, its seat against easy and medium bots, every move sent with the
version it was chosen at; each bots-only thread keeps a game going whose human resigned at
once, played out by bots. Every `--gap` seconds or so the scheduler picks a victim: a
gunicorn worker, the gunicorn master, an RQ worker, RQ's scheduler child, or Valkey, and
SIGKILLs it (Valkey is started again on its port and files after a second or two, the rest
the supervisor restarts) or SIGSTOPs it for 1-5 s. Each fault opens an outage window that
closes `RECOVERY_SECONDS` after it ends.

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
  count (a game rated twice or not at all shows as a difference).
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
import requests

from api.devtools.embedded_redis import start_embedded

ROOT = Path(__file__).resolve().parent.parent
RECOVERY_SECONDS = 15      # after a fault ends, errors are still the fault's
STALL_SECONDS = 60
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


class Stack:
    def __init__(self, folder: Path):
        self.folder = folder
        self.valkey_port = free_port()
        self.valkey = start_embedded(folder / "valkey", port=self.valkey_port)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{self.valkey_port}/0",
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

    def victims(self) -> dict[str, list[psutil.Process]]:
        """The processes a fault may hit, by kind."""
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
            found["valkey"].append(psutil.Process(self.valkey.pid))
        return found

    def restart_valkey(self) -> None:
        self.valkey = start_embedded(self.folder / "valkey", port=self.valkey_port)

    def close(self) -> None:
        self.serve.send_signal(signal.SIGTERM)
        try:
            self.serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.serve.kill()
        self.valkey.stop()


def inject_faults(stack: Stack, windows: Windows, until: float, gap: float,
                  rng: random.Random, tally: Counter, kinds: tuple[str, ...]) -> None:
    while time.monotonic() < until:
        time.sleep(rng.uniform(gap / 2, gap * 1.5))
        kind, victim = pick(stack, rng, kinds)
        if victim is None:
            continue
        start = time.monotonic()
        try:
            if rng.random() < 0.6:
                victim.send_signal(signal.SIGKILL)
                label = f"SIGKILL {kind}"
                if kind == "valkey":
                    time.sleep(rng.uniform(1, 2))
                    stack.restart_valkey()
            else:
                victim.send_signal(signal.SIGSTOP)
                label = f"SIGSTOP {kind}"
                time.sleep(rng.uniform(1, 5))
                victim.send_signal(signal.SIGCONT)
        except psutil.NoSuchProcess:
            continue
        tally[label] += 1
        windows.add(start, time.monotonic(), label)


VICTIMS = ("gunicorn worker", "gunicorn master", "rq worker", "rq scheduler", "valkey")


def pick(stack: Stack, rng: random.Random,
         kinds: tuple[str, ...]) -> tuple[str, psutil.Process | None]:
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
    for player in players:
        for game in player.games:
            view = http.get(f"{base}/api/v1/games/{game.id}", headers=game.headers,
                            timeout=CALL_TIMEOUT).json()
            if view["status"] != "finished":
                unfinished += 1
                if (view.get("your_seat") not in view.get("to_act", ())
                        and time.monotonic() - stall_from > STALL_SECONDS):
                    stalled += 1
                continue
            finished[(player.id, game.type)] += 1
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
            "rated_wrong": rated_wrong}


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
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="bench-chaos-"))
    stack = Stack(folder)
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
                ("finished games not rated exactly once", result["rated_wrong"])]
        width = max(len(name) for name, _ in rows)
        print(f"\n| {'check'.ljust(width)} | count |\n|{'-' * (width + 2)}|-------|")
        for name, count in rows:
            print(f"| {name.ljust(width)} | {count:5d} |")
        for error in outside[:10]:
            print("  5xx outside a window:", error)
        failed = any(count for _, count in rows)
    finally:
        stack.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
