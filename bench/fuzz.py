"""Authenticated fuzzing: schemathesis over the served spec with a valid player's token and the
links that let it play (a game made, then acted on, talked at, resigned), bounded in time.

    nice -n 10 python -m bench.fuzz [--minutes 5] [--workers 2]

Serves the app in this process (a threaded werkzeug server, the budgets lifted, a real RQ
worker beside it on its own Valkey) behind a counting layer, and runs `schemathesis run` on
the spec of `with_game_links` with `Authorization: Bearer fuzz`. The counting layer swaps that
placeholder for the token of a real player, a fresh player every `GAMES_A_PLAYER` games made
(a player may hold 30 open games) and whenever the token stopped working (the fuzzer signed
its device out), so every call that carries it is authenticated; calls
without it are schemathesis's own cases of missing or broken authentication. Prints the
requests, the authenticated share, the answers by status and every 5xx with its route.
`tests/api/test_contract_schemathesis.py` runs a small slice of the same on every `make test`.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from werkzeug.serving import WSGIRequestHandler, make_server

from api.http import create_app
from bench.redis_for_bench import bench_redis_url

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = "Bearer fuzz"
GAMES_A_PLAYER = 25
# Games the fuzzer makes: POST /games sends one of these (random bodies are refused, 422, and
# would leave the operations on a game nothing to act on).
GAME_BODIES = [
    {"type": "sixnimmt", "players": 2, "seats": ["human", {"bot": "easy"}]},
    {"type": "sixtysix", "players": 2, "seats": ["human", {"bot": "easy"}], "pace": "none"},
    {"type": "sticheln", "players": 3, "seats": ["human", "human", {"bot": "medium"}]},
    {"type": "hattrick", "players": 4, "seats": ["human", {"bot": "easy"}, {"bot": "easy"},
                                                 {"bot": "easy"}], "public": True},
]
# 422 answers valid data that breaks a rule no schema states (seats must number the players).
EXPECTED = ["2xx", "3xx", "401", "403", "404", "409", "412", "422", "429"]
LIFTED = {name: "10000000/minute" for name in (
    "act", "create_player", "create_game", "create_game_per_address", "guess_code",
    "guess_code_per_player", "friends", "passkey_signin", "passkey_registration", "clock",
    "rename", "webhook", "signin_code", "read_record", "read_replay", "read_events",
    "read_history_per_address", "read_lobby", "read_inbox", "read_spec", "long_poll")}


def with_game_links(spec: dict) -> dict:
    """The spec with what a fuzzer needs to play: POST /games sends one of GAME_BODIES, and
    its 201 links the new game's id to every operation on a game."""
    spec = copy.deepcopy(spec)
    create = spec["paths"]["/api/v1/games"]["post"]
    create["requestBody"]["content"]["application/json"]["schema"] = {"enum": GAME_BODIES}
    links = {}
    for path, operations in spec["paths"].items():
        if "{game_id}" not in path:
            continue
        for operation in operations.values():
            if isinstance(operation, dict) and "operationId" in operation:
                links[operation["operationId"]] = {
                    "operationId": operation["operationId"],
                    "parameters": {"game_id": "$response.body#/id"}}
    create["responses"]["201"]["links"] = links
    return spec


class Counting:
    """WSGI layer: swaps the placeholder token for a real player's and counts the answers."""

    def __init__(self, app):
        self.app, self.client = app, app.test_client()
        self.lock = threading.Lock()
        self.statuses, self.server_errors = Counter(), Counter()
        self.requests = self.authenticated = self.games = self.signed_out = 0
        self.token = self.new_token()

    def new_token(self) -> str:
        answer = self.client.post("/api/v1/players", json={"name": "Fuzz"})
        return f"Bearer {answer.get_json()['token']}"

    def __call__(self, environ, start_response):
        carries = environ.get("HTTP_AUTHORIZATION") == PLACEHOLDER
        if carries:
            environ["HTTP_AUTHORIZATION"] = self.token
        creates = environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"] == "/api/v1/games"

        def counted(status, headers, exc_info=None):
            code = int(status.split()[0])
            with self.lock:
                self.requests += 1
                self.authenticated += carries
                self.statuses[code] += 1
                if code >= 500:
                    self.server_errors[f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']} "
                                       f"{code}"] += 1
                if carries and creates and code == 201:
                    self.games += 1
                    if self.games % GAMES_A_PLAYER == 0:
                        self.token = self.new_token()
                elif carries and code == 401:  # the fuzzer signed the player's device out
                    self.token = self.new_token()
                    self.signed_out += 1
            return start_response(status, headers, exc_info)
        return self.app(environ, counted)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-fuzz-"))
    with bench_redis_url() as redis_url:
        env = {"REDIS_URL": redis_url}
        os.environ.update(POYTA_RATE_LIMITS=json.dumps(LIFTED), LOG_LEVEL="WARNING")
        app = create_app(env)
        counting = Counting(app)
        WSGIRequestHandler.log_request = lambda *args, **kwargs: None  # the app logs its own
        server = make_server("127.0.0.1", 0, counting, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        worker = subprocess.Popen(
            [sys.executable, "-m", "worker.run", "bots", "bots-deep", "bots-heavy", "notices",
             "webhooks"], cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        spec = app.test_client().get("/api/openapi.json").get_json()
        (folder / "spec.json").write_text(json.dumps(with_game_links(spec)))
        (folder / "schemathesis.toml").write_text(
            "[checks.positive_data_acceptance]\n"
            f"expected-statuses = {json.dumps(EXPECTED)}\n")
        started = time.monotonic()
        try:
            run = subprocess.run(
                [str(Path(sys.executable).parent / "schemathesis"),
                 "--config-file", str(folder / "schemathesis.toml"), "run",
                 str(folder / "spec.json"), "--url", f"http://127.0.0.1:{server.port}",
                 "-H", f"Authorization: {PLACEHOLDER}", "--workers", str(args.workers),
                 "--max-time", str(int(args.minutes * 60)), "--exclude-checks", "ignored_auth",
                 # A stream answers for as long as it is read: each would hold a worker for
                 # the whole time-out (the tests' slice covers them with a short heartbeat).
                 "--exclude-path-regex", "/stream$",
                 # Longer than the longest `wait` a long-poll may ask for (60 s).
                 "--continue-on-failure", "--request-timeout", "65", "--no-color"],
                cwd=folder, capture_output=True, text=True)
        finally:
            server.shutdown()
            worker.terminate()
            worker.wait(30)
        (folder / "schemathesis.out").write_text(run.stdout + run.stderr)
    took = time.monotonic() - started
    print(f"fuzz: {took / 60:.1f} min, {counting.requests} requests, "
          f"{counting.authenticated} with a valid token "
          f"({counting.authenticated / max(counting.requests, 1):.0%}), "
          f"{counting.games} games made; the token signed out {counting.signed_out} times")
    print(f"answers: {dict(sorted(counting.statuses.items()))}")
    print(f"5xx: {sum(counting.server_errors.values())} {dict(counting.server_errors)}")
    print(f"schemathesis's summary (all of it in {folder / 'schemathesis.out'}):")
    print("\n".join(run.stdout.strip().splitlines()[-25:]))


if __name__ == "__main__":
    main()
