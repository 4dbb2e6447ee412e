"""A bot of your own, playing on Pöytä over HTTP: the whole integration in one file.

    python examples/http_bot.py --server http://127.0.0.1:8000 --create sixnimmt --players 4
    python examples/http_bot.py --server http://127.0.0.1:8000 --invite <code from an invite link>

It registers as a bot player, creates a game against Pöytä's own bots (or takes
a seat by invite code or game id), then follows its event stream (`GET
/api/v1/stream`, one connection for all its games) and at each turn plays one of
the legal actions the server lists, sending the view's `version` (a 409 means the game
moved on: it looks again) and an `Idempotency-Key` (a POST whose answer was lost is sent
again with the same key, and applies once; a 429 waits for its `Retry-After`). Replace
`choose` with your own strategy: everything the seat may know is in the view.
Needs only `requests`.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid

import requests


def choose(view: dict, rng: random.Random) -> dict:
    """Your strategy goes here. This one plays a random legal action."""
    return rng.choice(view["legal_actions"])


class Client:
    def __init__(self, server: str, name: str):
        self.api = server.rstrip("/") + "/api/v1"
        self.http = requests.Session()
        player = self._call("POST", "/players", json={"name": name, "bot": True})
        self.http.headers["Authorization"] = f"Bearer {player['token']}"

    def _call(self, method: str, path: str, **kwargs):
        if method == "POST":  # with an Idempotency-Key, retried after a timeout or a 429
            response = self.post(path, kwargs.get("json", {}))
        else:
            response = self.http.request(method, self.api + path, timeout=60, **kwargs)
        if response.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {response.status_code} "
                               f"{response.json().get('message')}")
        return response.json()

    def create(self, game_type: str, players: int, level: str, options: dict) -> dict:
        seats = ["human"] + [{"bot": level}] * (players - 1)
        return self._call("POST", "/games", json={
            "type": game_type, "players": players, "seats": seats, "options": options,
            "pace": "none"})

    def take_seat(self, invite: str | None, game_id: str | None) -> dict:
        if invite:
            return self._call("POST", f"/games/invites/{invite}")
        return self._call("POST", f"/games/{game_id}/join", json={})

    def play(self, game_id: str, rng: random.Random) -> dict:
        """Follow the player's one event stream (NDJSON) and act at each of this game's turns
        until it is over. A bot with many games would route the events by their `game`."""
        last_id = None
        while True:
            headers = {"Accept": "application/x-ndjson"}
            if last_id:  # after a dropped connection: resume without missing anything
                headers["Last-Event-ID"] = last_id
            try:
                with self.http.get(f"{self.api}/stream", headers=headers, stream=True,
                                   timeout=(10, 60)) as stream:  # a heartbeat comes every 20 s
                    if stream.status_code == 429:  # too many streams open: wait for one to go
                        time.sleep(int(stream.headers.get("Retry-After", "5")))
                        continue
                    stream.raise_for_status()
                    for line in stream.iter_lines():
                        event = json.loads(line)
                        last_id = event.get("id", last_id)
                        if event.get("game") != game_id:
                            continue
                        if event["type"] == "game_finished":
                            return self._call("GET", f"/games/{game_id}")
                        if event["type"] == "your_turn":
                            self.take_turn(game_id, rng)
            except (requests.ConnectionError, requests.Timeout):
                continue

    def take_turn(self, game_id: str, rng: random.Random) -> None:
        while True:
            view = self._call("GET", f"/games/{game_id}")
            # legal_actions may also offer to change a secret choice already made; act only
            # when the seat is to act.
            if view["status"] != "active" or view["your_seat"] not in view["to_act"]:
                return
            answer = self.post(f"/games/{game_id}/actions", {
                "action": choose(view, rng), "version": view["version"]})
            if answer.status_code == 200:
                return
            if answer.status_code != 409:  # 409 (`stale_version`): the game moved on; look again
                raise RuntimeError(answer.json()["message"])

    def post(self, path: str, body: dict) -> requests.Response:
        """POST with an Idempotency-Key: a retry after a timeout or a dropped connection sends
        the same key and body, so the server applies it once and answers the first answer
        again; a 429 (or 503) waits for its Retry-After and tries again with the same key."""
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        while True:
            try:
                answer = self.http.post(self.api + path, json=body, headers=headers, timeout=30)
            except (requests.ConnectionError, requests.Timeout):
                time.sleep(1)
                continue
            if answer.status_code not in (429, 503):
                return answer
            time.sleep(int(answer.headers.get("Retry-After", "1")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--name", default="Example bot")
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--create", metavar="TYPE", help="create a game of this type")
    start.add_argument("--invite", metavar="CODE", help="take the seat of this invite code")
    start.add_argument("--join", metavar="GAME_ID", help="take the first open seat of this game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="easy", help="level of the server's bots")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    client = Client(args.server, args.name)
    if args.create:
        options = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
        view = client.create(args.create, args.players, args.level, options)
    else:
        view = client.take_seat(args.invite, args.join)
    print(f"playing {view['title']} {view['id']} in seat {view['your_seat']}", flush=True)
    final = client.play(view["id"], random.Random(args.seed))
    outcome = final["outcome"]
    print(f"finished: scores {outcome['scores']}, winners {outcome['winners']}, "
          f"we were seat {final['your_seat']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
