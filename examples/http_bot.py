"""A bot of your own, playing on Pöytä over HTTP: the whole integration in one file.

    python examples/http_bot.py --server http://127.0.0.1:8000 --create sixnimmt --players 4
    python examples/http_bot.py --server http://127.0.0.1:8000 --invite <code from an invite link>

It registers as a bot player, creates a game against Pöytä's own bots (or takes
a seat by invite code or game id), then waits for its turn with long-polling
and plays one of the legal actions the server lists. Replace `choose` with
your own strategy: everything the seat may know is in the view.
Needs only `requests`.
"""
from __future__ import annotations

import argparse
import json
import random
import sys

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
        etag = None
        while True:
            # Long-poll: the server answers as soon as the game changes, or 304 after 25 s.
            headers = {"If-None-Match": etag} if etag else {}
            response = self.http.get(f"{self.api}/games/{game_id}", params={"wait": 25},
                                     headers=headers, timeout=60)
            if response.status_code == 304:
                continue
            response.raise_for_status()
            etag, view = response.headers.get("ETag"), response.json()
            if view["status"] == "finished":
                return view
            # legal_actions may also offer to change a secret choice already made; act only
            # when the seat is to act.
            if view["your_seat"] in view["to_act"]:
                answer = self.http.post(f"{self.api}/games/{game_id}/actions", timeout=60, json={
                    "action": choose(view, rng), "version": view["version"]})
                if answer.status_code not in (200, 409):  # 409: the game moved on; look again
                    raise RuntimeError(answer.json()["message"])
                etag = None


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
